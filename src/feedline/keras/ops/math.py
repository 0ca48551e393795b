"""`keras.ops` math: segment reductions, top-k, erf family, FFTs, framing.

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.segment_sum(fl.constant([1, 2, 3]), fl.constant([0, 0, 1])).numpy().tolist()
[3, 3]
>>> values, indices = ops.top_k(fl.constant([1, 5, 3]), 2)
>>> values.numpy().tolist(), indices.dtype.name
([5, 3], 'int32')
"""

import numpy as np

from ... import math as fl_math
from ... import ops as fl_ops
from . import _dtypes
from ._apply import array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


def _segments(reduce, empty):
    def segment(data, segment_ids, num_segments=None, sorted=False):
        data, ids = array(data), array(segment_ids).astype("int64")
        count = int(num_segments) if num_segments is not None else int(ids.max()) + 1
        result = np.full((count,) + data.shape[1:], empty(data.dtype), data.dtype)
        keep = (ids >= 0) & (ids < count)
        reduce.at(result, ids[keep], data[keep])
        return result
    return plain(segment)


def _lowest(dtype):
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    return np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max


segment_sum = _segments(np.add, lambda dtype: 0)
segment_prod = _segments(np.multiply, lambda dtype: 1)
segment_max = _segments(np.maximum, _lowest)
segment_min = _segments(np.minimum, _highest)
segment_sum.__doc__ = "The sum of the rows of `data` in each segment (0 for empty ones)."
segment_prod.__doc__ = "The product of the rows of `data` in each segment (1 for empty ones)."
segment_max.__doc__ = "The largest row of `data` in each segment (the dtype's lowest if empty)."
segment_min.__doc__ = "The smallest row of `data` in each segment (the dtype's highest if empty)."


@plain
def top_k(x, k, sorted=True):
    """The `k` largest values along the last axis and their int32 indices (first wins ties)."""
    x = array(x)
    order = np.argsort(-x if x.dtype != np.bool_ else ~x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, -1), order.astype("int32")


@plain
def in_top_k(targets, predictions, k):
    """True where the target class is among the `k` highest predictions of its row."""
    predictions, targets = array(predictions), array(targets).astype("int64")
    target_values = np.take_along_axis(predictions, targets[:, None], -1)
    return (predictions > target_values).sum(-1) < k


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over `axis`, without overflow."""
    x = tensor(x)
    return fl_ops.reduce_logsumexp(tensor(x, _dtypes.floating(x.dtype)), axis=axis,
                                   keepdims=keepdims)


def erf(x):
    """The error function."""
    x = tensor(x)
    return fl_math.erf(tensor(x, _dtypes.floating(x.dtype)))


def rsqrt(x):
    """1 / sqrt(x)."""
    x = tensor(x)
    return fl_math.rsqrt(tensor(x, _dtypes.floating(x.dtype)))


def erfinv(x):
    """The inverse of the error function (Newton steps from a closed-form start)."""
    x = array(x)
    dtype = _dtypes.floating(x.dtype)
    y = x.astype("float64")
    with np.errstate(all="ignore"):
        a = 0.147  # Winitzki's approximation, then refined with Newton's method
        ln = np.log1p(-y * y)
        first = 2 / (np.pi * a) + ln / 2
        guess = np.sign(y) * np.sqrt(np.sqrt(first ** 2 - ln / a) - first)
        erf_values = np.vectorize(__import__("math").erf)
        for _ in range(3):
            guess = guess - (erf_values(guess) - y) / (2 / np.sqrt(np.pi) * np.exp(-guess ** 2))
    return plain(lambda: guess.astype(dtype))()


@plain
def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of `sequence_length` values every `sequence_stride` along the last axis."""
    x = array(x)
    count = 1 + (x.shape[-1] - sequence_length) // sequence_stride
    starts = np.arange(count) * sequence_stride
    return x[..., starts[:, None] + np.arange(sequence_length)]


def _complex_pair(x):
    real, imag = x
    return array(real) + 1j * array(imag), array(real).dtype


@plain
def fft(x):
    """The FFT over the last axis of the complex number given as (real, imag)."""
    value, dtype = _complex_pair(x)
    result = np.fft.fft(value)
    return result.real.astype(dtype), result.imag.astype(dtype)


@plain
def fft2(x):
    """The 2-D FFT over the last two axes of (real, imag)."""
    value, dtype = _complex_pair(x)
    result = np.fft.fft2(value)
    return result.real.astype(dtype), result.imag.astype(dtype)


@plain
def ifft2(x):
    """The inverse 2-D FFT over the last two axes of (real, imag)."""
    value, dtype = _complex_pair(x)
    result = np.fft.ifft2(value)
    return result.real.astype(dtype), result.imag.astype(dtype)


@plain
def rfft(x, fft_length=None):
    """The FFT of real `x` over its last axis, as (real, imag) of the non-negative frequencies."""
    x = array(x)
    result = np.fft.rfft(x, n=fft_length)
    return result.real.astype(x.dtype), result.imag.astype(x.dtype)


@plain
def irfft(x, fft_length=None):
    """The real signal whose rfft is (real, imag)."""
    value, dtype = _complex_pair(x)
    return np.fft.irfft(value, n=fft_length).astype(dtype)


from .math_signal import cdist, istft, stft  # noqa: E402,F401 - keras.ops.math has them

__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
