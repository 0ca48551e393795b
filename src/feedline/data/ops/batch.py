"""`Dataset.batch`: stack consecutive elements into one."""

import itertools

from .. import structure
from ..dataset import Dataset
from ..spec import batched_spec
from . import parallel_map


def batch_cardinality(size, batch_size, drop_remainder):
    """How many batches a dataset of `size` elements gives (negative sizes pass through)."""
    if size < 0:
        return size
    return size // batch_size if drop_remainder else -(-size // batch_size)


def check_batch_size(batch_size):
    batch_size = int(batch_size)
    if batch_size < 1:
        raise ValueError(f"batch_size must be positive, got {batch_size}")
    return batch_size


class BatchDataset(Dataset):
    _stage = "batch"

    def __init__(self, input_dataset, batch_size, drop_remainder=False,
                 num_parallel_calls=None, deterministic=None):
        self._input = input_dataset
        self._inputs = (input_dataset,)
        self._batch_size = check_batch_size(batch_size)
        self._drop_remainder = bool(drop_remainder)
        self._num_parallel_calls = num_parallel_calls
        self._deterministic = deterministic

    def _make_iterator(self):
        if self._num_parallel_calls is not None:
            return parallel_map.batch_iterator(self)
        return self._sequential_iterator()

    def _sequential_iterator(self):
        elements, size = self._input._iterator(), self._batch_size
        while True:
            chunk = list(itertools.islice(elements, size))
            if not chunk or (self._drop_remainder and len(chunk) < size):
                return
            yield structure.stack_elements(chunk)

    def _cardinality(self):
        return batch_cardinality(self._input._cardinality(), self._batch_size,
                                 self._drop_remainder)

    def _element_spec(self):
        return batched_spec(self._input.element_spec,
                            self._batch_size if self._drop_remainder else None)
