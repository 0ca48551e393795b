"""`decode_wav` and `encode_wav`: 16-bit PCM WAV files to float32 audio and back.

Audio is float32 `[samples, channels]` in [-1, 1): a 16-bit value `v` reads as `v / 32768`.
Encoding multiplies by 32768, rounds half away from zero and clamps to [-32768, 32767], so
1.0 is written as 32767 and a decode of an encode is within 1/32768 of the input (inside
[-1, 1]). These are the rules of TensorFlow's `DecodeWav`/`EncodeWav` kernels
(`core/kernels/decode_wav_op.cc`, `core/lib/wav/wav_io.cc`).

>>> import numpy as np
>>> wav = encode_wav(np.array([[0.5], [-0.25], [1.5]], np.float32), 16000)
>>> audio, rate = decode_wav(wav)
>>> audio.numpy().ravel().tolist(), int(rate), audio.dtype, rate.dtype
([0.5, -0.25, 0.999969482421875], 16000, tf.float32, tf.int32)
"""

import numpy as np

from ..data import tracing
from ..data.spec import TensorSpec
from ..errors import InvalidArgumentError
from ..io.image import _as_bytes
from ..ops._convert import _as_array
from ..ops._eager import returns_tensors
from ..tensor import Tensor
from ._riff import read_wav

_SCALE = np.float32(32768.0)
_HEADER = 44  # RIFF (12) + "fmt " (24) + "data" header (8) bytes


def _desired(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"decode_wav: {name} must be an int (-1 keeps the file's), got "
                        f"{value!r}")
    if value < -1:
        raise InvalidArgumentError(f"decode_wav: {name} must be >= -1 (-1 keeps the file's), "
                                   f"got {value}")
    return int(value)


def _fit_channels(audio, channels):
    """Keep the first `channels`, or repeat the last channel up to `channels`."""
    if channels == -1 or channels == audio.shape[1]:
        return audio
    source = np.minimum(np.arange(channels), audio.shape[1] - 1)
    return audio[:, source]


def _fit_samples(audio, samples):
    """Crop to `samples` rows, or pad with rows of zeros."""
    if samples == -1 or samples == audio.shape[0]:
        return audio
    fitted = np.zeros((samples, audio.shape[1]), np.float32)
    kept = min(samples, audio.shape[0])
    fitted[:kept] = audio[:kept]
    return fitted


@returns_tensors
def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """Decode a 16-bit PCM WAV file into `(audio, sample_rate)`.

    Args:
        contents: the bytes of a WAV file (a scalar string, e.g. from `fl.io.read_file`).
        desired_channels: -1 keeps the file's channels; fewer drops the extra channels,
            more repeats the last one.
        desired_samples: -1 keeps every sample; otherwise crop, or pad the end with zeros.

    Returns:
        `audio`, float32 `[samples, channels]` in [-1, 1), and `sample_rate`, an int32
        scalar. Inside `Dataset.map` the spec has `None` for each size left at -1.

    Raises:
        InvalidArgumentError: not a WAV file, not 16-bit PCM (the message names the format
            or bit depth found), a damaged header or a truncated file; desired sizes < -1.

    >>> import io, wave
    >>> buffer = io.BytesIO()
    >>> with wave.open(buffer, "wb") as out:  # 3 stereo frames written by Python's wave
    ...     out.setnchannels(2); out.setsampwidth(2); out.setframerate(22050)
    ...     out.writeframes(np.array([[16384, -32768]] * 3, "<i2").tobytes())
    >>> audio, rate = decode_wav(buffer.getvalue(), desired_channels=1, desired_samples=4)
    >>> audio.numpy().ravel().tolist(), int(rate)
    ([0.5, 0.5, 0.5, 0.0], 22050)
    """
    channels = _desired(desired_channels, "desired_channels")
    samples = _desired(desired_samples, "desired_samples")
    if tracing.active():  # TensorFlow's shape function: only the sizes asked for are known
        return tracing.stand_in((
            TensorSpec((None if samples == -1 else samples,
                        None if channels == -1 else channels), np.float32),
            TensorSpec((), np.int32)))
    layout = read_wav(_as_bytes(contents, "decode_wav"), "decode_wav")
    audio = layout.samples.astype(np.float32) / _SCALE
    audio = _fit_samples(_fit_channels(audio, channels), samples)
    return audio, np.uint32(layout.sample_rate).astype(np.int32)


