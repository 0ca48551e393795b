"""`linear_to_mel_weight_matrix`: the matrix that turns spectrogram bins into mel bands.

Frequencies map to mels with HTK's formula, `mel = 1127 * ln(1 + hz / 700)`. The range
`[lower_edge_hertz, upper_edge_hertz]` is cut into `num_mel_bins + 2` points evenly spaced in
mels; band `j` is a triangle rising from point `j` to 1 at point `j + 1` and falling to 0 at
point `j + 2`, with the slopes measured in mels. Each spectrogram bin `i` sits at
`i * (sample_rate / 2) / (num_spectrogram_bins - 1)` Hz and gets the band's height there.
As in HTK and TensorFlow (`signal/mel_ops.py`), the DC bin (row 0) is all zeros.

>>> matrix = linear_to_mel_weight_matrix()
>>> matrix.shape, matrix.dtype, float(matrix[0].max())
(TensorShape([129, 20]), tf.float32, 0.0)
"""

import numpy as np

from .. import dtypes
from ..ops._eager import returns_tensors
from ._args import float_dtype, scalar_int

_BREAK_HERTZ = 700.0
_HIGH_FREQUENCY_Q = 1127.0


def hertz_to_mel(hertz):
    """Frequencies in Hz on HTK's mel scale."""
    return _HIGH_FREQUENCY_Q * np.log(1.0 + np.asarray(hertz) / _BREAK_HERTZ)


def _as_number(value, name):
    array = np.asarray(value)
    if array.ndim != 0 or array.dtype.kind not in "iuf":
        raise ValueError(f"linear_to_mel_weight_matrix: {name} must be a number, got "
                         f"{value!r}")
    return float(array)


def _check(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz):
    what = "linear_to_mel_weight_matrix"
    if num_mel_bins <= 0:
        raise ValueError(f"{what}: num_mel_bins must be positive, got {num_mel_bins}")
    if sample_rate <= 0:
        raise ValueError(f"{what}: sample_rate must be positive, got {sample_rate}")
    if lower_edge_hertz < 0:
        raise ValueError(f"{what}: lower_edge_hertz must be >= 0, got {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"{what}: lower_edge_hertz ({lower_edge_hertz}) must be below "
                         f"upper_edge_hertz ({upper_edge_hertz})")
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError(f"{what}: upper_edge_hertz ({upper_edge_hertz}) must not be above "
                         f"the Nyquist frequency, sample_rate / 2 = {sample_rate / 2}")


@returns_tensors
def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None):
    """A `[num_spectrogram_bins, num_mel_bins]` matrix of triangular mel filters.

    Multiply a magnitude spectrogram `[..., num_spectrogram_bins]` by it (`fl.matmul`,
    `fl.tensordot`) to get a mel spectrogram `[..., num_mel_bins]`.

    Args:
        num_mel_bins: how many mel bands.
        num_spectrogram_bins: the spectrogram's bins, `fft_length // 2 + 1`.
        sample_rate: samples per second of the signal (its spectrogram spans 0 to half this).
        lower_edge_hertz, upper_edge_hertz: where the lowest band starts and the highest
            ends; `upper_edge_hertz` at most `sample_rate / 2`.
        dtype: a floating dtype.

    Raises:
        ValueError: a count or rate not positive, the edges out of order or above Nyquist,
            a dtype that is not floating.
        InvalidArgumentError: `num_spectrogram_bins` below 1.

    >>> weights = linear_to_mel_weight_matrix(4, 9, 1000, 100.0, 500.0)
    >>> weights.numpy().argmax(axis=0).tolist()  # each band peaks at a higher bin
    [3, 4, 5, 7]
    """
    what = "linear_to_mel_weight_matrix"
    dtype = float_dtype(dtype, what)
    sample_rate = _as_number(sample_rate, "sample_rate")
    lower = _as_number(lower_edge_hertz, "lower_edge_hertz")
    upper = _as_number(upper_edge_hertz, "upper_edge_hertz")
    _check(num_mel_bins, sample_rate, lower, upper)
    bins = scalar_int(num_spectrogram_bins, what, "num_spectrogram_bins", minimum=1)
    bin_mels = hertz_to_mel(np.linspace(0.0, sample_rate / 2, bins)[1:])[:, None]
    edges = np.linspace(hertz_to_mel(lower), hertz_to_mel(upper), num_mel_bins + 2)
    low, centre, high = edges[:-2], edges[1:-1], edges[2:]
    rising = (bin_mels - low) / (centre - low)
    falling = (high - bin_mels) / (high - centre)
    weights = np.maximum(0.0, np.minimum(rising, falling))
    return np.pad(weights, [(1, 0), (0, 0)]).astype(dtype)
