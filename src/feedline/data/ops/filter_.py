"""`Dataset.filter`: keep the elements for which a predicate is true."""

from ..dataset import UnaryDataset
from . import _call


class FilterDataset(UnaryDataset):
    _stage = "filter"
    _same_spec = True

    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._predicate = predicate

    def _make_iterator(self):
        return filter(_call.predicate(self._predicate, "filter predicate"),
                      self._input._iterator())
