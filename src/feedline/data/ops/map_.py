"""`Dataset.map`: apply a function to every element.

The sequential version is the reference. It is the builtin `map` over the input, which keeps
going after an element's function raised, so `ignore_errors()` can skip just that element.
"""

from ..dataset import Dataset
from . import _call, parallel_map


class MapDataset(Dataset):
    _stage = "map"

    def __init__(self, input_dataset, map_func, num_parallel_calls=None, deterministic=None):
        if not callable(map_func):
            raise TypeError(f"map needs a function, got {type(map_func).__name__}")
        self._input = input_dataset
        self._inputs = (input_dataset,)
        self._function = map_func
        self._num_parallel_calls = num_parallel_calls
        self._deterministic = deterministic

    def _make_iterator(self):
        if self._num_parallel_calls is None:
            return map(_call.mapper(self._function), self._input._iterator())
        return parallel_map.map_iterator(self)

    def _cardinality(self):
        return self._input._cardinality()
