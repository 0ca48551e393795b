"""`feedline.signal`: the parts of `tf.signal` audio pipelines use, computed with NumPy.

- `framing`: `frame` (overlapping frames), `overlap_and_add` (frames summed back);
- `windows`: `hann_window`, `hamming_window`;
- `fft`: `fft`, `ifft` (complex), `rfft`, `irfft` (real signals, half the bins);
- `spectral`: `stft`, `inverse_stft`, `inverse_stft_window_fn`;
- `mel`: `linear_to_mel_weight_matrix` (HTK's mel scale);
- `mfcc`: `mfccs_from_log_mel_spectrograms`;
- `dct`: `dct`, `idct` (types I-IV, `norm="ortho"`);
- `fft_nd`: `fft2d`, `ifft2d`, `fft3d`, `ifft3d`, `rfft2d`, `irfft2d`, `rfft3d`, `irfft3d`,
  `fftshift`, `ifftshift`.

Dtypes are TensorFlow's: a float32 signal gives complex64 spectra, whose `fl.abs` is float32.

>>> import numpy as np
>>> import feedline as fl
>>> waveform = np.sin(np.arange(16000) * 0.3).astype(np.float32)
>>> spectrogram = fl.abs(fl.signal.stft(waveform, frame_length=255, frame_step=128))
>>> mel = fl.matmul(spectrogram, fl.signal.linear_to_mel_weight_matrix(40, 129, 16000))
>>> spectrogram.shape, mel.shape, mel.dtype
(TensorShape([124, 129]), TensorShape([124, 40]), tf.float32)
"""

from .dct import dct, idct
from .fft import fft, ifft, irfft, rfft
from .fft_nd import (fft2d, fft3d, fftshift, ifft2d, ifft3d, ifftshift, irfft2d, irfft3d,
                     rfft2d, rfft3d)
from .framing import frame, overlap_and_add
from .mel import linear_to_mel_weight_matrix
from .mfcc import mfccs_from_log_mel_spectrograms
from .spectral import inverse_stft, inverse_stft_window_fn, stft
from .windows import hamming_window, hann_window

__all__ = ["fft", "ifft", "rfft", "irfft", "frame", "overlap_and_add", "hann_window",
           "hamming_window", "stft", "inverse_stft", "inverse_stft_window_fn",
           "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms", "dct", "idct",
           "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft2d", "irfft2d", "rfft3d", "irfft3d",
           "fftshift", "ifftshift"]
