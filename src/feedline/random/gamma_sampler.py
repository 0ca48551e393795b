"""`gamma` and `stateless_gamma`: Gamma(alpha, beta) samples with TensorFlow's CPU values.

The sampler is Marsaglia and Tsang's (ACM TOMS 26(3), 2000), as TensorFlow's kernels run it in
float64 on each output's own stream (`feedline.random.per_output`):

- alpha == 1: one uniform `u`, the sample is `-log1p(-u)` (an exponential);
- otherwise, with `d = alpha - 1/3` (`alpha + 2/3` when alpha < 1) and `c = 1 / (3 sqrt(d))`:
  take a normal `x`; if `v = 1 + c x` is not positive take the next normal; else cube `v`,
  take a uniform `u`, and accept `d v` when `u < 1 - 0.0331 x^4` or
  `log(u) < x^2 / 2 + d (1 - v + log(v))`; when alpha < 1, multiply the accepted value by
  the next uniform raised to `1 / alpha` (the "boost").

Output `i` of alpha `a` (flat, `i` counting the samples of the first alpha, then the second,
...) sits at `[..., a]` of the result, and its stream starts `256 * (a * samples + i)` counters
on. The result is `max(sample / beta, tiny)` in `dtype`, as `tf.random.gamma` computes it.
An alpha of 0 gives `tiny`; an alpha at or below -2/3 (or NaN), for which TensorFlow's
rejection loop never ends, gives NaN here.

The values were checked against an independent recomputation of that algorithm from the Philox
outputs, not against numbers printed by TensorFlow (none is published for a seeded call).

>>> import feedline as fl
>>> x = fl.random.gamma([1000], alpha=[0.5, 3.0], seed=1)
>>> x.shape, x.dtype
(TensorShape([1000, 2]), tf.float32)
"""

import math

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..ops._convert import _as_array, _result, is_python
from ..ops._eager import returns_tensors
from ..tensor import Tensor
from .ops import _float_dtype, _reserve, _shape
from .per_output import OutputStreams
from .stateless import key_counter


def _one_sample(reader, alpha, d, c):
    """One Gamma(alpha, 1) value from `reader`, in float64 (see the module docstring)."""
    if alpha == 1.0:
        return -math.log1p(-reader.uniform())
    while True:
        x = reader.normal()
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = reader.uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or \
                math.log(u) < 0.5 * x * x + d * (1 - v + math.log(v)):
            value = d * v
            if alpha < 1:
                power = 1 / alpha if alpha else math.inf  # C's 1 / 0.0
                value *= math.pow(reader.uniform(), power)
            return value


def samples(alphas, per_alpha, key, counter):
    """`per_alpha` Gamma(alpha, 1) values for each of `alphas` (flat), float64, laid out as
    TensorFlow lays them: shape `(per_alpha, len(alphas))`."""
    alphas = np.asarray(alphas, np.float64).reshape(-1)
    out = np.empty((per_alpha, alphas.size), np.float64)
    streams = OutputStreams(key, counter, per_alpha * alphas.size)
    for column, alpha in enumerate(alphas.tolist()):
        d = alpha + (2.0 / 3 if alpha < 1 else -1.0 / 3)
        if not d > 0:  # alpha <= -2/3 or NaN: TensorFlow's loop would never end
            out[:, column] = math.nan
            continue
        c = 1.0 / 3 / math.sqrt(d)
        for row in range(per_alpha):
            out[row, column] = _one_sample(streams.reader(column * per_alpha + row), alpha, d, c)
    return out


def _convert(value, dtype, what, name):
    """`value` as an array of `dtype`, as `convert_to_tensor(value, dtype=dtype)` makes it:
    Python numbers straight to `dtype` (0.3 becomes the float64 0.3, not a float32's value);
    a tensor must already have `dtype`."""
    if isinstance(value, Tensor) and value.dtype != dtype:
        raise ValueError(f"{what}: {name} is a {value.dtype} tensor but dtype is {dtype.name}; "
                         f"write fl.cast({name}, fl.{dtype.name}) or pass dtype={value.dtype}")
    array = np.asarray(value if not is_python(value) else _as_array(value, name).tolist())
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{what}: {name} must be a number or a tensor of numbers, got "
                        f"{value!r}")
    return np.asarray(value if is_python(value) else array, dtype=dtype)


