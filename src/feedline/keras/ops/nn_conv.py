"""`keras.ops.nn` convolution and pooling: conv, depthwise, separable and transposed
convolution, fixed and adaptive pooling, depth_to_space and space_to_depth.

Images and kernels are channels-last unless a function says otherwise. Where feedline has
TensorFlow's op (`fl.nn.convolution`, `fl.nn.conv_transpose`, `fl.nn.max_pool` ...) it runs
it, as Keras' TensorFlow backend does, so dtype rules and errors are TensorFlow's: max
pooling keeps integer dtypes, average pooling and convolutions refuse them.

>>> import feedline as fl
>>> x = fl.reshape(fl.range(16.0), [1, 4, 4, 1])
>>> fl.keras.ops.depth_to_space(fl.ones([1, 2, 2, 4]), 2).shape
TensorShape([1, 4, 4, 1])
>>> fl.keras.ops.adaptive_average_pool(x, 2)[0, :, :, 0].numpy().tolist()
[[2.5, 4.5], [10.5, 12.5]]
"""

import math

import numpy as np

from ...layers.conv_transpose import transposed_length
from ...ops import nn as fl_nn
from . import _dtypes
from ._apply import array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


def _same_length(value, rank, what):
    values = [value] * rank if isinstance(value, int) else list(value)
    if len(values) != rank:
        raise ValueError(f"{what} needs {rank} values (one per spatial axis), got {value!r}")
    return values


def _float(x):
    x = tensor(x)
    return tensor(x, _dtypes.floating(x.dtype))


def _channels_last(data_format, function):
    if data_format not in (None, "channels_last"):
        raise ValueError(f"{function}: only data_format='channels_last' is supported; "
                         "transpose the input to (batch, ..., channels) first")


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """The N-D convolution of channels-last `inputs` with `kernel` (spatial..., in, out).

    Raises:
        ValueError: for channels_first data or a padding other than "valid"/"same".
    """
    _channels_last(data_format, "conv")
    inputs, kernel = _float(inputs), tensor(kernel)
    rank = inputs.ndim - 2
    return fl_nn.convolution(inputs, tensor(kernel, inputs.dtype),
                             strides=_same_length(strides, rank, "conv: strides"),
                             padding=padding.upper(),
                             dilations=_same_length(dilation_rate, rank, "conv: dilation_rate"))


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    """Each input channel convolved with its own filters (a 2-D channels-last `inputs`)."""
    _channels_last(data_format, "depthwise_conv")
    inputs = _float(inputs)
    return fl_nn.depthwise_conv2d(inputs, tensor(kernel, inputs.dtype),
                                  strides=[1] + _same_length(strides, 2, "strides") + [1],
                                  padding=padding.upper(),
                                  dilations=_same_length(dilation_rate, 2, "dilation_rate"))


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid",
                   data_format=None, dilation_rate=1):
    """A depthwise convolution followed by a 1x1 convolution mixing the channels (1-D or 2-D).

    `depthwise_kernel` is (spatial..., in, multiplier), `pointwise_kernel`
    (1[, 1], in * multiplier, out), as Keras' SeparableConv layers hold them.

    >>> import feedline as fl
    >>> fl.keras.ops.separable_conv(fl.ones([1, 3, 3, 2]), fl.ones([2, 2, 2, 1]),
    ...                             fl.ones([1, 1, 2, 4])).shape
    TensorShape([1, 2, 2, 4])

    Raises:
        ValueError: for 3-D inputs (Keras takes 1-D or 2-D only) or channels_first data.
    """
    _channels_last(data_format, "separable_conv")
    inputs = _float(inputs)
    depthwise, pointwise = (tensor(k, inputs.dtype) for k in (depthwise_kernel,
                                                               pointwise_kernel))
    rank = inputs.ndim - 2
    if rank not in (1, 2):
        raise ValueError(f"separable_conv: inputs must be 3-D or 4-D (1 or 2 spatial axes), "
                         f"got shape {tuple(inputs.shape)}")
    steps = _same_length(strides, rank, "strides")
    rates = _same_length(dilation_rate, rank, "dilation_rate")
    if rank == 1:  # a 1-D convolution is a 2-D one over a height of 1, as TensorFlow runs it
        inputs = tensor(array(inputs)[:, None], inputs.dtype)
        depthwise = tensor(array(depthwise)[None], inputs.dtype)
        pointwise = tensor(array(pointwise)[None], inputs.dtype)
        steps, rates = [1] + steps, [1] + rates
    result = fl_nn.separable_conv2d(inputs, depthwise, pointwise, strides=[1] + steps + [1],
                                    padding=padding.upper(), dilations=rates)
    return plain(lambda: array(result)[:, 0])() if rank == 1 else result


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None,
                   data_format=None, dilation_rate=1):
    """The transposed convolution (the gradient of `conv`), `kernel` (spatial..., out, in).

    Without `output_padding` a "same" output is `input * strides` long and a "valid" one
    `(input - 1) * strides + max(kernel, strides)`; `output_padding` adds to the end.

    >>> import feedline as fl
    >>> fl.keras.ops.conv_transpose(fl.ones([1, 2, 2, 1]), fl.ones([3, 3, 4, 1]), 2).shape
    TensorShape([1, 5, 5, 4])
    """
    _channels_last(data_format, "conv_transpose")
    inputs = _float(inputs)
    kernel = tensor(kernel, inputs.dtype)
    rank = inputs.ndim - 2
    steps = _same_length(strides, rank, "strides")
    rates = _same_length(dilation_rate, rank, "dilation_rate")
    extras = [None] * rank if output_padding is None else \
        _same_length(output_padding, rank, "output_padding")
    lengths = [transposed_length(inputs.shape[1 + i], kernel.shape[i], steps[i], rates[i],
                                 padding.lower(), extras[i]) for i in range(rank)]
    output_shape = [inputs.shape[0], *lengths, kernel.shape[-2]]
    return fl_nn.conv_transpose(inputs, kernel, output_shape, steps, padding=padding.upper(),
                                dilations=rates)


