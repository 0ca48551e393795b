"""Saturation, hue, gamma and JPEG-quality adjustments, by TensorFlow's rules.

Saturation and hue go through HSV (see `color_space`): saturation is multiplied by the factor
and clipped to [0, 1]; hue is turned by `delta` (a fraction of the colour wheel) and wrapped
into [0, 1). Images that are not float16/float32 are converted to float32 in their [0, 1]
scale first and converted back afterwards (integer results saturate), as TensorFlow does.

>>> import numpy as np
>>> image = np.array([[[1.0, 2.0, 3.0]]], np.float32)
>>> adjust_saturation(image, 0.5).tolist()
[[[2.0, 2.5, 3.0]]]
"""

import numpy as np

from ..errors import InvalidArgumentError
from ..io.image import decode_jpeg
from ..io.image_encode import encode_jpeg
from ..ops._eager import returns_tensors
from ._common import as_array, as_int, as_scalar
from .color_space import hsv_from_rgb, rgb_from_hsv
from .convert import convert_image_dtype


def _float_rgb(image, function):
    """`image` checked to hold RGB pixels, and its float form (float16/32 kept as they are)."""
    array = as_array(image, function)
    if array.ndim < 3:
        raise InvalidArgumentError(f"{function}: 'image' must be at least 3-D ([height, width, "
                                   f"3]), got shape {list(array.shape)}")
    if array.shape[-1] != 3:
        raise InvalidArgumentError(f"{function}: the last axis of 'image' must hold the 3 "
                                   f"channels R, G, B, got shape {list(array.shape)}")
    if array.dtype in (np.float16, np.float32):
        return array, array
    return array, np.asarray(convert_image_dtype(array, np.float32))


def _back(values, original):
    return convert_image_dtype(values, original.dtype, saturate=True)


@returns_tensors
def adjust_saturation(image, saturation_factor, name=None):
    """Multiply each pixel's HSV saturation by `saturation_factor`, clipped to [0, 1].

    Args:
        image: RGB image(s), the last axis of size 3.
        saturation_factor: a number; 0 gives grey, 1 the image itself.
        name: ignored (kept for TensorFlow's signature).

    Raises:
        InvalidArgumentError: `image` is not at least 3-D or does not have 3 channels.

    >>> adjust_saturation(np.array([[[0.2, 0.4, 0.6]]], np.float32), 0.0).round(4).tolist()
    [[[0.6, 0.6, 0.6]]]
    """
    original, floats = _float_rgb(image, "adjust_saturation")
    factor = as_scalar(saturation_factor, "saturation_factor", "adjust_saturation")
    hsv = hsv_from_rgb(floats.astype(np.float32))
    hsv[..., 1] = np.clip(hsv[..., 1] * np.float32(factor), 0, 1)
    return _back(rgb_from_hsv(hsv).astype(floats.dtype), original)


@returns_tensors
def adjust_hue(image, delta, name=None):
    """Turn each pixel's hue by `delta` (a fraction of the colour wheel, documented in [-1, 1]).

    TensorFlow does not check `delta` in eager mode, and neither does this: the hue wraps.

    >>> adjust_hue(np.array([[[1.0, 0.0, 0.0]]], np.float32), 1 / 3).round(4).tolist()
    [[[0.0, 1.0, 0.0]]]
    """
    original, floats = _float_rgb(image, "adjust_hue")
    delta = as_scalar(delta, "delta", "adjust_hue")
    hsv = hsv_from_rgb(floats.astype(np.float32))
    hsv[..., 0] = np.mod(hsv[..., 0] + np.float32(delta), np.float32(1))
    return _back(rgb_from_hsv(hsv).astype(floats.dtype), original)


@returns_tensors
def adjust_gamma(image, gamma=1, gain=1):
    """Gamma correction `gain * image ** gamma`, in the image's [0, 1] float scale.

    Float results are not clipped; integer images saturate when converted back.

    Raises:
        ValueError: `gamma` is negative.

    >>> adjust_gamma(np.array([[[0.25]]], np.float32), gamma=0.5, gain=2).tolist()
    [[[1.0]]]
    >>> adjust_gamma(np.array([[[64]]], np.uint8), gamma=2).tolist()
    [[[16]]]
    """
    array = as_array(image, "adjust_gamma")
    gamma = as_scalar(gamma, "gamma", "adjust_gamma")
    gain = as_scalar(gain, "gain", "adjust_gamma")
    if gamma < 0:
        raise ValueError(f"adjust_gamma: gamma must be a non-negative number, got {gamma}")
    floats = array if array.dtype in (np.float16, np.float32) else \
        np.asarray(convert_image_dtype(array, np.float32))
    adjusted = floats.dtype.type(gain) * floats ** floats.dtype.type(gamma)
    return _back(adjusted, array)


def _jpeg_round_trip(image, quality):
    encoded = encode_jpeg(image, quality=quality)
    return np.asarray(decode_jpeg(encoded, channels=image.shape[-1]))


@returns_tensors
def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image after a JPEG encode at `jpeg_quality` and a decode: its compression artefacts.

    The image is converted to uint8 (floats clip to [0, 1]), encoded with Pillow's JPEG
    encoder (not libjpeg-turbo's settings exactly, so pixels differ a little from
    TensorFlow's), decoded, and converted back to its own dtype.

    Args:
        image: `[height, width, 1 or 3]` (a batch `[N, H, W, C]` is done image by image).
        jpeg_quality: 0 to 100.
        dct_method: accepted for TensorFlow's signature; Pillow chooses its own.
        name: ignored.

    Raises:
        InvalidArgumentError: `jpeg_quality` is outside [0, 100] or the image does not have
            1 or 3 channels.

    >>> out = adjust_jpeg_quality(np.full((8, 8, 3), 0.5, np.float32), 75)
    >>> out.dtype, tuple(out.shape), abs(float(out.mean()) - 0.5) < 0.01
    (tf.float32, (8, 8, 3), True)
    """
    function = "adjust_jpeg_quality"
    array = as_array(image, function)
    quality = as_int(jpeg_quality, "jpeg_quality", function)
    if not 0 <= quality <= 100:
        raise InvalidArgumentError(f"{function}: jpeg_quality must be in [0, 100], got "
                                   f"{quality}")
    if array.ndim not in (3, 4) or array.shape[-1] not in (1, 3):
        raise InvalidArgumentError(f"{function}: 'image' must be [height, width, channels] "
                                   f"with 1 or 3 channels, got shape {list(array.shape)}")
    pixels = np.asarray(convert_image_dtype(array, np.uint8, saturate=True))
    if pixels.ndim == 3:
        decoded = _jpeg_round_trip(pixels, quality)
    else:
        decoded = np.stack([_jpeg_round_trip(one, quality) for one in pixels])
    return convert_image_dtype(decoded, array.dtype)
