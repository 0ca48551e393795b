"""`Dataset.concatenate`: one dataset's elements, then another's."""

from .. import structure
from ..dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset


class ConcatenateDataset(Dataset):
    _stage = "concatenate"
    _spec_from_inputs = True  # made from its inputs' specs (see batch._known_spec)

    def __init__(self, first, second):
        if not isinstance(second, Dataset):
            raise TypeError(f"concatenate takes a Dataset, got {type(second).__name__}")
        self._first, self._second = first, second
        self._inputs = (first, second)
        # TensorFlow refuses incompatible inputs when the dataset is made, not when it is read
        # (read through the property, so the spec found here is the one kept).
        self.element_spec  # noqa: B018

    def _make_iterator(self):
        yield from self._first._iterator()
        yield from self._second._iterator()

    def _cardinality(self):
        sizes = (self._first._cardinality(), self._second._cardinality())
        if INFINITE_CARDINALITY in sizes:
            return INFINITE_CARDINALITY
        if UNKNOWN_CARDINALITY in sizes:
            return UNKNOWN_CARDINALITY
        return sum(sizes)

    def _element_spec(self):
        first, second = self._first.element_spec, self._second.element_spec
        try:
            return structure.map_structure(lambda a, b: _common(a, b), first, second)
        except ValueError:
            raise TypeError(f"concatenate: the datasets' elements have different structures: "
                            f"{first} vs {second}; map one of them to the other's structure "
                            "first") from None


def _common(first, second):
    if type(first) is not type(second) or first.dtype != second.dtype:
        raise TypeError(f"concatenate: incompatible dataset elements: {first} vs {second}; "
                        "cast one of them first, e.g. .map(lambda x: fl.cast(x, "
                        f"{getattr(first.dtype, 'name', first.dtype)!r}))")
    return first.most_specific_common(second)
