"""Keras' activation layers: `ReLU`, `LeakyReLU`, `ELU`, `Softmax` and `PReLU` (whose slope
for negative values is learned), written with the ops of `fl.keras.activations`.

>>> import numpy as np
>>> x = np.array([[-2.0, 3.0]])
>>> LeakyReLU()(x).numpy().tolist(), ReLU(max_value=2.0)(x).numpy().tolist()
([[-0.6000000238418579, 3.0]], [[0.0, 2.0]])
"""

import numpy as np

from .. import ops
from ._base import Layer
from ._compute import compute_tensor
from ._regularized import RegularizedMixin, regularizer_config

# What Keras adds to a masked logit before a softmax, so its probability is (about) zero.
_MASKED_LOGIT = -1e9


class ReLU(Layer):
    """`max(x, 0)`, with Keras' `max_value`, `negative_slope` and `threshold`.

    Raises:
        ValueError: for a negative `max_value`, `negative_slope` or `threshold` (Keras 3's
            layer refuses them; the function `keras.activations.relu` does not).
    """

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, name=None, **kwargs):
        super().__init__(name, **kwargs)
        if max_value is not None and max_value < 0:
            raise ValueError(f"ReLU: max_value must be >= 0 (or None), got {max_value!r}")
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"ReLU: negative_slope must be >= 0, got {negative_slope!r}")
        if threshold is None or threshold < 0:
            raise ValueError(f"ReLU: threshold must be >= 0, got {threshold!r}; for a negative "
                             "threshold call fl.keras.activations.relu in a Lambda layer")
        self.max_value, self.negative_slope = max_value, float(negative_slope)
        self.threshold = float(threshold)

    def call(self, inputs):
        from ..keras import activations

        return activations.relu(compute_tensor(self, inputs), self.negative_slope,
                                self.max_value, self.threshold)

    def compute_mask(self, inputs, mask=None):
        return mask

    def _config(self):
        return {"max_value": self.max_value, "negative_slope": self.negative_slope,
                "threshold": self.threshold}


class LeakyReLU(Layer):
    """`x` where positive, `negative_slope * x` elsewhere (Keras 3's default slope: 0.3;
    the older spelling `alpha=` is accepted)."""

    def __init__(self, negative_slope=0.3, name=None, **kwargs):
        alpha = kwargs.pop("alpha", None)
        super().__init__(name, **kwargs)
        if alpha is not None:
            negative_slope = alpha
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"LeakyReLU: negative_slope must be >= 0, got {negative_slope!r}")
        self.negative_slope = float(negative_slope)

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        return ops.where(ops.greater(x, 0.0), x, ops.multiply(x, self.negative_slope))

    def compute_mask(self, inputs, mask=None):
        return mask

    def _config(self):
        return {"negative_slope": self.negative_slope}


class ELU(Layer):
    """`x` where positive, `alpha * (exp(x) - 1)` elsewhere."""

    def __init__(self, alpha=1.0, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.alpha = float(alpha)

    def call(self, inputs):
        from ..keras import activations

        return activations.elu(compute_tensor(self, inputs), self.alpha)

    def compute_mask(self, inputs, mask=None):
        return mask

    def _config(self):
        return {"alpha": self.alpha}


class Softmax(Layer):
    """The softmax over `axis`; with `mask` (True for a kept value), masked values get a
    probability of about zero, as Keras adds a large negative number to their logits."""

    def __init__(self, axis=-1, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        from ..keras import activations

        x = compute_tensor(self, inputs)
        if mask is not None:
            dropped = 1.0 - np.asarray(mask, dtype=x.dtype)
            x = ops.add(x, (dropped * _MASKED_LOGIT).astype(x.dtype))
        if isinstance(self.axis, (list, tuple)):  # a softmax over several axes at once
            return ops.exp(ops.subtract(x, ops.reduce_logsumexp(x, axis=list(self.axis),
                                                                keepdims=True)))
        return activations.softmax(x, axis=self.axis)

    def _config(self):
        return {"axis": self.axis}


class PReLU(RegularizedMixin, Layer):
    """`x` where positive, `alpha * x` elsewhere, with `alpha` learned per value (shared
    along `shared_axes`, e.g. `[1, 2]` for one slope per image channel).

    Args:
        alpha_initializer: "zeros" by default (a plain ReLU at first).
        alpha_regularizer, alpha_constraint: as Keras.
        shared_axes: input axes (batch axis is 0) along which one slope is shared.
    """

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.alpha_initializer, self.alpha_regularizer = alpha_initializer, alpha_regularizer
        self.alpha_constraint = alpha_constraint
        if shared_axes is not None and not isinstance(shared_axes, (list, tuple)):
            shared_axes = [shared_axes]
        self.shared_axes = None if shared_axes is None else [int(a) for a in shared_axes]
        self.alpha = None

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for axis in self.shared_axes or []:
            if not 1 <= axis < len(input_shape):
                raise ValueError(f"{self.name}: shared_axes must be axes of the inputs after "
                                 f"the batch axis (1 .. {len(input_shape) - 1}), got "
                                 f"{self.shared_axes}")
            shape[axis - 1] = 1
        self.alpha = self.add_weight(tuple(shape), self.alpha_initializer, name="alpha",
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        self.built = True

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        return ops.where(ops.greater(x, 0.0), x, ops.multiply(self.alpha, x))

    def _config(self):
        return {"alpha_initializer": self.alpha_initializer,
                **regularizer_config(self, "alpha_regularizer", "alpha_constraint"),
                "shared_axes": self.shared_axes}
