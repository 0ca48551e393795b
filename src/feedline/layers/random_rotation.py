"""`RandomRotation`: Keras' layer that turns each image by a random angle while training.

Each image draws an angle uniformly in `[lower, upper] x 360` degrees (`factor=0.2` means up
to a fifth of a turn either way). Output pixel `(x, y)` then reads the input at the point the
rotation about the image's centre brings it to, as Keras 3 computes it:
`x' = cos a x - sin a y + dx`, `y' = sin a x + cos a y + dy`, with the offsets that keep the
centre in place. `bilinear` mixes the four surrounding pixels, `nearest` takes the closest.
Points outside the image read, by `fill_mode`, the image mirrored about its edge ("reflect":
`d c b a | a b c d | d c b a`), tiled ("wrap"), the edge pixel ("nearest") or `fill_value`
("constant"). Called with `training=False` the layer only casts to float32.

The angles are Keras 3's with the TensorFlow backend: each training call draws one
`keras.random.uniform` of shape `(batch,)` (`(1,)` for one image) between `lower * 360` and
`upper * 360`, seeded by the layer's `SeedGenerator(seed)` (`[seed, n - 1]` on the n-th
call). Degrees become radians in float32 (`angle * float32(pi / 180)`), and the map about the
centre `((W - 1) / 2, (H - 1) / 2)` is the one Keras' `_compute_affine_matrix` builds with no
shear, scale 1 and no shift. The matrix and resampling are Feedline's own float64 code
(TensorFlow's `ImageProjectiveTransformV3` kernel computes in float32), so pixel values can
differ from Keras' in the last bits; the angles do not.

>>> import numpy as np
>>> image = np.arange(9, dtype=np.float32).reshape(3, 3, 1)
>>> half_turn = RandomRotation((0.5, 0.5))  # exactly 180 degrees
>>> half_turn(image)[..., 0].tolist()
[[8.0, 7.0, 6.0], [5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]
"""

import numpy as np

from ..random.seed_generator import layer_seed_generator, layer_uniform
from ._base import Layer, check_choice
from ._affine import FILL_MODES, INTERPOLATIONS, sample_affine
from .resizing import check_data_format, image_batch, image_output


def _bounds(factor):
    if isinstance(factor, (int, float, np.integer, np.floating)):
        lower, upper = -abs(float(factor)), abs(float(factor))
    else:
        lower, upper = (float(value) for value in factor)
    if lower > upper:
        raise ValueError(f"RandomRotation: `factor` must be (lower, upper) with lower <= upper; "
                         f"received factor={factor!r}")
    return lower, upper


def rotate(image, angle, interpolation, fill_mode, fill_value):
    """One image `[H, W, C]` turned by `angle` radians about its centre (see the module)."""
    height, width = image.shape[:2]
    cos, sin = np.cos(angle), np.sin(angle)
    dx = ((width - 1) - (cos * (width - 1) - sin * (height - 1))) / 2.0
    dy = ((height - 1) - (sin * (width - 1) + cos * (height - 1))) / 2.0
    return sample_affine(image, (cos, -sin, dx, sin, cos, dy), interpolation, fill_mode,
                         fill_value)


class RandomRotation(Layer):
    """Turn images by a random angle in `factor x 2 pi` (see the module docstring)."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.factor, self.lower, self.upper = factor, *_bounds(factor)
        check_choice(fill_mode, FILL_MODES, "fill_mode", "RandomRotation")
        check_choice(interpolation, INTERPOLATIONS, "interpolation", "RandomRotation")
        self.fill_mode, self.interpolation = fill_mode, interpolation
        self.seed, self.fill_value = seed, float(fill_value)
        self.data_format = check_data_format(data_format, "RandomRotation")
        self.generator = layer_seed_generator(seed, "RandomRotation")

    def call(self, inputs, training=True):
        batch, single = image_batch(inputs, self)
        batch = batch.astype(self.compute_dtype)
        if training:
            degrees = layer_uniform(self.generator, (batch.shape[0],), self.lower * 360.0,
                                    self.upper * 360.0)
            angles = degrees * np.float32(np.pi / 180.0)
            batch = np.stack([rotate(image, angle, self.interpolation, self.fill_mode,
                                     self.fill_value) for image, angle in zip(batch, angles)]
                             ).astype(self.compute_dtype)
        return image_output(batch, single, self)

    def _config(self):
        # As Keras 3: the factor as its (lower, upper) pair, and no value_range (Keras 3's
        # RandomRotation has none and refuses one in from_config).
        return {"factor": [self.lower, self.upper], "fill_mode": self.fill_mode,
                "interpolation": self.interpolation, "seed": self.seed,
                "fill_value": self.fill_value, "data_format": self.data_format}
