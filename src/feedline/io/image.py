"""Image decoders named like `tf.io`: PNG and JPEG bytes to H x W x C arrays (the encoders
are in `io.image_encode`).

Decoding always gives a 3-D array, height x width x channels, with C taken from `channels`
when it is given and from the file otherwise (a grayscale PNG gives C = 1, not a 2-D array).
The work is done by Pillow; the names, arguments, shapes and dtypes are TensorFlow's.

>>> import numpy as np
>>> from feedline.io.image_encode import encode_jpeg, encode_png  # the encoders live there
>>> image = np.arange(12, dtype=np.uint8).reshape(2, 2, 3)
>>> png = encode_png(image)
>>> png[:4]
b'\\x89PNG'
>>> back = decode_png(png)
>>> back.shape, back.dtype, bool((back == image).all())
(TensorShape([2, 2, 3]), tf.uint8, True)
>>> decode_png(png, channels=1).shape
TensorShape([2, 2, 1])
>>> decode_png(b"GIF89a...")
Traceback (most recent call last):
...
feedline.errors.InvalidArgumentError: decode_png: contents are not a PNG image: they start with b'GIF89a..', the signature of a GIF image
"""

import io

import numpy as np

from .. import dtypes
from ..data import structure, tracing
from ..errors import InvalidArgumentError
from ..ops._eager import returns_tensors
from . import static_specs

# The first bytes of each format, to say what was found when the bytes are not the expected one.
_SIGNATURES = [
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"BM", "BMP"),
]

# Pillow's mode for each number of channels, for 8-bit images.
_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}


def _pillow():
    try:
        from PIL import Image
    except ImportError as error:  # pragma: no cover - Pillow comes with matplotlib
        raise ImportError("feedline's image codecs need Pillow: pip install pillow") from error
    return Image


def _as_bytes(contents, function):
    """`contents` (bytes, a NumPy bytes scalar or a 0-d array of bytes) as `bytes`."""
    leaf = structure.to_leaf(contents)
    if isinstance(leaf, np.ndarray):
        if leaf.ndim != 0:
            raise InvalidArgumentError(f"{function}: contents must be one string (a scalar), "
                                       f"got an array of shape {leaf.shape}")
        leaf = leaf.item()
    if isinstance(leaf, (bytearray, memoryview, np.bytes_)):
        leaf = bytes(leaf)
    if not isinstance(leaf, bytes):
        raise TypeError(f"{function}: contents must be bytes, got {type(contents).__name__}")
    return leaf


def _format_of(data):
    """The name of the image format `data` starts like, or None."""
    for signature, name in _SIGNATURES:
        if data.startswith(signature):
            return name
    return None


def _require_format(data, wanted, function):
    found = _format_of(data)
    if found in wanted:
        return found
    if found is not None:
        what = f"the signature of a {found} image"
    elif not data:
        what = "they are empty"
    else:
        what = "no image format feedline knows"
    start = f"they start with {data[:8]!r}, " if data else ""
    raise InvalidArgumentError(f"{function}: contents are not a {'/'.join(wanted)} image: "
                               f"{start}{what}")


def _check_channels(channels, allowed, function):
    if channels is None:
        return 0
    if isinstance(channels, bool) or not isinstance(channels, (int, np.integer)) \
            or int(channels) not in allowed:
        raise InvalidArgumentError(f"{function}: channels must be one of "
                                   f"{', '.join(map(str, allowed))}, got {channels!r}")
    return int(channels)


def _open(data, function):
    Image = _pillow()
    try:
        picture = Image.open(io.BytesIO(data))
        picture.load()
    except Exception as error:  # noqa: BLE001 - Pillow raises many kinds for damaged files
        raise InvalidArgumentError(f"{function}: the image data is damaged or truncated "
                                   f"({len(data)} bytes): {error}") from None
    return picture


def _file_channels(picture):
    """How many channels the file itself stores (palette images count as RGB or RGBA)."""
    mode = picture.mode
    if mode in ("1", "L", "I", "I;16", "I;16B", "I;16L", "F"):
        return 1
    if mode in ("LA", "La"):
        return 2
    if mode == "P":
        return 4 if "transparency" in picture.info else 3
    if mode in ("RGBA", "RGBa", "PA"):
        return 4
    return 3


def _sixteen_bit_gray(picture):
    return picture.mode.startswith("I;16") or picture.mode == "I"


def _to_array(picture, channels, want_uint16):
    """The pixels of `picture` as an H x W x C array, uint8 or uint16."""
    channels = channels or _file_channels(picture)
    if _sixteen_bit_gray(picture) and channels == 1:
        values = np.asarray(picture, dtype=np.int64).astype(np.uint16)
        array = values[:, :, None]
        return array if want_uint16 else (array >> 8).astype(np.uint8)
    if _sixteen_bit_gray(picture):
        # Pillow keeps 16 bits only for one channel: scale to 8 bits, then add channels.
        values = (np.asarray(picture, dtype=np.int64) >> 8).astype(np.uint8)
        picture = _pillow().fromarray(values)  # mode L
    if picture.mode != _MODES[channels]:
        picture = picture.convert(_MODES[channels])
    array = np.asarray(picture, dtype=np.uint8)
    if array.ndim == 2:
        array = array[:, :, None]
    return array.astype(np.uint16) * 257 if want_uint16 else array.copy()


