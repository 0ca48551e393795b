"""`Dataset.take` and `Dataset.skip`."""

import itertools

from ..dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset


class TakeDataset(Dataset):
    _stage = "take"

    def __init__(self, input_dataset, count):
        self._input = input_dataset
        self._inputs = (input_dataset,)
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

    def _element_spec(self):
        return self._input.element_spec


class SkipDataset(Dataset):
    _stage = "skip"

    def __init__(self, input_dataset, count):
        self._input = input_dataset
        self._inputs = (input_dataset,)
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

    def _element_spec(self):
        return self._input.element_spec


def _drain(iterator):
    for _ in iterator:
        pass
    return
    yield  # noqa: unreachable - makes this a generator
