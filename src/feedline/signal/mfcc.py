"""`mfccs_from_log_mel_spectrograms`: mel-frequency cepstral coefficients.

The MFCCs of a log mel spectrogram `x` of N bands are its DCT-II with HTK's scaling, as
TensorFlow documents it (`signal/mfcc_ops.py`): `y[k] = sqrt(2 / N) * sum_n x[n] *
cos(pi * k * (2n + 1) / (2N))`. That is the orthonormal DCT-II for every k > 0; for k = 0 it
is sqrt(2) times larger (the orthonormal one scales by sqrt(1 / N)). All N coefficients are
returned; speech models usually keep the first 13.

>>> mfccs_from_log_mel_spectrograms([1.0, 1.0, 1.0, 1.0]).numpy().round(6).tolist()
[2.828427, 0.0, 0.0, -0.0]
"""

import numpy as np

from ..errors import InvalidArgumentError
from ..ops._eager import returns_tensors
from ._args import real_input


def _htk_dct_basis(count):
    """`[count, count]` matrix whose column k holds sqrt(2 / N) * cos(pi k (2n + 1) / 2N)."""
    n = np.arange(count)[:, None]
    k = np.arange(count)[None, :]
    return np.sqrt(2.0 / count) * np.cos(np.pi * k * (2 * n + 1) / (2 * count))


@returns_tensors
def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """The MFCCs `[..., num_mel_bins]` of log-magnitude mel spectrograms `[..., num_mel_bins]`.

    Raises:
        InvalidArgumentError: input not float32/float64, or with no mel bins (a ValueError
            too, as TensorFlow raises).

    >>> log_mel = np.log(np.full((3, 40), 2.0, np.float32))
    >>> mfccs = mfccs_from_log_mel_spectrograms(log_mel)[..., :13]
    >>> mfccs.shape, mfccs.dtype
    (TensorShape([3, 13]), tf.float32)
    """
    what = "mfccs_from_log_mel_spectrograms"
    array = real_input(log_mel_spectrograms, what, "log_mel_spectrograms")
    count = array.shape[-1]
    if count == 0:
        raise InvalidArgumentError(f"{what}: num_mel_bins (the last axis) must be positive, "
                                   f"got shape {list(array.shape)}")
    return (array.astype(np.float64) @ _htk_dct_basis(count)).astype(array.dtype)
