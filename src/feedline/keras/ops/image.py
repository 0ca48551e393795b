"""`keras.ops.image`: resizing and colour conversions of channels-last images.

`resize` runs feedline's `fl.image.resize` (TensorFlow's resize kernels, the backend Keras
uses on TensorFlow) and, like Keras, hands integer images back in their own dtype only when
Keras does: resizing computes in float32 and integer images are rounded back to their dtype.
Integer images come back in their own dtype, rounded and clipped (checked against Keras).

>>> import feedline as fl
>>> fl.keras.ops.image.resize(fl.ones([4, 4, 3]), (2, 2)).shape
TensorShape([2, 2, 3])
"""

import numpy as np

from ... import image as fl_image
from . import _dtypes
from ._apply import array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    """`images` (height, width, channels; a batch in front allowed) resized to `size`.

    Raises:
        ValueError: for channels_first data or a `size` that is not two numbers.
    """
    if data_format not in (None, "channels_last"):
        raise ValueError("resize: only data_format='channels_last' is supported")
    if len(size) != 2:
        raise ValueError(f"resize: size must be (height, width), got {size!r}")
    images = tensor(images)
    if crop_to_aspect_ratio or pad_to_aspect_ratio:
        raise ValueError("resize: crop_to_aspect_ratio and pad_to_aspect_ratio are not "
                         "supported here; crop with fl.image.resize_with_crop_or_pad first")
    method = {"lanczos3": "lanczos3", "lanczos5": "lanczos5"}.get(interpolation, interpolation)
    result = fl_image.resize(tensor(images, _dtypes.floating(images.dtype)), list(size),
                             method=method, antialias=antialias)
    return _back_to(result, images.dtype)


def _back_to(result, dtype):
    """`result` in the images' own integer dtype (rounded, clipped), as Keras hands it back."""
    if np.dtype(dtype.name if hasattr(dtype, "name") else dtype).kind not in "iu":
        return result
    info = np.iinfo(dtype.name if hasattr(dtype, "name") else dtype)
    return plain(lambda: np.clip(np.round(array(result)), info.min, info.max).astype(info.dtype))()


@plain
def rgb_to_grayscale(images, data_format=None):
    """Luma of RGB `images` (one channel, the images' dtype); one-channel images unchanged.

    Integer images are weighted in floatx() and cast back, which truncates toward zero
    (Keras' TensorFlow backend ends with `tf.cast`), so 0.9 * 255 = 229.5 gives 229.

    Raises:
        ValueError: for images of rank other than 3 or 4, or with neither 1 nor 3 channels.
    """
    images = array(images)
    if images.ndim not in (3, 4) or images.shape[-1] not in (1, 3):
        raise ValueError(f"rgb_to_grayscale: images must have shape (height, width, 3) or "
                         f"(batch, height, width, 3) (or 1 channel), got {images.shape}")
    if images.shape[-1] == 1:
        return images.copy()
    dtype = _dtypes.floating(images.dtype)
    weights = np.array([0.2989, 0.5870, 0.1140], dtype)
    gray = (images.astype(dtype) @ weights)[..., None]
    return gray.astype(images.dtype)


def rgb_to_hsv(images, data_format=None):
    """RGB float `images` in [0, 1] as hue, saturation, value."""
    return fl_image.rgb_to_hsv(tensor(images, _dtypes.floating(tensor(images).dtype)))


def hsv_to_rgb(images, data_format=None):
    """HSV float `images` back to RGB."""
    return fl_image.hsv_to_rgb(tensor(images, _dtypes.floating(tensor(images).dtype)))


@plain
def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None,
               right_padding=None, target_height=None, target_width=None, data_format=None):
    """`images` with zero rows and columns added to reach `target_height` x `target_width`."""
    images = array(images)
    height, width = images.shape[-3], images.shape[-2]
    top = top_padding or 0
    left = left_padding or 0
    bottom = bottom_padding if bottom_padding is not None else target_height - height - top
    right = right_padding if right_padding is not None else target_width - width - left
    widths = [(0, 0)] * (images.ndim - 3) + [(top, bottom), (left, right), (0, 0)]
    return np.pad(images, widths)


@plain
def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None,
                right_cropping=None, target_height=None, target_width=None, data_format=None):
    """The `target_height` x `target_width` block of `images` starting at the croppings."""
    images = array(images)
    top, left = top_cropping or 0, left_cropping or 0
    height = target_height or images.shape[-3] - top - (bottom_cropping or 0)
    width = target_width or images.shape[-2] - left - (right_cropping or 0)
    return images[..., top:top + height, left:left + width, :].copy()


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]

from .image_geometry import affine_transform, extract_patches, map_coordinates  # noqa: E402

__all__ += ["affine_transform", "extract_patches", "map_coordinates"]
