"""`RandomCrop`: Keras' layer that cuts a random `height` x `width` window while training.

All images of a batch share one window, placed uniformly (one draw per axis). An image not
larger than the target on both sides is instead cropped to the target's aspect ratio around
its centre and resized bilinearly. With `training=False` Keras 3's layer returns its input
as it is (its docstring promises a centre crop, its code does not crop), and so does this one.

The windows are Keras 3's with the TensorFlow backend: `seed=None` becomes Keras'
`make_default_seed()` (Python's `random`, so it shows in the config), and a training call on
images larger than the target draws two scalar `keras.random.uniform` values from the layer's
`SeedGenerator(seed)`, the top row `int(u * (H - height + 1))` then the left column
`int(v * (W - width + 1))` (float32 products, truncated), so `RandomCrop(h, w, seed=s)` cuts
the windows Keras cuts, call after call. Other calls draw nothing.

>>> import numpy as np
>>> layer = RandomCrop(2, 2, seed=5)
>>> layer(np.zeros((4, 6, 3), np.uint8)).shape, layer(np.zeros((4, 6, 3), np.uint8)).dtype
(TensorShape([2, 2, 3]), tf.float32)
"""

from .. import image as _image
from ..random.seed_generator import layer_seed_generator, layer_uniform, make_default_seed
from ._base import Layer
from .resizing import aspect_crop_box, check_data_format, image_batch, image_output


class RandomCrop(Layer):
    """Crop 3-D or 4-D images to `height` x `width` at a random place; outputs float32."""

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.height, self.width = int(height), int(width)
        # Keras picks a seed now when none is given, so the config always holds one.
        self.seed = seed if seed is not None else make_default_seed()
        self.data_format = check_data_format(data_format, "RandomCrop")
        self.generator = layer_seed_generator(self.seed, "RandomCrop")

    def call(self, inputs, training=True):
        batch, single = image_batch(inputs, self)
        if not training:
            return image_output(batch, single, self)
        batch = batch.astype(self.compute_dtype)
        height, width = batch.shape[1:3]
        if height > self.height and width > self.width:
            top = int(layer_uniform(self.generator, (), 0.0, float(height - self.height + 1)))
            left = int(layer_uniform(self.generator, (), 0.0, float(width - self.width + 1)))
        else:
            top, left, _, _ = aspect_crop_box(height, width, self.height, self.width)
        out = batch[:, top:top + self.height, left:left + self.width]
        if out.shape[1:3] != (self.height, self.width):
            out = _image.resize(out, [self.height, self.width]).astype(self.compute_dtype)
        return image_output(out.copy(), single, self)

    def _config(self):
        return {"height": self.height, "width": self.width, "seed": self.seed,
                "data_format": self.data_format}
