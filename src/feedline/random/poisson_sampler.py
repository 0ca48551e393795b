"""`poisson` and `stateless_poisson`: Poisson(lam) samples with TensorFlow's CPU values.

TensorFlow's kernel works in float64 on each output's own stream
(`feedline.random.per_output`, uniforms only), with two regimes:

- lam < 10, Knuth's product: multiply uniforms until the product is at most `exp(-lam)`; the
  sample is the number of uniforms it took, minus one;
- lam >= 10, Hormann's transformed rejection (PTRS, Insurance: Mathematics and Economics 12,
  1993): with `b = 0.931 + 2.53 sqrt(lam)`, `a = -0.059 + 0.02483 b`, draw `u` (minus 0.5)
  and `v`, let `us = 0.5 - |u|` and `k = floor((2a / us + b) u + lam + 0.43)`; accept `k` at
  once when `us >= 0.07` and `v <= 0.9277 - 3.6224 / (b - 2)`; else reject a negative `k` or
  `us < 0.013 and v > us`; else accept when
  `log(v (1.1239 + 1.1328 / (b - 3.4)) / (a / us^2 + b)) <= -lam + k log(lam) - lgamma(k+1)`.

The layout and the per-output streams are those of `feedline.random.gamma_sampler`. The values were
checked against an independent recomputation of that algorithm from the Philox outputs, not
against numbers printed by TensorFlow (none is published for a seeded call). An infinite
or NaN `lam` gives itself for float dtypes (0 for integers) without drawing: TensorFlow's
kernel does not document these cases.

>>> import feedline as fl
>>> x = fl.random.poisson([10], lam=[1.0, 25.0], seed=3)
>>> x.shape, x.dtype
(TensorShape([10, 2]), tf.float32)
"""

import math

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..ops._convert import _as_array, _result
from ..ops._eager import returns_tensors
from .ops import _reserve, _shape
from .per_output import OutputStreams, lgamma
from .stateless import key_counter

_RATE_DTYPES = ("float16", "float32", "float64", "int32", "int64")


def _knuth(reader, exp_neg_rate):
    product, count = 1.0, 0.0
    while True:
        product *= reader.uniform()
        if product <= exp_neg_rate:
            return count
        count += 1


def _hormann(reader, rate, highest):
    log_rate = math.log(rate)
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inverse_acceptance = 1.1239 + 1.1328 / (b - 3.4)
    while True:
        u = reader.uniform() - 0.5
        v = reader.uniform()
        shifted = 0.5 - abs(u)
        k = math.floor((2 * a / shifted + b) * u + rate + 0.43)
        if k > highest:  # would overflow the output dtype: draw again
            continue
        if shifted >= 0.07 and v <= 0.9277 - 3.6224 / (b - 2):
            return k
        if k < 0 or (shifted < 0.013 and v > shifted):
            continue
        s = math.log(v * inverse_acceptance / (a / (shifted * shifted) + b))
        if s <= -rate + k * log_rate - lgamma(k + 1):
            return k


def samples(rates, per_rate, key, counter, dtype):
    """`per_rate` Poisson values for each of `rates` (flat), as float64 in TensorFlow's layout
    `(per_rate, len(rates))`; `dtype` (the output's) bounds the values as TensorFlow does."""
    rates = np.asarray(rates, np.float64).reshape(-1)
    highest = float(np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max)
    out = np.empty((per_rate, rates.size), np.float64)
    streams = OutputStreams(key, counter, per_rate * rates.size)
    for column, rate in enumerate(rates.tolist()):
        if math.isnan(rate) or (math.isinf(rate) and rate > 0):
            out[:, column] = rate  # no draw would end TensorFlow's rejection loop
            continue
        exp_neg_rate = math.exp(-rate) if rate < 10 else None
        for row in range(per_rate):
            reader = streams.reader(column * per_rate + row)
            out[row, column] = _knuth(reader, exp_neg_rate) if exp_neg_rate is not None \
                else _hormann(reader, rate, highest)
    return out


def _rates(lam, what):
    rates = np.asarray(_as_array(lam, "lam"))
    if rates.dtype.name not in _RATE_DTYPES:
        raise TypeError(f"{what}: lam must be a float16, float32, float64, int32 or int64 "
                        f"tensor, got dtype {rates.dtype}")
    return rates


def _output_dtype(dtype, what):
    dtype = dtypes.as_dtype(dtype)
    if dtype.name not in _RATE_DTYPES:
        raise TypeError(f"{what}: dtype must be float16, float32, float64, int32 or int64, got "
                        f"{'string' if dtype == dtypes.string else dtype.name}")
    return dtype


def _cast(values, dtype):
    if dtype.kind in "iu":
        values = np.where(np.isfinite(values), values, 0)  # C++ leaves these undefined
    return values.astype(dtype)


@returns_tensors
def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """Samples of Poisson(lam): `shape` samples for each rate in `lam`.

    Args:
        shape: how many samples to draw for each rate.
        lam: the rate(s), any shape (float16/32/64 or int32/64; Python floats are float32).
        dtype: float16, float32 (default), float64, int32 or int64.
        seed: the op seed, combined with `fl.random.set_seed` as for the other random ops.
        name: ignored.

    Returns:
        A tensor of shape `shape + lam.shape` and `dtype`.

    Raises:
        TypeError: for another `dtype` or `lam` dtype.
        InvalidArgumentError: for a negative size in `shape`.

    >>> import feedline as fl
    >>> fl.random.poisson([3], lam=[[1.0], [5.0]], dtype=fl.int64, seed=1).shape
    TensorShape([3, 2, 1])
    """
    dtype = _output_dtype(dtype, "poisson")
    rates = _rates(lam, "poisson")
    dims = _shape(shape)
    per_rate = int(np.prod(dims, dtype=np.int64))
    key, counter = _reserve("RandomPoissonV2", seed, f"{rates.dtype.name}>{dtype.name}",
                            per_rate * rates.size * 256)
    values = samples(rates, per_rate, key, counter, dtype).reshape(dims + rates.shape)
    return _result(_cast(values, dtype))


@returns_tensors
def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Samples of Poisson(lam) fixed by `seed=[a, b]`; `shape` is the whole output shape.

    As in TensorFlow, `shape` must end with `lam`'s shape (`lam` is not broadcast), and the
    default dtype is int32. The stream is the one `stateless_normal` reads for the same seed.

    Raises:
        InvalidArgumentError: when `shape` does not end with `lam`'s shape, or the seed is not
            two integers.

    >>> import feedline as fl
    >>> fl.random.stateless_poisson([10, 2], seed=[12, 34], lam=[5, 15]).dtype
    tf.int32
    """
    dtype = _output_dtype(dtype, "stateless_poisson")
    rates = _rates(lam, "stateless_poisson")
    dims = _shape(shape)
    if rates.ndim > len(dims) or dims[len(dims) - rates.ndim:] != rates.shape:
        raise InvalidArgumentError(
            f"stateless_poisson: shape must end with lam's shape: shape {list(dims)} does not "
            f"end with {list(rates.shape)}; write shape={[*dims, *rates.shape]}")
    key, counter = key_counter(seed)
    size = int(np.prod(dims, dtype=np.int64))
    if size == 0:
        return _result(np.zeros(dims, dtype))
    values = samples(rates, size // rates.size, key, counter, dtype).reshape(dims)
    return _result(_cast(values, dtype))
