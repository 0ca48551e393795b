"""`Dataset.rebatch`: re-cut batches into new sizes, joining rows across input batches."""

import itertools

import numpy as np

from .. import structure
from ..dataset import UnaryDataset


class RebatchDataset(UnaryDataset):
    _stage = "rebatch"

    def __init__(self, input_dataset, batch_size, drop_remainder=False):
        sizes = [int(batch_size)] if np.ndim(batch_size) == 0 else [int(s) for s in batch_size]
        if not sizes or any(size < 0 for size in sizes):
            raise ValueError(f"rebatch needs non-negative batch sizes, got {batch_size}")
        super().__init__(input_dataset)
        self._sizes = sizes
        self._drop_remainder = bool(drop_remainder)

    def _make_iterator(self):
        pending, available, template = [], 0, None
        inputs = self._input._iterator()
        for wanted in itertools.cycle(self._sizes):
            while available < wanted:
                batch = next(inputs, None)
                if batch is None:
                    break
                template = batch
                pending.append(structure.flatten(batch))
                available += len(pending[-1][0])
            if available < wanted and (self._drop_remainder or available == 0):
                return
            columns = [np.concatenate(column) for column in zip(*pending)] if pending else []
            take = min(wanted, available)
            yield structure.pack_like(template, [column[:take] for column in columns])
            rest = [column[take:] for column in columns]
            pending, available = ([rest] if available > take else []), available - take
            if available == 0 and take < wanted:
                return
