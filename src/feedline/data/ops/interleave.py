"""`Dataset.interleave`: read several mapped datasets in turn, a block at a time.

The order rule, identical to tf.data's: a cycle has `cycle_length` slots. At the current slot,
an open dataset gives its next element (after `block_length` of them the turn passes to the
next slot); an exhausted one is closed and the turn passes on; an empty slot is filled from the
next input element, or skipped once the input has ended.
"""

import os

from ..dataset import AUTOTUNE, Dataset
from . import parallel_interleave, parallel_map
from .flat_map import dataset_from


def resolve_cycle_length(cycle_length):
    """`None` and AUTOTUNE mean one slot per core, as in tf.data."""
    if cycle_length is None or cycle_length == AUTOTUNE:
        return os.cpu_count() or 1
    if cycle_length < 1:
        raise ValueError(f"cycle_length must be positive or AUTOTUNE, got {cycle_length}")
    return int(cycle_length)


class InterleaveDataset(Dataset):
    _stage = "interleave"

    def __init__(self, input_dataset, map_func, cycle_length=None, block_length=None,
                 num_parallel_calls=None, deterministic=None):
        self._input = input_dataset
        self._inputs = (input_dataset,)
        self._function = map_func
        self._cycle_length = resolve_cycle_length(cycle_length)
        self._block_length = 1 if block_length is None else int(block_length)
        if self._block_length < 1:
            raise ValueError(f"block_length must be positive, got {block_length}")
        self._num_parallel_calls = num_parallel_calls
        self._deterministic = deterministic

    def _make_iterator(self):
        if self._num_parallel_calls is not None:
            return parallel_interleave.ParallelInterleaveIterator(
                self, parallel_map.deterministic_for(self, self._deterministic))
        return self._sequential_iterator()

    def _sequential_iterator(self):
        inputs = self._input._iterator()
        slots = [None] * self._cycle_length
        open_count, slot, taken, input_ended = 0, 0, 0, False
        while not input_ended or open_count:
            if slots[slot] is None:
                if input_ended:
                    slot, taken = (slot + 1) % len(slots), 0
                    continue
                element = next(inputs, _END)
                if element is _END:
                    input_ended = True
                    continue
                slots[slot] = dataset_from(self._function, element, "interleave")._iterator()
                open_count += 1
            value = next(slots[slot], _END)
            if value is _END:
                slots[slot] = None
                open_count -= 1
                slot, taken = (slot + 1) % len(slots), 0
                continue
            taken += 1
            if taken == self._block_length:
                slot, taken = (slot + 1) % len(slots), 0
            yield value


_END = object()
