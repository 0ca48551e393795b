"""`Resizing`: Keras' layer that resizes images, optionally cropping or padding to the aspect.

Also home of what the image layers share: channels-last handling and the centred box with
the target's aspect ratio that `CenterCrop` and `RandomCrop` fall back to.

>>> import numpy as np
>>> Resizing(2, 4)(np.zeros((4, 8, 3), np.float64)).shape
TensorShape([2, 4, 3])
"""

import numpy as np

from .. import image as _image
from ._base import Layer, check_choice

INTERPOLATIONS = ("bilinear", "nearest", "area", "bicubic", "lanczos3", "lanczos5", "gaussian",
                  "mitchellcubic")


def image_batch(inputs, layer):
    """`inputs` as a channels-last batch `[N, H, W, C]`, and whether it was one image.

    Float inputs are cast to the layer's compute dtype (Keras' autocast); integers are kept.
    """
    array = np.asarray(inputs)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{type(layer).__name__} expects images of numbers; received dtype "
                        f"{array.dtype}")
    if array.ndim not in (3, 4):
        raise ValueError(f"Expected image tensor to have rank 3 (single image) or 4 (batch of "
                         f"images). Received: data.shape={array.shape}")
    if array.dtype.kind == "f" and layer.autocast:
        array = array.astype(layer.compute_dtype, copy=False)
    if layer.data_format == "channels_first":
        array = np.moveaxis(array, -3, -1)
    return (array[None], True) if array.ndim == 3 else (array, False)


def image_output(batch, single, layer):
    """Undo `image_batch`: drop the added batch axis and restore channels-first if asked."""
    out = batch[0] if single else batch
    return np.moveaxis(out, -1, -3) if layer.data_format == "channels_first" else out


def check_data_format(data_format, layer_name):
    data_format = "channels_last" if data_format is None else data_format
    check_choice(data_format, ("channels_last", "channels_first"), "data_format", layer_name)
    return data_format


def aspect_crop_box(height, width, target_height, target_width):
    """`(top, left, crop_height, crop_width)`: the largest centred box with the target's aspect."""
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    return (int(float(height - crop_height) / 2), int(float(width - crop_width) / 2),
            crop_height, crop_width)


def _pad_to_aspect(batch, target_height, target_width, fill_value):
    """Pad the short side evenly with `fill_value` until the aspect matches the target."""
    height, width = batch.shape[1:3]
    pad_height = max(height, int(float(width * target_height) / target_width))
    pad_width = max(width, int(float(height * target_width) / target_height))
    top = int(float(pad_height - height) / 2)
    left = int(float(pad_width - width) / 2)
    return np.pad(batch, ((0, 0), (top, top), (left, left), (0, 0)),
                  constant_values=fill_value)


class Resizing(Layer):
    """Resize images to `height` x `width` with `tf.image.resize`.

    Args:
        height, width: the output size.
        interpolation: "bilinear" (default), "nearest" or "area" (Keras' other names are
            accepted and refused by `resize` when called).
        crop_to_aspect_ratio: first crop the largest centred window with the target's aspect.
        pad_to_aspect_ratio: first pad the short side evenly with `fill_value` instead.
        fill_mode: only "constant", as in Keras.
        fill_value: the value of the padding (0.0).
        antialias: filter when shrinking (`fl.image.resize`'s antialias; False by default).
        data_format: "channels_last" (default) or "channels_first".

    Float images come back in the compute dtype (float32); integer images are rounded and
    saturated back to their own dtype, as Keras 3's layer does.

    >>> Resizing(1, 2)(np.array([[[0], [10], [20], [30]]], np.uint8))[..., 0].tolist()
    [[5, 25]]
    """

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.height, self.width = int(height), int(width)
        check_choice(interpolation, INTERPOLATIONS, "interpolation", "Resizing")
        if crop_to_aspect_ratio and pad_to_aspect_ratio:
            raise ValueError("Resizing: only one of `crop_to_aspect_ratio` and "
                             "`pad_to_aspect_ratio` can be True")
        check_choice(fill_mode, ("constant",), "fill_mode", "Resizing")
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = bool(crop_to_aspect_ratio)
        self.pad_to_aspect_ratio = bool(pad_to_aspect_ratio)
        self.fill_mode, self.fill_value = fill_mode, fill_value
        self.antialias = bool(antialias)
        self.data_format = check_data_format(data_format, "Resizing")

    def call(self, inputs, training=True):
        batch, single = image_batch(inputs, self)
        source = batch
        if self.crop_to_aspect_ratio:
            top, left, crop_height, crop_width = aspect_crop_box(
                *batch.shape[1:3], self.height, self.width)
            source = batch[:, top:top + crop_height, left:left + crop_width]
        elif self.pad_to_aspect_ratio:
            source = _pad_to_aspect(batch, self.height, self.width, self.fill_value)
        resized = _image.resize(source, [self.height, self.width], method=self.interpolation,
                                antialias=self.antialias)
        if resized.dtype != batch.dtype:
            if batch.dtype.kind in "iu":
                info = np.iinfo(batch.dtype)
                resized = np.clip(np.round(resized), info.min, info.max)
            resized = resized.astype(batch.dtype)
        return image_output(resized, single, self)

    def _config(self):
        return {"height": self.height, "width": self.width,
                "interpolation": self.interpolation,
                "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                "pad_to_aspect_ratio": self.pad_to_aspect_ratio, "fill_mode": self.fill_mode,
                "fill_value": self.fill_value, "antialias": self.antialias,
                "data_format": self.data_format}
