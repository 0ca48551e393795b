"""Picking values by index: gather, one_hot.

>>> import feedline as fl
>>> fl.gather([10, 20, 30], [2, 0]), fl.one_hot([0, 2], 3).tolist()
(<tf.Tensor: shape=(2,), dtype=int32, numpy=array([30, 10], dtype=int32)>,
 [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
"""

import numpy as np

from .. import dtypes
from ..data import tracing
from ..data.spec import TensorSpec
from ..errors import InvalidArgumentError
from ._convert import _as_array, _check_axis, _dtype_name, _result, convert_python, \
    is_python, require_kinds
from ._eager import returns_tensors
from ..io import ragged_ops
from ..io.ragged import RaggedTensor


def _indices(indices, what):
    array = _as_array(indices, what)
    require_kinds(array, "iu", what, "indices", "integer indices (int32 or int64)")
    return array


def _check_bounds(indices, size, what):
    bad = (indices < 0) | (indices >= size)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InvalidArgumentError(f"{what}: indices{list(where)} = {int(indices[where])} is not "
                                   f"in [0, {size})")


@returns_tensors
def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """The slices of `params` along `axis` picked by `indices`.

    The result's shape is `params.shape[:axis] + indices.shape[batch_dims:] +
    params.shape[axis + 1:]`. With `batch_dims` = b, the first b axes of `params` and
    `indices` are matched up, and each row of indices picks from its own row of params.

    Args:
        params: the tensor to pick from.
        indices: int32 or int64 indices into axis `axis`, each in [0, size).
        validate_indices: ignored (TensorFlow always checks on CPU; so does feedline).
        axis: the axis of `params` to pick along; by default `batch_dims`.
        batch_dims: how many leading axes `params` and `indices` share.
        name: ignored (kept for TensorFlow's signature).

    Raises:
        InvalidArgumentError: for an index out of range, non-integer indices, or axes that do
            not fit.

    >>> gather([[1, 2], [3, 4]], [1], axis=1).tolist()
    [[2], [4]]
    >>> gather([[1, 2], [3, 4]], [[1], [0]], batch_dims=1).tolist()
    [[2], [3]]
    """
    if isinstance(params, RaggedTensor):
        return ragged_ops.gather(params, indices, axis)
    what = "gather"
    array, picks = _as_array(params, what), _indices(indices, what)
    if batch_dims < 0:
        batch_dims += picks.ndim
    if not 0 <= batch_dims <= picks.ndim:
        raise InvalidArgumentError(f"{what}: batch_dims {batch_dims} must be in [0, "
                                   f"{picks.ndim}] for indices of rank {picks.ndim}")
    axis = batch_dims if axis is None else _check_axis(axis, array.ndim, what)
    if axis < batch_dims:
        raise InvalidArgumentError(f"{what}: batch_dims ({batch_dims}) must be <= axis ({axis})")
    if array.shape[:batch_dims] != picks.shape[:batch_dims]:
        raise InvalidArgumentError(f"{what}: params shape {list(array.shape)} and indices shape "
                                   f"{list(picks.shape)} differ in their first {batch_dims} axes")
    _check_bounds(picks, array.shape[axis], what)
    if batch_dims == 0:
        return _result(np.take(array, picks, axis=axis))
    rows = [np.take(array[index], picks[index], axis=axis - batch_dims)
            for index in np.ndindex(*picks.shape[:batch_dims])]
    shape = array.shape[:axis] + picks.shape[batch_dims:] + array.shape[axis + 1:]
    return _result(np.stack(rows).reshape(shape) if rows else np.zeros(shape, array.dtype))


def _on_off(on_value, off_value, dtype, what):
    """on_value and off_value as scalars of one dtype, chosen as TensorFlow does."""
    given = [(name, value) for name, value in (("on_value", on_value), ("off_value", off_value))
             if value is not None]
    if dtype is None:
        dtype = _as_array(given[0][1], what).dtype if given else dtypes.float32
    dtype = dtypes.as_dtype(dtype)
    values = []
    for name, value, default in (("on_value", on_value, 1), ("off_value", off_value, 0)):
        value = default if value is None else value
        array = convert_python(value, dtype, what, name) if is_python(value) else \
            _as_array(value, what)
        if array.dtype != dtype:
            raise TypeError(f"{what}: {name} has dtype {_dtype_name(array.dtype)}, but the "
                            f"result's dtype is {_dtype_name(dtype)}; give both values and "
                            "dtype alike")
        values.append(array.reshape(()))
    return values, dtype


