"""`RandomBrightness`: Keras 3's layer that shifts each image's values by a random amount.

Each image draws `d` uniform in the factor's range `[lower, upper]` (a number `f` means
`(-f, f)`, each end within [-1, 1]) and gets `d * (high - low)` added to every value, `(low,
high)` being `value_range`; the result is clipped to `value_range`. So `factor=1.0` can turn
an image fully white and `-1.0` fully black. Called with `training=False` the layer returns
the images unchanged, as Keras 3 does (float images in the compute dtype, integer images in
their own dtype); in training, images become float32 first (Keras' own training path on integer
images was not checked).

The shifts are Keras 3's with the TensorFlow backend: each training call draws one
`keras.random.uniform` of shape `(batch, 1, 1, 1)` (`(1, 1, 1)` for one image) in
`[lower, upper)`, seeded by the layer's `SeedGenerator(seed)` (`[seed, n - 1]` on the n-th
call), and multiplies it by `high - low` in float32.

>>> import numpy as np
>>> image = np.full((1, 2, 3), 100, np.uint8)
>>> RandomBrightness((0.1, 0.1))(image)[0, 0].tolist()  # 0.1 * 255 added
[125.5, 125.5, 125.5]
>>> RandomBrightness((1.0, 1.0), value_range=(0, 1))(np.zeros((1, 1, 1)))[0, 0].tolist()
[1.0]
"""

import numpy as np

from ._base import Layer
from ..random.seed_generator import layer_seed_generator, layer_uniform
from ._image_ranges import check_value_range, factor_range
from .resizing import check_data_format, image_batch, image_output


class RandomBrightness(Layer):
    """Add a random multiple of the value range to each image, then clip to the range."""

    def __init__(self, factor, value_range=(0, 255), seed=None, data_format=None, name=None,
                 **kwargs):
        super().__init__(name, **kwargs)
        self.factor = factor_range(factor, (-1, 1), "factor", "RandomBrightness")
        self.value_range = check_value_range(value_range, "RandomBrightness")
        self.seed = seed
        self.data_format = check_data_format(data_format, "RandomBrightness")
        self.generator = layer_seed_generator(seed, "RandomBrightness")

    def call(self, inputs, training=True):
        batch, single = image_batch(inputs, self)
        if training:
            batch = batch.astype(self.compute_dtype)
            low, high = self.value_range
            shape = (1, 1, 1) if single else (len(batch), 1, 1, 1)
            deltas = layer_uniform(self.generator, shape, *self.factor).reshape(
                -1, 1, 1, 1) * np.float32(high - low)
            batch = np.clip(batch + deltas.astype(batch.dtype), low, high).astype(
                self.compute_dtype)
        return image_output(batch, single, self)

    def _config(self):
        return {"factor": list(self.factor), "value_range": list(self.value_range),
                "seed": self.seed, "data_format": self.data_format}