@returns_tensors
def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """Decode PNG-encoded bytes into a height x width x channels array.

    Args:
        contents: the bytes of a PNG file (a scalar string).
        channels: 0 (as many as the file has), 1 (grayscale), 2 (grayscale and alpha),
            3 (RGB) or 4 (RGBA).
        dtype: uint8 or uint16. A 16-bit file read as uint8 keeps its top 8 bits; an 8-bit
            file read as uint16 is scaled by 257, so 255 becomes 65535.

    Raises:
        InvalidArgumentError: the bytes are not a PNG, or `channels` is not allowed.

    >>> import numpy as np
    >>> from feedline.io import encode_png
    >>> gray = encode_png(np.full((3, 5, 1), 200, dtype=np.uint8))
    >>> decode_png(gray).shape, decode_png(gray, channels=3)[0, 0].tolist()
    (TensorShape([3, 5, 1]), [200, 200, 200])
    >>> int(decode_png(gray, dtype=np.uint16)[0, 0, 0])
    51400
    """
    function = "decode_png"
    want = dtypes.as_dtype(dtype)
    if want not in (dtypes.uint8, np.dtype(np.uint16)):
        raise TypeError(f"{function}: dtype must be uint8 or uint16, got {want}")
    channels = _check_channels(channels, (0, 1, 2, 3, 4), function)
    if tracing.active():  # only the spec is wanted (see `static_specs`)
        return tracing.stand_in(static_specs.image_spec(channels, want))
    data = _as_bytes(contents, function)
    _require_format(data, ("PNG",), function)
    return _to_array(_open(data, function), channels, want == np.uint16)


@returns_tensors
def decode_jpeg(contents, channels=0, name=None):
    """Decode JPEG-encoded bytes into a height x width x channels uint8 array.

    Args:
        contents: the bytes of a JPEG file (a scalar string).
        channels: 0 (as many as the file has), 1 (grayscale) or 3 (RGB).

    Raises:
        InvalidArgumentError: the bytes are not a JPEG, or `channels` is not allowed.

    >>> import numpy as np
    >>> from feedline.io import encode_jpeg
    >>> jpeg = encode_jpeg(np.full((8, 8, 3), 128, dtype=np.uint8))
    >>> decode_jpeg(jpeg).shape, decode_jpeg(jpeg, channels=1).shape
    (TensorShape([8, 8, 3]), TensorShape([8, 8, 1]))
    """
    function = "decode_jpeg"
    channels = _check_channels(channels, (0, 1, 3), function)
    if tracing.active():  # only the spec is wanted (see `static_specs`)
        return tracing.stand_in(static_specs.image_spec(channels))
    data = _as_bytes(contents, function)
    _require_format(data, ("JPEG",), function)
    picture = _open(data, function)
    if not channels:
        channels = 1 if picture.mode == "L" else 3  # CMYK files are given as RGB
    return _to_array(picture, channels, False)


@returns_tensors
def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None,
                 expand_animations=True):
    """Decode a PNG, JPEG, GIF or BMP, choosing the decoder from the bytes themselves.

    Gives height x width x channels, or frames x height x width x 3 for a GIF when
    `expand_animations` is True (with False, a GIF gives its first frame, 3-D).

    Args:
        contents: the bytes of an image file (a scalar string).
        channels: None or 0 (as the file has), 1, 3 or 4.
        dtype: uint8, uint16 or float32. float32 values are scaled to [0, 1].

    Raises:
        InvalidArgumentError: the bytes are none of the four formats.

    >>> import numpy as np
    >>> from feedline.io import encode_png
    >>> png = encode_png(np.array([[[0], [255]]], dtype=np.uint8))
    >>> decode_image(png, dtype=np.float32)[..., 0].tolist()
    [[0.0, 1.0]]
    """
    function = "decode_image"
    want = dtypes.as_dtype(dtype)
    if want not in (dtypes.uint8, np.dtype(np.uint16), dtypes.float32):
        raise TypeError(f"{function}: dtype must be uint8, uint16 or float32, got {want}")
    channels = _check_channels(channels, (0, 1, 3, 4), function)
    if tracing.active():  # only the spec is wanted; a GIF could give 4-D, so rank unknown
        return tracing.stand_in(static_specs.image_spec(channels, want,
                                                        rank_known=not expand_animations))
    data = _as_bytes(contents, function)
    found = _require_format(data, ("PNG", "JPEG", "GIF", "BMP"), function)
    picture = _open(data, function)
    wide = want != dtypes.uint8
    if found == "GIF":
        frames = []
        for number in range(getattr(picture, "n_frames", 1)):
            picture.seek(number)
            frames.append(_to_array(picture.convert("RGB"), channels or 3, wide))
            if not expand_animations:
                break
        array = np.stack(frames) if expand_animations else frames[0]
    else:
        array = _to_array(picture, channels, wide)
    if want == dtypes.float32:
        return (array / np.float32(65535)).astype(np.float32)
    return array
