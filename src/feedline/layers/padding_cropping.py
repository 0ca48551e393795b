"""Keras' sequence and image resizing by whole rows: zero padding, cropping, upsampling.

`ZeroPadding1D/2D` add zeros around the steps (or rows and columns), `Cropping1D/2D` cut
them off, `UpSampling1D/2D` repeat each one `size` times (nearest-neighbour). Inputs are
`(batch, steps, features)` or `(batch, rows, cols, channels)` (channels last). Each is built
from `concat`, slicing and `gather`, so gradients flow back to the inputs.

>>> import numpy as np
>>> x = np.array([[[1.0], [2.0]]])
>>> ZeroPadding1D(1)(x).numpy()[0, :, 0].tolist()
[0.0, 1.0, 2.0, 0.0]
>>> UpSampling1D(2)(x).numpy()[0, :, 0].tolist()
[1.0, 1.0, 2.0, 2.0]
>>> Cropping1D((1, 0))(x).numpy()[0, :, 0].tolist()
[2.0]
"""

import numpy as np

from .. import ops
from ._base import Layer
from ._compute import compute_tensor


def _pair(value, what, argument):
    """`(before, after)` from one integer or a pair of non-negative integers."""
    if isinstance(value, (int, np.integer)):
        value = (value, value)
    if not (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, (int, np.integer)) and v >= 0 for v in value)):
        raise ValueError(f"{what}: {argument} must be a non-negative integer or a pair of them "
                         f"such as (1, 2), got {value!r}")
    return int(value[0]), int(value[1])


def _pairs_2d(value, what, argument):
    """`((top, bottom), (left, right))` from an int, `(rows, cols)` or two pairs."""
    if isinstance(value, (int, np.integer)):
        return (_pair(value, what, argument),) * 2
    if isinstance(value, (list, tuple)) and len(value) == 2:  # each part: an int or a pair
        return _pair(value[0], what, argument), _pair(value[1], what, argument)
    raise ValueError(f"{what}: {argument} must be an integer, (rows, cols) or "
                     f"((top, bottom), (left, right)), got {value!r}")


def _channels_last(data_format, what):
    if data_format not in (None, "channels_last"):
        raise ValueError(f"{what}: data_format={data_format!r} is not supported by feedline; "
                         "use data_format='channels_last' (or None) with (batch, rows, cols, "
                         "channels) inputs")


def _need_rank(layer, x, rank, layout):
    if x.ndim != rank:
        raise ValueError(f"{layer.name}: {type(layer).__name__} needs inputs of rank {rank} "
                         f"{layout}, got shape {tuple(x.shape)}")


def _pad_axis(x, axis, before, after):
    parts = []
    for count in (before, after):
        shape = list(x.shape)
        shape[axis] = count
        parts.append(np.zeros(shape, x.dtype))
    if not before and not after:
        return x
    return ops.concat([parts[0], x, parts[1]], axis=axis)


def _crop_axis(x, axis, before, after, layer):
    size = x.shape[axis]
    if before + after >= size:
        raise ValueError(f"{layer.name}: cropping ({before}, {after}) leaves nothing of an "
                         f"axis of size {size}; crop less")
    index = [slice(None)] * x.ndim
    index[axis] = slice(before, size - after)
    return x[tuple(index)]


def _repeat_axis(x, axis, times):
    if times == 1:
        return x
    return ops.gather(x, np.repeat(np.arange(x.shape[axis]), times), axis=axis)


