"""`resize`: TensorFlow 2's `tf.image.resize`, every `ResizeMethod`.

Pixel `i` of an axis covers `[i, i + 1)`, and its centre is `i + 0.5` (half-pixel centres).
An output pixel's centre maps back to the input at `(i + 0.5) * in_size / out_size`:

- bilinear mixes the two input pixels whose centres surround that point; outside the first or
  last centre it takes the edge pixel (edges clamp). `antialias=True` widens the mixing
  (a triangle filter as wide as one output pixel) when shrinking, so no input pixel is skipped;
- nearest takes the input pixel that contains the point, and keeps the image's dtype;
- area averages the input pixels under the output pixel's box, weighted by how much of each
  is covered;
- bicubic, lanczos3, lanczos5, gaussian and mitchellcubic weigh the input pixels near the point
  by a kernel of the distance (see `resize_kernels`).

Arithmetic is float32, in TensorFlow's order, and the result is float32 (except nearest).

>>> import numpy as np
>>> image = np.array([[0, 4]], np.uint8).reshape(1, 2, 1)
>>> resize(image, [1, 4])[..., 0]
<tf.Tensor: shape=(1, 4), dtype=float32, numpy=array([[0., 1., 3., 4.]], dtype=float32)>
>>> resize(image, [1, 4], method="nearest")[..., 0]
<tf.Tensor: shape=(1, 4), dtype=uint8, numpy=array([[0, 0, 4, 4]], dtype=uint8)>
"""

import numpy as np

from ..errors import InvalidArgumentError
from . import resize_kernels
from ._common import as_array, batched, unbatched
from ..ops._eager import returns_tensors


class ResizeMethod:
    """The names `resize` takes for `method` (TensorFlow 2's `tf.image.ResizeMethod`)."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_IMPLEMENTED = ("bilinear", "nearest", "area") + tuple(resize_kernels.KERNELS)


def _check_method(method):
    if method in _IMPLEMENTED:
        return method
    raise ValueError(f"resize: unknown method={method!r}; use one of {list(_IMPLEMENTED)} "
                     "(the values of tf.image.ResizeMethod)")


def _check_size(size):
    try:
        array = np.asarray(size)
    except (TypeError, ValueError):
        array = None
    if array is None or array.shape != (2,) or array.dtype.kind not in "iu":
        raise ValueError(f"resize: 'size' must be a 1-D int32 tensor of 2 elements, "
                         f"[new_height, new_width]; got size={size!r}")
    return int(array[0]), int(array[1])


def _aspect_size(height, width, size):
    """The largest size within `size` with the image's aspect ratio, computed in float32."""
    factor = min(np.float32(size[0]) / np.float32(height),
                 np.float32(size[1]) / np.float32(width))
    return (int(np.round(factor * np.float32(height))),
            int(np.round(factor * np.float32(width))))


