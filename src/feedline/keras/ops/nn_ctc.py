"""`keras.ops.nn` CTC: the connectionist temporal classification loss and greedy decoding.

Keras' layout is batch-major: `output`/`inputs` are (batch, frames, classes) and the blank
is class `mask_index` (0 by default). The loss runs feedline's `fl.nn.ctc_loss` (TensorFlow's
op, as Keras' TensorFlow backend calls it); decoding takes the best class of each frame,
merges repeats, drops blanks and pads each row with -1.

>>> import feedline as fl
>>> probs = fl.constant([[[0.1, 0.9, 0.0], [0.1, 0.9, 0.0], [0.8, 0.1, 0.1], [0.1, 0.1, 0.8]]])
>>> decoded, scores = fl.keras.ops.ctc_decode(probs, [4])
>>> decoded.numpy().tolist(), scores.numpy().round(2).tolist()
([[[1, 2, -1, -1]]], [[-3.4]])
"""

import numpy as np

from ...errors import UnimplementedError
from ...ops import nn as fl_nn
from . import _dtypes
from ._apply import array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """The CTC negative log-likelihood of each `target` row given `output` logits.

    Args:
        target: (batch, max_label_length) integer labels.
        output: (batch, frames, classes) logits (softmax is applied inside).
        target_length, output_length: (batch,) true lengths of labels and frames.
        mask_index: the blank class.

    Returns:
        (batch,) losses in `output`'s float dtype (float16 computes in float32).
    """
    output = tensor(output)
    result = _dtypes.result_type(output.dtype.name, "float32")
    compute = "float32" if result == "float64" else result
    loss = fl_nn.ctc_loss(tensor(target, "int32"), tensor(output, compute),
                          tensor(target_length, "int32"), tensor(output_length, "int32"),
                          logits_time_major=False, blank_index=mask_index)
    return tensor(loss, result)


@plain
def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1,
               merge_repeated=True, mask_index=0):
    """The best path of each sequence: (decoded (1, batch, frames) int32, scores (batch, 1)).

    A score is minus the sum over a row's frames of its largest input value.

    Raises:
        UnimplementedError: for strategy="beam_search" (not built here).
        ValueError: for any other strategy.
    """
    if strategy == "beam_search":
        raise UnimplementedError("ctc_decode: strategy='beam_search' is not implemented in "
                                 "feedline; use strategy='greedy'")
    if strategy != "greedy":
        raise ValueError(f"ctc_decode: strategy must be 'greedy' or 'beam_search', got "
                         f"{strategy!r}")
    x = array(inputs)
    x = x.astype(_dtypes.result_type(x.dtype.name, "float32"))
    lengths = array(sequence_lengths, "int32")
    batch, frames, classes = x.shape
    blank = mask_index % classes if mask_index is not None else classes - 1
    decoded = np.full((1, batch, frames), -1, np.int32)
    scores = np.zeros((batch, 1), x.dtype)
    for row in range(batch):
        best = x[row, :lengths[row]].argmax(axis=-1)
        scores[row, 0] = -x[row, :lengths[row]].max(axis=-1).sum()
        keep = best != blank
        if merge_repeated:
            keep &= np.concatenate([[True], best[1:] != best[:-1]])
        labels = best[keep]
        decoded[0, row, :len(labels)] = labels
    return decoded, scores


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
