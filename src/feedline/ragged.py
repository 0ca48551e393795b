"""`fl.ragged`: build and transform RaggedTensors as `tf.ragged` does.

`constant` turns nested lists into a RaggedTensor (Python ints int32, floats float32, strings
bytes; int64 row splits); `range`, `stack`, `boolean_mask`, `map_flat_values` and the segment-id
helpers work on them. The class itself is `fl.RaggedTensor` (`feedline.io.ragged`).

>>> import feedline as fl
>>> rt = fl.ragged.constant([[1, 2], [3]])
>>> rt, fl.ragged.map_flat_values(fl.add, rt, 10)
(<tf.RaggedTensor [[1, 2], [3]]>, <tf.RaggedTensor [[11, 12], [13]]>)
>>> fl.ragged.stack([[[1, 2], [3]], [[4]]]).to_list()
[[[1, 2], [3]], [[4]]]
"""

from .io.ragged import RaggedTensor
from .io.ragged_constant import constant as _constant
from .io.ragged_functions import boolean_mask, map_flat_values
from .io.ragged_functions import ragged_range as _ragged_range
from .io.ragged_functions import row_splits_to_segment_ids as _to_segment_ids
from .io.ragged_functions import segment_ids_to_row_splits as _to_row_splits
from .io.ragged_ops import stack as _stack
from .tensor import as_tensors
from . import dtypes

__all__ = ["RaggedTensor", "boolean_mask", "constant", "map_flat_values", "range",
           "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack"]


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
    """A RaggedTensor from nested lists (see `feedline.io.ragged_constant`).

    >>> constant([[1.5], [], [2.0, 3.0]]).dtype
    tf.float32
    """
    return as_tensors(_constant(pylist, dtype, ragged_rank, inner_shape, name,
                                row_splits_dtype))


def range(starts, limits=None, deltas=1, dtype=None, name=None,  # noqa: A001 - TF's name
          row_splits_dtype=dtypes.int64):
    """A RaggedTensor whose row `i` counts from `starts[i]` to `limits[i]` by `deltas[i]`.

    >>> range([0, 5, 8], [3, 3, 12]).to_list()
    [[0, 1, 2], [], [8, 9, 10, 11]]
    """
    return _ragged_range(starts, limits, deltas, dtype, name, row_splits_dtype)


def stack(values, axis=0, name=None):
    """RaggedTensors (or nested lists) stacked along a new axis 0 or 1."""
    return _stack(values, axis)


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of every value, as a tensor (int64 for a Python list)."""
    return as_tensors(_to_segment_ids(splits, name, out_type))


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """Row splits from sorted segment ids, as a tensor (int64 for a Python list)."""
    return as_tensors(_to_row_splits(segment_ids, num_segments, out_type, name))
