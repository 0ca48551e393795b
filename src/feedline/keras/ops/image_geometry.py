"""`keras.ops.image` geometry: extract_patches, affine_transform and map_coordinates.

`extract_patches` is Keras' own definition: a convolution with an identity kernel, so each
output pixel holds the flattened (height, width, channels) patch starting there.
`affine_transform` resamples through TensorFlow's projective map (8 numbers
`a0 a1 a2 b0 b1 b2 c0 c1`: output (x, y) reads input ((a0 x + a1 y + a2) / k,
(b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1). `map_coordinates` reads `inputs` at arbitrary
coordinates with order-0 or order-1 interpolation, as `scipy.ndimage.map_coordinates`.

>>> import feedline as fl
>>> image = fl.reshape(fl.range(16.0), [4, 4, 1])
>>> fl.keras.ops.image.extract_patches(image, 2).shape
TensorShape([2, 2, 4])
>>> fl.keras.ops.image.map_coordinates(fl.constant([1.0, 3.0]), [[0.5]], 1).numpy().tolist()
[2.0]
"""

import itertools

import numpy as np

from ...layers._affine import _fill_index
from . import _dtypes
from .nn_conv import conv
from ._apply import array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid",
                    data_format=None):
    """Each `size` patch of channels-last `images`, flattened into the channel axis.

    Raises:
        TypeError: for a `size` that is neither an int nor a tuple of two.
    """
    if isinstance(size, int):
        size = (size, size)
    if not isinstance(size, (tuple, list)) or len(size) != 2:
        raise TypeError(f"extract_patches: size must be an int or (height, width), got "
                        f"{size!r} (3-D patches are not supported here)")
    images = tensor(images)
    channels = images.shape[-1]
    depth = size[0] * size[1] * channels
    kernel = np.eye(depth, dtype=_dtypes.floating(images.dtype.name)).reshape(
        size[0], size[1], channels, depth)
    batched = images if images.ndim == 4 else tensor(array(images)[None])
    patches = conv(batched, kernel, strides=strides or tuple(size), padding=padding,
                   data_format=data_format, dilation_rate=dilation_rate)
    return patches if images.ndim == 4 else plain(lambda: array(patches)[0])()


_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


@plain
def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0, data_format=None):
    """`images` resampled through `transform` (8 numbers per image; see the module).

    Raises:
        ValueError: for an unknown interpolation or fill mode, or images not of rank 3 or 4.
    """
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError(f"affine_transform: interpolation must be 'nearest' or 'bilinear', "
                         f"got {interpolation!r}")
    if fill_mode not in ("constant", "nearest", "wrap", "reflect"):
        raise ValueError(f"affine_transform: fill_mode must be one of 'constant', 'nearest', "
                         f"'wrap', 'reflect', got {fill_mode!r}")
    images, transform = array(images), array(transform, "float32")
    if images.ndim not in (3, 4) or transform.ndim not in (1, 2):
        raise ValueError(f"affine_transform: images must be rank 3 or 4 and transform rank 1 "
                         f"or 2, got {images.shape} and {transform.shape}")
    batch = images if images.ndim == 4 else images[None]
    if data_format == "channels_first":
        batch = batch.transpose(0, 2, 3, 1)
    transforms = np.broadcast_to(transform.reshape(-1, 8), (len(batch), 8))
    out = np.stack([_project(image, matrix, interpolation, fill_mode, fill_value)
                    for image, matrix in zip(batch, transforms)]).astype(images.dtype)
    if data_format == "channels_first":
        out = out.transpose(0, 3, 1, 2)
    return out if images.ndim == 4 else out[0]


