"""Read one image file and bring it to a fixed size, as `image_dataset_from_directory` does.

Three ways to reach `(height, width)`, Keras' three:

- plain: `fl.image.resize` to the size (the aspect ratio may change);
- `crop_to_aspect_ratio`: cut the largest centred window with the target's aspect ratio, then
  resize it (Keras' `smart_resize`: window sides `int(width * target_h / target_w)` and
  `int(height * target_w / target_h)`, capped by the image and at least 1, offsets halved
  down);
- `pad_to_aspect_ratio`: shrink or grow to fit inside the size, then pad with zeros around it
  (TensorFlow's `resize_with_pad`: the scale is the larger of the two ratios, the resized
  sides are floored, the top and left pads are half the float gap, floored).

The result is float32 in [0, 255], except with "nearest", which keeps the file's uint8 as
`tf.image.resize` does (Keras passes that on: its datasets are then uint8).

>>> import numpy as np
>>> tall = np.arange(24, dtype=np.float32).reshape(6, 4, 1)
>>> crop_then_resize(tall, (2, 2), "nearest")[..., 0].tolist()
[[9.0, 11.0], [17.0, 19.0]]
>>> pad_after_resize(np.ones((2, 4, 1), np.float32), (4, 4), "bilinear")[..., 0].tolist()
[[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]]
"""

import numpy as np

from ...data import tracing
from ...data.spec import TensorSpec
from ... import image as fl_image
from ...io.image import decode_image
from ...io.raw import read_file

KERAS_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5",
                        "gaussian", "mitchellcubic")


def crop_then_resize(image, size, interpolation):
    """The largest centred crop with the aspect ratio of `size`, resized to `size`."""
    height, width = image.shape[0], image.shape[1]
    target_height, target_width = size
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    top = int(float(height - crop_height) / 2)
    left = int(float(width - crop_width) / 2)
    window = image[top:top + crop_height, left:left + crop_width]
    return np.asarray(fl_image.resize(window, size, method=interpolation))


def pad_after_resize(image, size, interpolation):
    """`image` resized to fit inside `size` keeping its aspect ratio, then zero-padded."""
    height, width = np.float32(image.shape[0]), np.float32(image.shape[1])
    target_height, target_width = np.float32(size[0]), np.float32(size[1])
    ratio = max(width / target_width, height / target_height)
    inner_height, inner_width = height / ratio, width / ratio
    resized = fl_image.resize(image, [int(np.floor(inner_height)), int(np.floor(inner_width))],
                              method=interpolation)
    top = max(0, int(np.floor((target_height - inner_height) / 2)))
    left = max(0, int(np.floor((target_width - inner_width) / 2)))
    return np.asarray(fl_image.pad_to_bounding_box(resized, top, left, size[0], size[1]))


def load_image(path, size, channels, interpolation, data_format, crop_to_aspect_ratio,
               pad_to_aspect_ratio):
    """Decode the file at `path` and bring it to `size` (see the module docstring)."""
    dtype = "uint8" if interpolation == "nearest" else "float32"
    shape = ((size[0], size[1], channels) if data_format == "channels_last"
             else (channels, size[0], size[1]))
    if tracing.active():  # only the element_spec is wanted: skip reading the file
        return tracing.stand_in(TensorSpec(shape, dtype))
    image = decode_image(read_file(path), channels=channels, expand_animations=False)
    image = np.asarray(image)
    if crop_to_aspect_ratio:
        image = crop_then_resize(image, size, interpolation)
    elif pad_to_aspect_ratio:
        image = pad_after_resize(image, size, interpolation)
    else:
        image = np.asarray(fl_image.resize(image, size, method=interpolation))
    if data_format == "channels_first":
        image = np.transpose(image, (2, 0, 1))
    return image
