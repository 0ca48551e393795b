"""What the ex-12 checks share: a short view of a value, and the learner's answer as an array."""

import numpy as np

from .._common import fail


def _short(value):
    array = np.asarray(value)
    if array.size <= 8:
        return str(np.round(array, 4).tolist())
    return f"an array of shape {array.shape} starting {np.round(array.ravel()[:3], 4).tolist()}"


def _as_array(check_id, value, what):
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        fail(check_id, f"{what} should be an array of numbers, got {type(value).__name__}")
