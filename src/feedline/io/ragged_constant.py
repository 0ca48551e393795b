"""`fl.ragged.constant`: a RaggedTensor from nested Python lists, with TensorFlow's rules.

The depth K of the nesting decides the shape: by default every level but the innermost
scalars is ragged (`ragged_rank` K - 1, at least 1); with `inner_shape` the innermost
`len(inner_shape)` levels are dense instead. Python ints become int32, floats float32, strings
`bytes` (dtype string), as TensorFlow converts them; a list of no scalars is float32. A list
with no nesting (`[1, 2]`) gives a dense tensor, as TensorFlow does.

>>> rt = constant([[1, 2], [3]])
>>> rt, rt.dtype, rt.row_splits.dtype
(<tf.RaggedTensor [[1, 2], [3]]>, tf.int32, tf.int64)
>>> constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1).shape
TensorShape([2, None, 2])
>>> constant([["a", "b"], []]).to_list()
[[b'a', b'b'], []]
"""

import numpy as np

from .. import dtypes


def _is_list(value):
    return isinstance(value, (list, tuple)) or np.ndim(value) != 0


def _depths(pylist):
    """(depth of the scalars or None when there are none, deepest nesting)."""
    if not _is_list(pylist):
        return 0, 0
    scalar_depth, deepest = None, 1
    for child in pylist:
        child_scalars, child_deepest = _depths(child)
        if child_scalars is not None:
            if scalar_depth is not None and scalar_depth != child_scalars + 1:
                raise ValueError("ragged.constant: every scalar must be nested equally deep, "
                                 f"got {pylist!r:.80}")
            scalar_depth = child_scalars + 1
        deepest = max(deepest, child_deepest + 1)
    return scalar_depth, deepest


def _inner_shape_of(pylist, ragged_rank):
    """The shape of the dense values under `ragged_rank` ragged levels (from the first one)."""
    item = pylist
    for _ in range(ragged_rank + 1):
        if not _is_list(item) or len(item) == 0:
            return ()
        item = item[0]
    shape = []
    while _is_list(item):
        shape.append(len(item))
        item = item[0] if len(item) else None
    return tuple(shape)


def _dense(values, dtype, shape):
    from ..ops.creation import constant as dense_constant

    try:
        array = np.asarray(dense_constant(values, dtype=dtype)).view(np.ndarray)
    except TypeError as error:  # TensorFlow's ragged.constant raises ValueError here
        raise ValueError(f"ragged.constant: {error}") from None
    if array.size == 0 and dtype is None and array.dtype.kind not in "fO":
        array = array.astype(np.float32)
    try:
        return array.reshape(shape)
    except ValueError:
        raise ValueError(f"ragged.constant: the innermost values do not all have shape "
                         f"{list(shape[1:])} (inner_shape); give inner_shape or ragged_rank "
                         "that fit the list") from None


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
    """A RaggedTensor holding the nested list `pylist` (see the module docstring).

    Args:
        pylist: nested lists (or tuples) of scalars; every scalar equally deep.
        dtype: the values' dtype (default: TensorFlow's conversion of the scalars).
        ragged_rank: how many levels are ragged; less than the nesting depth.
        inner_shape: the shape of the dense innermost values.
        row_splits_dtype: int64 (TensorFlow's default) or int32.

    Raises:
        ValueError: when the scalars are nested unequally, `ragged_rank` does not fit the
            depth, or the innermost values do not match `inner_shape`.
    """
    from .ragged import RaggedTensor

    scalar_depth, deepest = _depths(pylist)
    if scalar_depth is not None and ragged_rank is not None and ragged_rank >= scalar_depth:
        raise ValueError(f"ragged.constant: ragged_rank={ragged_rank} must be smaller than "
                         f"the nesting depth of the scalars ({scalar_depth})")
    if ragged_rank == 0 or (ragged_rank is None and (
            (scalar_depth is not None and scalar_depth - len(inner_shape or ()) < 2)
            or (scalar_depth is None and deepest - len(inner_shape or ()) < 2))):
        return _dense(pylist, dtype, np.shape(pylist) if inner_shape is None
                      else (len(pylist),) + tuple(inner_shape))
    if inner_shape is None:
        inner_shape = () if ragged_rank is None else _inner_shape_of(pylist, ragged_rank)
    if ragged_rank is None:
        levels = deepest if scalar_depth is None else scalar_depth - len(inner_shape)
        ragged_rank = max(1, levels - 1)
    splits_dtype = np.dtype(dtypes.as_dtype(row_splits_dtype))
    nested_splits, values = [], list(pylist)
    for _ in range(ragged_rank):
        lengths = [len(row) if _is_list(row) else _not_a_row(row) for row in values]
        splits = np.zeros(len(values) + 1, dtype=splits_dtype)
        np.cumsum(lengths, out=splits[1:])
        nested_splits.append(splits)
        values = [item for row in values for item in row]
    result = _dense(values, dtype, (len(values),) + tuple(inner_shape))
    for splits in reversed(nested_splits):
        result = RaggedTensor(result, splits)
    return result


def _not_a_row(value):
    raise ValueError(f"ragged.constant: expected a list at this depth, got the scalar "
                     f"{value!r}; nest every scalar equally deep")
