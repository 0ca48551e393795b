"""The neural-network ops of `tf.nn` a small image or text model needs, channels-last, in NumPy:
`conv2d`, `conv1d`, `max_pool2d`, `avg_pool2d`, `max_pool1d`, `avg_pool1d`, `relu`, `softmax`.

A convolution gathers every window of the (padded) input as a strided view, copies it once
into a matrix of `(positions, taps * channels)` (im2col) and multiplies that by the filters
reshaped to `(taps * channels, out_channels)`: one matrix product for the whole batch.
A pooling takes the maximum or mean over the window's taps, one tap at a time. The gradient
rules are in `autodiff/gradients_nn.py`; the window arithmetic in `_windows.py`.
The argument checks and the window plans (`_conv_geometry`, `_pool_geometry`, `_im2col`) are
in `_nn_arguments.py`, re-exported here; this module holds the ops and their recorded forms.

>>> import feedline as fl
>>> image = fl.reshape(fl.range(16.0), [1, 4, 4, 1])
>>> fl.nn.conv2d(image, fl.ones([2, 2, 1, 1]), strides=2, padding="VALID")[0, :, :, 0].numpy()
array([[10., 18.],
       [42., 50.]], dtype=float32)
>>> fl.nn.max_pool2d(image, ksize=2, strides=2, padding="VALID")[0, :, :, 0].numpy()
array([[ 5.,  7.],
       [13., 15.]], dtype=float32)
"""

import numpy as np

from ..autodiff import _state
from ..errors import InvalidArgumentError
from . import _windows
from ._convert import _as_array, _result, operands, require_kinds  # noqa: F401
from ._eager import returns_tensors
from ._nn_arguments import (_FLOATS, _FLOATS_TEXT, _REAL, _REAL_TEXT,  # noqa: F401
                            _channels_last, _conv_geometry, _im2col, _need_rank, _padding_of,
                            _pool_geometry, _spatial)  # re-exported

__all__ = ["conv2d", "conv1d", "max_pool2d", "avg_pool2d", "max_pool1d", "avg_pool1d", "relu",
           "softmax"]


def _convolve(input, filters, strides, padding, dilations, what):  # noqa: A002
    x, f, strides, dilations, _, pads, out = _conv_geometry(
        input, filters, strides, padding, dilations, what, one_d=what == "conv1d")
    columns = _im2col(x, f.shape[:2], strides, dilations, pads, out)
    product = (columns @ f.reshape(-1, f.shape[3])).reshape(x.shape[0], out[0], out[1], -1)
    return product[:, 0] if what == "conv1d" else product


# Two recorded forms of one computation: a tape differentiates `_conv` by input and filters,
# `_conv_of_filters` by filters alone. The public ops pick the second while a tape records and
# nothing could send a gradient into the input (a model's first layer reading its data), which
# spares the largest product of the backward pass.
_conv = returns_tensors(_convolve)


@returns_tensors
def _conv_of_filters(input, filters, strides, padding, dilations, what):  # noqa: A002
    return _convolve(input, filters, strides, padding, dilations, what)


