"""`Dense`: Keras' fully connected layer, `activation(inputs @ kernel + bias)`, trainable.

The kernel and bias are `fl.Variable`s made on the first call, when the input's last size is
known; the computation uses feedline's ops, so a `GradientTape` (and `Model.fit`) follows it.

>>> import feedline as fl
>>> layer = fl.layers.Dense(2, kernel_initializer="ones", activation="relu")
>>> layer(np.array([[1.0, -3.0]])).numpy()
array([[0., 0.]], dtype=float32)
>>> layer.kernel.shape, layer.bias.shape
(TensorShape([2, 2]), TensorShape([2]))
"""

import numpy as np

from .. import ops
from ..ops.linalg import matmul
from ._base import Layer
from ._keras_defaults import refuse_quantization
from ._regularized import RegularizedMixin, regularizer_config


class Dense(RegularizedMixin, Layer):
    """`activation(inputs @ kernel + bias)` on the last axis of `inputs`.

    Args:
        units: the output size.
        activation: a name ("relu", "sigmoid", "softmax", ...) or a function; None is linear.
        use_bias: add a learned bias.
        kernel_initializer: "glorot_uniform" (Keras' default), "he_normal", ... or an
            initializer.
        bias_initializer: "zeros" (Keras' default) or another initializer.
        kernel_regularizer, bias_regularizer, activity_regularizer: penalties added to the
            training loss (`fl.keras.regularizers`, or "l1"/"l2"), as in Keras.
        kernel_constraint, bias_constraint: applied after each optimizer step
            (`fl.keras.constraints`).
        lora_rank: kept for Keras' signature.
        quantization_config: None (Keras 3.15 writes it in every config; quantized layers
            are not in feedline).

    Raises:
        ValueError: for `units` that is not a positive integer.
    """

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None,
                 quantization_config=None, name=None, **kwargs):
        super().__init__(name, activity_regularizer=activity_regularizer, **kwargs)
        refuse_quantization(quantization_config, "Dense")
        if isinstance(units, bool) or not isinstance(units, (int, np.integer)) or units <= 0:
            raise ValueError(f"Dense: units must be a positive integer, got {units!r}")
        self.units = int(units)
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self._kernel_arguments(activation, use_bias, kernel_initializer, bias_initializer,
                               kernel_constraint, bias_constraint)
        self.lora_rank = lora_rank

    def build(self, input_shape):
        if not input_shape or input_shape[-1] is None:
            raise ValueError(f"{self.name}: Dense needs inputs with a known last axis (at "
                             f"least rank 1), got shape {input_shape}")
        self._add_kernel_and_bias((int(input_shape[-1]), self.units), self.units)

    def call(self, inputs):
        x = self._compute_input(inputs)
        if x.ndim == 2:
            out = matmul(x, self.kernel)
        elif x.ndim > 2:  # the kernel applies to the last axis of every position
            flat = ops.reshape(x, [-1, x.shape[-1]])
            out = ops.reshape(matmul(flat, self.kernel), list(x.shape[:-1]) + [self.units])
        else:
            raise ValueError(f"{self.name}: Dense needs inputs of rank >= 2 (a batch of "
                             f"vectors), got shape {tuple(x.shape)}")
        if self.use_bias:
            out = ops.add(out, self.bias)
        return self.activation(out)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def _config(self):
        from ..keras import activations

        kernel, bias = self._initializer_names
        return {"units": self.units, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, "kernel_initializer": kernel,
                "bias_initializer": bias, **regularizer_config(self),
                "quantization_config": None}
