"""`Dataset.with_options`: attach pipeline-wide `Options`."""

from ..dataset import UnaryDataset
from ..options import Options


class OptionsDataset(UnaryDataset):
    _stage = "options"
    _same_spec = True
    _same_cardinality = True

    def __init__(self, input_dataset, options):
        if not isinstance(options, Options):
            raise TypeError(f"with_options takes an Options, got {type(options).__name__}")
        super().__init__(input_dataset)
        self._options = options

    def options(self):
        return super().options().merge(self._options)

    def _make_iterator(self):
        return self._input._iterator()
