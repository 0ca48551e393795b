"""`uniform`, `normal`, `truncated_normal`, `shuffle` and `categorical`: TensorFlow's seeded
random ops, with their values.

An op's two seeds come from `get_seed(seed)` (the global seed and the op's `seed=`). As in
TensorFlow's eager mode, calls with the same seeds, dtype and op share one kernel whose Philox
stream moves on after each call (by 256 counters per value drawn), so two equal calls give
different values and `set_seed` starts every stream again. Values equal TensorFlow's CPU
results for the same seeds: `set_seed(5); normal([2, 2], seed=1)` gives the numbers printed in
TensorFlow's documentation. Without any seed, each call draws fresh seeds.

>>> import feedline as fl
>>> fl.random.set_seed(5)
>>> [int(fl.random.uniform([], maxval=3, dtype=fl.int32, seed=10)) for _ in range(2)]
[2, 0]
>>> fl.random.set_seed(None)
"""

import secrets
import threading

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..ops._convert import _as_array, _dims, _result
from . import distributions, seed as _seed
from ..ops._eager import returns_tensors

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
_INTS = (dtypes.int32, dtypes.int64)
_kernels = {}  # (op, seeds, dtypes) -> the next counter of that kernel's stream
_kernels_generation = [None]  # the `set_seed` generation the kernels belong to
_kernels_lock = threading.Lock()


def _reserve(op, op_seed, kinds, counters):
    """The (key, counter) an op call draws from, moving its kernel's stream on by `counters`.

    Only calls with an op seed can meet their kernel again: without one, every call gets
    seeds never used before (the global seed's next op seed, or fresh random ones), so its
    kernel is used once and not kept, and a long pipeline keeps no kernel per element."""
    seed, seed2 = _seed.get_seed(op_seed)
    if seed is None or (seed == 0 and seed2 == 0):
        seed, seed2 = secrets.randbits(64), secrets.randbits(64)  # TensorFlow's "no seed"
    key = (op, seed, seed2, kinds)
    with _kernels_lock:
        if _kernels_generation[0] != _seed._generation[0]:  # set_seed starts every kernel anew
            _kernels.clear()
            _kernels_generation[0] = _seed._generation[0]
        counter = _kernels.get(key)
        if counter is None:
            counter = (seed2 & (2**64 - 1)) << 64  # a new kernel: the seed's first counter
        if op_seed is not None:
            _kernels[key] = counter + counters
    return seed & (2**64 - 1), counter


def _shape(shape):
    dims = _dims(shape, "shape")
    if any(size < 0 for size in dims):
        raise InvalidArgumentError(f"shape must not hold negative sizes, got {list(dims)}")
    return dims


def _float_dtype(dtype, what):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _FLOATS:
        raise ValueError(f"{what}: dtype must be float16, float32 or float64, got "
                         f"{'string' if dtype == dtypes.string else dtype.name}")
    return dtype


def _scalar(value, dtype, what):
    array = np.asarray(_as_array(value, what))
    if array.dtype == object:
        raise TypeError(f"{what} must be a number, got {value!r}")
    return array.astype(dtype)


@returns_tensors
def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform values in `[minval, maxval)` of `shape` (float32 in [0, 1) by default).

    Integers need `maxval`, as in TensorFlow; `minval` and `maxval` must then be scalars.

    Raises:
        ValueError: for an integer `dtype` without `maxval`, or another dtype.
        InvalidArgumentError: for integers with `minval >= maxval`, or a bad `shape`.

    >>> import feedline as fl
    >>> fl.random.uniform([2, 3], seed=1).shape, fl.random.uniform([], 5, 10, "int64", 1).dtype
    (TensorShape([2, 3]), tf.int64)
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _FLOATS + _INTS:
        raise ValueError(f"uniform: dtype must be float16, float32, float64, int32 or int64, "
                         f"got {'string' if dtype == dtypes.string else dtype.name}")
    if maxval is None:
        if dtype in _INTS:
            raise ValueError(f"uniform: must specify maxval for integer dtype {dtype.name}")
        maxval = 1
    dims = _shape(shape)
    size = int(np.prod(dims, dtype=np.int64))
    if dtype in _INTS:
        low, high = (_scalar(v, dtype, n) for v, n in ((minval, "minval"), (maxval, "maxval")))
        if low.ndim or high.ndim:
            raise InvalidArgumentError("uniform: minval and maxval must be scalars for "
                                       "integer dtypes")
        if not low < high:
            raise InvalidArgumentError(f"uniform: need minval < maxval, got {low} >= {high}")
        key, counter = _reserve("RandomUniformInt", seed, dtype.name, size * 256)
        values = distributions.uniform(key, counter, dtype, size, int(low), int(high))
        return _result(values.reshape(dims))
    plain_low = isinstance(minval, int) and minval == 0
    plain_high = isinstance(maxval, int) and maxval == 1
    key, counter = _reserve("RandomUniform", seed, dtype.name, size * 256)
    values = distributions.uniform(key, counter, dtype, size).reshape(dims)
    if plain_low and not plain_high:
        values = values * _scalar(maxval, dtype, "maxval")
    elif not plain_low:
        low, high = _scalar(minval, dtype, "minval"), _scalar(maxval, dtype, "maxval")
        values = values * (high - low) + low
    return _result(np.asarray(values, dtype=dtype))


