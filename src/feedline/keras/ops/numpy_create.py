"""`keras.ops` creation and products: zeros, ranges, windows, matmul, einsum, outer ...

Creation functions default to `floatx()`; `arange` takes the dtype of its arguments (Python
ints int32); `matmul`/`dot`/`einsum` promote their inputs (int8 times int8 gives int32).

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.zeros((2,)).dtype.name, ops.arange(3).dtype.name, ops.arange(0, 1, 0.5).numpy().tolist()
('float32', 'int32', [0.0, 0.5])
>>> ops.matmul(fl.ones([2, 3]), fl.ones([3, 1])).numpy().tolist()
[[3.0], [3.0]]
"""

import numpy as np

from ... import ops as fl_ops
from ... import linalg as fl_linalg
from . import _dtypes
from ._apply import array as _array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


def _floatx(dtype):
    return _dtypes.standardize_dtype(dtype)


@plain
def zeros(shape, dtype=None):
    """A tensor of `shape` full of 0 (floatx() unless `dtype`)."""
    return np.zeros(tuple(np.atleast_1d(shape)) if np.ndim(shape) else shape, _floatx(dtype))


@plain
def ones(shape, dtype=None):
    """A tensor of `shape` full of 1 (floatx() unless `dtype`)."""
    return np.ones(tuple(np.atleast_1d(shape)) if np.ndim(shape) else shape, _floatx(dtype))


empty = zeros


@plain
def full(shape, fill_value, dtype=None):
    """A tensor of `shape` full of `fill_value` (floatx() unless `dtype`)."""
    return np.full(tuple(np.atleast_1d(shape)) if np.ndim(shape) else shape, _array(fill_value),
                   _floatx(dtype))


def _like(value):
    def like(x, dtype=None):
        x = _array(x)
        return np.full(x.shape, value, x.dtype if dtype is None else _floatx(dtype))
    return plain(like)


zeros_like, ones_like, empty_like = _like(0), _like(1), _like(0)
zeros_like.__doc__ = "Zeros of `x`'s shape and dtype (or `dtype`)."
ones_like.__doc__ = "Ones of `x`'s shape and dtype (or `dtype`)."
empty_like.__doc__ = "A tensor of `x`'s shape and dtype (zeros here)."


@plain
def full_like(x, fill_value, dtype=None):
    """`fill_value` in `x`'s shape and dtype (or `dtype`)."""
    x = _array(x)
    return np.full(x.shape, _array(fill_value), x.dtype if dtype is None else _floatx(dtype))


@plain
def eye(N, M=None, k=0, dtype=None):
    """An N x M matrix with ones on diagonal `k` (floatx() unless `dtype`)."""
    return np.eye(int(N), None if M is None else int(M), int(k), dtype=_floatx(dtype))


def identity(n, dtype=None):
    """The n x n identity matrix (floatx() unless `dtype`)."""
    return eye(n, dtype=dtype)


@plain
def tri(N, M=None, k=0, dtype=None):
    """An N x M matrix with ones on and below diagonal `k`."""
    return np.tri(int(N), None if M is None else int(M), int(k), dtype=_floatx(dtype))


@plain
def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop); the dtype of the arguments unless `dtype`
    (Python ints int32, floats float32).

    Raises:
        ValueError: when `step` is 0.
    """
    if step is not None and float(_array(step)) == 0:
        raise ValueError("arange: step must not be 0; give a positive or negative step")
    given = [value for value in (start, stop, step) if value is not None]
    if dtype is None:
        dtype = _dtypes.result_type(*(_dtypes.dtype_of(value) for value in given))
    first, last = (0, start) if stop is None else (start, stop)
    values = np.arange(_array(first).item(), _array(last).item(),
                       1 if step is None else _array(step).item())
    return values.astype(_dtypes.standardize_dtype(dtype))


@plain
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (floatx() for Python numbers)."""
    dtype = dtype or _dtypes.result_type(_dtypes.dtype_of(start), _dtypes.dtype_of(stop), float)
    values, step = np.linspace(_array(start), _array(stop), int(num), endpoint, True, axis=axis)
    dtype = _dtypes.standardize_dtype(dtype)
    return (values.astype(dtype), np.asarray(step, dtype)) if retstep else values.astype(dtype)


