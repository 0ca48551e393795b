"""`stateless_binomial`: Binomial(counts, probs) samples fixed by a seed, with the algorithm of
TensorFlow's CPU kernel (`random_binomial_op.cc`).

Per output, in float64 on the output's own stream (uniforms read from the end of each
counter's pair, `feedline.random.per_output`):

- `counts <= 0` or `probs <= 0` gives 0, `probs >= 1` gives `counts`, a NaN `probs` gives NaN;
- with `p = probs` (or `q = 1 - probs` when probs > 0.5, the sample then being `counts` minus
  the draw for `q`): when `counts * p < 10`, inversion: add up geometric variables
  `ceil(log(u) / log1p(-p))` until the sum passes `counts`; the draw is how many were added.
  The stream of output `i` starts `42 * i` counters on;
- when `counts * p >= 10`, Hormann's BTRS transformed rejection (J. Statist. Comput. Simul.
  46, 1993) with a Stirling-series correction, from counter `256 * i` on.

Output `i` of the flat parameter `j` sits at `[..., j]`, counting samples of the first
parameter pair first, as in `feedline.random.gamma_sampler`. The values were checked against
an independent recomputation of this algorithm from the Philox outputs, not against numbers
printed by TensorFlow (none is published for a seeded call).

>>> import feedline as fl
>>> x = fl.random.stateless_binomial([2], seed=[123, 456], counts=[10.0, 20.0], probs=[0.8])
>>> x.shape, x.dtype
(TensorShape([2]), tf.int32)
"""

import math

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..ops._convert import _as_array, _result
from ..ops._eager import returns_tensors
from .ops import _shape
from .per_output import OutputStreams
from .stateless import key_counter

_DTYPES = ("float16", "float32", "float64", "int32", "int64")
_STIRLING_TAILS = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                   0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                   0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                   0.00833056343336287)  # log(k!) minus Stirling's formula, k = 0..9


def _inversion(reader, count, p):
    total, drawn = 0.0, 0
    log_q = math.log1p(-p)
    while True:
        total += math.ceil(math.log(reader.uniform()) / log_q)
        if total > count:
            return drawn
        drawn += 1


def _stirling_tail(k):
    if k <= 9:
        return _STIRLING_TAILS[int(k)]
    square = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / square) / square) / (k + 1)


def _btrs(reader, count, p):
    spread = math.sqrt(count * p * (1 - p))
    b = 1.15 + 2.53 * spread
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = count * p + 0.5
    v_r = 0.92 - 4.2 / b
    r = p / (1 - p)
    alpha = (2.83 + 5.1 / b) * spread
    m = math.floor((count + 1) * p)
    while True:
        u = reader.uniform() - 0.5
        v = reader.uniform()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or k > count:
            continue
        v = math.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
                 + (count + 1) * math.log((count - m + 1) / (count - k + 1))
                 + (k + 0.5) * math.log(r * (count - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m)
                 - _stirling_tail(k) - _stirling_tail(count - k))
        if v <= bound:
            return k


def _one_parameter(streams, first_output, per_batch, count, prob, kind):
    """The `per_batch` draws of one (count, prob) pair, float64."""
    one, ten, half = kind.type(1), kind.type(10), kind.type(0.5)
    if math.isnan(float(prob)):
        return np.full(per_batch, np.nan)
    if float(count) <= 0 or prob <= 0:
        return np.zeros(per_batch)
    if prob >= one:
        return np.full(per_batch, float(count))
    flipped = prob > half
    p = (one - prob) if flipped else prob
    # The regime test runs in the parameters' own dtype, as in the kernel.
    wide = bool(np.asarray(count, kind) * p >= ten)
    spacing = 256 if wide else 42  # counters reserved per output in each regime
    key, counter = streams
    outputs = OutputStreams(key, counter + spacing * first_output, per_batch, spacing)
    sampler = _btrs if wide else _inversion
    out = np.empty(per_batch)
    for row in range(per_batch):
        value = sampler(outputs.reader(row), float(count), float(p))
        out[row] = float(count) - value if flipped else value
    return out


@returns_tensors
def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial samples: successes in `counts` trials of probability `probs`, fixed by `seed`.

    Args:
        shape: the output shape; it must end with the shape `counts` and `probs` broadcast to.
        seed: two integers, as for `stateless_uniform`.
        counts: the numbers of trials (float by default: it takes `probs`' dtype).
        probs: the probabilities of success (Python floats are float32).
        output_dtype: float16, float32, float64, int32 (default) or int64.
        name: ignored.

    Raises:
        InvalidArgumentError: when `counts` and `probs` do not broadcast, or `shape` does not
            end with their broadcast shape.

    >>> import feedline as fl
    >>> fl.random.stateless_binomial([5, 2], [1, 2], counts=[10.0, 20.0], probs=0.5).shape
    TensorShape([5, 2])
    """
    output_dtype = dtypes.as_dtype(output_dtype)
    if output_dtype.name not in _DTYPES:
        raise TypeError(f"stateless_binomial: output_dtype must be one of {', '.join(_DTYPES)}"
                        f", got {output_dtype}")
    probs = np.asarray(_as_array(probs, "probs"))
    if probs.dtype.name not in _DTYPES:
        raise TypeError(f"stateless_binomial: probs must be a float tensor, got {probs.dtype}")
    counts = np.asarray(counts if isinstance(counts, np.ndarray)
                        else np.asarray(_as_array(counts, "counts").tolist(), probs.dtype))
    if counts.dtype != probs.dtype:
        raise InvalidArgumentError(f"stateless_binomial: counts ({counts.dtype}) and probs "
                                   f"({probs.dtype}) must have the same dtype; cast one")
    try:
        both = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise InvalidArgumentError(
            f"stateless_binomial: counts and probs must have compatible batch dimensions: "
            f"{list(counts.shape)} vs. {list(probs.shape)}") from None
    dims = _shape(shape)
    if len(both) > len(dims) or dims[len(dims) - len(both):] != both:
        raise InvalidArgumentError(
            f"stateless_binomial: shape must end with the broadcast shape of counts and probs: "
            f"shape {list(dims)} does not end with {list(both)}; write shape="
            f"{[*dims, *both]}")
    streams = key_counter(seed)
    size = int(np.prod(dims, dtype=np.int64))
    batches = int(np.prod(both, dtype=np.int64))
    if size == 0:
        return _result(np.zeros(dims, output_dtype))
    per_batch = size // batches
    flat_counts = np.broadcast_to(counts, both).reshape(-1)
    flat_probs = np.broadcast_to(probs, both).reshape(-1)
    out = np.empty((per_batch, batches))
    for column in range(batches):
        out[:, column] = _one_parameter(streams, column * per_batch, per_batch,
                                        flat_counts[column], flat_probs[column], probs.dtype)
    if output_dtype.kind in "iu":
        out = np.where(np.isnan(out), 0, out)  # C++ leaves NaN to int undefined
    return _result(out.reshape(dims).astype(output_dtype))
