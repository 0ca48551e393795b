"""`Dataset.filter`: keep the elements for which a predicate is true."""

from ..dataset import Dataset
from . import _call


class FilterDataset(Dataset):
    _stage = "filter"

    def __init__(self, input_dataset, predicate):
        self._input = input_dataset
        self._inputs = (input_dataset,)
        self._predicate = predicate

    def _make_iterator(self):
        return filter(_call.predicate(self._predicate, "filter predicate"),
                      self._input._iterator())

    def _element_spec(self):
        return self._input.element_spec
