"""Keras' regularizing noise layers, active only while training (`training=True`, which
`Model.fit` passes); outside training they hand the inputs on unchanged.

- `GaussianNoise(stddev)` adds zero-mean normal noise;
- `GaussianDropout(rate)` multiplies by normal noise of mean 1 and standard deviation
  `sqrt(rate / (1 - rate))`;
- `SpatialDropout1D/2D(rate)` drop whole feature channels (the same channels at every step
  or pixel of a sample), scaling the rest by `1 / (1 - rate)`;
- `AlphaDropout(rate)` sets dropped values to SELU's negative saturation and then rescales
  so that inputs of mean 0 and variance 1 keep that mean and variance.

The noise is Keras 3's with the TensorFlow backend: each layer keeps a
`keras.random.SeedGenerator(seed)` and each training call takes its next seed (`[seed, n - 1]`
on the n-th call) for one draw: `stateless_normal` of the inputs' shape for the Gaussian
layers (mean 0 and `stddev`, or mean 1 and `sqrt(rate / (1 - rate))`), `stateless_dropout`
with noise shape `(batch, 1, channels)` / `(batch, 1, 1, channels)` for the spatial ones, and
`stateless_uniform(noise_shape) >= rate` for `AlphaDropout`.

>>> import numpy as np
>>> layer = SpatialDropout1D(0.5, seed=3)
>>> out = layer(np.ones((1, 4, 6), np.float32), training=True).numpy()
>>> bool((out == out[:, :1]).all())  # one choice per channel, the same at every step
True
>>> layer(np.ones((1, 2, 2)), training=False).numpy().tolist()
[[[1.0, 1.0], [1.0, 1.0]]]
"""

import math

import numpy as np

from .. import ops
from ._base import Layer
from ._compute import compute_tensor
from ..random.seed_generator import layer_normal, layer_seed_generator, layer_uniform
from .dropout import keras_drop_scale

# SELU's constants, which AlphaDropout's saturation value and rescaling come from.
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _check_rate(rate, what):
    if not 0 <= float(rate) < 1:
        raise ValueError(f"{what}: rate must be in [0, 1), e.g. rate=0.1, got {rate!r}")
    return float(rate)


class GaussianNoise(Layer):
    """Add normal noise of standard deviation `stddev` while training."""

    def __init__(self, stddev, seed=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        if float(stddev) < 0:
            raise ValueError(f"GaussianNoise: stddev must be >= 0, got {stddev!r}")
        self.stddev, self.seed = float(stddev), seed
        self.seed_generator = layer_seed_generator(seed, "GaussianNoise")

    def call(self, inputs, training=None):
        x = compute_tensor(self, inputs)
        if not training or self.stddev == 0:
            return x
        return ops.add(x, layer_normal(self.seed_generator, x.shape, 0.0, self.stddev,
                                       x.dtype))

    def compute_mask(self, inputs, mask=None):
        return mask

    def _config(self):
        return {"stddev": self.stddev, "seed": self.seed}


class GaussianDropout(Layer):
    """Multiply by normal noise of mean 1 and variance `rate / (1 - rate)` while training."""

    def __init__(self, rate, seed=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.rate, self.seed = _check_rate(rate, "GaussianDropout"), seed
        self.seed_generator = layer_seed_generator(seed, "GaussianDropout")

    def call(self, inputs, training=None):
        x = compute_tensor(self, inputs)
        if not training or self.rate == 0:
            return x
        spread = math.sqrt(self.rate / (1.0 - self.rate))
        return ops.multiply(x, layer_normal(self.seed_generator, x.shape, 1.0, spread, x.dtype))

    def compute_mask(self, inputs, mask=None):
        return mask

    def _config(self):
        return {"rate": self.rate, "seed": self.seed}


class _SpatialDropout(Layer):
    _RANK = None  # the inputs' rank

    def __init__(self, rate, seed=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.rate, self.seed = _check_rate(rate, type(self).__name__), seed
        self.seed_generator = layer_seed_generator(seed, type(self).__name__)

    def call(self, inputs, training=None):
        x = compute_tensor(self, inputs)
        if x.ndim != self._RANK:
            raise ValueError(f"{self.name}: {type(self).__name__} needs inputs of rank "
                             f"{self._RANK} (channels last), got shape {tuple(x.shape)}")
        if not training or self.rate == 0:
            return x
        # One draw per (sample, channel), broadcast over the steps or pixels.
        shape = (x.shape[0],) + (1,) * (x.ndim - 2) + (x.shape[-1],)
        return ops.multiply(x, keras_drop_scale(self.seed_generator, x.shape, shape, self.rate,
                                                x.dtype))

    def compute_mask(self, inputs, mask=None):
        return mask

    def get_config(self):
        # Keras 3's spatial dropouts write only these keys (the dtype as a plain name), and
        # their constructors take no `trainable`: a fuller config would not load in Keras.
        return {"rate": self.rate, "seed": self.seed, "name": self.name,
                "dtype": self.dtype, **self._format()}

    def _format(self):
        return {}


class SpatialDropout1D(_SpatialDropout):
    """Drop whole channels of `(batch, steps, channels)` inputs while training."""

    _RANK = 3


class SpatialDropout2D(_SpatialDropout):
    """Drop whole channels of `(batch, rows, cols, channels)` inputs while training."""

    _RANK = 4

    def __init__(self, rate, data_format=None, seed=None, name=None, **kwargs):
        if data_format not in (None, "channels_last"):
            raise ValueError(f"SpatialDropout2D: data_format={data_format!r} is not supported "
                             "by feedline; use 'channels_last' inputs")
        super().__init__(rate, seed=seed, name=name, **kwargs)

    def _format(self):
        return {"data_format": "channels_last"}


class AlphaDropout(Layer):
    """Dropout for SELU networks: dropped values become `-alpha * scale` of SELU, then
    `a * x + b` restores mean 0 and variance 1 (Keras' `AlphaDropout`).

    >>> import numpy as np
    >>> AlphaDropout(0.5, seed=1)(np.zeros((1, 3)), training=False).numpy().tolist()
    [[0.0, 0.0, 0.0]]
    """

    def __init__(self, rate, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.rate, self.seed = _check_rate(rate, "AlphaDropout"), seed
        self.noise_shape = noise_shape
        self.seed_generator = layer_seed_generator(seed, "AlphaDropout")

    def call(self, inputs, training=None):
        x = compute_tensor(self, inputs)
        if not training or self.rate == 0:
            return x
        shape = tuple(x.shape) if self.noise_shape is None else tuple(
            x.shape[axis] if size is None else int(size)
            for axis, size in enumerate(self.noise_shape))
        kept = (layer_uniform(self.seed_generator, shape) >= np.float32(self.rate)).astype(
            x.dtype)
        saturated = -_SELU_ALPHA * _SELU_SCALE
        a = ((1 - self.rate) * (1 + self.rate * saturated**2)) ** -0.5
        b = -a * saturated * self.rate
        # As Keras: x * kept + saturated * (1 - kept), then a * that + b, in x's dtype.
        mixed = ops.add(ops.multiply(x, kept), (x.dtype.type(saturated) * (1 - kept)))
        return ops.add(ops.multiply(mixed, x.dtype.type(a)), x.dtype.type(b))

    def compute_mask(self, inputs, mask=None):
        return mask

    def _config(self):
        return {"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed}
