"""What the ex-06 checks share: using the learner's layer through records, comparing outputs,
and made-up words.

The learner's layer is an object the grader cannot send between processes, so every use of it
goes through `observe`: the check records the layer's type and its outputs on the probes, and
the grader judges those records again.
"""

import numpy as np

from .._common import observe
from .._learner import error_report


def _kind(check_id, value):
    """The class name of what the learner returned, recorded for the grader."""
    return observe(check_id, "type", lambda: type(value).__name__)


def _outputs(check_id, name, layer, probe):
    """("value", array) for `layer(probe)`, or ("error", sentence) if calling it raised."""
    def run():
        try:
            return ("value", np.asarray(layer(probe)))
        except Exception as error:  # noqa: BLE001 - the learner's layer may raise anything
            return ("error", error_report(error, "your layer"))

    kind, value = observe(check_id, name, run)
    return kind, value


def _same(got, want, tolerance=1e-4):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False
    if want.dtype.kind == "f":
        return got.dtype.kind in "fiu" and np.allclose(got, want, rtol=tolerance,
                                                       atol=tolerance)
    return got.dtype.kind in "iu" and np.array_equal(got, want)


def _short(array):
    array = np.asarray(array)
    if array.dtype.kind == "f":
        array = np.round(array.astype(np.float64), 3)
    values = array.ravel()
    text = str(values[:6].tolist())
    return text if values.size <= 6 else text[:-1] + ", ...]"


def _made_words(generator, count, prefix):
    """`count` distinct made-up words, new for every seed."""
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = set()
    while len(words) < count:
        words.add(prefix + "".join(generator.choice(letters, size=int(generator.integers(3, 7)))))
    return sorted(words)
