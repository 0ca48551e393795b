"""`Dataset.with_options`: attach pipeline-wide `Options`."""

from ..dataset import Dataset
from ..options import Options


class OptionsDataset(Dataset):
    _stage = "options"

    def __init__(self, input_dataset, options):
        if not isinstance(options, Options):
            raise TypeError(f"with_options takes an Options, got {type(options).__name__}")
        self._input = input_dataset
        self._inputs = (input_dataset,)
        self._options = options

    def options(self):
        return super().options().merge(self._options)

    def _make_iterator(self):
        return self._input._iterator()

    def _cardinality(self):
        return self._input._cardinality()

    def _element_spec(self):
        return self._input.element_spec
