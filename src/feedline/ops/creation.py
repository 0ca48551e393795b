"""Making new tensors: constant, fill, zeros, ones, zeros_like, ones_like, range.

They take TensorFlow's arguments and give TensorFlow's dtypes: Python ints become int32 and
Python floats float32 (as in `feedline.data.structure.to_leaf`), NumPy values keep theirs.

>>> import feedline as fl
>>> fl.fill([2], 7), fl.range(3), fl.zeros_like([1.5, 2.5])
(<tf.Tensor: shape=(2,), dtype=int32, numpy=array([7, 7], dtype=int32)>,
 <tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 2], dtype=int32)>,
 <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>)
"""

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ._convert import _as_array, _dims, _result, convert_python, is_python
from .casting import _cast_array
from ._eager import returns_tensors


@returns_tensors
def constant(value, dtype=None, shape=None, name=None):
    """A tensor holding `value`, converted to `dtype` and, if given, filled or reshaped to `shape`.

    Args:
        value: a Python or NumPy value (number, string, nested list, array).
        dtype: the dtype of the result; by default int32 for Python ints, float32 for floats.
        shape: a scalar `value` is repeated to fill it; otherwise it must hold as many values.
        name: ignored (kept for TensorFlow's signature).

    Returns:
        A NumPy array (a NumPy scalar or `bytes` for rank 0).

    Raises:
        TypeError: when `value` holds as many values as `shape` needs neither 1 nor exactly.

    >>> constant([1, 2]), constant(1.5, shape=[2]), constant(3, dtype="int64")
    (<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>,
     <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 1.5], dtype=float32)>,
     <tf.Tensor: shape=(), dtype=int64, numpy=3>)
    """
    array = _as_array(value, "constant")
    if dtype is not None:
        if array.size == 0 and type(value) in (list, tuple):
            # An empty list holds no values to convert: it is empty in any dtype (strings too).
            array = np.empty(array.shape, dtype=dtypes.as_dtype(dtype).as_numpy_dtype)
        array = _cast_array(array, dtypes.as_dtype(dtype), "constant")
    if shape is not None:
        dims = _dims(shape, "constant")
        if array.size == 1:
            array = np.full(dims, array.reshape(()), dtype=array.dtype)
        elif array.size == int(np.prod(dims, dtype=np.int64)):
            array = array.reshape(dims)
        else:
            raise TypeError(f"constant: {array.size} values cannot fill shape {list(dims)}; give "
                            "one value to repeat or exactly as many values as the shape holds")
    return _result(array)


@returns_tensors
def fill(dims, value, name=None):
    """A tensor of shape `dims` with every entry `value` (its dtype is `value`'s).

    Args:
        dims: the shape, a 1-D list or array of non-negative ints.
        value: a scalar.
        name: ignored (kept for TensorFlow's signature).

    Returns:
        A NumPy array of shape `dims` (a NumPy scalar when `dims` is empty).

    Raises:
        InvalidArgumentError: when `value` is not a scalar or a dimension is negative.

    >>> fill([2, 3], 9).tolist(), fill([1], np.int64(4)).dtype
    ([[9, 9, 9], [9, 9, 9]], tf.int64)
    """
    dims = _dims(dims, "fill")
    if any(size < 0 for size in dims):
        raise InvalidArgumentError(f"fill: dims must be non-negative, got {list(dims)}")
    array = _as_array(value, "fill")
    if array.ndim:
        raise InvalidArgumentError(f"fill: value must be a scalar, got shape {list(array.shape)}"
                                   "; to repeat an array along new axes use tile or broadcast")
    return _result(np.full(dims, array.reshape(()), dtype=array.dtype))


def _filled(shape, dtype, value, what):
    dims = _dims(shape, what)
    if any(size < 0 for size in dims):
        raise InvalidArgumentError(f"{what}: the shape must be non-negative, got {list(dims)}")
    dtype = dtypes.as_dtype(dtype)
    if dtype == dtypes.string:
        if value != 0:
            raise TypeError(f"{what}: strings have no one; use fill(dims, b'...')")
        value = b""
    return _result(np.full(dims, value, dtype=dtype))


@returns_tensors
def zeros(shape, dtype=dtypes.float32, name=None):
    """A tensor of `shape` filled with zeros (`b""` for strings), float32 unless `dtype` says.

    Raises:
        InvalidArgumentError: when a dimension is negative.

    >>> zeros([2]), zeros([1, 2], dtype="int64").dtype
    (<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>, tf.int64)
    """
    return _filled(shape, dtype, 0, "zeros")


