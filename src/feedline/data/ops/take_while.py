"""`Dataset.take_while`: elements up to the first one failing a predicate."""

import itertools

from ..dataset import UnaryDataset
from . import _call


class TakeWhileDataset(UnaryDataset):
    _stage = "take_while"
    _same_spec = True

    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._predicate = predicate

    def _make_iterator(self):
        return itertools.takewhile(_call.predicate(self._predicate, "take_while predicate"),
                                   self._input._iterator())
