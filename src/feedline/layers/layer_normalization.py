"""`LayerNormalization` and `UnitNormalization`: rescale each sample on its own.

LayerNormalization subtracts each sample's mean over `axis` and divides by its standard
deviation (`sqrt(variance + epsilon)`, epsilon 1e-3 as Keras), then scales by `gamma` and
shifts by `beta`, learned per feature. Unlike BatchNormalization it needs no batch
statistics, so training and inference compute the same thing. UnitNormalization divides
each sample by its L2 norm over `axis`.

>>> import numpy as np
>>> out = LayerNormalization(epsilon=0.0)(np.array([[1.0, 3.0]]))
>>> out.numpy().tolist()
[[-1.0, 1.0]]
>>> UnitNormalization()(np.array([[3.0, 4.0]])).numpy().tolist()
[[0.6000000238418579, 0.800000011920929]]
"""

from .. import ops
from ._base import Layer
from ._compute import compute_tensor
from ._regularized import RegularizedMixin, regularizer_config


def _axes(axis):
    return [int(a) for a in axis] if isinstance(axis, (list, tuple)) else [int(axis)]


class LayerNormalization(RegularizedMixin, Layer):
    """Normalize each sample over `axis`, then `* gamma + beta` (Keras 3's arguments).

    Args:
        axis: the axis or axes to normalize over (-1: the features).
        epsilon: added to the variance before its square root (1e-3).
        center, scale: learn `beta` (added) and `gamma` (multiplied).
        rms_scaling: Keras 3's deprecated option: `x * gamma / sqrt(variance + epsilon)`,
            without centring `x` (Keras' own warning says it divides by the variance, not
            the root mean square); `gamma` is learned even when `scale=False`, `beta` never.
        beta_initializer, gamma_initializer: "zeros" and "ones" by default.
        beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint: as Keras.

    Raises:
        ValueError: when `axis` is not an axis of the inputs.
    """

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, rms_scaling=False,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.axis, self.epsilon = axis, float(epsilon)
        self.center, self.scale, self.rms_scaling = bool(center), bool(scale), bool(rms_scaling)
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.gamma = self.beta = None

    def build(self, input_shape):
        rank = len(input_shape or ())
        axes = _axes(self.axis)
        if not all(-rank <= a < rank and input_shape[a] is not None for a in axes):
            raise ValueError(f"{self.name}: axis={self.axis} is not a known axis of inputs "
                             f"of shape {input_shape}; use an axis such as -1")
        self._norm_axes = sorted(a % rank for a in axes)
        shape = tuple(int(input_shape[a]) for a in self._norm_axes)
        if self.scale or self.rms_scaling:  # Keras' weight order: gamma, then beta
            self.gamma = self.add_weight(shape, self.gamma_initializer, name="gamma",
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint)
        if self.center and not self.rms_scaling:
            self.beta = self.add_weight(shape, self.beta_initializer, name="beta",
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint)
        self.built = True

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        axes = self._norm_axes
        broadcast = [x.shape[a] if a in axes else 1 for a in range(x.ndim)]
        mean = ops.reduce_mean(x, axis=axes, keepdims=True)
        centred = ops.subtract(x, mean)
        variance = ops.reduce_mean(ops.square(centred), axis=axes, keepdims=True)
        # Keras 3's rms_scaling divides the uncentred inputs by the standard deviation.
        out = ops.divide(x if self.rms_scaling else centred,
                         ops.sqrt(ops.add(variance, self.epsilon)))
        if self.gamma is not None:
            out = ops.multiply(out, ops.reshape(self.gamma, broadcast))
        if self.beta is not None:
            out = ops.add(out, ops.reshape(self.beta, broadcast))
        return out

    def compute_mask(self, inputs, mask=None):
        return mask

    def _config(self):
        return {"axis": self.axis, "epsilon": self.epsilon, "center": self.center,
                "scale": self.scale, "rms_scaling": self.rms_scaling,
                "beta_initializer": self.beta_initializer,
                "gamma_initializer": self.gamma_initializer,
                **regularizer_config(self, "beta_regularizer", "gamma_regularizer",
                                     "beta_constraint", "gamma_constraint")}


class UnitNormalization(Layer):
    """Divide each sample by its L2 norm over `axis`, the norm floored at 1e-12 as Keras 3
    floors it (so a zero sample stays zero)."""

    def __init__(self, axis=-1, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.axis = axis

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        squares = ops.reduce_sum(ops.square(x), axis=_axes(self.axis), keepdims=True)
        # Flooring the squared norm at 1e-24 floors the norm at 1e-12, and keeps the
        # gradient of sqrt finite at a zero sample.
        return ops.divide(x, ops.sqrt(ops.maximum(squares, 1e-24)))

    def _config(self):
        return {"axis": self.axis}