def _recorded_conv(input, filters, strides, padding, dilations, what):  # noqa: A002
    if _state.active and not gradients_nn.may_receive_gradient(input):
        return _conv_of_filters(input, filters, strides, padding, dilations, what)
    return _conv(input, filters, strides, padding, dilations, what)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None):
    """The 2-D convolution (cross-correlation) of a batch of images with `filters`.

    Args:
        input: `(batch, height, width, in_channels)` floats.
        filters: `(rows, cols, in_channels, out_channels)`, the input's dtype.
        strides: an int, or a list of 1, 2 or 4 ints (`[1, sh, sw, 1]`).
        padding: "VALID" (windows inside the input) or "SAME" (`ceil(size / stride)`
            positions; zeros added, the odd one at the bottom and right).
        data_format: "NHWC" only.
        dilations: the spacing of the filter's taps (default 1). Combined with strides > 1
            it is computed as written (whether TensorFlow's CPU kernel allows that was not
            confirmed; Keras' layers refuse it).

    Returns:
        `(batch, out_height, out_width, out_channels)` in the input's dtype.

    Raises:
        InvalidArgumentError: for wrong ranks, mismatched channels or dtypes, or a kernel
            larger than a VALID input.
        ValueError: for a malformed stride, dilation, padding or data_format.

    >>> conv2d(np.ones((1, 3, 3, 1), np.float32), np.ones((3, 3, 1, 2), np.float32),
    ...        strides=1, padding="SAME")[0, :, :, 0].numpy()
    array([[4., 6., 4.],
           [6., 9., 6.],
           [4., 6., 4.]], dtype=float32)
    """
    _channels_last(data_format, "NHWC", "conv2d")
    return _recorded_conv(input, filters, strides, padding, dilations, "conv2d")


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None,  # noqa: A002
           name=None):
    """The 1-D convolution of a batch of sequences, `(batch, width, in_channels)`, with
    `filters` of shape `(width, in_channels, out_channels)`; `stride` is an int or a list of
    1 or 3 ints. Otherwise as `conv2d` (it is one, on a height of 1).

    >>> conv1d(np.arange(5, dtype=np.float32).reshape(1, 5, 1), np.ones((2, 1, 1), np.float32),
    ...        stride=2, padding="VALID")[0, :, 0].numpy()
    array([1., 5.], dtype=float32)
    """
    _channels_last(data_format, "NWC", "conv1d")
    return _recorded_conv(input, filters, stride, padding, dilations, "conv1d")


@returns_tensors
def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The largest value of each `ksize` window of every channel.

    Args:
        input: `(batch, height, width, channels)` numbers.
        ksize, strides: an int, or a list of 1, 2 or 4 ints.
        padding: "VALID" or "SAME" (padded pixels never win).

    >>> max_pool2d(np.arange(9.0).reshape(1, 3, 3, 1), 2, 2, "SAME")[0, :, :, 0].numpy()
    array([[4., 5.],
           [7., 8.]])
    """
    _channels_last(data_format, "NHWC", "max_pool2d")
    geometry = _pool_geometry(input, ksize, strides, padding, "max_pool2d", _REAL,
                              _REAL_TEXT)
    return _windows.max_pool(*geometry)


@returns_tensors
def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The mean of each `ksize` window of every channel; with "SAME", padded pixels are left
    out of the mean (a corner window averages only the pixels it covers).

    >>> avg_pool2d(np.arange(9.0).reshape(1, 3, 3, 1), 2, 2, "SAME")[0, :, :, 0].numpy()
    array([[2. , 3.5],
           [6.5, 8. ]])
    """
    _channels_last(data_format, "NHWC", "avg_pool2d")
    geometry = _pool_geometry(input, ksize, strides, padding, "avg_pool2d", _FLOATS,
                              _FLOATS_TEXT)
    return _windows.avg_pool(*geometry)


@returns_tensors
def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """`max_pool2d` along the one spatial axis of `(batch, width, channels)`.

    >>> max_pool1d(np.array([[[1.0], [3.0], [2.0], [0.0]]]), 2, 2, "VALID")[0, :, 0].numpy()
    array([3., 2.])
    """
    _channels_last(data_format, "NWC", "max_pool1d")
    geometry = _pool_geometry(input, ksize, strides, padding, "max_pool1d", _REAL,
                              _REAL_TEXT, one_d=True)
    return _windows.max_pool(*geometry)[:, 0]


@returns_tensors
def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """`avg_pool2d` along the one spatial axis of `(batch, width, channels)`.

    >>> avg_pool1d(np.array([[[1.0], [3.0], [2.0]]]), 2, 2, "SAME")[0, :, 0].numpy()
    array([2., 2.])
    """
    _channels_last(data_format, "NWC", "avg_pool1d")
    geometry = _pool_geometry(input, ksize, strides, padding, "avg_pool1d", _FLOATS,
                              _FLOATS_TEXT, one_d=True)
    return _windows.avg_pool(*geometry)[:, 0]


