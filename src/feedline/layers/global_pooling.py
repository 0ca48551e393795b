"""Keras' global pooling layers: the maximum or mean over every spatial position, one value
per channel: `GlobalMaxPooling1D`, `GlobalAveragePooling1D`, `GlobalMaxPooling2D`,
`GlobalAveragePooling2D`. With `keepdims=True` the spatial axes stay, with size 1.

>>> import feedline as fl
>>> x = np.arange(12, dtype=np.float32).reshape(1, 2, 3, 2)
>>> fl.layers.GlobalMaxPooling2D()(x).numpy(), fl.layers.GlobalAveragePooling2D()(x).numpy()
(array([[10., 11.]], dtype=float32), array([[5., 6.]], dtype=float32))
>>> fl.layers.GlobalMaxPooling1D(keepdims=True)(np.zeros((4, 7, 3))).shape
TensorShape([4, 1, 3])
"""

import numpy as np

from .. import ops
from ._base import Layer
from .conv import channels_last
from .pooling import _needs_cast


class _GlobalPooling(Layer):
    """What the four layers share: `_RANK` spatial axes, `_KIND` "max" or "average"."""

    _RANK, _KIND = 2, "max"

    def __init__(self, data_format=None, keepdims=False, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.data_format = channels_last(data_format, type(self).__name__)
        self.keepdims = bool(keepdims)

    def call(self, inputs, mask=None):
        x = inputs if isinstance(inputs, np.ndarray) or hasattr(inputs, "assign") else \
            ops.convert_to_tensor(inputs)
        if _needs_cast(x, self):  # an integer max stays an integer, as in Keras 3
            x = ops.cast(x, self.compute_dtype)
        if x.ndim != self._RANK + 2:
            raise ValueError(f"{self.name}: expected inputs of rank {self._RANK + 2} (batch, "
                             f"{'steps' if self._RANK == 1 else 'height, width'}, channels), "
                             f"got shape {tuple(x.shape)}")
        axes = list(range(1, self._RANK + 1))
        if mask is not None and self._RANK == 1:
            return self._masked(x, mask, axes)
        reduce = ops.reduce_max if self._KIND == "max" else ops.reduce_mean
        return reduce(x, axis=axes, keepdims=self.keepdims)

    def _masked(self, x, mask, axes):
        """Keras' masked 1-D average: padded steps (mask False) are left out."""
        keep = np.asarray(mask, bool)[:, :, None]
        weights = keep.astype(x.dtype)
        total = ops.reduce_sum(ops.multiply(x, weights), axis=axes, keepdims=self.keepdims)
        return ops.divide(total, weights.sum(axis=1, keepdims=self.keepdims))

    def compute_output_shape(self, input_shape):
        if self.keepdims:
            return (input_shape[0],) + (1,) * self._RANK + (input_shape[-1],)
        return (input_shape[0], input_shape[-1])

    def _config(self):
        return {"data_format": self.data_format, "keepdims": self.keepdims}


class GlobalMaxPooling1D(_GlobalPooling):
    """The largest value over the steps of `(batch, steps, channels)`: `(batch, channels)`.

    Args:
        data_format: "channels_last" only.
        keepdims: keep the steps axis, with size 1.

    As in Keras 3 it takes no mask: a model hands it none, so padded steps count too.
    """

    _RANK, _KIND = 1, "max"

    def call(self, inputs):
        return super().call(inputs)


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps of `(batch, steps, channels)`; with a `mask` (as Keras'
    `Embedding(mask_zero=True)` makes), over the unmasked steps only."""

    _RANK, _KIND = 1, "average"


class GlobalMaxPooling2D(_GlobalPooling):
    """The largest value over height and width of `(batch, height, width, channels)`."""

    _RANK, _KIND = 2, "max"


class GlobalAveragePooling2D(_GlobalPooling):
    """The mean over height and width of `(batch, height, width, channels)`."""

    _RANK, _KIND = 2, "average"
