"""`RandomContrast`: Keras 3's layer that scales each image's contrast by a random factor.

Each image draws a factor uniform in `[1 - lower, 1 + upper]`, and every value becomes
`(x - mean) * factor + mean`, `mean` being the image's mean of that channel over height and
width; the result is clipped to `value_range`. `factor` is read by Keras 3's rule: a pair
`(lower, upper)` in [0, 1], or one number `f` meaning `(0, f)` in Keras 3's code (its
docstring says `lower = upper`; the code, followed here, never lowers contrast for a single
number: `factor=0.2` draws from [1.0, 1.2]). Called with `training=False` the layer returns
the images unchanged, as Keras 3 does (float images in the compute dtype, integer images in
their own dtype); in training, images become float32 first (Keras' own training path on integer
images was not checked).

The factors are Keras 3's with the TensorFlow backend: each training call draws one
`keras.random.uniform` of shape `(batch, 1, 1, 1)` (`(1, 1, 1)` for one image) in the layer's
compute dtype, seeded by its `SeedGenerator(seed)` (`[seed, n - 1]` on the n-th call).
Keras takes the mean over height, then over width; Feedline takes it over both at once, so
results can differ from Keras' in the last bits of float32.

>>> import numpy as np
>>> image = np.array([[[40.0], [60.0]]], np.float32)
>>> RandomContrast(0.5)(image, training=False)[..., 0].tolist()
[[40.0, 60.0]]
>>> out = RandomContrast(0.5, seed=1)(image)[..., 0]  # factor in [1.0, 1.5]
>>> float(out.mean()), bool(out[0, 0] <= 40.0 and out[0, 1] >= 60.0)
(50.0, True)
"""

import numpy as np

from ._base import Layer
from ..random.seed_generator import layer_seed_generator, layer_uniform
from ._image_ranges import factor_range
from .resizing import check_data_format, image_batch, image_output


class RandomContrast(Layer):
    """Scale each channel's deviation from its mean by a random factor, per image."""

    def __init__(self, factor, value_range=(0, 255), seed=None, data_format=None, name=None,
                 **kwargs):
        super().__init__(name, **kwargs)
        self.factor = factor_range(factor, (0, 1), "factor", "RandomContrast")
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError(f"RandomContrast: `value_range` must be two numbers such as "
                             f"(0, 255) or (0, 1); received value_range={value_range!r}")
        self.value_range, self.seed = value_range, seed
        self.data_format = check_data_format(data_format, "RandomContrast")
        self.generator = layer_seed_generator(seed, "RandomContrast")

    def call(self, inputs, training=True):
        batch, single = image_batch(inputs, self)
        if training:
            batch = batch.astype(self.compute_dtype)
            lower, upper = self.factor
            shape = (1, 1, 1) if single else (len(batch), 1, 1, 1)
            factors = layer_uniform(self.generator, shape, 1.0 - lower, 1.0 + upper,
                                    self.compute_dtype).reshape(-1, 1, 1, 1)
            mean = batch.mean(axis=(1, 2), keepdims=True, dtype=np.float32)
            adjusted = (batch - mean) * factors.astype(batch.dtype) + mean
            batch = np.clip(adjusted, self.value_range[0], self.value_range[1]).astype(
                self.compute_dtype)
        return image_output(batch, single, self)

    def _config(self):
        return {"factor": list(self.factor), "value_range": list(self.value_range),
                "seed": self.seed, "data_format": self.data_format}