@plain
def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """`num` values evenly spaced in the exponent, from base**start to base**stop."""
    dtype = dtype or _dtypes.result_type(_dtypes.dtype_of(start), _dtypes.dtype_of(stop), float)
    return np.logspace(_array(start), _array(stop), int(num), endpoint, base,
                       axis=axis).astype(_dtypes.standardize_dtype(dtype))


@plain
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` values in geometric progression from `start` to `stop`."""
    dtype = dtype or _dtypes.result_type(_dtypes.dtype_of(start), _dtypes.dtype_of(stop), float)
    return np.geomspace(_array(start), _array(stop), int(num), endpoint,
                        axis=axis).astype(_dtypes.standardize_dtype(dtype))


def array(x, dtype=None):
    """`x` as a tensor, cast to `dtype` when given."""
    return tensor(x, dtype)


def _windows(function, doc):
    def window(x):
        return np.asarray(function(int(_array(x)))).astype(_dtypes.standardize_dtype(None))
    window.__doc__ = doc
    return plain(window)


hamming = _windows(np.hamming, "The Hamming window of `x` points (floatx()).")
hanning = _windows(np.hanning, "The Hann window of `x` points (floatx()).")
bartlett = _windows(np.bartlett, "The Bartlett (triangle) window of `x` points (floatx()).")
blackman = _windows(np.blackman, "The Blackman window of `x` points (floatx()).")


@plain
def kaiser(x, beta):
    """The Kaiser window of `x` points with shape parameter `beta` (floatx())."""
    return np.kaiser(int(_array(x)), float(beta)).astype(_dtypes.standardize_dtype(None))


def _product_dtype(x1, x2):
    dtype = _dtypes.result_type(_dtypes.dtype_of(x1), _dtypes.dtype_of(x2))
    return "int32" if dtype == "int8" else dtype  # Keras widens int8 products to int32


def matmul(x1, x2):
    """The matrix product of `x1` and `x2` (batched over leading axes), dtypes promoted."""
    dtype = _product_dtype(x1, x2)
    a, b = tensor(x1, dtype), tensor(x2, dtype)
    if a.ndim >= 2 and b.ndim >= 2:
        return fl_linalg.matmul(a, b)
    return plain(np.matmul)(_array(a), _array(b))


def _product(function, doc):
    def product(x1, x2, *args, **kwargs):
        dtype = _product_dtype(x1, x2)
        return np.asarray(function(_array(x1, dtype), _array(x2, dtype), *args,
                                   **kwargs)).astype(dtype)
    product.__doc__ = doc
    return plain(product)


dot = _product(np.dot, "The dot product of `x1` and `x2` (a matrix product for matrices).")
tensordot = _product(lambda a, b, axes=2: np.tensordot(a, b, axes),
                     "The sum of products of `x1` and `x2` over `axes`.")
outer = _product(lambda a, b: np.outer(a, b), "Every product x1[i] * x2[j] of the flat inputs.")
inner = _product(np.inner, "Sums of products over the last axes of `x1` and `x2`.")
vdot = _product(lambda a, b: np.vdot(a, b), "The dot product of the flat `x1` and `x2`.")
kron = _product(np.kron, "The Kronecker product of `x1` and `x2`.")
cross = _product(lambda a, b, axisa=-1, axisb=-1, axisc=-1, axis=None: np.cross(
    a, b, axisa, axisb, axisc, axis), "The cross product of 3-vectors (or 2-vectors).")
correlate = _product(lambda a, b, mode="valid": np.correlate(a, b, mode),
                     "The cross-correlation of the 1-D `x1` and `x2`.")


def einsum(subscripts, *operands_):
    """Sums of products of `operands_` named by `subscripts` ("ij,jk->ik"), dtypes promoted
    (int8 operands give int32)."""
    dtype = _dtypes.result_type(*(_dtypes.dtype_of(value) for value in operands_))
    dtype = "int32" if dtype == "int8" else dtype
    return fl_ops.einsum(subscripts, *(tensor(value, dtype) for value in operands_))


@plain
def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of `y` by the trapezoid rule (floatx() for integers)."""
    y = _array(y)
    dtype = _dtypes.floating(y.dtype)
    return np.asarray(np.trapezoid(y.astype(dtype), None if x is None else _array(x), dx,
                                   axis)).astype(dtype)


@plain
def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of `x` (columns are powers of `x`)."""
    x = _array(x)
    return np.vander(x, N, increasing).astype(x.dtype)


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
