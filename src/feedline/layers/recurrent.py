"""`SimpleRNN`, `LSTM` and `GRU`: Keras' recurrent layers, each an `RNN` of its cell
(`SimpleRNNCell`, `LSTMCell`, `GRUCell`; the formulas are in `recurrent_cells`).

Inputs are `(batch, time, features)`. Each layer keeps a state per sequence, updates it at
every time step from the step's input and the previous state, and returns the last output
`(batch, units)`, or every output `(batch, time, units)` with `return_sequences=True`, and with
`return_state=True` also the final state(s). The layer takes the cell's arguments and hands
the cell's attributes out (`units`, `kernel`, `recurrent_kernel`, `bias`, ...); its config is
Keras' flat one (no nested `cell`). With a mask, a padded step keeps the state as it was and
repeats the last output, as Keras does.

>>> import numpy as np
>>> layer = SimpleRNN(2, kernel_initializer="ones", recurrent_initializer="zeros",
...                   activation=None)
>>> layer(np.ones((1, 3, 2), np.float32)).numpy().tolist()  # each step: 1 + 1, no memory
[[2.0, 2.0]]
"""

import inspect

from .recurrent_cells import _KERAS_ONLY_KEYS, GRUCell, LSTMCell, SimpleRNNCell, _GatedCell
from .rnn import RNN

# Saving (the weights under the layer's `cell`), masks and `Bidirectional` treat every `RNN`
# alike; they know it by this name.
_Recurrent = RNN
# Keras config keys of the layers that feedline reads nowhere.
_LAYER_ONLY_KEYS = ("activity_regularizer", "use_cudnn", "time_major")
# The cell's attributes the layer hands out, as Keras' layers do.
_CELL_ATTRIBUTES = ("units", "activation", "recurrent_activation", "use_bias",
                    "kernel_initializer", "recurrent_initializer", "bias_initializer",
                    "dropout", "recurrent_dropout", "seed", "kernel", "recurrent_kernel",
                    "bias")


class _CellLayer(RNN):
    """What the three layers share: the cell made from the layer's arguments."""

    _CELL = SimpleRNNCell

    def __init__(self, units, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, name=None,
                 **kwargs):
        owner = type(self).__name__
        if kwargs.pop("time_major", False):
            raise ValueError(f"{owner}: time_major=True is not supported by feedline; give "
                             "inputs as (batch, time, features)")
        for kept in ("use_cudnn",):  # accepted for Keras' signature
            kwargs.pop(kept, None)
        cell_names = (set(inspect.signature(_GatedCell.__init__).parameters)
                      | set(inspect.signature(self._CELL.__init__).parameters)
                      | set(_KERAS_ONLY_KEYS)) - {"self", "kwargs", "name"}
        cell_arguments = {key: kwargs.pop(key) for key in list(kwargs) if key in cell_names}
        cell_arguments["dtype"] = kwargs.get("dtype")
        cell_arguments["trainable"] = kwargs.get("trainable", True)
        try:
            cell = self._CELL(units, name=f"{name or owner.lower()}_cell", **cell_arguments)
        except ValueError as error:  # said with the layer's name, not the cell's
            raise ValueError(str(error).replace(self._CELL.__name__, owner)) from None
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         zero_output_for_mask=zero_output_for_mask, name=name, **kwargs)

    def __getattr__(self, name):
        # Only reached for names the layer lacks: the cell's arguments and weights.
        if name in _CELL_ATTRIBUTES or name in ("unit_forget_bias", "reset_after"):
            cell = self.__dict__.get("cell")
            if cell is not None and hasattr(cell, name):
                return getattr(cell, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _config(self):
        config = {key: value for key, value in self.cell._config().items()}
        config.update({key: value for key, value in super()._config().items()
                       if key != "cell"})
        return config

    @classmethod
    def from_config(cls, config):
        """The layer a Keras (or feedline) config describes (Keras' flat keys)."""
        config = {key: value for key, value in config.items() if key not in _LAYER_ONLY_KEYS
                  or key == "time_major"}
        return cls(**config)


class SimpleRNN(_CellLayer):
    """An `RNN` of a `SimpleRNNCell`: `h = activation(x W + h U + b)`; takes the cell's
    arguments and `RNN`'s."""

    _CELL = SimpleRNNCell


class LSTM(_CellLayer):
    """An `RNN` of an `LSTMCell` (gates input, forget, cell, output); takes the cell's
    arguments (`unit_forget_bias` included) and `RNN`'s."""

    _CELL = LSTMCell


class GRU(_CellLayer):
    """An `RNN` of a `GRUCell` (`reset_after=True`, Keras 3's default, or False); takes the
    cell's arguments and `RNN`'s."""

    _CELL = GRUCell
