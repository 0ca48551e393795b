"""`BatchNormalization`: Keras' layer that centres and scales each feature (the last axis by
default) by the batch's statistics while training and by running averages of them otherwise.

While training (`training=True`, as `Model.fit` passes, and the layer trainable) it uses the
batch's mean and (biased) variance and moves the averages toward them:
`moving = moving * momentum + batch * (1 - momentum)`. Otherwise it uses the averages.
The output is `gamma * (x - mean) / sqrt(variance + epsilon) + beta`.

>>> import feedline as fl
>>> layer = fl.layers.BatchNormalization(momentum=0.5)
>>> x = np.array([[1.0], [3.0]], np.float32)
>>> layer(x, training=True).numpy().round(3).tolist()
[[-1.0], [1.0]]
>>> layer.moving_mean.numpy(), layer.moving_variance.numpy()
(array([1.], dtype=float32), array([1.], dtype=float32))
>>> layer(x).numpy().round(3).tolist()  # inference: (x - 1) / sqrt(1 + 0.001)
[[0.0], [1.999]]
"""

import numpy as np

from .. import ops
from ._base import Layer
from ._keras_defaults import refuse_renorm


class BatchNormalization(Layer):
    """Normalize `axis` by batch statistics while training, by their moving averages otherwise.

    Args:
        axis: the feature axis (an int; -1, the channels of a channels-last image).
        momentum: how much of the moving averages each training batch keeps (0.99).
        epsilon: added to the variance before its square root (1e-3).
        center, scale: learn the offset `beta` and the factor `gamma`.
        beta_initializer, gamma_initializer, moving_mean_initializer,
            moving_variance_initializer: Keras' defaults "zeros", "ones", "zeros", "ones".
        beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint, synchronized:
            kept for Keras' signature (regularizers are refused).
        renorm, renorm_clipping, renorm_momentum: Keras 3's batch renormalization; only
            renorm=False (the default) is accepted, so Keras 3.15 configs load.

    Raises:
        ValueError: for a non-integer axis, an axis outside the input, a regularizer, or
            renorm=True.
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, synchronized=False, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, name=None, **kwargs):
        super().__init__(name, **kwargs)
        refuse_renorm(renorm, renorm_clipping, "BatchNormalization")
        self.renorm_momentum = renorm_momentum
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise ValueError(f"BatchNormalization: axis must be an int such as -1, got {axis!r}")
        if beta_regularizer is not None or gamma_regularizer is not None:
            raise ValueError("BatchNormalization: regularizers are not supported by feedline; "
                             "drop beta_regularizer / gamma_regularizer")
        self.axis, self.momentum, self.epsilon = int(axis), float(momentum), float(epsilon)
        self.center, self.scale, self.synchronized = bool(center), bool(scale), synchronized
        self._initializers = {"beta_initializer": beta_initializer,
                              "gamma_initializer": gamma_initializer,
                              "moving_mean_initializer": moving_mean_initializer,
                              "moving_variance_initializer": moving_variance_initializer}
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def build(self, input_shape):
        rank = len(input_shape or ())
        if not -rank <= self.axis < rank or input_shape[self.axis] is None:
            raise ValueError(f"{self.name}: axis {self.axis} is not a known axis of inputs of "
                             f"shape {input_shape}")
        self._feature_axis = self.axis % rank
        width = (int(input_shape[self.axis]),)
        made = self._initializers
        if self.scale:  # Keras' weight order: gamma, beta, moving_mean, moving_variance
            self.gamma = self.add_weight(width, made["gamma_initializer"], name="gamma",
                                         constraint=self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight(width, made["beta_initializer"], name="beta",
                                        constraint=self.beta_constraint)
        self.moving_mean = self.add_weight(width, made["moving_mean_initializer"],
                                           name="moving_mean", trainable=False)
        self.moving_variance = self.add_weight(width, made["moving_variance_initializer"],
                                               name="moving_variance", trainable=False)
        self.built = True

    def call(self, inputs, training=None, mask=None):
        x = inputs if isinstance(inputs, np.ndarray) or hasattr(inputs, "assign") else \
            ops.convert_to_tensor(inputs)
        if x.dtype != np.dtype(self.compute_dtype):
            x = ops.cast(x, self.compute_dtype)
        shape = [1] * x.ndim  # the per-feature weights, broadcast along the other axes
        shape[self._feature_axis] = -1
        if training and self.trainable:
            others = [axis for axis in range(x.ndim) if axis != self._feature_axis]
            mean = ops.reduce_mean(x, axis=others, keepdims=True)
            centred = ops.subtract(x, mean)
            variance = ops.reduce_mean(ops.square(centred), axis=others, keepdims=True)
            self._move(self.moving_mean, np.asarray(mean).reshape(-1))
            self._move(self.moving_variance, np.asarray(variance).reshape(-1))
        else:
            centred = ops.subtract(x, ops.reshape(self.moving_mean, shape))
            variance = ops.reshape(self.moving_variance, shape)
        factor = ops.divide(1.0, ops.sqrt(ops.add(variance, self.epsilon)))
        if self.scale:
            factor = ops.multiply(factor, ops.reshape(self.gamma, shape))
        out = ops.multiply(centred, factor)
        if self.center:
            out = ops.add(out, ops.reshape(self.beta, shape))
        return out

    def _move(self, average, batch_value):
        kept = average.numpy() * self.momentum
        average.assign((kept + batch_value * (1 - self.momentum)).astype(average.dtype))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def _config(self):
        return {"axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale, **self._initializers,
                "beta_regularizer": None, "gamma_regularizer": None,
                "beta_constraint": self.beta_constraint,
                "gamma_constraint": self.gamma_constraint, "synchronized": self.synchronized,
                "renorm": False, "renorm_clipping": None,
                "renorm_momentum": self.renorm_momentum}
