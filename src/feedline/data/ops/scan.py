"""`Dataset.scan`: a running state; `scan_func(state, element) -> (new_state, output)`.

The element reaches the function as tensors, as in `map`; the state stays a plain NumPy value,
so a Python-int initial state (int32) still adds to int64 elements: the shared TensorFlow
fixture has `range(5).scan(0, lambda s, x: (s + x, s * 10 + x))` giving 0, 1, 12, 33, 64.
"""

from ...tensor import as_tensors
from .. import structure
from ..dataset import UnaryDataset
from ..spec import spec_of
from . import _trace


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
            state, output = _split(self._function(state, as_tensors(element)), index)
            state, output = structure.to_element(state), structure.to_element(output)
            yield output

    def _element_spec(self):
        """The output's spec, traced as `map` does on placeholders for the state and element.

        The state placeholder has the initial state's spec, so an empty input has a spec too;
        a function that cannot run on placeholders is looked at on the first real element.
        """
        def output(state, element):
            return _split(self._function(state, as_tensors(element)), 0)[1]

        spec = _trace.spec_or_none(output, (spec_of(self._initial_state),
                                            self._input.element_spec))
        return super()._element_spec() if spec is None else spec


def _split(result, index):
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise TypeError("scan_func must return a pair (new_state, output), "
                        f"got {type(result).__name__} at element {index}")
    return result