class ZeroPadding1D(Layer):
    """Add `padding` zero steps before and after the steps axis (an int or a pair)."""

    def __init__(self, padding=1, data_format=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        _channels_last(data_format, "ZeroPadding1D")
        self.padding = _pair(padding, "ZeroPadding1D", "padding")

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        _need_rank(self, x, 3, "(batch, steps, features)")
        return _pad_axis(x, 1, *self.padding)

    def _config(self):
        return {"padding": self.padding}


class ZeroPadding2D(Layer):
    """Add rows and columns of zeros: `padding` is an int, `(rows, cols)` (symmetric) or
    `((top, bottom), (left, right))`."""

    def __init__(self, padding=(1, 1), data_format=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        _channels_last(data_format, "ZeroPadding2D")
        self.padding = _pairs_2d(padding, "ZeroPadding2D", "padding")

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        _need_rank(self, x, 4, "(batch, rows, cols, channels)")
        return _pad_axis(_pad_axis(x, 1, *self.padding[0]), 2, *self.padding[1])

    def _config(self):
        return {"padding": self.padding, "data_format": "channels_last"}


class Cropping1D(Layer):
    """Cut `cropping` steps off the start and end of the steps axis (an int or a pair)."""

    def __init__(self, cropping=(1, 1), name=None, **kwargs):
        super().__init__(name, **kwargs)
        self.cropping = _pair(cropping, "Cropping1D", "cropping")

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        _need_rank(self, x, 3, "(batch, steps, features)")
        return _crop_axis(x, 1, *self.cropping, self)

    def _config(self):
        return {"cropping": self.cropping}


class Cropping2D(Layer):
    """Cut rows and columns off the edges: `cropping` is an int, `(rows, cols)` or
    `((top, bottom), (left, right))`."""

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, name=None, **kwargs):
        super().__init__(name, **kwargs)
        _channels_last(data_format, "Cropping2D")
        self.cropping = _pairs_2d(cropping, "Cropping2D", "cropping")

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        _need_rank(self, x, 4, "(batch, rows, cols, channels)")
        return _crop_axis(_crop_axis(x, 1, *self.cropping[0], self), 2, *self.cropping[1], self)

    def _config(self):
        return {"cropping": self.cropping, "data_format": "channels_last"}


def _positive_sizes(size, count, what):
    sizes = (size,) * count if isinstance(size, (int, np.integer)) else tuple(size)
    if len(sizes) != count or not all(isinstance(s, (int, np.integer)) and s >= 1
                                      for s in sizes):
        raise ValueError(f"{what}: size must be a positive integer"
                         f"{' or a pair of them' if count == 2 else ''}, got {size!r}")
    return tuple(int(s) for s in sizes)


class UpSampling1D(Layer):
    """Repeat each step `size` times along the steps axis."""

    def __init__(self, size=2, name=None, **kwargs):
        super().__init__(name, **kwargs)
        (self.size,) = _positive_sizes(size, 1, "UpSampling1D")

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        _need_rank(self, x, 3, "(batch, steps, features)")
        return _repeat_axis(x, 1, self.size)

    def _config(self):
        return {"size": self.size}


def _bilinear_weights(length, times):
    """The `(length * times, length)` matrix of bilinear upsampling with half-pixel centres
    (positions outside the input clamped to its edge, as image resizing does)."""
    source = np.clip((np.arange(length * times) + 0.5) / times - 0.5, 0, length - 1)
    lower = np.floor(source).astype(np.int64)
    upper = np.minimum(lower + 1, length - 1)
    weights = np.zeros((length * times, length), np.float64)
    rows = np.arange(length * times)
    np.add.at(weights, (rows, lower), 1 - (source - lower))
    np.add.at(weights, (rows, upper), source - lower)
    return weights


class UpSampling2D(Layer):
    """Repeat each row `size[0]` times and each column `size[1]` times ("nearest"), or
    interpolate between them ("bilinear", half-pixel centres as `fl.image.resize`); both are
    written with feedline's ops, so gradients flow. Keras' "bicubic" and "lanczos" are refused.
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", name=None,
                 **kwargs):
        super().__init__(name, **kwargs)
        _channels_last(data_format, "UpSampling2D")
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError(f"UpSampling2D: interpolation={interpolation!r} is not supported "
                             "by feedline; use 'nearest' or 'bilinear'")
        self.size = _positive_sizes(size, 2, "UpSampling2D")
        self.interpolation = interpolation

    def call(self, inputs):
        x = compute_tensor(self, inputs)
        _need_rank(self, x, 4, "(batch, rows, cols, channels)")
        if self.interpolation == "nearest":
            return _repeat_axis(_repeat_axis(x, 1, self.size[0]), 2, self.size[1])
        dtype = np.dtype(self.compute_dtype)
        rows = _bilinear_weights(x.shape[1], self.size[0]).astype(dtype)
        cols = _bilinear_weights(x.shape[2], self.size[1]).astype(dtype)
        return ops.einsum("ih,bhwc,jw->bijc", rows, x, cols)

    def _config(self):
        return {"size": self.size, "data_format": "channels_last",
                "interpolation": self.interpolation}