def _parameters(alpha, beta, dtype, what):
    """`alpha` and `beta` as arrays of `dtype`, and the shape they broadcast to."""
    dtype = _float_dtype(dtype, what)
    alpha = _convert(alpha, dtype, what, "alpha")
    beta = _convert(1 if beta is None else beta, dtype, what, "beta")
    try:
        both = np.broadcast_shapes(alpha.shape, beta.shape)
    except ValueError:
        raise InvalidArgumentError(f"{what}: alpha of shape {list(alpha.shape)} and beta of "
                                   f"shape {list(beta.shape)} do not broadcast") from None
    return dtype, np.broadcast_to(alpha, both), beta


def _finish(values, beta, dtype):
    """`max(values / beta, tiny)` in `dtype`, as TensorFlow's Python wrapper finishes."""
    scaled = values.astype(dtype) / beta
    return np.maximum(dtype.type(np.finfo(dtype).tiny), scaled).astype(dtype)


@returns_tensors
def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Samples of Gamma(alpha, beta) (`beta` is the rate: the mean is `alpha / beta`).

    Args:
        shape: how many samples to draw for each distribution.
        alpha: the concentration(s), any shape; broadcast with `beta`.
        beta: the inverse scale(s); None means 1.
        dtype: float16, float32 (default) or float64, for `alpha`, `beta` and the result.
        seed: the op seed, combined with `fl.random.set_seed` as for the other random ops.
        name: ignored.

    Returns:
        A tensor of shape `shape + broadcast(alpha, beta).shape`; `[..., j]` holds samples of
        the j-th distribution. Zeros are raised to the dtype's smallest positive value.

    Raises:
        ValueError: for a dtype that is not a float.
        InvalidArgumentError: for a negative size in `shape`, or shapes that do not broadcast.

    >>> import feedline as fl
    >>> fl.random.gamma([3, 2], alpha=[[1.0], [3.0]], beta=[[3.0, 4.0]], seed=7).shape
    TensorShape([3, 2, 2, 2])
    """
    dtype, alpha, beta = _parameters(alpha, beta, dtype, "gamma")
    dims = _shape(shape)
    per_alpha = int(np.prod(dims, dtype=np.int64))
    key, counter = _reserve("RandomGamma", seed, dtype.name, per_alpha * alpha.size * 256)
    values = samples(alpha, per_alpha, key, counter).reshape(dims + alpha.shape)
    return _result(_finish(values, beta, dtype))


@returns_tensors
def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Samples of Gamma(alpha, beta) fixed by `seed=[a, b]`; `shape` is the whole output shape.

    Unlike `gamma`, `shape` must end with the shape `alpha` and `beta` broadcast to (as in
    TensorFlow): `stateless_gamma([10, 2], seed, alpha=[0.5, 1.5])` gives 10 samples of two
    distributions. The stream is the one `stateless_normal` reads for the same seed.

    Raises:
        InvalidArgumentError: when `shape` does not end with the parameters' shape, or the
            seed is not two integers.

    >>> import feedline as fl
    >>> x = fl.random.stateless_gamma([4, 2], seed=[12, 34], alpha=[0.5, 1.5])
    >>> bool((x == fl.random.stateless_gamma([4, 2], seed=[12, 34], alpha=[0.5, 1.5])).all())
    True
    """
    dtype, alpha, beta = _parameters(alpha, beta, dtype, "stateless_gamma")
    dims = _shape(shape)
    if alpha.ndim > len(dims) or dims[len(dims) - alpha.ndim:] != alpha.shape:
        raise InvalidArgumentError(
            f"stateless_gamma: shape must end with the shape alpha and beta broadcast to: "
            f"shape {list(dims)} does not end with {list(alpha.shape)}; write shape="
            f"{[*dims, *alpha.shape]}")
    key, counter = key_counter(seed)
    size = int(np.prod(dims, dtype=np.int64))
    if size == 0:
        return _result(np.zeros(dims, dtype))
    if alpha.size == 0:
        raise InvalidArgumentError("stateless_gamma: alpha should have non-zero element count")
    values = samples(alpha, size // alpha.size, key, counter).reshape(dims)
    return _result(_finish(values, beta, dtype))
