"""`keras.ops` spectra and distances: stft, istft (as real/imaginary pairs) and cdist.

Keras' `stft` pads each signal by `fft_length // 2` on both sides by reflection when
`center=True`, centres a periodic `window` of `sequence_length` in `fft_length`, and runs
TensorFlow's STFT (here `fl.signal.stft`); it returns `(real, imag)`, each
(..., frames, fft_length // 2 + 1). `istft` undoes it with the overlap-add window that
makes the round trip exact.

>>> import feedline as fl
>>> signal = fl.sin(fl.range(64.0) / 3)
>>> real, imag = fl.keras.ops.stft(signal, 16, 8, 16)
>>> real.shape, imag.shape
(TensorShape([9, 9]), TensorShape([9, 9]))
>>> back = fl.keras.ops.istft((real, imag), 16, 8, 16)
>>> back.shape, bool(abs(back.numpy() - signal.numpy()).max() < 1e-5)
(TensorShape([64]), True)
"""

import numpy as np

from ... import signal as fl_signal
from . import _dtypes
from ._apply import array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


def _window(window, sequence_length, fft_length, dtype):
    """The analysis window, centred by zeros inside `fft_length` (None for no window)."""
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(f"window must be 'hann', 'hamming', an array or None, got "
                             f"{window!r}")
        make = fl_signal.hann_window if window == "hann" else fl_signal.hamming_window
        values = array(make(sequence_length, periodic=True, dtype=dtype))
    else:
        values = array(window, dtype)
    if values.shape != (sequence_length,):
        raise ValueError(f"window must have shape ({sequence_length},) (sequence_length), "
                         f"got {values.shape}")
    left = (fft_length - sequence_length) // 2
    return np.pad(values, (left, fft_length - sequence_length - left))


def _check_stride(sequence_stride):
    if not isinstance(sequence_stride, int) or sequence_stride <= 0:
        raise ValueError(f"sequence_stride must be a positive integer, got {sequence_stride!r}")


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """The short-time Fourier transform of the last axis of `x`, as (real, imag).

    Raises:
        TypeError: for inputs other than float32 or float64 (as Keras' TensorFlow backend).
        ValueError: for `fft_length < sequence_length`, a bad window or stride.
    """
    _check_stride(sequence_stride)
    x = tensor(x)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"stft: x must be float32 or float64, got {x.dtype.name}; cast first")
    if fft_length < sequence_length:
        raise ValueError(f"stft: fft_length ({fft_length}) must be at least sequence_length "
                         f"({sequence_length})")
    values = array(x)
    if center:
        half = fft_length // 2
        values = np.pad(values, [(0, 0)] * (values.ndim - 1) + [(half, half)], mode="reflect")
    padded = _window(window, sequence_length, fft_length, x.dtype.name)
    window_fn = None if padded is None else (lambda length, dtype: padded)
    spectrum = array(fl_signal.stft(tensor(values), fft_length, sequence_stride,
                                    fft_length=fft_length, window_fn=window_fn))
    return plain(lambda: (spectrum.real.copy(), spectrum.imag.copy()))()


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann",
          center=True):
    """The signal whose `stft` is `x` = (real, imag); `length` trims or pads the result.

    Raises:
        ValueError: for `x` that is not a pair of float arrays of one shape.
    """
    _check_stride(sequence_stride)
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError("istft: x must be a tuple (real, imag) of two tensors")
    real, imaginary = array(x[0]), array(x[1])
    if real.shape != imaginary.shape or real.dtype.kind != "f" or imaginary.dtype.kind != "f":
        raise ValueError(f"istft: real and imag must be float tensors of one shape, got "
                         f"{real.dtype}{real.shape} and {imaginary.dtype}{imaginary.shape}")
    dtype = _dtypes.result_type(real.dtype.name, imaginary.dtype.name)
    complex_dtype = "complex128" if dtype == "float64" else "complex64"
    spectrum = (real + 1j * imaginary).astype(complex_dtype)
    padded = _window(window, sequence_length, fft_length, dtype)
    window_fn = None if padded is None else fl_signal.inverse_stft_window_fn(
        sequence_stride, lambda length, dtype: padded)
    signal = array(fl_signal.inverse_stft(tensor(spectrum), fft_length, sequence_stride,
                                          fft_length=fft_length, window_fn=window_fn))
    start = fft_length // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = -(fft_length // 2)
    else:
        end = fft_length + sequence_stride * (spectrum.shape[-2] - 1)
    return plain(lambda: signal[..., start:end].copy())()


@plain
def cdist(x, y):
    """The Euclidean distance between every row of `x` and every row of `y`.

    >>> import feedline as fl
    >>> fl.keras.ops.cdist(fl.constant([[0.0, 0.0]]), fl.constant([[3.0, 4.0]])).numpy().tolist()
    [[5.0]]

    Raises:
        ValueError: for inputs below rank 2 or last axes of different sizes.
    """
    a, b = array(x), array(y)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"cdist: inputs must have rank >= 2, got shapes {a.shape}, {b.shape}")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"cdist: the last axes must match, got {a.shape} and {b.shape}")
    dtype = _dtypes.result_type(a.dtype.name, b.dtype.name)
    difference = a[..., :, None, :].astype(dtype) - b[..., None, :, :].astype(dtype)
    return np.sqrt(np.square(difference).sum(axis=-1)).astype(dtype)


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
