"""The `keras.ops.nn` activations feedline has no TensorFlow op for, computed with NumPy.

`celu`, `hard_sigmoid`, `hard_silu` (`hard_swish`), `hard_tanh`, `hard_shrink`, `soft_shrink`,
`tanh_shrink`, `squareplus`, `sparse_plus`, `sparse_sigmoid`, `threshold` and `sparsemax` each
compute on the plain array and keep its dtype (`_elementwise`); all but `hard_tanh` and
`threshold` first make integers floatx() (`_float`). A `GradientTape` does not see them.
`nn.py` re-exports every one, `_float` and `_elementwise` included (its `elu` uses them).
"""

import numpy as np

from . import _dtypes
from ._apply import array, plain, tensor


def _float(x):
    x = tensor(x)
    return tensor(x, _dtypes.floating(x.dtype))


def _elementwise(function):
    def op(x):
        x = array(x)
        with np.errstate(all="ignore"):
            return np.asarray(function(x)).astype(x.dtype)
    return plain(op)


def celu(x, alpha=1.0):
    """max(x, 0) + min(0, alpha * (exp(x / alpha) - 1))."""
    return _elementwise(lambda v: np.maximum(v, 0) + np.minimum(0, alpha * np.expm1(v / alpha))
                        )(_float(x))


def hard_sigmoid(x):
    """relu6(x + 3) / 6: a piecewise-linear sigmoid."""
    return _elementwise(lambda v: np.clip(v / 6 + 0.5, 0, 1))(_float(x))


def hard_silu(x):
    """x * hard_sigmoid(x)."""
    return _elementwise(lambda v: v * np.clip(v / 6 + 0.5, 0, 1))(_float(x))


hard_swish = hard_silu


def hard_tanh(x):
    """x clipped to [-1, 1]."""
    x = tensor(x)
    return _elementwise(lambda v: np.clip(v, -1, 1))(tensor(x, "int32") if x.dtype == np.bool_
                                                      else x)


def hard_shrink(x, threshold=0.5):
    """x where |x| > threshold, else 0."""
    return _elementwise(lambda v: np.where(np.abs(v) > threshold, v, 0))(_float(x))


def soft_shrink(x, threshold=0.5):
    """x moved `threshold` toward 0, and 0 within `threshold` of it."""
    return _elementwise(lambda v: np.sign(v) * np.maximum(np.abs(v) - threshold, 0))(_float(x))


def tanh_shrink(x):
    """x - tanh(x)."""
    return _elementwise(lambda v: v - np.tanh(v))(_float(x))


def squareplus(x, b=4):
    """(x + sqrt(x**2 + b)) / 2: a smooth relu."""
    return _elementwise(lambda v: (v + np.sqrt(v * v + b)) / 2)(_float(x))


def sparse_plus(x):
    """0 below -1, x above 1, (x + 1)**2 / 4 between."""
    return _elementwise(lambda v: np.where(v <= -1, 0, np.where(v >= 1, v, (v + 1) ** 2 / 4))
                        )(_float(x))


def sparse_sigmoid(x):
    """0 below -1, 1 above 1, (x + 1) / 2 between."""
    return _elementwise(lambda v: np.clip((v + 1) / 2, 0, 1))(_float(x))


def threshold(x, threshold, default_value):
    """x where x > threshold, else `default_value`."""
    return _elementwise(lambda v: np.where(v > threshold, v, default_value))(tensor(x))


@plain
def sparsemax(x, axis=-1):
    """The Euclidean projection of `x` onto the probability simplex along `axis`.

    Each slice sums to 1 (Keras' docs: sparsemax returns a probability distribution).
    Keras 3.15's own code takes its threshold from the sum of all cumulative sums in the
    support, which breaks that whenever more than one value survives (keras-team/keras
    issue 23425, fixed by pull request 23469); this follows the documented definition.
    """
    x = array(_float(x))
    moved = np.moveaxis(x, axis, -1)
    ordered = -np.sort(-moved, axis=-1)
    ks = np.arange(1, moved.shape[-1] + 1)
    cums = np.cumsum(ordered, axis=-1)
    support = (1 + ks * ordered) > cums
    k = support.sum(axis=-1, keepdims=True)
    tau = (np.take_along_axis(cums, k - 1, -1) - 1) / k
    return np.moveaxis(np.maximum(moved - tau, 0), -1, axis).astype(x.dtype)
