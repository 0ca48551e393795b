"""`Dataset.enumerate`: pairs (index, element) with int64 indices."""

import itertools

import numpy as np

from ..dataset import Dataset
from ..spec import TensorSpec


class EnumerateDataset(Dataset):
    _stage = "enumerate"

    def __init__(self, input_dataset, start):
        self._input = input_dataset
        self._inputs = (input_dataset,)
        self._start = int(start)

    def _make_iterator(self):
        return zip(map(np.int64, itertools.count(self._start)), self._input._iterator())

    def _cardinality(self):
        return self._input._cardinality()

    def _element_spec(self):
        return (TensorSpec((), np.int64), self._input.element_spec)
