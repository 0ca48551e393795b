"""`Dataset.take` and `Dataset.skip`."""

import itertools

from ..dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, UnaryDataset


class TakeDataset(UnaryDataset):
    _stage = "take"
    _same_spec = True

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = int(count)

    def _make_iterator(self):
        if self._count < 0:
            return self._input._iterator()
        if self._count == 0:
            return iter(())
        return itertools.islice(self._input._iterator(), self._count)

    def _cardinality(self):
        size = self._input._cardinality()
        if size == UNKNOWN_CARDINALITY:
            return size
        if size == INFINITE_CARDINALITY:
            return INFINITE_CARDINALITY if self._count < 0 else self._count
        return size if self._count < 0 else min(size, self._count)


class SkipDataset(UnaryDataset):
    _stage = "skip"
    _same_spec = True

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = int(count)

    def _make_iterator(self):
        if self._count < 0:
            return _drain(self._input._iterator())
        return itertools.islice(self._input._iterator(), self._count, None)

    def _cardinality(self):
        size = self._input._cardinality()
        if size in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY):
            return size
        return 0 if self._count < 0 else max(0, size - self._count)


def _drain(iterator):
    """Consume the input, so its side effects still happen, and yield nothing."""
    for _ in iterator:
        pass
    yield from ()
