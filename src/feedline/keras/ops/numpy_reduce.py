"""`keras.ops` reductions: sums, means, extremes, positions, quantiles, and their nan- forms.

Keras' result dtypes (TensorFlow backend, `keras/src/backend/tensorflow/numpy.py`): `sum`,
`prod` and `trace` widen bool, int8 and int16 to int32 and uint8/uint16 to uint32; `mean`,
`var`, `std`, `median` and `quantile` give floatx() for integers; `max`, `min`, `ptp` keep the
dtype; `argmax`, `argmin`, `argsort`, `count_nonzero` give int32.

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.sum(fl.constant([True, True, False])), ops.mean(fl.constant([1, 2]))
(<tf.Tensor: shape=(), dtype=int32, numpy=2>, <tf.Tensor: shape=(), dtype=float32, numpy=1.5>)
>>> ops.argmax(fl.constant([[1, 5], [7, 0]]), axis=1).numpy().tolist()
[1, 0]
"""

import numpy as np

from ... import ops as fl_ops
from ... import math as fl_math
from . import _dtypes
from ._apply import array, axis_tuple, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out

_WIDER = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32",
          "uint16": "uint32"}


def _sum_dtype(dtype):
    name = _dtypes.standardize_dtype(dtype)
    return _WIDER.get(name, name)


def sum(x, axis=None, keepdims=False):
    """The sum over `axis` (all axes when None); small integers and bools add up as int32."""
    x = tensor(x)
    return fl_ops.reduce_sum(tensor(x, _sum_dtype(x.dtype)), axis=axis, keepdims=keepdims)


