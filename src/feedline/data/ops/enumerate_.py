"""`Dataset.enumerate`: pairs (index, element) with int64 indices."""

import itertools

import numpy as np

from ..dataset import UnaryDataset
from ..spec import TensorSpec


class EnumerateDataset(UnaryDataset):
    _stage = "enumerate"
    _spec_from_inputs = True  # made from its inputs' specs (see batch._known_spec)
    _same_cardinality = True

    def __init__(self, input_dataset, start):
        super().__init__(input_dataset)
        self._start = int(start)

    def _make_iterator(self):
        return zip(map(np.int64, itertools.count(self._start)), self._input._iterator())

    def _element_spec(self):
        return (TensorSpec((), np.int64), self._input.element_spec)
