"""`Dataset.repeat`: run the input again, `count` times or forever."""

from ..dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, UnaryDataset


class RepeatDataset(UnaryDataset):
    _stage = "repeat"
    _same_spec = True

    def __init__(self, input_dataset, count=None):
        super().__init__(input_dataset)
        self._count = -1 if count is None else int(count)

    def _make_iterator(self):
        epoch = 0
        while self._count < 0 or epoch < self._count:
            produced = False
            for element in self._input._iterator():
                produced = True
                yield element
            if not produced and self._count < 0:
                return  # repeating an empty dataset forever yields nothing, and must end
            epoch += 1

    def _cardinality(self):
        size = self._input._cardinality()
        if self._count < 0:
            return 0 if size == 0 else INFINITE_CARDINALITY
        if self._count == 0:
            return 0
        if size in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY):
            return size
        return size * self._count
