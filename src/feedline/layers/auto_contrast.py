"""`AutoContrast`: Keras 3's layer that stretches each channel of each image to the full range.

Per image and channel, the lowest value goes to the bottom of `value_range` and the highest to
its top, linearly in between; a channel holding one value only is left as it is. Keras 3
applies it in training and inference alike, and the result is float32.

>>> import numpy as np
>>> AutoContrast()(np.array([[[10], [20], [30]]], np.uint8))[..., 0].tolist()
[[0.0, 127.5, 255.0]]
"""

import numpy as np

from ._base import Layer
from ._image_ranges import check_value_range, rescale
from .resizing import check_data_format, image_batch, image_output


class AutoContrast(Layer):
    """Stretch each channel of each image to span `value_range`."""

    def __init__(self, value_range=(0, 255), data_format=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.value_range = check_value_range(value_range, "AutoContrast")
        self.data_format = check_data_format(data_format, "AutoContrast")

    def call(self, inputs, training=True):
        batch, single = image_batch(inputs, self)
        original = batch.astype(self.compute_dtype)
        values = rescale(original, self.value_range, (0, 255)).astype(self.compute_dtype)
        low = values.min(axis=(1, 2), keepdims=True)
        high = values.max(axis=(1, 2), keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.float32(255) / (high - low)
            stretched = np.clip(values * scale - low * scale, 0, 255)
        stretched = rescale(stretched, (0, 255), self.value_range)
        # A flat channel divides by zero: its values come out NaN and are kept as they were.
        out = np.where(np.isnan(stretched), original, stretched).astype(self.compute_dtype)
        return image_output(out, single, self)

    def _config(self):
        return {"data_format": self.data_format, "value_range": list(self.value_range)}