def _pool(fl_pool):
    def pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
        _channels_last(data_format, "pooling")
        inputs = tensor(inputs)  # TF's MaxPool keeps integer dtypes; its AvgPool refuses them
        rank = inputs.ndim - 2
        size = _same_length(pool_size, rank, "pool_size")
        steps = size if strides is None else _same_length(strides, rank, "strides")
        return fl_pool(inputs, ksize=size, strides=steps, padding=padding.upper())
    return pool


max_pool = _pool(fl_nn.max_pool)
average_pool = _pool(fl_nn.avg_pool)
max_pool.__doc__ = "The largest value in each `pool_size` window (channels-last)."
average_pool.__doc__ = "The mean of each `pool_size` window (channels-last)."


def _adaptive(reduce, name):
    def pool(inputs, output_size, data_format=None):
        x = tensor(inputs)
        if reduce is np.mean and not _dtypes.is_float(x.dtype):
            fl_nn.avg_pool(x, 1, 1, "VALID")  # raises TensorFlow's error for the dtype
        x = array(x)
        rank = x.ndim - 2
        if rank not in (1, 2, 3):
            raise ValueError(f"{name}: inputs must have 1, 2 or 3 spatial axes, got shape "
                             f"{x.shape}")
        sizes = _same_length(output_size, rank, f"{name}: output_size")
        first = 2 if data_format == "channels_first" else 1
        for axis, out in zip(range(first, first + rank), sizes):
            x = _adaptive_axis(x, axis, out, reduce)
        return x
    pool.__name__ = pool.__qualname__ = name
    return plain(pool)


def _adaptive_axis(x, axis, out, reduce):
    """`x` pooled along `axis` into `out` windows: window i spans
    [floor(i * n / out), ceil((i + 1) * n / out)), so windows may overlap by one."""
    n = x.shape[axis]
    pieces = [reduce(np.take(x, range(math.floor(i * n / out), math.ceil((i + 1) * n / out)),
                             axis=axis), axis=axis, keepdims=True) for i in range(out)]
    return np.concatenate(pieces, axis=axis).astype(x.dtype)


adaptive_average_pool = _adaptive(np.mean, "adaptive_average_pool")
adaptive_max_pool = _adaptive(np.max, "adaptive_max_pool")
adaptive_average_pool.__doc__ = """The mean of `output_size` windows that tile each spatial
axis (window i of n values along an axis of `output_size` spans floor(i n / size) to
ceil((i + 1) n / size)); floats only, as TensorFlow's AvgPool."""
adaptive_max_pool.__doc__ = """The largest value of each of `output_size` windows tiling
each spatial axis (as `adaptive_average_pool`); integers keep their dtype."""


def _block_size(block_size):
    if block_size < 2:
        raise ValueError(f"block_size must be at least 2, got {block_size}")
    return int(block_size)


@plain
def depth_to_space(x, block_size, data_format="channels_last"):
    """Channels moved into `block_size` x `block_size` spatial blocks (a 4-D `x`).

    Output pixel (h * b + i, w * b + j) channel c is input pixel (h, w) channel
    (i * b + j) * (C / b**2) + c, TensorFlow's DepthToSpace order.

    Raises:
        ValueError: for a block size below 2 or channels not divisible by its square.
    """
    b, x = _block_size(block_size), array(x)
    if data_format == "channels_first":
        x = x.transpose(0, 2, 3, 1)
    n, h, w, c = x.shape
    if c % (b * b):
        raise ValueError(f"depth_to_space: channels ({c}) must be divisible by "
                         f"block_size**2 ({b * b})")
    out = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    out = out.reshape(n, h * b, w * b, c // (b * b))
    return out.transpose(0, 3, 1, 2) if data_format == "channels_first" else out


@plain
def space_to_depth(x, block_size, data_format="channels_last"):
    """`block_size` x `block_size` spatial blocks moved into channels (undoes depth_to_space).

    Raises:
        ValueError: for a block size below 2 or a height or width it does not divide.
    """
    b, x = _block_size(block_size), array(x)
    if data_format == "channels_first":
        x = x.transpose(0, 2, 3, 1)
    n, h, w, c = x.shape
    if h % b or w % b:
        raise ValueError(f"space_to_depth: height {h} and width {w} must be divisible by "
                         f"block_size {b}")
    out = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    out = out.reshape(n, h // b, w // b, b * b * c)
    return out.transpose(0, 3, 1, 2) if data_format == "channels_first" else out


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
