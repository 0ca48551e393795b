"""Colour and intensity: grayscale, brightness, contrast and per-image standardization.

Integer images are converted to float32 with `convert_image_dtype` before the arithmetic and
back afterwards with saturation (so uint8 results clip to 0..255), as TensorFlow does.

>>> import numpy as np
>>> adjust_brightness(np.array([[[250]]], np.uint8), 0.1).tolist()
[[[255]]]
>>> rgb_to_grayscale(np.array([[[1.0, 1.0, 1.0]]], np.float32))
<tf.Tensor: shape=(1, 1, 1), dtype=float32, numpy=array([[[0.99990004]]], dtype=float32)>
"""

import numpy as np

from ..errors import InvalidArgumentError
from ._common import as_array, as_scalar, check_rank
from .convert import convert_image_dtype
from ..ops._eager import returns_tensors

# ITU-R BT.601 luma weights, rounded as TensorFlow rounds them.
_LUMA = np.array([0.2989, 0.5870, 0.1140], dtype=np.float32)


def _as_float(array):
    """float16 and float32 images as they are, others converted to float32 (scaled)."""
    if array.dtype in (np.float16, np.float32):
        return array
    return convert_image_dtype(array, np.float32)


@returns_tensors
def rgb_to_grayscale(images, name=None):
    """One luma channel `0.2989 R + 0.5870 G + 0.1140 B` per pixel; the dtype is kept.

    Raises:
        ValueError: the last axis of `images` does not have 3 channels.

    >>> rgb_to_grayscale(np.full((2, 2, 3), 200, np.uint8)).shape
    TensorShape([2, 2, 1])
    """
    array = as_array(images, "rgb_to_grayscale", "images")
    if array.ndim < 1 or array.shape[-1] != 3:
        raise ValueError(f"rgb_to_grayscale: the last axis of 'images' must hold the 3 "
                         f"channels R, G, B; got shape {list(array.shape)}")
    floats = convert_image_dtype(array, np.float32)
    gray = np.tensordot(floats, _LUMA, axes=([-1], [-1]))[..., None]
    return convert_image_dtype(gray, array.dtype)


@returns_tensors
def grayscale_to_rgb(images, name=None):
    """Repeat the single channel three times.

    Raises:
        ValueError: `images` has fewer than 2 axes or its last axis is not 1.

    >>> grayscale_to_rgb(np.array([[[7]]], np.uint8)).tolist()
    [[[7, 7, 7]]]
    """
    array = as_array(images, "grayscale_to_rgb", "images")
    if array.ndim < 2:
        raise ValueError(f"grayscale_to_rgb: a grayscale image must be at least "
                         f"two-dimensional, got shape {list(array.shape)}")
    if array.shape[-1] != 1:
        raise ValueError(f"grayscale_to_rgb: the last axis of a grayscale image must have size "
                         f"1, got shape {list(array.shape)}")
    return np.repeat(array, 3, axis=-1)


@returns_tensors
def adjust_brightness(image, delta):
    """Add `delta` to every value, in float (integer images: in their [0, 1] scale).

    Float images are not clipped; integer ones saturate when converted back.

    >>> adjust_brightness(np.array([[[0.5]]], np.float32), 0.75).tolist()
    [[[1.25]]]
    """
    array = as_array(image, "adjust_brightness")
    delta = as_scalar(delta, "delta", "adjust_brightness")
    floats = _as_float(array)
    adjusted = floats + floats.dtype.type(delta)
    return convert_image_dtype(adjusted, array.dtype, saturate=True)


@returns_tensors
def adjust_contrast(images, contrast_factor):
    """Move each channel of each image away from (or towards) its mean by `contrast_factor`.

    Computes `(x - mean) * contrast_factor + mean`, the mean taken over height and width.

    Raises:
        InvalidArgumentError: `images` has fewer than 3 axes, or the factor is not a scalar.

    >>> adjust_contrast(np.array([[[1.0]], [[3.0]]], np.float32), 2.0)[..., 0].tolist()
    [[0.0], [4.0]]
    """
    array = as_array(images, "adjust_contrast", "images")
    if array.ndim < 3:
        raise InvalidArgumentError(f"adjust_contrast: 'images' must be at least 3-D "
                                   f"([height, width, channels]), got shape "
                                   f"{list(array.shape)}")
    factor = np.asarray(contrast_factor)
    if factor.ndim != 0 or factor.dtype.kind not in "iuf":
        raise InvalidArgumentError(f"adjust_contrast: contrast_factor must be a scalar "
                                   f"number, got {contrast_factor!r}")
    floats = _as_float(array)
    work = floats.astype(np.float32)  # TensorFlow computes float16 images in float32 too
    mean = work.mean(axis=(-3, -2), keepdims=True, dtype=np.float32)
    adjusted = ((work - mean) * np.float32(factor) + mean).astype(floats.dtype)
    return convert_image_dtype(adjusted, array.dtype, saturate=True)


@returns_tensors
def per_image_standardization(image):
    """Scale each image to mean 0 and standard deviation 1; the result is float32.

    Computes `(x - mean) / max(stddev, 1 / sqrt(N))` over the last three axes, where `N` is
    the number of values in one image; the floor keeps a uniform image finite. Integer
    values are cast to float32 as they are (not scaled to [0, 1]).

    Raises:
        ValueError: `image` has fewer than 3 axes.

    >>> out = per_image_standardization(np.arange(1, 13, dtype=np.int32).reshape(2, 2, 3))
    >>> out.dtype, round(float(out[0, 0, 0]), 4)
    (tf.float32, -1.5933)
    >>> per_image_standardization(np.full((2, 2, 1), 9, np.uint8))[..., 0].tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """
    array = as_array(image, "per_image_standardization")
    check_rank(array, "per_image_standardization", ranks=3)
    values = array.astype(np.float32)
    axes = (-3, -2, -1)
    mean = values.mean(axis=axes, keepdims=True, dtype=np.float32)
    stddev = values.std(axis=axes, keepdims=True, dtype=np.float32)
    floor = np.float32(1.0) / np.sqrt(np.float32(np.prod(array.shape[-3:])))
    return (values - mean) / np.maximum(stddev, floor)
