"""`Dataset.window`: windows of elements, each one a small dataset."""

import itertools

from .. import structure
from ..dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset, UnaryDataset
from ..spec import spec_of


class ListDataset(Dataset):
    """A dataset over a Python list of elements already in memory."""

    _stage = "window"

    def __init__(self, elements):
        self._elements = list(elements)

    def _make_iterator(self):
        return iter(self._elements)

    def _cardinality(self):
        return len(self._elements)

    def _element_spec(self):
        return spec_of(self._elements[0]) if self._elements else super()._element_spec()


def as_window(elements):
    """A window: one dataset for a leaf element, a structure of datasets for a structure."""
    template = elements[0]
    if not structure.is_structure(template):
        return ListDataset(elements)
    columns = zip(*(structure.flatten(element) for element in elements))
    return structure.pack_like(template, [ListDataset(column) for column in columns])


class WindowDataset(UnaryDataset):
    _stage = "window"

    def __init__(self, input_dataset, size, shift=None, stride=1, drop_remainder=False):
        self._size, self._stride = int(size), int(stride)
        self._shift = self._size if shift is None else int(shift)
        if min(self._size, self._shift, self._stride) < 1:
            raise ValueError("window size, shift and stride must be positive, got "
                             f"{self._size}, {self._shift}, {self._stride}")
        super().__init__(input_dataset)
        self._drop_remainder = bool(drop_remainder)

    def _make_iterator(self):
        inputs = self._input._iterator()
        span = (self._size - 1) * self._stride + 1  # elements one full window reaches over
        buffer, ended = [], False
        while True:
            if not ended:
                buffer.extend(itertools.islice(inputs, span - len(buffer)))
                ended = len(buffer) < span
            if not buffer or (ended and self._drop_remainder):
                return
            yield as_window(buffer[:span:self._stride])
            if self._shift >= len(buffer):
                skipped = self._shift - len(buffer)
                buffer = []
                if not ended and skipped:
                    ended = len(list(itertools.islice(inputs, skipped))) < skipped
            else:
                buffer = buffer[self._shift:]

    def _cardinality(self):
        size = self._input._cardinality()
        if size in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY):
            return size
        if self._drop_remainder:
            rest = size - ((self._size - 1) * self._stride + 1)
            return 0 if rest < 0 else rest // self._shift + 1
        return -(-size // self._shift)
