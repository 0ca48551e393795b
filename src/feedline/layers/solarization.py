"""`Solarization`: Keras 3's layer that inverts the bright values of each image while training.

Working in [0, 255] (images are mapped there from `value_range` and back), each image draws an
addition `a` and a threshold `t`; every value becomes `v = clip(x + a, 0, 255)`, then
`255 - v` where `v >= t` and `v` elsewhere. A factor `f` means the range `(0, f)`, a pair is
sorted; both ends lie in [0, 1]. As in Keras 3's code, a draw lies in `[lower, upper * 255)`:
the upper end is scaled to 255 and the lower one is not. With the defaults (both factors 0)
every value is inverted. Called with `training=False` the layer only casts to float32.

The draws are Keras 3.15's with the TensorFlow backend: each training call makes two
`keras.random.uniform` draws of shape `(batch, 1, 1, 1)` (`(1, 1, 1)` for one image) in the
layer's compute dtype, the additions first and then the thresholds, both seeded by the
layer's `SeedGenerator(seed)`; the n-th call therefore uses the seeds `[seed, 2n - 2]` and
`[seed, 2n - 1]`. Training calls with equal inputs and seeds give Keras' values.

>>> import numpy as np
>>> Solarization()(np.array([[[59, 62, 63]]], np.uint8)).tolist()
[[[196.0, 193.0, 192.0]]]
"""

import numpy as np

from ._base import Layer
from ._image_ranges import check_value_range, rescale
from ..random.seed_generator import layer_seed_generator, layer_uniform
from .resizing import check_data_format, image_batch, image_output


def _unit_factor(factor, argument):
    message = (f"Solarization: `{argument}` must be a number or a list of two numbers in "
               f"[0, 1]; received {argument}={factor!r}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(message)
        pair = [float(value) for value in factor]
    elif isinstance(factor, (int, float, np.integer, np.floating)) \
            and not isinstance(factor, bool):
        pair = [0.0, float(factor)]
    else:
        raise ValueError(message)
    if not all(0 <= value <= 1 for value in pair):
        raise ValueError(message)
    return tuple(sorted(pair))


class Solarization(Layer):
    """Invert each image's values above a random threshold, after a random addition."""

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255),
                 seed=None, data_format=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.addition_factor = _unit_factor(addition_factor, "addition_factor")
        self.threshold_factor = _unit_factor(threshold_factor, "threshold_factor")
        self.value_range = check_value_range(value_range, "Solarization")
        self.seed = seed
        self.data_format = check_data_format(data_format, "Solarization")
        self.generator = layer_seed_generator(seed, "Solarization")

    def call(self, inputs, training=True):
        batch, single = image_batch(inputs, self)
        batch = batch.astype(self.compute_dtype)
        if training:
            # Keras draws in this order, one seed each, and scales only the upper ends by 255.
            shape = (1, 1, 1) if single else (len(batch), 1, 1, 1)
            additions = layer_uniform(self.generator, shape, self.addition_factor[0],
                                      self.addition_factor[1] * 255, self.compute_dtype)
            thresholds = layer_uniform(self.generator, shape, self.threshold_factor[0],
                                       self.threshold_factor[1] * 255, self.compute_dtype)
            additions = additions.reshape(-1, 1, 1, 1)
            thresholds = thresholds.reshape(-1, 1, 1, 1)
            values = np.clip(rescale(batch, self.value_range, (0, 255)) + additions, 0, 255)
            values = np.where(values < thresholds, values, 255 - values)
            batch = rescale(values, (0, 255), self.value_range).astype(self.compute_dtype)
        return image_output(batch, single, self)

    def _config(self):
        return {"addition_factor": list(self.addition_factor),
                "threshold_factor": list(self.threshold_factor),
                "value_range": list(self.value_range), "seed": self.seed,
                "data_format": self.data_format}
