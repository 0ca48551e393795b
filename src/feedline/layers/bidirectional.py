"""`Bidirectional`: a recurrent layer run forwards and, as a copy with its own weights,
backwards over the sequence, the two outputs merged (concatenated by default), as Keras does.

With `return_sequences=True` the backward outputs are put back in time order before merging,
so step t holds both directions' outputs for step t, and masked steps output zeros.

>>> import numpy as np
>>> from feedline.layers import LSTM
>>> both = Bidirectional(LSTM(3, return_sequences=True))
>>> both(np.zeros((2, 5, 4), np.float32)).shape
TensorShape([2, 5, 6])
"""

from .. import ops
from ._base import Layer

_MERGES = ("concat", "sum", "mul", "ave", None)


class Bidirectional(Layer):
    """Run `layer` forwards and a copy of it backwards; merge by `merge_mode`.

    Args:
        layer: a recurrent layer: `SimpleRNN`, `LSTM`, `GRU`, or an `RNN` of cells.
        merge_mode: "concat" (the default), "sum", "mul", "ave", or None (a list of both).
        backward_layer: the layer for the backward pass (by default a copy of `layer` with
            `go_backwards` flipped).

    Raises:
        ValueError: for another merge mode, or a layer that is not recurrent.
    """

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None,
                 name=None, **kwargs):
        from .recurrent import _Recurrent

        if not isinstance(layer, _Recurrent):
            raise ValueError(f"Bidirectional wraps a recurrent layer (SimpleRNN, LSTM, GRU), "
                             f"got {type(layer).__name__}")
        if merge_mode not in _MERGES:
            raise ValueError(f"Bidirectional: merge_mode must be one of {_MERGES}, got "
                             f"{merge_mode!r}")
        super().__init__(name or f"bidirectional_{layer.name}", **kwargs)
        self.forward_layer, self.merge_mode = layer, merge_mode
        if backward_layer is None:
            backward_layer = _backward_copy(layer)
        self.backward_layer = backward_layer
        # As Keras: returning sequences, masked steps output zeros in both directions (not
        # the previous step's output), so a padded step never mixes into the merge.
        for direction in (self.forward_layer, self.backward_layer):
            direction.zero_output_for_mask = direction.return_sequences

    def _sublayers(self):
        return [self.forward_layer, self.backward_layer]

    def call(self, inputs, training=None, mask=None):
        forward = self.forward_layer(inputs, mask=mask)
        backward = self.backward_layer(inputs, mask=mask)
        states = []
        if self.forward_layer.return_state:  # [output, *states] from each direction
            forward, *forward_states = forward
            backward, *backward_states = backward
            states = forward_states + backward_states
        if self.forward_layer.return_sequences:
            backward = backward[:, ::-1]  # back in time order
        merged = self._merge(forward, backward)
        if not states:
            return merged
        # As Keras: the merged output (or both outputs), then the forward layer's states,
        # then the backward layer's.
        return (merged if isinstance(merged, list) else [merged]) + states

    def _merge(self, forward, backward):
        if self.merge_mode == "concat":
            return ops.concat([forward, backward], axis=-1)
        if self.merge_mode == "sum":
            return ops.add(forward, backward)
        if self.merge_mode == "mul":
            return ops.multiply(forward, backward)
        if self.merge_mode == "ave":
            return ops.multiply(ops.add(forward, backward), 0.5)
        return [forward, backward]


def _backward_copy(layer):
    """A fresh layer configured as `layer` (every argument: regularizers, a custom cell...),
    with `go_backwards` flipped and a `backward_` name, and weights of its own."""
    config = dict(layer.get_config(), go_backwards=not layer.go_backwards,
                  name=f"backward_{layer.name}")
    return type(layer).from_config(config)
