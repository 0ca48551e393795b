"""`keras.ops.nn`: activations, softmax, one-hot, losses and batch statistics (convolution,
pooling, normalization layers, attention and CTC live in nn_conv, nn_attention, nn_ctc).

Activations keep a float input's dtype and compute integers in floatx(); `relu`, `relu6` and
`hard_tanh` keep integer dtypes. Where feedline has the op (`fl.nn.relu`, `fl.nn.softmax`,
`fl.nn.conv2d` ...) it runs that op, so a `GradientTape` sees it. Images and kernels are
channels-last (Keras' default `data_format`).
The activations computed with NumPy (`celu`, the `hard_*` and `sparse_*` ones, `sparsemax`
...) are in `_nn_numpy_activations.py` and re-exported here.

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.relu(fl.constant([-1.0, 2.0])).numpy().tolist(), ops.one_hot([0, 2], 3).numpy().tolist()
([0.0, 2.0], [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
>>> [round(v, 4) for v in ops.softmax(fl.constant([0.0, 0.0])).numpy().tolist()]
[0.5, 0.5]
"""

import math

import numpy as np

from ... import ops as fl_ops
from ...ops import nn as fl_nn
from . import _dtypes
from ._apply import array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out

# Imported after `_IMPORTED`, so that they join `__all__`.
from ._nn_numpy_activations import (_elementwise, _float, celu, hard_shrink,  # noqa: E402,F401
                                    hard_sigmoid, hard_silu, hard_swish, hard_tanh,
                                    soft_shrink, sparse_plus, sparse_sigmoid, sparsemax,
                                    squareplus, tanh_shrink, threshold)  # re-exported


def relu(x):
    """max(x, 0); integers keep their dtype (bools become int32)."""
    x = tensor(x)
    return fl_nn.relu(tensor(x, "int32") if x.dtype == np.bool_ else x)


def relu6(x):
    """min(max(x, 0), 6); integers keep their dtype (TensorFlow's Relu6 takes them)."""
    return fl_nn.relu6(tensor(x))


def sigmoid(x):
    """1 / (1 + exp(-x)).

    Keras' TensorFlow backend hands `x` to `tf.nn.sigmoid` uncast, so integers and bools
    raise `InvalidArgumentError` (JAX's backend would compute them in floatx()); so do
    softplus, softsign, silu, log_sigmoid, elu, selu, glu, softmax and log_softmax.
    """
    return fl_nn.sigmoid(tensor(x))


def softplus(x):
    """log(1 + exp(x)), computed without overflow."""
    return fl_nn.softplus(tensor(x))


def softsign(x):
    """x / (1 + |x|)."""
    return fl_nn.softsign(tensor(x))


def silu(x):
    """x * sigmoid(x) (also called swish)."""
    return fl_nn.silu(tensor(x))


swish = silu


def log_sigmoid(x):
    """log(sigmoid(x)), computed without overflow."""
    return fl_ops.negative(softplus(fl_ops.negative(tensor(x))))


def leaky_relu(x, negative_slope=0.2):
    """x above 0, `negative_slope` * x below (Keras' default slope is 0.2)."""
    return fl_nn.leaky_relu(tensor(x), alpha=negative_slope)  # TF casts ints to float32


def elu(x, alpha=1.0):
    """x above 0, alpha * (exp(x) - 1) below."""
    x = fl_nn.elu(tensor(x))  # TensorFlow's Elu refuses integers
    if alpha == 1.0:
        return x
    return _elementwise(
        lambda v: np.where(v > 0, v, alpha * v))(x)


def selu(x):
    """scale * elu(x, alpha) with the self-normalizing constants."""
    return fl_nn.selu(tensor(x))


def gelu(x, approximate=True):
    """x * Phi(x), Phi the normal CDF (its tanh approximation by default, as Keras)."""
    return fl_nn.gelu(tensor(x), approximate=approximate)  # ints: ValueError, as TF


