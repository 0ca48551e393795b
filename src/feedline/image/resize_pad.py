"""`resize_with_pad`: fit an image inside a box without distorting it, then pad with zeros.

TensorFlow's arithmetic: the scale is `ratio = max(width / target_width, height /
target_height)`; the image is resized to `floor(height / ratio)` x `floor(width / ratio)`,
and placed `floor((target - size / ratio) / 2)` pixels from the top and the left of a zero
box of the target size (computed from the unrounded size, as TensorFlow does).

>>> import numpy as np
>>> out = resize_with_pad(np.ones((2, 4, 1), np.uint8), 4, 4)
>>> out.dtype
tf.float32
>>> out[..., 0].numpy().astype(int).tolist()
[[0, 0, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0]]
"""

import math

from ..ops._eager import returns_tensors
from ._common import as_array, check_rank, target_size
from .crop import pad_to_bounding_box
from .resize import ResizeMethod, resize


@returns_tensors
def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                    antialias=False):
    """Resize `image` to fit `target_height` x `target_width`, keeping its aspect, then pad.

    Args:
        image: `[height, width, channels]` or `[batch, height, width, channels]`.
        target_height, target_width: the size of the result.
        method, antialias: as in `resize` (float32 results, except "nearest").

    Raises:
        ValueError: a target size is not positive, or `image` is not 3-D or 4-D.

    >>> import numpy as np
    >>> tuple(resize_with_pad(np.zeros((3, 10, 10, 3)), 5, 20).shape)
    (3, 5, 20, 3)
    """
    function = "resize_with_pad"
    array = as_array(image, function)
    check_rank(array, function)
    height, width = target_size(target_height, target_width, function)
    image_height, image_width = array.shape[-3], array.shape[-2]
    ratio = max(image_width / width, image_height / height)
    fitted_height, fitted_width = image_height / ratio, image_width / ratio
    resized = resize(array, [math.floor(fitted_height), math.floor(fitted_width)],
                     method=method, antialias=antialias)
    top = max(0, math.floor((height - fitted_height) / 2))
    left = max(0, math.floor((width - fitted_width) / 2))
    return pad_to_bounding_box(resized, top, left, height, width)
