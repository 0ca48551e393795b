"""`Dataset.scan`: a running state; `scan_func(state, element) -> (new_state, output)`."""

from .. import structure
from ..dataset import UnaryDataset


class ScanDataset(UnaryDataset):
    _stage = "scan"
    _same_cardinality = True

    def __init__(self, input_dataset, initial_state, scan_func):
        super().__init__(input_dataset)
        self._initial_state = structure.to_element(initial_state)
        self._function = scan_func

    def _make_iterator(self):
        state = self._initial_state
        for index, element in enumerate(self._input._iterator()):
            result = self._function(state, element)
            if not isinstance(result, (tuple, list)) or len(result) != 2:
                raise TypeError("scan_func must return a pair (new_state, output), "
                                f"got {type(result).__name__} at element {index}")
            state, output = structure.to_element(result[0]), structure.to_element(result[1])
            yield output