@returns_tensors
def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """Resize `images` to `size` = `[new_height, new_width]`.

    Args:
        images: one image `[height, width, channels]` or a batch
            `[batch, height, width, channels]`.
        size: two ints, the new height and width.
        method: "bilinear" (default), "nearest", "area", "bicubic", "lanczos3", "lanczos5",
            "gaussian" or "mitchellcubic" (`ResizeMethod`).
        preserve_aspect_ratio: fit inside `size` without distorting: the result is as large
            as possible, no larger than `size` on either axis, rounded as TensorFlow rounds.
        antialias: filter when shrinking: the kernel is stretched to one output pixel
            (bilinear's becomes TensorFlow's triangle kernel). Nearest and area ignore it.
            Nearest and area ignore it, as in TensorFlow.
        name: ignored (kept for TensorFlow's signature).

    Returns:
        float32 images of the new size (the input's dtype for "nearest"), batched if
        `images` was.

    Raises:
        ValueError: `images` is not 3-D or 4-D, `size` is not two ints, or `method` is unknown.
        InvalidArgumentError: a size or an image side is not positive.

    >>> resize(np.zeros((5, 8, 3)), [4, 4], preserve_aspect_ratio=True).shape
    TensorShape([2, 4, 3])
    """
    array = as_array(images, "resize", "images")
    if array.ndim not in (3, 4):
        raise ValueError(f"resize: 'images' (shape {list(array.shape)}) must have either 3 or "
                         "4 dimensions: [height, width, channels] or [batch, height, width, "
                         "channels]")
    new_height, new_width = _check_size(size)
    method = _check_method(method)
    batch, added = batched(array)
    height, width = batch.shape[1:3]
    if height <= 0 or width <= 0:
        raise InvalidArgumentError(f"resize: the input image must have a positive height and "
                                   f"width, got shape {list(array.shape)}")
    if preserve_aspect_ratio:
        new_height, new_width = _aspect_size(height, width, (new_height, new_width))
    if new_height <= 0 or new_width <= 0:
        raise InvalidArgumentError(f"resize: output dimensions must be positive, got "
                                   f"[{new_height}, {new_width}]")
    if method == "nearest":
        rows = _nearest_indices(height, new_height)
        cols = _nearest_indices(width, new_width)
        return unbatched(batch[:, rows][:, :, cols], added)
    values = batch.astype(np.float32)
    if method == "area":
        out = _apply(values, _area_weights(height, new_height), _area_weights(width, new_width))
    elif method == "bicubic" and not antialias:
        out = _apply(values, resize_kernels.bicubic_weights(height, new_height),
                     resize_kernels.bicubic_weights(width, new_width))
    elif method in resize_kernels.KERNELS:
        out = _apply(values, resize_kernels.span_weights(height, new_height, method, antialias),
                     resize_kernels.span_weights(width, new_width, method, antialias))
    elif antialias and (new_height < height or new_width < width):
        out = _apply(values, resize_kernels.span_weights(height, new_height, method, True),
                     resize_kernels.span_weights(width, new_width, method, True))
    else:
        out = _bilinear(values, _linear_points(height, new_height),
                        _linear_points(width, new_width))
    return unbatched(out, added)


def _scale(in_size, out_size):
    return np.float32(in_size) / np.float32(out_size)


def _nearest_indices(in_size, out_size):
    centres = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * _scale(in_size,
                                                                                 out_size)
    return np.clip(np.floor(centres).astype(np.int64), 0, in_size - 1)


def _linear_points(in_size, out_size):
    """For each output pixel: the input pixels below and above it, and the weight of above."""
    where = ((np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * _scale(in_size, out_size)
             - np.float32(0.5))
    floor = np.floor(where)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(where).astype(np.int64), in_size - 1)
    return lower, upper, (where - floor).astype(np.float32)


def _bilinear(values, rows, cols):
    """Mix neighbours as TensorFlow's kernel does: along the width first, then the height."""
    (top_rows, bottom_rows, row_weight), (left, right, col_weight) = rows, cols
    col_weight = col_weight[None, None, :, None]
    row_weight = row_weight[None, :, None, None]
    top, bottom = values[:, top_rows], values[:, bottom_rows]
    top = top[:, :, left] + (top[:, :, right] - top[:, :, left]) * col_weight
    bottom = bottom[:, :, left] + (bottom[:, :, right] - bottom[:, :, left]) * col_weight
    return top + (bottom - top) * row_weight


def _apply(values, row_weights, col_weights):
    """Resample with an (out x in) weight matrix per axis."""
    out = np.einsum("oh,bhwc->bowc", row_weights, values, dtype=np.float32)
    return np.einsum("pw,bowc->bopc", col_weights, out, dtype=np.float32)


def _area_weights(in_size, out_size):
    """How much of input pixel j lies under output pixel i's box, over the box's length."""
    scale = float(in_size) / out_size
    starts = np.arange(out_size)[:, None] * scale
    ends = starts + scale
    pixels = np.arange(in_size)[None, :]
    overlap = np.clip(np.minimum(ends, pixels + 1) - np.maximum(starts, pixels), 0, None)
    return (overlap / scale).astype(np.float32)
