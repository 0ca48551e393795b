"""`Dataset.from_tensors` (one element) and `Dataset.from_tensor_slices` (one per row)."""

from ...errors import InvalidArgumentError
from .. import structure
from ..dataset import Dataset
from ..spec import spec_of, unbatched_spec


class TensorsDataset(Dataset):
    _stage = "from_tensors"

    def __init__(self, element):
        self._element = structure.to_element(element)

    def _make_iterator(self):
        return iter((self._element,))

    def _cardinality(self):
        return 1

    def _element_spec(self):
        return spec_of(self._element)


class TensorSlicesDataset(Dataset):
    _stage = "from_tensor_slices"

    def __init__(self, element):
        self._element = structure.to_element(element)
        pairs = structure.flatten_with_paths(self._element)
        sizes = {}
        for path, leaf in pairs:
            shape = structure.leaf_shape(leaf)
            if not shape:
                raise InvalidArgumentError(
                    f"from_tensor_slices: {structure.path_name(path)} is a scalar; every "
                    "component needs a first dimension to slice along")
            sizes[path] = shape[0]
        if len(set(sizes.values())) > 1:
            described = ", ".join(f"{structure.path_name(path)} has {size}"
                                  for path, size in sizes.items())
            raise InvalidArgumentError(
                "from_tensor_slices: all components must have the same size in their first "
                f"dimension, but {described}")
        self._leaves = [leaf for _, leaf in pairs]
        self._size = next(iter(sizes.values()))

    def _make_iterator(self):
        element, leaves = self._element, self._leaves
        if not structure.is_structure(element):
            return iter(element)
        if type(element) is tuple and all(not structure.is_structure(item) for item in element):
            return zip(*leaves)
        return (structure.pack_like(element, row) for row in zip(*leaves))

    def _cardinality(self):
        return self._size

    def _element_spec(self):
        return unbatched_spec(spec_of(self._element))