@returns_tensors
def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal values of `shape`: `standard normal * stddev + mean`, float32 by default.

    >>> import feedline as fl
    >>> fl.random.set_seed(5)
    >>> fl.random.normal([2, 2], 0, 1, fl.float32, seed=1)
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[-1.3768897 , -0.01258316],
           [-0.169515  ,  1.0824056 ]], dtype=float32)>
    >>> fl.random.set_seed(None)
    """
    return _scaled("normal", "RandomStandardNormal", distributions.normal, shape, mean,
                   stddev, dtype, seed)


@returns_tensors
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal values within two `stddev` of `mean` (others are drawn again), float32.

    >>> import feedline as fl
    >>> bool(abs(fl.random.truncated_normal([1000], seed=3)).max() < 2)
    True
    """
    return _scaled("truncated_normal", "TruncatedNormal", distributions.truncated_normal,
                   shape, mean, stddev, dtype, seed)


def _scaled(function, kernel, sampler, shape, mean, stddev, dtype, seed):
    """Standard values from `sampler` on the stream of `kernel` (256 counters reserved per
    value, as TensorFlow's kernels do), times `stddev`, plus `mean`."""
    dtype = _float_dtype(dtype, function)
    dims = _shape(shape)
    size = int(np.prod(dims, dtype=np.int64))
    key, counter = _reserve(kernel, seed, dtype.name, size * 256)
    values = sampler(key, counter, dtype, size).reshape(dims)
    values = values * _scalar(stddev, dtype, "stddev") + _scalar(mean, dtype, "mean")
    return _result(np.asarray(values, dtype=dtype))


@returns_tensors
def shuffle(value, seed=None, name=None):
    """`value` with its first dimension in a random order (a copy; rows move whole).

    Uses TensorFlow's swaps: position `i` trades with `i + r % (n - i)` for the stream's
    next uint32 `r`, for `i` from 0 to n - 2.

    Raises:
        InvalidArgumentError: for a scalar.

    >>> import feedline as fl
    >>> sorted(fl.random.shuffle([1, 2, 3, 4], seed=7).tolist())
    [1, 2, 3, 4]
    """
    array = np.array(_as_array(value, "shuffle"))
    if array.ndim == 0:
        raise InvalidArgumentError("shuffle: value must have at least 1 dimension, got a scalar")
    size = len(array)
    if size <= 1 or array.size <= 1:
        return array
    kind = "string" if array.dtype == object else array.dtype.name
    key, counter = _reserve("RandomShuffle", seed, kind, -(-(size - 1) // 4))
    draws = distributions.blocks(key, counter, -(-(size - 1) // 4)).reshape(-1).tolist()
    order = list(range(size))
    for index in range(size - 1):
        other = index + draws[index] % (size - index)
        order[index], order[other] = order[other], order[index]
    return array[order]


@returns_tensors
def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`num_samples` class ids per row of `logits` (shape `[batch, classes]`), int64.

    Row `b` picks class `j` with probability `exp(logits[b, j])` over the row's sum;
    `-inf` logits are never picked. Each draw is a float64 uniform from two uint32s scaled
    by the row's total, located in the running sums. TensorFlow splits large batches
    between threads, each starting its rows further along the stream; Feedline reads the
    stream as one thread does, which is what TensorFlow does for small batches.

    Raises:
        InvalidArgumentError: when `logits` is not a matrix or `num_samples` is negative.

    >>> import feedline as fl
    >>> fl.random.categorical([[0.0, -np.inf]], 3, seed=1).tolist()
    [[0, 0, 0]]
    """
    dtype = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    if dtype not in _INTS:
        raise ValueError(f"categorical: dtype must be int32 or int64, got {dtype}")
    array, count = check_logits(logits, num_samples, "categorical")
    batch = array.shape[0]
    ceil4 = -(-count // 4) * 4 * 2  # two words per float64 draw
    key, counter = _reserve("Multinomial", seed, f"{array.dtype.name}>{dtype.name}",
                            batch * ceil4 * 256)
    return multinomial(array, count, dtype, key, counter)


def check_logits(logits, num_samples, what):
    """`(logits as a float matrix, num_samples)`, or the error TensorFlow raises."""
    array = np.asarray(_as_array(logits, what))
    if array.ndim != 2 or array.dtype.kind != "f":
        raise InvalidArgumentError(f"{what}: logits must be a float matrix [batch, "
                                   f"classes], got shape {list(array.shape)} of {array.dtype}")
    count = int(num_samples)
    if count < 0:
        raise InvalidArgumentError(f"{what}: num_samples must not be negative, got {count}")
    if array.shape[1] == 0:
        raise InvalidArgumentError(f"{what}: logits must have at least one class")
    return array, count


def running_sums(array):
    """Each row's unnormalised cumulative probabilities, in float64, as TensorFlow's kernel
    computes them: exp(logit - the row's largest finite logit), non-finite logits adding 0."""
    finite = np.isfinite(array)
    peak = np.where(finite, array, -np.inf).max(axis=1, initial=np.finfo(array.dtype).min)
    weights = np.where(finite, np.exp(array.astype(np.float64) - peak[:, None].astype(
        np.float64)), 0.0)
    return np.cumsum(weights, axis=1)


def multinomial(array, count, dtype, key, counter):
    """`count` class ids per row of the logits `array`, drawn from the Philox stream at
    `(key, counter)` as one thread of TensorFlow's kernel reads it: per draw, a float64
    uniform from two uint32s, scaled by the row's total and located in its running sums."""
    batch = array.shape[0]
    words = distributions.blocks(key, counter, -(-batch * count * 2 // 4)).reshape(-1)
    draws = distributions.unit_float64(words[0::2], words[1::2])[:batch * count]
    draws = draws.reshape(batch, count)
    sums = running_sums(array)
    out = np.empty((batch, count), dtype=dtype)
    for row in range(batch):
        out[row] = np.searchsorted(sums[row], draws[row] * sums[row, -1], side="right")
    return out