@returns_tensors
def ones(shape, dtype=dtypes.float32, name=None):
    """A tensor of `shape` filled with ones, float32 unless `dtype` says otherwise.

    Raises:
        InvalidArgumentError: when a dimension is negative.
        TypeError: for the string dtype.

    >>> ones([2], dtype="int32")
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 1], dtype=int32)>
    """
    return _filled(shape, dtype, 1, "ones")


def _like(input, dtype, value, what):  # noqa: A002 - TensorFlow's name
    array = _as_array(input, what)
    return _filled(list(array.shape), array.dtype if dtype is None else dtype, value, what)


@returns_tensors
def zeros_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's name
    """Zeros with the shape of `input`, and its dtype unless `dtype` is given.

    >>> zeros_like(np.ones((2, 1), np.int64)).tolist(), zeros_like([b"a"])
    ([[0], [0]], <tf.Tensor: shape=(1,), dtype=string, numpy=array([b''], dtype=object)>)
    """
    return _like(input, dtype, 0, "zeros_like")


@returns_tensors
def ones_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's name
    """Ones with the shape of `input`, and its dtype unless `dtype` is given.

    Raises:
        TypeError: for strings.

    >>> ones_like([1.5, 2.5])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    return _like(input, dtype, 1, "ones_like")


# TensorFlow picks the widest of the three arguments' dtypes in this order.
_RANGE_ORDER = [dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64]


def _range_bounds(values, dtype):
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
        return [convert_python(value, dtype, "range", name) if is_python(value)
                else _as_array(value, "range").astype(dtype) for name, value in values], dtype
    arrays = [_as_array(value, "range") for _, value in values]
    for (name, _), array in zip(values, arrays):
        if array.ndim or array.dtype not in _RANGE_ORDER:
            raise InvalidArgumentError(f"range: {name} must be a scalar int or float, got "
                                       f"{array!r}")
    dtype = max((array.dtype for array in arrays), key=_RANGE_ORDER.index)
    return [array.astype(dtype) for array in arrays], dtype


@returns_tensors
def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 - TF's name
    """The numbers from `start` up to (not including) `limit`, `delta` apart.

    With one argument it counts from 0: `range(5)` is `[0 1 2 3 4]`. The dtype is the widest of
    the arguments' (int32 < int64 < float16 < float32 < float64; Python ints are int32, floats
    float32) unless `dtype` says.

    Args:
        start: the first number (or the limit, when `limit` is None).
        limit: the end, not included.
        delta: the step, not 0.
        dtype: the dtype of the result.
        name: ignored (kept for TensorFlow's signature).

    Returns:
        A 1-D NumPy array.

    Raises:
        InvalidArgumentError: when delta is 0, or it points away from `limit`.

    >>> range(5), range(3, dtype="int64").dtype
    (<tf.Tensor: shape=(5,), dtype=int32, numpy=array([0, 1, 2, 3, 4], dtype=int32)>,
     tf.int64)
    >>> range(1, 2, 0.25)
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([1.  , 1.25, 1.5 , 1.75], dtype=float32)>
    """
    if limit is None:
        start, limit = 0, start
    (start, limit, delta), dtype = _range_bounds(
        [("start", start), ("limit", limit), ("delta", delta)], dtype)
    if delta == 0:
        raise InvalidArgumentError("range: requires delta != 0")
    if delta > 0 and start > limit:
        raise InvalidArgumentError(f"range: requires start <= limit when delta > 0: "
                                   f"{start}/{limit}; give a negative delta to count down")
    if delta < 0 and start < limit:
        raise InvalidArgumentError(f"range: requires start >= limit when delta < 0: "
                                   f"{start}/{limit}; give a positive delta to count up")
    if dtype.kind in "iu":
        size = (abs(int(limit) - int(start)) + abs(int(delta)) - 1) // abs(int(delta))
    else:
        size = int(np.ceil(abs((float(limit) - float(start)) / float(delta))))
    return start + np.arange(size).astype(dtype) * delta


# A RaggedTensor: ones_like and zeros_like keep its rows (see `_ragged_dispatch`).
from . import _ragged_dispatch  # noqa: E402 - imports feedline.io, which imports these ops

_ragged_dispatch.wrap_all(globals(), unary_names=("ones_like", "zeros_like"))
