"""`Dataset.zip`: elements of several datasets side by side, until the shortest ends."""

from .. import structure
from ..dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset


class ZipDataset(Dataset):
    _stage = "zip"
    _spec_from_inputs = True  # made from its inputs' specs (see batch._known_spec)

    def __init__(self, datasets):
        for leaf in structure.flatten(datasets):
            if isinstance(leaf, list):
                raise TypeError("zip takes a (nested) tuple or dict of datasets, not a list: "
                                "write Dataset.zip((a, b)) or Dataset.zip(a, b)")
            if not isinstance(leaf, Dataset):
                raise TypeError(f"zip takes datasets, got {type(leaf).__name__}")
        self._datasets = datasets
        self._inputs = tuple(structure.flatten(datasets))

    def _make_iterator(self):
        iterators = [dataset._iterator() for dataset in self._inputs]
        if type(self._datasets) is tuple and all(isinstance(d, Dataset) for d in self._datasets):
            return zip(*iterators)  # a flat tuple of datasets: the rows are the elements
        return (structure.pack_like(self._datasets, row) for row in zip(*iterators))

    def _cardinality(self):
        result = INFINITE_CARDINALITY
        for dataset in self._inputs:
            size = dataset._cardinality()
            if size == UNKNOWN_CARDINALITY:
                return UNKNOWN_CARDINALITY
            if size != INFINITE_CARDINALITY and (result == INFINITE_CARDINALITY or size < result):
                result = size
        return result

    def _element_spec(self):
        return structure.map_structure(lambda dataset: dataset.element_spec, self._datasets)