def prod(x, axis=None, keepdims=False, dtype=None):
    """The product over `axis`; small integers and bools multiply as int32 unless `dtype`."""
    x = tensor(x)
    return fl_ops.reduce_prod(tensor(x, dtype or _sum_dtype(x.dtype)), axis=axis,
                              keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    """The mean over `axis`; integers and bools give float32 (floats keep their dtype)."""
    x = tensor(x)
    return fl_ops.reduce_mean(tensor(x, _dtypes.floating(x.dtype)), axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False, initial=None):
    """The largest value over `axis`, at least `initial` when given; the dtype is kept."""
    x = tensor(x)
    if x.dtype == np.bool_:  # TensorFlow's reduce_max refuses bools; Keras takes them
        result = plain(np.max)(array(x), axis=axis_tuple(axis), keepdims=keepdims)
        return result if initial is None else plain(np.maximum)(
            array(result), bool(initial))
    result = fl_ops.reduce_max(x, axis=axis, keepdims=keepdims)
    return result if initial is None else fl_ops.maximum(result, tensor(initial, x.dtype))


def min(x, axis=None, keepdims=False, initial=None):
    """The smallest value over `axis`, at most `initial` when given; the dtype is kept."""
    x = tensor(x)
    if x.dtype == np.bool_:  # TensorFlow's reduce_min refuses bools; Keras takes them
        result = plain(np.min)(array(x), axis=axis_tuple(axis), keepdims=keepdims)
        return result if initial is None else plain(np.minimum)(
            array(result), bool(initial))
    result = fl_ops.reduce_min(x, axis=axis, keepdims=keepdims)
    return result if initial is None else fl_ops.minimum(result, tensor(initial, x.dtype))


amax, amin = max, min


def std(x, axis=None, keepdims=False):
    """The standard deviation over `axis` (divides by n); integers give floatx()."""
    x = tensor(x)
    return fl_math.reduce_std(tensor(x, _dtypes.floating(x.dtype)), axis=axis, keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    """The variance over `axis` (divides by n); integers give floatx()."""
    x = tensor(x)
    return fl_math.reduce_variance(tensor(x, _dtypes.floating(x.dtype)), axis=axis,
                                   keepdims=keepdims)


def _np_reduce(function, rule):
    def reduce(x, axis=None, keepdims=False):
        x = array(x)
        dtype = rule(x.dtype)
        with np.errstate(all="ignore"):
            return np.asarray(function(x.astype(dtype), axis=axis_tuple(axis),
                                       keepdims=keepdims)).astype(dtype)
    return plain(reduce)


def _same(dtype):
    return dtype


all = _np_reduce(np.all, lambda dtype: "bool")
any = _np_reduce(np.any, lambda dtype: "bool")
ptp = _np_reduce(np.ptp, _same)
median = _np_reduce(np.median, _dtypes.floating)
nansum = _np_reduce(np.nansum, _sum_dtype)
nanprod = _np_reduce(np.nanprod, _sum_dtype)
nanmean = _np_reduce(np.nanmean, _dtypes.floating)
nanmax = _np_reduce(np.nanmax, _same)
nanmin = _np_reduce(np.nanmin, _same)
nanstd = _np_reduce(np.nanstd, _dtypes.floating)
nanvar = _np_reduce(np.nanvar, _dtypes.floating)
nanmedian = _np_reduce(np.nanmedian, _dtypes.floating)
for _name, _what in (("all", "True when every value over `axis` is nonzero"),
                     ("any", "True when some value over `axis` is nonzero"),
                     ("ptp", "max - min over `axis`, dtype kept"),
                     ("median", "the median over `axis`; integers give floatx()"),
                     ("nansum", "the sum over `axis` with nan counted as 0"),
                     ("nanprod", "the product over `axis` with nan counted as 1"),
                     ("nanmean", "the mean over `axis` of the values that are not nan"),
                     ("nanmax", "the largest value over `axis`, ignoring nan"),
                     ("nanmin", "the smallest value over `axis`, ignoring nan"),
                     ("nanstd", "the standard deviation over `axis`, ignoring nan"),
                     ("nanvar", "the variance over `axis`, ignoring nan"),
                     ("nanmedian", "the median over `axis`, ignoring nan")):
    globals()[_name].__doc__ = f"{_what[0].upper()}{_what[1:]} (keras.ops.{_name})."


def _positions(function):
    def position(x, axis=None, keepdims=False):
        result = function(array(x), axis=axis, keepdims=keepdims)
        return np.asarray(result).astype("int32")
    return plain(position)


argmax = _positions(np.argmax)
argmin = _positions(np.argmin)
nanargmax = _positions(np.nanargmax)
nanargmin = _positions(np.nanargmin)
argmax.__doc__ = "Index of the largest value along `axis` (of the flat array when None), int32."
argmin.__doc__ = "Index of the smallest value along `axis` (of the flat array when None), int32."
nanargmax.__doc__ = "Like `argmax`, ignoring nan."
nanargmin.__doc__ = "Like `argmin`, ignoring nan."


@plain
def argsort(x, axis=-1):
    """Indices that sort `x` along `axis` (stable), int32."""
    x = array(x)
    return np.argsort(x if x.ndim else x.reshape(1), axis=axis, kind="stable").astype("int32")


@plain
def argpartition(x, kth, axis=-1):
    """Indices that put the `kth` smallest value of `x` in place along `axis`, int32."""
    return np.argpartition(array(x), kth, axis=axis).astype("int32")


@plain
def count_nonzero(x, axis=None):
    """How many values over `axis` are not zero, int32."""
    return np.asarray(np.count_nonzero(array(x), axis=axis_tuple(axis))).astype("int32")


def _scan(function, nan=False):
    def scan(x, axis=None, dtype=None):
        x = array(x, dtype)
        if x.dtype == np.bool_:
            x = x.astype("int32")
        if axis is None:
            x, axis = x.reshape(-1), 0
        if nan:
            x = np.where(np.isnan(x), 0 if function is np.cumsum else 1, x) \
                if x.dtype.kind == "f" else x
        return function(x, axis=axis).astype(x.dtype)
    return plain(scan)


cumsum, cumprod = _scan(np.cumsum), _scan(np.cumprod)
nancumsum, nancumprod = _scan(np.cumsum, nan=True), _scan(np.cumprod, nan=True)
cumsum.__doc__ = "Running sums along `axis` (of the flat array when None); bools add as int32."
cumprod.__doc__ = "Running products along `axis` (of the flat array when None)."
nancumsum.__doc__ = "Running sums along `axis`, nan counted as 0."
nancumprod.__doc__ = "Running products along `axis`, nan counted as 1."


def _quantiles(function, scale):
    def quantile(x, q, axis=None, method="linear", keepdims=False):
        x = array(x)
        dtype = _dtypes.floating(x.dtype)
        values = np.asarray(q, dtype="float64") / scale
        return np.asarray(function(x.astype("float64"), values, axis=axis_tuple(axis),
                                   method=method, keepdims=keepdims)).astype(dtype)
    return plain(quantile)


quantile, percentile = _quantiles(np.quantile, 1), _quantiles(np.quantile, 100)
nanquantile, nanpercentile = _quantiles(np.nanquantile, 1), _quantiles(np.nanquantile, 100)
quantile.__doc__ = "The `q`-th quantiles (0..1) of `x` over `axis`, with NumPy's `method`s."
percentile.__doc__ = "The `q`-th percentiles (0..100) of `x` over `axis`."
nanquantile.__doc__ = "Like `quantile`, ignoring nan."
nanpercentile.__doc__ = "Like `percentile`, ignoring nan."


@plain
def average(x, axis=None, weights=None):
    """The mean of `x` over `axis`, weighted by `weights`; integers give floatx().

    >>> import feedline as fl
    >>> float(fl.keras.ops.average([1.0, 2.0, 3.0], weights=[0.0, 1.0, 1.0]))
    2.5
    """
    dtype = _dtypes.result_type(_dtypes.dtype_of(x), float, *(
        () if weights is None else (_dtypes.dtype_of(weights),)))
    x = array(x, dtype)
    w = None if weights is None else array(weights, dtype)
    return np.asarray(np.average(x, axis=axis, weights=w)).astype(dtype)


@plain
def trace(x, offset=0, axis1=0, axis2=1):
    """The sum of a diagonal of `x` (shifted by `offset`); small integers add as int32."""
    x = array(x)
    dtype = _sum_dtype(x.dtype)
    return np.trace(x.astype(dtype), offset, axis1, axis2).astype(dtype)


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over `axis`, computed without overflow; integers give floatx()."""
    x = tensor(x)
    return fl_ops.reduce_logsumexp(tensor(x, _dtypes.floating(x.dtype)), axis=axis,
                                   keepdims=keepdims)

__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
