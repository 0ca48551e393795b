"""`Dataset.range`: integers with Python's range semantics."""

import itertools

import numpy as np

from ..dataset import Dataset
from ..spec import TensorSpec

_CHUNK = 4096  # integers made at once: iterating a NumPy array is far cheaper than np.int64(i)


class RangeDataset(Dataset):
    _stage = "range"

    def __init__(self, *args, dtype=np.int64):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"range expects 1 to 3 arguments (start, stop, step), got {len(args)}")
        self._range = range(*(int(arg) for arg in args))
        self._dtype = np.dtype(dtype)

    def _make_iterator(self):
        values, dtype = self._range, self._dtype
        chunks = (values[start:start + _CHUNK] for start in range(0, len(values), _CHUNK))
        return itertools.chain.from_iterable(
            np.arange(chunk.start, chunk.stop, chunk.step, dtype=dtype) for chunk in chunks)

    def _cardinality(self):
        return len(self._range)

    def _element_spec(self):
        return TensorSpec((), self._dtype)
