"""What the ex-05 checks share: reading a whole number from the learner's answer."""

import numpy as np

from .._common import fail


def _as_int(check_id, value, what):
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        # 0-d: a NumPy scalar from the grader's record, or a tensor from parse_single_example
        value = value.view(np.ndarray)[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        fail(check_id, f"{what} should be an int, got {type(value).__name__} {value!r:.60}")
    return int(value)
