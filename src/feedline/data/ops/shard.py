"""`Dataset.shard`: every `num_shards`-th element starting at `index`."""

import itertools

from ..dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, UnaryDataset


class ShardDataset(UnaryDataset):
    _stage = "shard"
    _same_spec = True

    def __init__(self, input_dataset, num_shards, index):
        num_shards, index = int(num_shards), int(index)
        if num_shards < 1:
            raise ValueError(f"num_shards must be positive, got {num_shards}")
        if not 0 <= index < num_shards:
            raise ValueError(f"index must be in [0, {num_shards}), got {index}")
        super().__init__(input_dataset)
        self._num_shards, self._index = num_shards, index

    def _make_iterator(self):
        return itertools.islice(self._input._iterator(), self._index, None, self._num_shards)

    def _cardinality(self):
        size = self._input._cardinality()
        if size in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY):
            return size
        return size // self._num_shards + (1 if self._index < size % self._num_shards else 0)
