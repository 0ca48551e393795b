"""`stateless_uniform`, `stateless_normal`, `stateless_truncated_normal`: values that depend on
`seed=[a, b]` only, never on earlier calls.

TensorFlow scrambles the pair first: the Philox output of the counter `(a, b)` under the fixed
key `(0x3ec8f720, 0x02461e29)` gives the key (its first two words) and the upper half of the
counter (the other two) of the stream the op reads. The distributions are those of the stateful
ops (`feedline.random.distributions`), so the values are TensorFlow's CPU values.

>>> import feedline as fl
>>> a = fl.random.stateless_uniform([3], seed=[1, 2])
>>> b = fl.random.stateless_uniform([3], seed=[1, 2])
>>> bool((a == b).all()), a.dtype
(True, tf.float32)
"""

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..ops._convert import _as_array, _result
from . import distributions
from .ops import _FLOATS, _INTS, _float_dtype, _scalar, _shape
from .philox import Philox
from ..ops._eager import returns_tensors

_SCRAMBLE_KEY = (0x3EC8F720, 0x02461E29)
_M64 = (1 << 64) - 1


def key_counter(seed):
    """The Philox `(key, counter)` TensorFlow derives from a stateless `seed=[a, b]`.

    Raises:
        InvalidArgumentError: when `seed` is not two integers.
    """
    pair = np.asarray(_as_array(seed, "seed"))
    if pair.shape != (2,) or pair.dtype.kind not in "iu":
        raise InvalidArgumentError(f"seed must be a vector of two integers, shape [2], got "
                                   f"{seed!r}; write seed=[1, 2]")
    mix = [int(word) for word in _scrambled(pair.reshape(1, 2))[0]]
    return mix[0] | mix[1] << 32, (mix[2] | mix[3] << 32) << 64


def _scrambled(pairs):
    """For each seed `(a, b)` of `pairs` (shape `(n, 2)`), the four words TensorFlow's scramble
    makes: the Philox output of the counter `(a, b)` under `_SCRAMBLE_KEY` (key words, then
    the upper counter words of the stream)."""
    pairs = np.asarray(pairs).astype(np.int64).view(np.uint64).reshape(-1, 2)
    low, high = np.uint64(0xFFFFFFFF), np.uint64(32)
    counters = np.stack([pairs[:, 0] & low, pairs[:, 0] >> high,
                         pairs[:, 1] & low, pairs[:, 1] >> high], axis=1)
    return Philox.bijection(counters, _SCRAMBLE_KEY)


@returns_tensors
def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg="auto_select"):
    """Uniform values of `shape` in `[minval, maxval)`, fixed by `seed`.

    For integers give both bounds, or neither for the dtype's whole range.

    Raises:
        ValueError: for an integer dtype with one bound only.

    >>> import feedline as fl
    >>> fl.random.stateless_uniform([2], seed=[7, 0], minval=0, maxval=10, dtype="int32").dtype
    tf.int32
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _FLOATS + _INTS + (np.dtype(np.uint32), np.dtype(np.uint64)):
        raise ValueError(f"stateless_uniform: dtype must be a float or integer dtype, got "
                         f"{dtype}")
    if dtype.kind in "iu":
        if (minval is None) != (maxval is None):
            raise ValueError(f"stateless_uniform: for integer dtype {dtype.name}, minval and "
                             f"maxval must be both None or both given; got minval={minval} "
                             f"and maxval={maxval}")
    elif maxval is None:
        maxval = 1
    dims = _shape(shape)
    size = int(np.prod(dims, dtype=np.int64))
    key, counter = key_counter(seed)
    if dtype.kind in "iu" and minval is None:
        return _result(distributions.full_int(key, counter, dtype, size).reshape(dims))
    if dtype.kind in "iu":
        low, high = _scalar(minval, dtype, "minval"), _scalar(maxval, dtype, "maxval")
        if not low < high:
            raise InvalidArgumentError(f"stateless_uniform: need minval < maxval, got {low} "
                                       f">= {high}")
        values = distributions.uniform(key, counter, dtype, size, int(low), int(high))
        return _result(values.reshape(dims))
    low, high = _scalar(minval, dtype, "minval"), _scalar(maxval, dtype, "maxval")
    values = distributions.uniform(key, counter, dtype, size).reshape(dims)
    return _result(np.asarray(values * (high - low) + low, dtype=dtype))


def _scaled(sample, what, shape, seed, mean, stddev, dtype):
    dtype = _float_dtype(dtype, what)
    dims = _shape(shape)
    key, counter = key_counter(seed)
    values = sample(key, counter, dtype, int(np.prod(dims, dtype=np.int64))).reshape(dims)
    values = values * _scalar(stddev, dtype, "stddev") + _scalar(mean, dtype, "mean")
    return _result(np.asarray(values, dtype=dtype))


@returns_tensors
def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                     alg="auto_select"):
    """Normal values of `shape` (`standard normal * stddev + mean`), fixed by `seed`.

    >>> import feedline as fl
    >>> fl.random.stateless_normal([2, 3], seed=[1, 2]).shape
    TensorShape([2, 3])
    """
    return _scaled(distributions.normal, "stateless_normal", shape, seed, mean, stddev, dtype)


@returns_tensors
def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg="auto_select"):
    """Normal values within two `stddev` of `mean`, fixed by `seed`."""
    return _scaled(distributions.truncated_normal, "stateless_truncated_normal", shape, seed,
                   mean, stddev, dtype)


@returns_tensors
def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """`num_samples` class ids per row of `logits` (`[batch, classes]`), fixed by `seed`: the
    draws of `categorical` on the stream `seed` gives (see the module docstring).

    >>> import feedline as fl
    >>> fl.random.stateless_categorical([[0.0, -np.inf, 0.0]], 4, seed=[1, 2]).shape
    TensorShape([1, 4])
    """
    from .ops import check_logits, multinomial  # noqa: PLC0415 - ops imports this module

    dtype = dtypes.as_dtype(dtype)
    if dtype not in _INTS:
        raise ValueError(f"stateless_categorical: dtype must be int32 or int64, got {dtype}")
    array, count = check_logits(logits, num_samples, "stateless_categorical")
    key, counter = key_counter(seed)
    return multinomial(array, count, dtype, key, counter)


def first_uniform_doubles(pairs):
    """For each stateless seed `(a, b)` in `pairs` (shape `(n, 2)`, int64), the first float64
    uniform of its stream: what a one-sample `stateless_categorical` draws, for many seeds at
    once (one Philox block each, vectorised)."""
    mix = _scrambled(pairs).astype(np.uint64)
    zero = np.zeros(len(mix), dtype=np.uint64)
    words = Philox.bijection(np.stack([zero, zero, mix[:, 2], mix[:, 3]], axis=1),
                             (mix[:, 0], mix[:, 1]))
    return distributions.unit_float64(words[:, 0], words[:, 1])
