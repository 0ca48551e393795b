"""How `conv2d`, `conv1d` and the pooling ops of `ops/nn.py` read their arguments and plan a window.

The checks take TensorFlow's spellings of strides, dilations and window sizes (`_spatial`),
its padding names (`_padding_of`) and layouts (`_channels_last`, `_need_rank`), and refuse the
rest by name. `_conv_geometry` and `_pool_geometry` turn a checked call into its 4-D operands
and window plan (a 1-D op gets a height of 1); `_im2col` lays every window out as a row. The
gradient rules in `autodiff/` plan their windows with the same helpers; `ops/nn.py`
re-exports them all.
"""

import numpy as np

from ..errors import InvalidArgumentError
from . import _windows
from ._convert import _as_array, operands, require_kinds

_FLOATS, _FLOATS_TEXT = "f", "floats (float16, float32, float64)"
_REAL, _REAL_TEXT = "iuf", "real numbers (int, uint, float)"


def _spatial(value, name, what, count):
    """A stride, dilation or window argument as `count` ints, from TensorFlow's spellings:
    an int, a list of 1 or `count` ints, or one of `count + 2` with 1 for batch and channels.

    Raises:
        ValueError: naming the argument for any other shape or a value below 1.
    """
    if value is None:
        return (1,) * count
    sizes = [int(size) for size in np.asarray(value).reshape(-1)]
    if len(sizes) == 1:
        sizes = sizes * count
    elif len(sizes) == count + 2:
        if sizes[0] != 1 or sizes[-1] != 1:
            raise ValueError(f"{what}: {name}={value!r} moves along the batch or channel axis; "
                             f"those entries must be 1, e.g. {[1] + sizes[1:-1] + [1]}")
        sizes = sizes[1:-1]
    elif len(sizes) != count:
        raise ValueError(f"{what}: {name} must be an int or a list of 1, {count} or {count + 2} "
                         f"ints, got {value!r}")
    if min(sizes) < 1:
        raise ValueError(f"{what}: every entry of {name} must be at least 1, got {value!r}")
    return tuple(sizes)


def _padding_of(padding, what):
    """`padding` as "SAME" or "VALID". TensorFlow documents the upper-case spellings;
    feedline also takes lower case (whether TensorFlow does was not confirmed)."""
    if isinstance(padding, str) and padding.upper() in ("SAME", "VALID"):
        return padding.upper()
    raise ValueError(f"{what}: padding must be 'SAME' or 'VALID', got {padding!r} (explicit "
                     "lists of pads are not supported by feedline)")


def _channels_last(data_format, expected, what):
    if data_format != expected:
        raise ValueError(f"{what}: data_format {data_format!r} is not supported; feedline "
                         f"computes channels-last only: data_format={expected!r}")


def _need_rank(array, rank, name, what, layout):
    if array.ndim != rank:
        raise InvalidArgumentError(f"{what}: {name} must have rank {rank} ({layout}), got shape "
                                   f"{list(array.shape)}")


def _conv_geometry(input, filters, strides, padding, dilations, what, one_d=False):  # noqa: A002
    """The checked operands as 4-D arrays (NHWC input, HWIO filters) and the window's plan:
    `(x, f, strides, dilations, padding, pads, out)`; a 1-D call gets a height of 1."""
    x, f = operands(what, ("input", input), ("filters", filters))
    for name, array in (("input", x), ("filters", f)):
        require_kinds(array, _FLOATS, what, name, _FLOATS_TEXT)
    count = 1 if one_d else 2
    _need_rank(x, count + 2, "input", what, "batch, width, channels" if one_d
               else "batch, height, width, channels")
    _need_rank(f, count + 2, "filters", what, "width, in_channels, out_channels" if one_d
               else "height, width, in_channels, out_channels")
    strides = _spatial(strides, "stride" if one_d else "strides", what, count)
    dilations = _spatial(dilations, "dilations", what, count)
    padding = _padding_of(padding, what)
    if one_d:
        x, f, strides, dilations = x[:, None], f[None], (1,) + strides, (1,) + dilations
    if x.shape[3] != f.shape[2]:
        raise InvalidArgumentError(f"{what}: input has {x.shape[3]} channels but filters expect "
                                   f"{f.shape[2]} (filters' second-to-last axis)")
    pads, out = _windows.plan(x.shape, f.shape[:2], strides, dilations, padding)
    if min(out) < 1:
        raise InvalidArgumentError(f"{what}: the filters ({list(f.shape[:2])}, dilations "
                                   f"{list(dilations)}) are larger than the input "
                                   f"{list(x.shape[1:3])} with padding 'VALID'; use 'SAME' or "
                                   "a smaller kernel")
    return x, f, strides, dilations, padding, pads, out


def _im2col(x, window, strides, dilations, pads, out):
    """Every window of `x` as one row: `(batch * positions, rows * cols * channels)`."""
    views = _windows.patches(_windows.pad(x, pads), window, out, strides, dilations)
    return views.reshape(-1, window[0] * window[1] * x.shape[3])


def _pool_geometry(input, ksize, strides, padding, what, kinds, kinds_text,  # noqa: A002
                  one_d=False):
    """The checked input as a 4-D NHWC array and the window's plan:
    `(x, window, strides, pads, out)`."""
    x = _as_array(input, what)
    require_kinds(x, kinds, what, "input", kinds_text)
    count = 1 if one_d else 2
    _need_rank(x, count + 2, "input", what, "batch, width, channels" if one_d
               else "batch, height, width, channels")
    window = _spatial(ksize, "ksize", what, count)
    strides = _spatial(strides, "strides", what, count)
    padding = _padding_of(padding, what)
    if one_d:
        x, window, strides = x[:, None], (1,) + window, (1,) + strides
    pads, out = _windows.plan(x.shape, window, strides, (1, 1), padding)
    if min(out) < 1 and x.size:
        raise InvalidArgumentError(f"{what}: the window {list(window[2 - count:])} is larger "
                                   f"than the input {list(x.shape[3 - count:3])} with padding "
                                   "'VALID'; use 'SAME' or a smaller ksize")
    return x, window, strides, pads, out
