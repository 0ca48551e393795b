"""`GRUCell`: one step of Keras' `GRU`, in both of Keras 3's variants.

The projections `x W` and `h U` are split into update, reset and candidate parts
(`z`, `r`, `n`), and `h = z h + (1 - z) n` with `z = sig(xz + hz)`, `r = sig(xr + hr)`:

- `reset_after=True` (Keras 3's default): `n = tanh(xn + r (h Un + b_rec_n))`, the reset gate
  applied after the recurrent matmul; the bias is `(2, 3 units)`: input bias, recurrent bias.
- `reset_after=False`: `n = tanh(xn + (r h) Un)`, the reset gate applied to the state before
  its matmul; one bias of `3 units`, added to the input side.

>>> import numpy as np
>>> cell = GRUCell(1, reset_after=False, kernel_initializer="ones",
...                recurrent_initializer="zeros")
>>> output, _ = cell(np.zeros((1, 2), np.float32), [np.ones((1, 1), np.float32)])
>>> output.numpy().tolist()  # z = sig(0) = 0.5, n = tanh(0) = 0: h = 0.5 * 1
[[0.5]]
"""

from .. import ops
from ..ops.linalg import matmul
from .recurrent_cells import _GatedCell


class GRUCell(_GatedCell):
    """One step of `GRU`; `reset_after` chooses where the reset gate applies (see the
    module). Takes `LSTMCell`'s arguments but `unit_forget_bias`."""

    _GATES = 3

    def __init__(self, units, reset_after=True, **kwargs):
        super().__init__(units, **kwargs)
        self.reset_after = bool(reset_after)

    def _bias_shape(self):
        # reset_after: the input bias, then the recurrent one
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def step(self, projected, states, training=None):
        hidden, units = states[0], self.units
        dropped = self._dropped_state(hidden, training)
        if self.use_bias:
            projected = ops.add(projected, self.bias[0] if self.reset_after else self.bias)
        if self.reset_after:
            recurrent = matmul(dropped, self.recurrent_kernel)
            if self.use_bias:
                recurrent = ops.add(recurrent, self.bias[1])
        else:
            recurrent = matmul(dropped, self.recurrent_kernel[:, :2 * units])
        gate = self.recurrent_activation
        update = gate(ops.add(projected[:, :units], recurrent[:, :units]))
        reset = gate(ops.add(projected[:, units:2 * units], recurrent[:, units:2 * units]))
        if self.reset_after:
            recurrent_candidate = ops.multiply(reset, recurrent[:, 2 * units:])
        else:
            recurrent_candidate = matmul(ops.multiply(reset, dropped),
                                         self.recurrent_kernel[:, 2 * units:])
        candidate = self.activation(ops.add(projected[:, 2 * units:], recurrent_candidate))
        kept = ops.multiply(update, hidden)
        return [ops.add(kept, ops.multiply(ops.subtract(1.0, update), candidate))]

    def _config(self):
        return {**super()._config(), "reset_after": self.reset_after}