@returns_tensors
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """A one-hot encoding: a new axis of size `depth`, `on_value` at each index, `off_value` else.

    An index outside [0, depth) (negative ones too) gives a row of `off_value` only. The dtype is
    `dtype`, else that of `on_value` or `off_value`, else float32.

    Args:
        indices: uint8, int32 or int64 indices.
        depth: the size of the new axis.
        on_value: the value at the index (1 by default).
        off_value: the value elsewhere (0 by default).
        axis: where the new axis goes: -1 (last, the default) or in [0, rank].
        dtype: the dtype of the result.
        name: ignored (kept for TensorFlow's signature).

    Raises:
        InvalidArgumentError: for a negative depth, an axis out of range, or float indices.
        TypeError: when on_value, off_value and dtype disagree.

    >>> one_hot([1, 5], 3).tolist(), one_hot([1], 2, on_value=7).dtype
    ([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]], tf.int32)
    """
    what = "one_hot"
    picks = _indices(indices, what)
    depth = int(depth)
    if depth < 0:
        raise InvalidArgumentError(f"{what}: depth must be non-negative, got {depth}")
    axis = -1 if axis is None else int(axis)
    if not -1 <= axis <= picks.ndim:
        raise InvalidArgumentError(f"{what}: axis must be -1 or in [0, {picks.ndim}] for "
                                   f"indices of rank {picks.ndim}, got {axis}")
    (on, off), dtype = _on_off(on_value, off_value, dtype, what)
    hot = picks[..., np.newaxis] == np.arange(depth)
    result = np.where(hot, on, off).astype(dtype)
    return np.moveaxis(result, -1, axis if axis >= 0 else picks.ndim)


@returns_tensors
def boolean_mask(tensor, mask, axis=None, name=None):
    """The entries of `tensor` where the boolean `mask` is True, flattened over the masked axes.

    `mask` covers `tensor.shape[axis:axis + mask.ndim]` (axis 0 by default); the result's
    shape is `tensor.shape[:axis] + (count of True,) + tensor.shape[axis + mask.ndim:]`.

    Raises:
        ValueError: when the mask is a scalar, or its shape does not match those axes.

    >>> boolean_mask([[1, 2], [3, 4], [5, 6]], [True, False, True]).tolist()
    [[1, 2], [5, 6]]
    """
    values = _as_array(tensor, "boolean_mask")
    picks = _as_array(mask, "boolean_mask")
    if picks.dtype != np.bool_:
        raise TypeError(f"boolean_mask: mask must be bool, got {picks.dtype}; write e.g. "
                        "mask=values > 0")
    axis = 0 if axis is None else int(axis) % max(values.ndim, 1)
    if picks.ndim == 0:
        raise ValueError("boolean_mask: mask must have at least one axis (got a scalar)")
    covered = values.shape[axis:axis + picks.ndim]
    if covered != picks.shape:
        raise ValueError(f"boolean_mask: mask shape {list(picks.shape)} does not match the "
                         f"tensor's axes {axis}..{axis + picks.ndim - 1}, of shape "
                         f"{list(covered)}")
    if tracing.active():  # how many are True depends on the values
        return tracing.stand_in(TensorSpec(
            values.shape[:axis] + (None,) + values.shape[axis + picks.ndim:], values.dtype))
    flat = values.reshape(values.shape[:axis] + (-1,) + values.shape[axis + picks.ndim:])
    return _result(np.compress(picks.reshape(-1), flat, axis=axis))


# A RaggedTensor: the ragged versions TensorFlow dispatches to (see `_ragged_dispatch`).
from . import _ragged_dispatch  # noqa: E402 - imports feedline.io, which imports these ops
from ..io import ragged_functions, ragged_math_ops, ragged_segment_ops  # noqa: E402

_dense_one_hot, _dense_gather = one_hot, gather
_ragged_dispatch.dispatch_all(globals(), {
    "gather": lambda a: ragged_segment_ops.gather(_dense_gather, a["params"], a["indices"],
                                                  a["axis"], a["batch_dims"]),
    "one_hot": lambda a: ragged_math_ops.one_hot(
        a["indices"], _dense_one_hot, a["depth"], a["on_value"], a["off_value"], a["axis"],
        a["dtype"]),
    "boolean_mask": lambda a: _ragged_mask(a["tensor"], a["mask"], a["axis"])})


def _ragged_mask(tensor, mask, axis):
    if axis not in (None, 0):
        raise ValueError(f"boolean_mask: with a RaggedTensor, axis must be 0, got {axis}")
    return ragged_functions.boolean_mask(tensor, mask)