def _converted(value, dtype, kinds, name):
    """`value` as an array of `dtype` for an op input of that fixed dtype.

    TensorFlow casts a NumPy or Python value to such an input's dtype (Keras' own tests pass
    float64 NumPy audio to `encode_wav`), but refuses a tensor of another dtype; here a
    `feedline.Tensor` (an op's result) plays that tensor.
    """
    array = _as_array(value, "encode_wav")
    if array.dtype == dtype:
        return array
    if isinstance(value, Tensor) or array.dtype.kind not in kinds:
        raise InvalidArgumentError(
            f"encode_wav: {name} must be {dtype}, got a tensor of {array.dtype}; cast it "
            f"first, e.g. fl.cast({name}, fl.{dtype})")
    return array.astype(dtype)


def _audio_array(audio):
    """`audio` as a float32 `[samples, channels]` array, refused as TensorFlow refuses it."""
    array = _converted(audio, np.dtype(np.float32), "iuf", "audio")
    if array.ndim != 2:
        raise InvalidArgumentError(
            f"encode_wav: audio must be 2-D [samples, channels], got shape {list(array.shape)};"
            " for mono audio of shape [n] write audio[:, fl.newaxis]")
    return array


def _sample_rate(sample_rate):
    rate = _converted(sample_rate, np.dtype(np.int32), "iu", "sample_rate")
    if rate.ndim != 0:
        raise InvalidArgumentError(f"encode_wav: sample_rate must be a scalar, got shape "
                                   f"{list(rate.shape)}")
    if not 0 < int(rate) < 2**31:
        raise InvalidArgumentError(f"encode_wav: sample_rate must be positive, got {int(rate)}")
    return int(rate)


def _to_int16(audio):
    """Scale by 32768, round half away from zero (C's roundf), clamp to int16; NaN gives 0."""
    scaled = audio * _SCALE
    rounded = np.copysign(np.floor(np.abs(scaled) + np.float32(0.5)), scaled)
    rounded = np.nan_to_num(rounded, nan=0.0)
    return np.clip(rounded, -32768, 32767).astype("<i2")


@returns_tensors
def encode_wav(audio, sample_rate, name=None):
    """Encode float32 `[samples, channels]` audio as the bytes of a 16-bit PCM WAV file.

    Values outside [-1, 1] are clamped (1.0 itself becomes 32767, the largest 16-bit value).

    Args:
        audio: float32 `[samples, channels]`.
        sample_rate: an int32 scalar, frames per second (e.g. 16000).

    Returns:
        A scalar string: a 44-byte header ("RIFF", "fmt ", "data") and the samples.

    Raises:
        InvalidArgumentError: audio not 2-D, no channels, a sample rate that is not
            positive, or an op's result (a `Tensor`) of another dtype than float32 / int32
            (NumPy and Python values are cast, as TensorFlow converts them).

    >>> wav = encode_wav([[0.0, 1.0]], 8000)
    >>> len(wav.numpy()), wav.numpy()[:4], wav.numpy()[-4:]
    (48, b'RIFF', b'\\x00\\x00\\xff\\x7f')
    """
    array = _audio_array(audio)
    rate = _sample_rate(sample_rate)
    frames, channels = array.shape
    if not 0 < channels < 2**16:
        raise InvalidArgumentError(f"encode_wav: audio needs 1 to 65535 channels, got "
                                   f"{channels} (shape {list(array.shape)})")
    data = _to_int16(array).tobytes()
    if _HEADER + len(data) > 2**32 - 1:
        raise InvalidArgumentError("encode_wav: the audio is too long for a WAV file (4 GiB)")
    block = 2 * channels
    header = b"".join([
        b"RIFF", (_HEADER - 8 + len(data)).to_bytes(4, "little"), b"WAVE",
        b"fmt ", (16).to_bytes(4, "little"), (1).to_bytes(2, "little"),
        channels.to_bytes(2, "little"), rate.to_bytes(4, "little"),
        (rate * block).to_bytes(4, "little"), block.to_bytes(2, "little"),
        (16).to_bytes(2, "little"),
        b"data", len(data).to_bytes(4, "little")])
    return header + data