def _project(image, matrix, interpolation, fill_mode, fill_value):
    """One (H, W, C) image where output (x, y) reads the input at the projected point."""
    a0, a1, a2, b0, b1, b2, c0, c1 = matrix.astype(np.float32)
    height, width = image.shape[:2]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    k = c0 * x + c1 * y + np.float32(1)
    with np.errstate(all="ignore"):
        source_x, source_y = (a0 * x + a1 * y + a2) / k, (b0 * x + b1 * y + b2) / k
    if interpolation == "nearest":
        corners = [(_round_half_away(source_y), _round_half_away(source_x), np.ones_like(x))]
    else:
        top, left = np.floor(source_y), np.floor(source_x)
        fy, fx = source_y - top, source_x - left
        corners = [(top, left, (1 - fy) * (1 - fx)), (top, left + 1, (1 - fy) * fx),
                   (top + 1, left, fy * (1 - fx)), (top + 1, left + 1, fy * fx)]
    out = np.zeros(image.shape, np.float32)
    for rows, columns, weight in corners:
        rows, rows_in = _fill_index(rows.astype(np.int64), height, fill_mode)
        columns, columns_in = _fill_index(columns.astype(np.int64), width, fill_mode)
        values = image[rows, columns].astype(np.float32)
        if fill_mode == "constant":
            values[~(rows_in & columns_in)] = fill_value
        out += weight[..., None] * values
    out[k == 0] = fill_value
    return out


def _round_half_away(values):
    """Rounding with halves away from zero (C's `round`, which TensorFlow's kernel uses)."""
    return np.sign(values) * np.floor(np.abs(values) + 0.5)


def _fill(coords, size, fill_mode):
    """Coordinates moved inside [0, size) by `fill_mode`, and where they were valid."""
    if fill_mode == "constant":
        return np.clip(coords, 0, size - 1), (coords >= 0) & (coords < size)
    if fill_mode == "nearest":
        return np.clip(coords, 0, size - 1), np.ones(coords.shape, bool)
    if fill_mode == "wrap":
        return np.mod(coords, size), np.ones(coords.shape, bool)
    period = np.mod(np.abs(coords), 2 * size)  # mirror and reflect
    folded = np.where(period < size, period, 2 * size - period)
    if fill_mode == "reflect":
        folded = np.where(period < size, folded, folded - 1)
    # a coordinate of exactly `size` folds onto `size` itself: clamp it to the last element
    return np.clip(folded, 0, size - 1), np.ones(coords.shape, bool)


@plain
def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0.0):
    """`inputs` read at `coordinates` (one array of positions per axis of `inputs`).

    `order=0` takes the nearest element, `order=1` interpolates linearly; integer inputs are
    rounded back to their dtype.

    Raises:
        ValueError: when `coordinates` has no row per axis or `fill_mode` is unknown.
        NotImplementedError: for `order` above 1 (as Keras).
    """
    values, coordinates = array(inputs), array(coordinates)
    if coordinates.ndim < 2 or coordinates.shape[0] != values.ndim:
        raise ValueError(f"map_coordinates: coordinates must have shape (rank of inputs = "
                         f"{values.ndim}, ...), got {coordinates.shape}")
    if fill_mode not in _FILL_MODES:
        raise ValueError(f"map_coordinates: fill_mode must be one of {_FILL_MODES}, got "
                         f"{fill_mode!r}")
    if order not in (0, 1):
        raise NotImplementedError("map_coordinates currently requires order<=1")
    dtype = coordinates.dtype if coordinates.dtype.kind == "f" else np.dtype("float32")
    per_axis = []
    for coordinate, size in zip(coordinates.astype(dtype), values.shape):
        if order == 0:
            nodes = [(np.round(coordinate), np.ones_like(coordinate))]  # halves to even
        else:
            lower = np.floor(coordinate)
            nodes = [(lower, 1 - (coordinate - lower)), (lower + 1, coordinate - lower)]
        per_axis.append([(*_fill(index, size, fill_mode), weight) for index, weight in nodes])
    result = np.zeros(coordinates.shape[1:], dtype)
    for combination in itertools.product(*per_axis):
        indices, valid, weights = zip(*combination)
        gathered = values[tuple(i.astype(np.int64) for i in indices)].astype(dtype)
        if fill_mode == "constant":
            gathered = np.where(np.logical_and.reduce(valid), gathered, fill_value)
        result = result + np.prod(weights, axis=0) * gathered
    if values.dtype.kind in "iu":
        result = np.round(result)
    return result.astype(values.dtype)


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
