"""`fft`, `ifft`, `rfft`, `irfft`: discrete Fourier transforms over the innermost axis.

Computed with NumPy's FFT and given TensorFlow's dtypes (`signal/fft_ops.py`, the FFT
kernels): `fft`/`ifft` take and give complex64 or complex128; `rfft` takes float32 (float64)
and gives complex64 (complex128) with `fft_length // 2 + 1` bins; `irfft` goes back. Python
values convert to the op's default, float32 or complex64. `ifft` and `irfft` divide by the
length, so each inverse undoes its transform. `fft_length` is a list of one int: the input is
cut to it, or padded with zeros; it defaults to the inner size (`rfft`) or
`2 * (bins - 1)` (`irfft`).

>>> rfft([1.0, 0.0, 0.0, 0.0]).numpy().tolist()
[(1+0j), (1+0j), (1+0j)]
>>> irfft(rfft([1.0, 2.0, 3.0, 4.0])).numpy().tolist()
[1.0, 2.0, 3.0, 4.0]
"""

import numpy as np

from ..errors import InvalidArgumentError
from ..ops._convert import _as_array
from ..ops._eager import returns_tensors
from ._args import COMPLEX_OF, REAL_OF, complex_input, real_input


def _length(fft_length, default, what):
    """The one entry of `fft_length` (a list such as [512]), or `default` when None."""
    if fft_length is None:
        length = default
    else:
        array = np.asarray(_as_array(fft_length, what))
        if array.shape != (1,) or array.dtype.kind not in "iu":
            raise InvalidArgumentError(f"{what}: fft_length must be a list of one int, such "
                                       f"as [512], got {fft_length!r}")
        length = int(array[0])
    if length < 1:
        raise InvalidArgumentError(f"{what}: the FFT length must be at least 1, got {length}")
    return length


def _rfft(real, fft_length):
    """`rfft` on a plain float array with a known length."""
    return np.fft.rfft(real, n=fft_length, axis=-1).astype(COMPLEX_OF[real.dtype])


def _irfft(spectrum, fft_length):
    """`irfft` on a plain complex array with a known length."""
    return np.fft.irfft(spectrum, n=fft_length, axis=-1).astype(REAL_OF[spectrum.dtype])


@returns_tensors
def fft(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The discrete Fourier transform of the innermost axis of a complex tensor.

    >>> fft([1.0, 1.0]).numpy().tolist()
    [(2+0j), 0j]
    """
    array = complex_input(input, "fft", "input")
    return np.fft.fft(array, axis=-1).astype(array.dtype)


@returns_tensors
def ifft(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The inverse of `fft` (divided by the length) over the innermost axis.

    >>> ifft(fft([1.0, 2.0, 3.0])).numpy().real.round(6).tolist()
    [1.0, 2.0, 3.0]
    """
    array = complex_input(input, "ifft", "input")
    return np.fft.ifft(array, axis=-1).astype(array.dtype)


@returns_tensors
def rfft(input_tensor, fft_length=None, name=None):
    """The `fft_length // 2 + 1` non-redundant Fourier bins of a real signal's inner axis.

    Raises:
        InvalidArgumentError: input not float32/float64, or a bad `fft_length`.

    >>> rfft(np.ones(4, np.float32), fft_length=[8]).shape, rfft(np.ones(4)).dtype
    (TensorShape([5]), tf.complex128)
    """
    array = real_input(input_tensor, "rfft", "input_tensor")
    return _rfft(array, _length(fft_length, array.shape[-1], "rfft"))


@returns_tensors
def irfft(input_tensor, fft_length=None, name=None):
    """The real signal of `fft_length` samples whose `rfft` is `input_tensor`.

    Raises:
        InvalidArgumentError: input not complex64/complex128, or a bad `fft_length`.

    >>> irfft([4.0, 0.0, 0.0]).numpy().tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    array = complex_input(input_tensor, "irfft", "input_tensor")
    return _irfft(array, _length(fft_length, 2 * (array.shape[-1] - 1), "irfft"))
