"""`Dataset.take_while`: elements up to the first one failing a predicate."""

import itertools

from ..dataset import Dataset
from . import _call


class TakeWhileDataset(Dataset):
    _stage = "take_while"

    def __init__(self, input_dataset, predicate):
        self._input = input_dataset
        self._inputs = (input_dataset,)
        self._predicate = predicate

    def _make_iterator(self):
        return itertools.takewhile(_call.predicate(self._predicate, "take_while predicate"),
                                   self._input._iterator())

    def _element_spec(self):
        return self._input.element_spec
