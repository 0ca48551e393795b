"""`SimpleRNNCell`, `LSTMCell` and `GRUCell`: one time step of Keras' recurrent layers.

A cell maps `(inputs, states)` of one step, `(batch, features)` and a list of `(batch, units)`
tensors, to `(output, new_states)`; `RNN` runs it over a sequence, and `SimpleRNN`, `LSTM`
and `GRU` are `RNN`s of these cells. Keras 3's formulas (weights, gate order, biases):

- SimpleRNNCell: `h = activation(x W + h U + b)`; one state.
- LSTMCell: `z = x W + h U + b` split into input, forget, cell and output parts `i, f, g, o`;
  `c = sig(f) c + sig(i) tanh(g)`, `h = sig(o) tanh(c)`; states `[h, c]`;
  `unit_forget_bias` starts the forget bias at 1.
- GRUCell: update, reset and candidate gates (see `gru_cell`, both `reset_after` variants).

While training, `dropout` drops input features and `recurrent_dropout` state units, each with
one mask kept for every step of a sequence (Keras draws one per gate; feedline one for all).
Weights come from feedline's own generator, not Keras' numbers.

>>> import numpy as np
>>> cell = SimpleRNNCell(2, kernel_initializer="ones", recurrent_initializer="zeros")
>>> output, states = cell(np.ones((1, 3), np.float32), [np.zeros((1, 2), np.float32)])
>>> np.round(output.numpy(), 4).tolist(), len(states)  # tanh(1 + 1 + 1)
([[0.9951, 0.9951]], 1)
"""

import numpy as np

from .. import ops
from ..ops.linalg import matmul
from ._base import Layer
from ._regularized import RegularizedMixin, regularizer_config
from .dropout import drop_scale


def _initializer_entry(initializer):
    """An initializer as Keras writes it in a config."""
    config = initializer.get_config() if hasattr(initializer, "get_config") else {}
    return {"module": "keras.initializers", "class_name": type(initializer).__name__,
            "config": config, "registered_name": None}


# Keras config keys the cells accept and ignore.
_KERAS_ONLY_KEYS = ("implementation",)
# The regularizer and constraint arguments, one of each per weight.
_PENALTIES = ("kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
              "kernel_constraint", "recurrent_constraint", "bias_constraint")