def glu(x, axis=-1):
    """The first half of `x` along `axis` times the sigmoid of the second half.

    Raises:
        ValueError: when that axis has an odd size.
    """
    x = tensor(x)
    if x.shape[axis] % 2:
        raise ValueError(f"glu: axis {axis} must have an even size, got {x.shape[axis]}; "
                         "pad or slice it first")
    a, b = fl_ops.split(x, 2, axis=axis)
    return fl_ops.multiply(a, fl_nn.sigmoid(b))


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along `axis` (all axes when None)."""
    x = tensor(x)
    if axis is None:
        return fl_ops.reshape(fl_nn.softmax(fl_ops.reshape(x, [-1])), list(x.shape))
    return fl_nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    """log(softmax(x)) along `axis`, computed without overflow."""
    x = tensor(x)
    if axis is None:
        return fl_ops.reshape(fl_nn.log_softmax(fl_ops.reshape(x, [-1])), list(x.shape))
    return fl_nn.log_softmax(x, axis=axis)


@plain
def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """Each integer of `x` as a vector of `num_classes` with a 1 at its place (floatx();
    indices outside [0, num_classes) give zeros)."""
    x = array(x).astype("int64")
    dtype = _dtypes.standardize_dtype(dtype)
    result = (x[..., None] == np.arange(int(num_classes))).astype(dtype)
    return np.moveaxis(result, -1, axis) if axis != -1 else result


@plain
def multi_hot(inputs, num_classes, axis=-1, dtype=None, sparse=False):
    """One vector of `num_classes` per row of `inputs`, 1 at every index the row holds."""
    x = array(inputs).astype("int64")
    hot = (x[..., None] == np.arange(int(num_classes))).any(axis=-2)
    result = hot.astype(_dtypes.standardize_dtype(dtype))
    return np.moveaxis(result, -1, axis) if axis != -1 else result


def _probabilities(output, from_logits, axis, epsilon=1e-7):
    if from_logits:
        return array(softmax(output, axis=axis))
    output = array(_float(output))
    output = output / output.sum(axis=axis, keepdims=True)
    return np.clip(output, epsilon, 1 - epsilon)


@plain
def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """-sum(target * log(p)) along `axis`, p = softmax(output) or output made to sum to 1."""
    probabilities = _probabilities(output, from_logits, axis)
    return -(array(target) * np.log(probabilities)).sum(axis=axis).astype(probabilities.dtype)


@plain
def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """`categorical_crossentropy` with integer class indices as `target`."""
    probabilities = _probabilities(output, from_logits, axis)
    hot = np.moveaxis(np.eye(probabilities.shape[axis])[array(target).astype(int)], -1, axis)
    return -(hot * np.log(probabilities)).sum(axis=axis).astype(probabilities.dtype)


@plain
def binary_crossentropy(target, output, from_logits=False):
    """-(t log p + (1 - t) log(1 - p)) elementwise, p = sigmoid(output) or output."""
    output = array(_float(output))
    target = array(target).astype(output.dtype)
    if from_logits:  # the overflow-free form of the same expression
        value = np.maximum(output, 0) - output * target + np.log1p(np.exp(-np.abs(output)))
    else:
        p = np.clip(output, 1e-7, 1 - 1e-7)
        value = -(target * np.log(p) + (1 - target) * np.log(1 - p))
    return value.astype(output.dtype)


def moments(x, axes, keepdims=False, synchronized=False):
    """The mean and variance of `x` over `axes` (integers give floatx())."""
    x = _float(x)
    return fl_nn.moments(x, axes=list(axes), keepdims=keepdims)


@plain
def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """(x - mean) / sqrt(variance + epsilon) * scale + offset, the statistics along `axis`."""
    x = array(_float(x))
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    def axis_view(value, default):
        return np.reshape(array(value), shape) if value is not None else default
    result = (x - axis_view(mean, 0)) / np.sqrt(axis_view(variance, 1) + epsilon)
    return (result * axis_view(scale, 1) + axis_view(offset, 0)).astype(x.dtype)


@plain
def normalize(x, axis=-1, order=2, epsilon=None):
    """`x` divided by its `order`-norm along `axis` (at least `epsilon`)."""
    x = array(_float(x))
    norm = np.linalg.norm(x, ord=order, axis=axis, keepdims=True)
    return (x / np.maximum(norm, epsilon or 1e-7)).astype(x.dtype)


@plain
def psnr(x1, x2, max_val):
    """The peak signal-to-noise ratio between `x1` and `x2`, in decibels."""
    a, b = array(_float(x1)), array(_float(x2))
    mse = np.mean((a - b) ** 2)
    return np.asarray(20 * math.log10(max_val) - 10 * np.log10(mse)).astype(a.dtype)


from .nn_conv import *  # noqa: E402,F401,F403 - convolution and pooling
from .nn_attention import *  # noqa: E402,F401,F403 - normalization layers' ops, attention
from .nn_ctc import *  # noqa: E402,F401,F403 - CTC loss and greedy decoding

__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
