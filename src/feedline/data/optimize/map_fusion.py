"""map_fusion: two consecutive sequential `map`s become one `map` of the composed function.

The composed function calls the first function, converts its result to an element exactly as
a `map` does, and calls the second on it. An error in either function reaches the consumer at
the same element, and the next element is computed as before. Both maps are synchronous, so
the fused map is too: its gain is one stage fewer per element, not parallelism.
"""

from ..ops import _call
from ..ops.map_ import MapDataset, MapIterator
from ..state import protocol
from . import _maps
from ._graph import Skip

OPTION = "map_fusion"


def rule(node):
    """Fuse `map(f).map(g)` into one `map` calling g after f.

    >>> from feedline.data import Dataset
    >>> fused, why = rule(Dataset.range(3).map(abs).map(lambda x: x + 1))
    >>> [int(x) for x in fused._iterator()], why
    ([1, 2, 3], 'abs then <lambda> are called in one map stage')

    Applies when both maps are sequential. A parallel map keeps its workers (fusing it would
    change which calls run at the same time), so it is left alone.
    """
    if not (_maps.is_map(node) and _maps.is_map(node._input)):
        return None
    first = node._input
    if not (_maps.is_sequential_map(node) and _maps.is_sequential_map(first)):
        return Skip("one of the two maps runs in parallel; only sequential maps are fused")
    fused = FusedMapDataset(first._input, first, node)
    return fused, (f"{_maps.function_name(first._function)} then "
                   f"{_maps.function_name(node._function)} are called in one map stage")


class FusedMapDataset(MapDataset):
    """A sequential `map` that calls the functions of `first` and then of `second`."""

    _fused = ("map", "map")

    def __init__(self, input_dataset, first, second):
        composed = _compose(first, second)
        composed.__name__ = (f"{_maps.function_name(first._function)}+"
                             f"{_maps.function_name(second._function)}")
        super().__init__(input_dataset, composed)
        self._apply, self._written = composed, second

    def _make_iterator(self):
        return MapIterator(self, self._input._iterator(), self._apply)

    def _restore_iterator(self, state, skip):
        upstream = protocol.restore(self._input, state["input"], skip)
        return MapIterator(self, upstream, self._apply)

    def _element_spec(self):
        return self._written.element_spec


def _compose(first, second):
    """One function `element -> element` doing what the two maps do: each user function gets
    its element as tensors and its result converted back, exactly as in its own map (see
    `_call.mapper`), in one call of the fused stage."""
    outer = getattr(first, "_apply", None) or _call.mapper(first._function)
    inner = _call.mapper(second._function)

    def composed(element):
        return inner(outer(element))
    return composed