class _GatedCell(RegularizedMixin, Layer):
    """What the three cells share: arguments, weights, dropout masks, the input projection."""

    _GATES = 1  # column blocks of the kernels

    @classmethod
    def from_config(cls, config):
        """The cell a Keras (or feedline) config describes, the shared arguments included."""
        import inspect

        config = dict(config)
        shared = (set(inspect.signature(_GatedCell.__init__).parameters)
                  | set(_KERAS_ONLY_KEYS)) - {"self", "kwargs", "name"}
        own = {key: config.pop(key) for key in list(config) if key in shared}
        return cls(**cls._config_arguments(config), **own)

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 name=None, **kwargs):
        from ..keras import activations, initializers

        owner = type(self).__name__
        kwargs.pop("implementation", None)  # accepted for Keras' signature; unused here
        super().__init__(name, **kwargs)
        self.kernel_regularizer, self.recurrent_regularizer = kernel_regularizer, \
            recurrent_regularizer
        self.bias_regularizer, self.kernel_constraint = bias_regularizer, kernel_constraint
        self.recurrent_constraint, self.bias_constraint = recurrent_constraint, bias_constraint
        if isinstance(units, bool) or not isinstance(units, (int, np.integer)) or units <= 0:
            raise ValueError(f"{owner}: units must be a positive integer, got {units!r}")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.dropout, self.recurrent_dropout = float(dropout), float(recurrent_dropout)
        if not (0 <= self.dropout < 1 and 0 <= self.recurrent_dropout < 1):
            raise ValueError(f"{owner}: dropout and recurrent_dropout must be in [0, 1), got "
                             f"{dropout!r} and {recurrent_dropout!r}")
        self.seed = seed
        self.kernel = self.recurrent_kernel = self.bias = None
        self.reset_dropout_masks()

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self):
        return self.units

    def build(self, input_shape):
        if input_shape is None or input_shape[-1] is None:
            raise ValueError(f"{self.name}: a recurrent cell needs inputs with a known last "
                             f"axis (features), got shape {input_shape}")
        width = self._GATES * self.units
        self.kernel = self.add_weight((int(input_shape[-1]), width), self.kernel_initializer,
                                      name="kernel", regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            (self.units, width), self.recurrent_initializer, name="recurrent_kernel",
            regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint)
        if self.use_bias:
            self.bias = self.add_weight(self._bias_shape(), self._bias_initial(), name="bias",
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def _bias_shape(self):
        return (self._GATES * self.units,)

    def _bias_initial(self):
        return self.bias_initializer

    def get_initial_state(self, batch_size):
        """Zero states, one `(batch_size, units)` tensor per state."""
        sizes = self.state_size if isinstance(self.state_size, (list, tuple)) else \
            [self.state_size]
        return [ops.zeros((int(batch_size), size), self.compute_dtype) for size in sizes]

    # -- dropout: one mask per sequence (`RNN` resets them before and after each call) ------

    def reset_dropout_masks(self):
        self._input_scale = self._recurrent_scale = None

    def _dropped_input(self, x, training):
        """`x` (batch, ..., features) with this sequence's input-dropout mask applied."""
        if not (training and self.dropout):
            return x
        if self._input_scale is None:
            self._input_scale = drop_scale((x.shape[0], x.shape[-1]), self.dropout,
                                           self.seed, x.dtype)
        scale = self._input_scale
        return ops.multiply(x, scale.reshape((scale.shape[0],) + (1,) * (x.ndim - 2)
                                             + (scale.shape[1],)))

    def _dropped_state(self, hidden, training):
        if not (training and self.recurrent_dropout):
            return hidden
        if self._recurrent_scale is None:
            self._recurrent_scale = drop_scale(tuple(hidden.shape), self.recurrent_dropout,
                                               self.seed, hidden.dtype)
        return ops.multiply(hidden, self._recurrent_scale)

    # -- the step ---------------------------------------------------------------------------

    def project(self, x, training=None):
        """`x W` for inputs of any leading axes: `RNN` projects every step at once."""
        x = self._dropped_input(x, training)
        flat = matmul(ops.reshape(x, [-1, x.shape[-1]]), self.kernel)
        return ops.reshape(flat, list(x.shape[:-1]) + [flat.shape[-1]])

    def call(self, inputs, states, training=None):
        x = self._compute_input(inputs)
        single = not isinstance(states, (list, tuple))
        states = [states] if single else list(states)
        new_states = self.step(self.project(x, training), states, training)
        return new_states[0], (new_states[0] if single else new_states)

    def _config(self):
        from ..keras import activations

        config = {"units": self.units, "activation": activations.serialize(self.activation),
                  "use_bias": self.use_bias,
                  "kernel_initializer": _initializer_entry(self.kernel_initializer),
                  "recurrent_initializer": _initializer_entry(self.recurrent_initializer),
                  "bias_initializer": _initializer_entry(self.bias_initializer),
                  **regularizer_config(self, *_PENALTIES),
                  "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout,
                  "seed": self.seed}
        if self._GATES > 1:
            config["recurrent_activation"] = activations.serialize(self.recurrent_activation)
        return config


class SimpleRNNCell(_GatedCell):
    """One step of `SimpleRNN`: `h = activation(x W + h U + b)` (see the module docstring).

    Args:
        units: the size of the state and output.
        activation: "tanh" by default.
        use_bias, kernel_initializer, recurrent_initializer, bias_initializer, the
            regularizers and constraints (kernel, recurrent, bias), dropout,
            recurrent_dropout, seed: Keras' arguments of the same names.
    """

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        super().__init__(units, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, dropout=dropout,
                         recurrent_dropout=recurrent_dropout, seed=seed, **kwargs)

    def step(self, projected, states, training=None):
        """The new states from this step's projected input `x W` and the previous states."""
        total = ops.add(projected, matmul(self._dropped_state(states[0], training),
                                          self.recurrent_kernel))
        if self.use_bias:
            total = ops.add(total, self.bias)
        return [self.activation(total)]


class LSTMCell(_GatedCell):
    """One step of `LSTM`: gates input, forget, cell, output; states `[h, c]` (see the module
    docstring). Takes `SimpleRNNCell`'s arguments plus `recurrent_activation` ("sigmoid")
    and `unit_forget_bias` (True)."""

    _GATES = 4

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = bool(unit_forget_bias)

    @property
    def state_size(self):
        return [self.units, self.units]

    def _bias_initial(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        units, base = self.units, self.bias_initializer

        def forget_one(shape, dtype=None):
            values = np.asarray(base(shape, dtype=dtype)).copy()
            values[units:2 * units] = 1.0
            return values
        return forget_one

    def step(self, projected, states, training=None):
        hidden, cell = states
        units = self.units
        total = ops.add(projected, matmul(self._dropped_state(hidden, training),
                                          self.recurrent_kernel))
        if self.use_bias:
            total = ops.add(total, self.bias)
        gate = self.recurrent_activation
        input_gate, forget_gate = gate(total[:, :units]), gate(total[:, units:2 * units])
        candidate = self.activation(total[:, 2 * units:3 * units])
        output_gate = gate(total[:, 3 * units:])
        cell = ops.add(ops.multiply(forget_gate, cell), ops.multiply(input_gate, candidate))
        return [ops.multiply(output_gate, self.activation(cell)), cell]

    def _config(self):
        return {**super()._config(), "unit_forget_bias": self.unit_forget_bias}


# GRUCell has its own module (two variants of its step); it is re-exported here.
from .gru_cell import GRUCell  # noqa: E402
