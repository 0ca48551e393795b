"""`Conv2D` and `Conv1D`: Keras' convolution layers, `activation(conv(inputs, kernel) + bias)`.

The kernel, `kernel_size + (in_channels, filters)`, and the bias, `(filters,)`, are
`fl.Variable`s made on the first call; the computation is `fl.nn.conv2d` / `fl.nn.conv1d`,
so a `GradientTape` (and `Model.fit`) follows it. Channels-last only.

>>> import feedline as fl
>>> layer = fl.layers.Conv2D(4, 3, strides=2, padding="same")
>>> layer(np.zeros((2, 9, 9, 3), np.float32)).shape, tuple(layer.kernel.shape)
(TensorShape([2, 5, 5, 4]), (3, 3, 3, 4))
>>> fl.layers.Conv1D(8, 5, strides=2)(np.zeros((1, 20, 16), np.float32)).shape
TensorShape([1, 8, 8])
"""


import numpy as np

from .. import ops
from ..ops import _windows, nn
from ._base import Layer, check_choice
from ._regularized import RegularizedMixin, regularizer_config

_PADDINGS = ("valid", "same")


def as_tuple(value, count, name, owner):
    """An int or a sequence of `count` positive ints as a tuple of `count` ints.

    Raises:
        ValueError: naming the argument for anything else.
    """
    sizes = (value,) * count if isinstance(value, (int, np.integer)) else tuple(value)
    if len(sizes) != count or not all(isinstance(size, (int, np.integer)) and size > 0
                                      and not isinstance(size, bool) for size in sizes):
        raise ValueError(f"{owner}: {name} must be a positive int or a tuple of {count} positive "
                         f"ints, got {name}={value!r}")
    return tuple(int(size) for size in sizes)


def channels_last(data_format, owner):
    """`data_format` (None: the backend's) checked to be "channels_last"."""
    if data_format is None:
        from ..keras import backend

        data_format = backend.image_data_format()
    check_choice(data_format, ("channels_last", "channels_first"), "data_format", owner)
    if data_format == "channels_first":
        raise ValueError(f"{owner}: data_format='channels_first' is not supported by feedline, "
                         "which computes channels-last only; put the channels on the last axis "
                         "(e.g. fl.transpose(x, [0, 2, 3, 1])) and use 'channels_last'")
    return data_format


def padding_name(padding, owner, choices=_PADDINGS):
    """`padding` lower-cased and checked against `choices`."""
    name = padding.lower() if isinstance(padding, str) else padding
    if name == "causal" and "causal" not in choices:
        raise ValueError(f"{owner}: padding='causal' applies to Conv1D only (as in Keras); "
                         "use 'valid' or 'same'")
    check_choice(name, choices, "padding", owner)
    return name


def output_length(length, size, stride, dilation, padding):
    """The output length of one spatial axis (None when the input's is unknown)."""
    if length is None:
        return None
    if padding == "causal":  # left-padded by the kernel's reach: as long as "same"
        padding = "same"
    return _windows.plan_axis(int(length), size, stride, dilation, padding.upper())[2]


def set_window(layer, rank, kernel_size, strides, dilation_rate, padding, data_format, owner,
               paddings=_PADDINGS):
    """Check and set a convolution's `kernel_size`, `strides`, `dilation_rate` (tuples of
    `rank` ints), `padding` and `data_format` on `layer`.

    Raises:
        ValueError: for a malformed value, or strides > 1 together with dilation_rate > 1.
    """
    layer.kernel_size = as_tuple(kernel_size, rank, "kernel_size", owner)
    layer.strides = as_tuple(strides, rank, "strides", owner)
    layer.dilation_rate = as_tuple(dilation_rate, rank, "dilation_rate", owner)
    if max(layer.strides) > 1 and max(layer.dilation_rate) > 1:
        raise ValueError(f"{owner}: strides > 1 cannot be combined with dilation_rate > 1 "
                         f"(got strides={layer.strides}, dilation_rate={layer.dilation_rate}); "
                         "set one of them to 1")
    layer.padding = padding_name(padding, owner, paddings)
    layer.data_format = channels_last(data_format, owner)


def window_lengths(layer, input_shape):
    """The output's spatial sizes for a channels-last `input_shape` under `layer`'s kernel,
    strides, dilations and padding (None where the input's size is unknown)."""
    return tuple(output_length(length, size, stride, dilation, layer.padding)
                 for length, size, stride, dilation in zip(
                     input_shape[1:-1], layer.kernel_size, layer.strides, layer.dilation_rate))


def finish(layer, out):
    """`out` plus the layer's bias (when it has one), through its activation."""
    if layer.use_bias:
        out = ops.add(out, layer.bias)
    return apply_activation(layer.activation, out)


def check_input_shape(layer, input_shape):
    """Refuse a convolution's input of the wrong rank or with an unknown channel count;
    returns the name errors give the layer."""
    owner = f"{layer.name} ({type(layer).__name__})"
    rank = layer._RANK
    if input_shape is None or len(input_shape) != rank + 2:
        layout = "(batch, steps, channels)" if rank == 1 else "(batch, height, width, channels)"
        raise ValueError(f"{owner}: expected inputs of rank {rank + 2}, {layout}, got "
                         f"shape {input_shape}")
    if input_shape[-1] is None:
        raise ValueError(f"{owner}: the channel axis (the last) must be known")
    return owner


