"""Keras' window pooling layers: `MaxPooling2D`, `AveragePooling2D`, `MaxPooling1D`,
`AveragePooling1D`. Each takes the maximum or mean of every `pool_size` window, moving by
`strides` (default: `pool_size`, so windows do not overlap), channels-last, with `fl.nn`'s
pooling ops so gradients flow through them.

>>> import feedline as fl
>>> fl.layers.MaxPooling2D()(np.zeros((2, 7, 7, 3), np.float32)).shape
TensorShape([2, 3, 3, 3])
>>> fl.layers.AveragePooling1D(3, strides=1, padding="same")(np.ones((1, 4, 2))).numpy()[0, :, 0]
array([1., 1., 1., 1.], dtype=float32)
"""

import numpy as np

from .. import ops
from ..ops import nn
from ._base import Layer
from .conv import as_tuple, channels_last, output_length, padding_name

_OPS = {("max", 1): nn.max_pool1d, ("max", 2): nn.max_pool2d,
        ("average", 1): nn.avg_pool1d, ("average", 2): nn.avg_pool2d}


def _needs_cast(x, layer):
    """Whether a pool computes `x` in the layer's dtype: floats are autocast, as Keras casts
    them; an integer max stays an integer (Keras 3 keeps int32 there); an integer mean is
    float (as Keras' JAX backend gives; TensorFlow's average pool has no integer kernel)."""
    if x.dtype.kind == "f":
        return x.dtype != np.dtype(layer.compute_dtype)
    return layer._KIND == "average"


class _Pooling(Layer):
    """What the four pooling layers share: `_RANK` spatial axes, `_KIND` "max" or "average"."""

    _RANK, _KIND = 2, "max"

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, name=None,
                 **kwargs):
        owner = type(self).__name__
        super().__init__(name, **kwargs)
        self.pool_size = as_tuple(pool_size, self._RANK, "pool_size", owner)
        self.strides = self.pool_size if strides is None else as_tuple(
            strides, self._RANK, "strides", owner)
        self.padding = padding_name(padding, owner)
        self.data_format = channels_last(data_format, owner)

    def call(self, inputs):
        x = inputs if isinstance(inputs, np.ndarray) or hasattr(inputs, "assign") else \
            ops.convert_to_tensor(inputs)
        if _needs_cast(x, self):
            x = ops.cast(x, self.compute_dtype)
        if x.ndim != self._RANK + 2:
            layout = "(batch, steps, channels)" if self._RANK == 1 else \
                "(batch, height, width, channels)"
            raise ValueError(f"{self.name}: expected inputs of rank {self._RANK + 2}, {layout}, "
                             f"got shape {tuple(x.shape)}")
        pool = _OPS[self._KIND, self._RANK]
        size = self.pool_size if self._RANK == 2 else self.pool_size[0]
        strides = self.strides if self._RANK == 2 else self.strides[0]
        return pool(x, size, strides, self.padding.upper())

    def compute_output_shape(self, input_shape):
        spatial = tuple(output_length(length, size, stride, 1, self.padding)
                        for length, size, stride in zip(input_shape[1:-1], self.pool_size,
                                                        self.strides))
        return (input_shape[0],) + spatial + (input_shape[-1],)

    def _config(self):
        return {"pool_size": self.pool_size, "padding": self.padding, "strides": self.strides,
                "data_format": self.data_format}


class MaxPooling2D(_Pooling):
    """The largest value of each `pool_size` window of `(batch, height, width, channels)`.

    Args:
        pool_size: an int or a pair (default 2, i.e. (2, 2)).
        strides: an int or a pair; None (the default) is `pool_size`.
        padding: "valid" (windows inside the input) or "same" (output `ceil(size / stride)`).
        data_format: "channels_last" only.
    """

    _RANK, _KIND = 2, "max"


class _AveragePooling(_Pooling):
    """Keras 3's average pools have no default `pool_size`."""

    _KIND = "average"

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, name=None,
                 **kwargs):
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class AveragePooling2D(_AveragePooling):
    """The mean of each window (`MaxPooling2D`'s arguments, but `pool_size` has no default);
    with "same", the padded pixels are not counted."""

    _RANK = 2


class MaxPooling1D(_Pooling):
    """The largest value of each `pool_size` window of `(batch, steps, channels)`."""

    _RANK, _KIND = 1, "max"


class AveragePooling1D(_AveragePooling):
    """The mean of each `pool_size` window of `(batch, steps, channels)` (no default size)."""

    _RANK = 1