@returns_tensors
def relu(features, name=None):
    """`max(features, 0)`, in the input's dtype.

    >>> relu([-1.5, 0.0, 2.0]).numpy()
    array([0., 0., 2.], dtype=float32)
    """
    x = _as_array(features, "relu")
    require_kinds(x, _REAL, "relu", "features", _REAL_TEXT)
    return _result(np.maximum(x, np.zeros((), x.dtype)))


@returns_tensors
def softmax(logits, axis=None, name=None):
    """`exp(logits) / sum(exp(logits))` along `axis` (default: the last).

    >>> softmax([[1.0, 1.0], [0.0, 1.0]]).numpy().round(3)
    array([[0.5  , 0.5  ],
           [0.269, 0.731]], dtype=float32)
    """
    x = _as_array(logits, "softmax")
    require_kinds(x, _FLOATS, "softmax", "logits", _FLOATS_TEXT)
    axis = -1 if axis is None else int(axis)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim:
        raise InvalidArgumentError(f"softmax: axis {axis} is out of range for logits of shape "
                                   f"{list(x.shape)}")
    shifted = np.exp(x - x.max(axis=axis, keepdims=True))
    return _result(shifted / shifted.sum(axis=axis, keepdims=True))


# More of `tf.nn`, defined with their concern elsewhere in `ops`.
from .conv_transpose import (conv1d_transpose, conv2d_transpose,  # noqa: E402,F401
                             conv_transpose)
from .depthwise_conv import depthwise_conv2d  # noqa: E402,F401
from .separable_conv import separable_conv2d  # noqa: E402,F401
from .elementwise import sigmoid  # noqa: E402,F401
from .neural import dropout, embedding_lookup, softplus  # noqa: E402,F401
from .replica_losses import compute_average_loss, scale_regularization_loss  # noqa: E402,F401
from .norms import l2_normalize  # noqa: E402,F401
from .sorting import top_k  # noqa: E402,F401
from .stats import in_top_k, moments  # noqa: E402,F401

# A RaggedTensor: relu on its values, softmax within each row (see `_ragged_dispatch`).
from . import _ragged_dispatch  # noqa: E402
from ..io import ragged_math_ops  # noqa: E402

_dense_softmax = softmax
_ragged_dispatch.wrap_all(globals(), unary_names=("relu",))
_ragged_dispatch.dispatch(globals(), "softmax", lambda a: ragged_math_ops.softmax(
    a["logits"], a["axis"], _dense_softmax))

# The gradient rules register themselves on import; they need this module's helpers, so they
# load last (a tape can only meet these ops once this module has loaded).
from ..autodiff import gradients_nn  # noqa: E402,F401
from .activations_more import (crelu, elu, gelu, leaky_relu,  # noqa: E402,F401
                               log_softmax, relu6, selu, silu, swish)
from .elementwise import tanh  # noqa: E402,F401
from .special import softsign  # noqa: E402,F401
from .nn_losses import (l2_loss, log_poisson_loss,  # noqa: E402,F401
                        sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits,
                        sparse_softmax_cross_entropy_with_logits,
                        weighted_cross_entropy_with_logits)
from .nn_layers_ops import (batch_normalization, bias_add,  # noqa: E402,F401
                            local_response_normalization, lrn, normalize_moments,
                            sufficient_statistics, weighted_moments, zero_fraction)
from .nn_generic import (atrous_conv2d, avg_pool, convolution, max_pool,  # noqa: E402,F401
                         pool)
from .ctc import ctc_loss  # noqa: E402,F401
from .embedding_sparse import (embedding_lookup_sparse,  # noqa: E402,F401
                               safe_embedding_lookup_sparse)