def apply_activation(activation, x):
    """`activation(x)`; Keras' plain "relu" runs as `fl.nn.relu`, whose gradient is one
    comparison (the general `relu` goes through `maximum`, several times slower on images)."""
    from ..keras import activations

    return nn.relu(x) if activation is activations.relu else activation(x)


class _Conv(RegularizedMixin, Layer):
    """What `Conv1D` and `Conv2D` share; `_RANK` is the number of spatial axes."""

    _RANK = 2
    _PADDINGS = _PADDINGS

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None, lora_alpha=None,
                 dora_rank=None, dora_alpha=None, name=None, **kwargs):
        owner = type(self).__name__
        super().__init__(name, activity_regularizer=activity_regularizer,
                         **kwargs)
        if isinstance(filters, bool) or not isinstance(filters, (int, np.integer)) or filters <= 0:
            raise ValueError(f"{owner}: filters must be a positive integer, got {filters!r}")
        if not isinstance(groups, (int, np.integer)) or groups < 1 or int(filters) % groups:
            raise ValueError(f"{owner}: groups must be a positive int dividing filters="
                             f"{filters}, got groups={groups!r}")
        if lora_rank or dora_rank:
            raise ValueError(f"{owner}: lora_rank / dora_rank are not supported by feedline; "
                             "leave them None")
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.filters, self.groups = int(filters), int(groups)
        set_window(self, self._RANK, kernel_size, strides, dilation_rate, padding, data_format,
                   owner, self._PADDINGS)
        self._kernel_arguments(activation, use_bias, kernel_initializer, bias_initializer,
                               kernel_constraint, bias_constraint)

    def build(self, input_shape):
        owner = check_input_shape(self, input_shape)
        if any(size is not None and size < 1
               for size in self.compute_output_shape(input_shape)[1:-1]):
            raise ValueError(f"{owner}: computed output size would be negative or zero: inputs "
                             f"of shape {input_shape} are smaller than the kernel "
                             f"{self.kernel_size} (dilation_rate {self.dilation_rate}) with "
                             "padding 'valid'; use padding='same' or a smaller kernel_size")
        channels = int(input_shape[-1])
        if channels % self.groups:
            raise ValueError(f"{owner}: the inputs' {channels} channels cannot be split into "
                             f"groups={self.groups}; use a groups value that divides both "
                             f"the channels and filters={self.filters}")
        # As Keras: each group sees channels / groups inputs and makes filters / groups outputs.
        self._add_kernel_and_bias(self.kernel_size + (channels // self.groups, self.filters),
                                  self.filters)

    def call(self, inputs):
        x = self._compute_input(inputs)
        if x.ndim != self._RANK + 2:
            self.build(tuple(x.shape))  # raises the rank error
        padding = self.padding.upper()
        if padding == "CAUSAL":  # Keras: pad the start by the kernel's reach, then "valid"
            reach = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            x, padding = ops.pad(x, [[0, 0], [reach, 0], [0, 0]]), "VALID"
        if self.groups == 1:
            return finish(self, self._convolve(x, self.kernel, padding))
        inputs_per_group = x.shape[-1] // self.groups
        outputs_per_group = self.filters // self.groups
        outputs = [self._convolve(x[..., g * inputs_per_group:(g + 1) * inputs_per_group],
                                  self.kernel[..., g * outputs_per_group:
                                              (g + 1) * outputs_per_group], padding)
                   for g in range(self.groups)]
        return finish(self, ops.concat(outputs, axis=-1))

    def _convolve(self, x, kernel, padding):
        if self._RANK == 1:
            return nn.conv1d(x, kernel, self.strides[0], padding,
                             dilations=self.dilation_rate[0])
        return nn.conv2d(x, kernel, self.strides, padding, dilations=self.dilation_rate)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + window_lengths(self, input_shape) + (self.filters,)

    def _config(self):
        from ..keras import activations

        kernel, bias = self._initializer_names
        return {"filters": self.filters, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding,
                "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                "groups": self.groups, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, "kernel_initializer": kernel,
                "bias_initializer": bias, **regularizer_config(self)}


class Conv2D(_Conv):
    """2-D convolution over `(batch, height, width, channels)` images.

    Args:
        filters: the number of output channels.
        kernel_size, strides, dilation_rate: an int or a pair `(rows, cols)`.
        padding: "valid" (no padding) or "same" (output `ceil(size / stride)`).
        data_format: "channels_last" (None means it; "channels_first" is refused).
        groups: split the channels into this many groups, each convolved with its own
            `filters / groups` filters (1: one group).
        activation, use_bias, kernel_initializer, bias_initializer: as in `Dense`.

    Raises:
        ValueError: for a non-positive `filters` or size, an unknown padding,
            "channels_first", or strides > 1 together with dilation_rate > 1.
    """

    _RANK = 2


class Conv1D(_Conv):
    """1-D convolution over `(batch, steps, channels)` sequences (for example `Embedding`'s
    output); the arguments are `Conv2D`'s with single ints, and `padding` may also be
    "causal": the sequence is padded at its start by `dilation_rate * (kernel_size - 1)` zeros,
    so step t sees only steps up to t (as Keras)."""

    _RANK = 1
    _PADDINGS = _PADDINGS + ("causal",)
