"""`stft` and `inverse_stft`: a signal as a sequence of short spectra, and back.

`stft` cuts the signal into frames (`frame`), multiplies each by a window (Hann by default),
and takes the `rfft` of each: `[..., samples]` float32 gives complex64
`[..., frames, fft_length // 2 + 1]`, where `fft_length` defaults to the smallest power of 2
at least `frame_length` (TensorFlow's `signal/spectral_ops.py`). `inverse_stft` takes the
`irfft` of each frame, fits it to `frame_length`, windows it and overlap-adds the frames; with
the window of `inverse_stft_window_fn(frame_step)` it gives the signal back (away from its
first and last frame, where fewer frames overlap).

The simple audio tutorial's spectrogram of one second at 16 kHz:

>>> import feedline as fl
>>> spectrogram = fl.abs(stft(np.zeros(16000, np.float32), frame_length=255, frame_step=128))
>>> spectrogram.shape, spectrogram.dtype
(TensorShape([124, 129]), tf.float32)
"""

import numpy as np

from ..ops._eager import returns_tensors
from ._args import REAL_OF, complex_input, plain, real_input, scalar_int
from .fft import _irfft, _rfft
from .framing import _frame, _overlap_and_add
from .windows import hann_window


def enclosing_power_of_two(value):
    """2**N for the smallest N with 2**N >= value, computed as TensorFlow computes it."""
    return int(2 ** np.ceil(np.log(value) / np.log(2.0)))


def _window(window_fn, frame_length, dtype):
    if window_fn is None:
        return None
    return plain(window_fn(frame_length, dtype=dtype), dtype)


def _lengths(frame_length, frame_step, fft_length, what):
    frame_length = scalar_int(frame_length, what, "frame_length", minimum=1)
    frame_step = scalar_int(frame_step, what, "frame_step", minimum=1)
    fft_length = enclosing_power_of_two(frame_length) if fft_length is None \
        else scalar_int(fft_length, what, "fft_length", minimum=1)
    return frame_length, frame_step, fft_length


@returns_tensors
def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """The short-time Fourier transform of `[..., samples]` real signals.

    Args:
        signals: float32 or float64 `[..., samples]`.
        frame_length: samples per frame.
        frame_step: samples between the starts of two frames.
        fft_length: the FFT size (frames are zero-padded to it); default: the smallest power
            of 2 that holds `frame_length`.
        window_fn: called as `window_fn(frame_length, dtype=...)`; None for no window.
        pad_end: also transform the frames that run past the end (padded with zeros).

    Returns:
        complex64 (complex128 for float64) `[..., frames, fft_length // 2 + 1]`.

    Raises:
        InvalidArgumentError: signals not float32/float64 (a ValueError too), rank 0, or a
            length below 1.

    >>> tone = np.sin(2 * np.pi * 8 * np.arange(64) / 64).astype(np.float32)
    >>> bins = np.abs(stft(tone, 32, 16).numpy())
    >>> bins.shape, bins.argmax(axis=-1).tolist()  # 8 cycles in 64 samples: bin 4 of 32
    ((3, 17), [4, 4, 4])
    """
    what = "stft"
    array = real_input(signals, what, "signals")
    frame_length, frame_step, fft_length = _lengths(frame_length, frame_step, fft_length, what)
    frames = _frame(array, frame_length, frame_step, bool(pad_end))
    window = _window(window_fn, frame_length, array.dtype)
    if window is not None:
        frames = frames * window
    return _rfft(frames, fft_length)


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window function for `inverse_stft` that undoes `forward_window_fn`'s weighting.

    The returned function gives `forward / sum`, where `sum` adds the squares of the forward
    window over every frame overlapping each sample (Griffin and Lim's least-squares
    inverse), so that overlap-adding windowed frames restores the signal.

    >>> window = inverse_stft_window_fn(2)(4, dtype=np.float32)
    >>> window.numpy().tolist()  # a periodic Hann of 4 with frames every 2 samples
    [0.0, 1.0, 1.0, 1.0]
    """
    frame_step = scalar_int(frame_step, "inverse_stft_window_fn", "frame_step", minimum=1)

    @returns_tensors
    def window_fn(frame_length, dtype):
        frame_length = scalar_int(frame_length, "inverse_stft_window_fn", "frame_length")
        forward = plain(forward_window_fn(frame_length, dtype=dtype))
        overlaps = -(-frame_length // frame_step)
        squares = np.pad(np.square(forward), (0, overlaps * frame_step - frame_length))
        per_position = squares.reshape(overlaps, frame_step).sum(axis=0)
        return (forward / np.tile(per_position, overlaps)[:frame_length]).astype(forward.dtype)
    return window_fn


@returns_tensors
def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """The signals `[..., samples]` whose `stft` is `stfts` `[..., frames, bins]`.

    Args:
        stfts: complex64 or complex128 `[..., frames, fft_length // 2 + 1]`.
        frame_length, frame_step, fft_length: as given to `stft`.
        window_fn: the synthesis window; use `inverse_stft_window_fn(frame_step)` to invert
            an `stft` taken with the Hann window. None for no window.

    Returns:
        float32 (float64) `[..., (frames - 1) * frame_step + frame_length]`.

    >>> signal = np.random.default_rng(0).normal(size=64).astype(np.float32)
    >>> spectra = stft(signal, 16, 4)
    >>> back = inverse_stft(spectra, 16, 4, window_fn=inverse_stft_window_fn(4))
    >>> back.shape, bool(np.allclose(back[12:-12], signal[12:-12], atol=1e-5))
    (TensorShape([64]), True)
    """
    what = "inverse_stft"
    array = complex_input(stfts, what, "stfts", min_rank=2)
    frame_length, frame_step, fft_length = _lengths(frame_length, frame_step, fft_length, what)
    frames = _irfft(array, fft_length)
    if frames.shape[-1] > frame_length:
        frames = frames[..., :frame_length]
    elif frames.shape[-1] < frame_length:
        widths = [(0, 0)] * (frames.ndim - 1) + [(0, frame_length - frames.shape[-1])]
        frames = np.pad(frames, widths)
    window = _window(window_fn, frame_length, REAL_OF[array.dtype])
    if window is not None:
        frames = frames * window
    return _overlap_and_add(frames, frame_step)
