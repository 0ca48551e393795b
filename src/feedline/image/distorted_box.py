"""`sample_distorted_bounding_box`: a random crop window that still shows enough of an object.

TensorFlow's kernel tries up to `max_attempts` windows, each drawn from one Philox stream
(read four 32-bit words at a time, in order):

1. an aspect ratio (width / height) uniform in `aspect_ratio_range` (one word as a float);
2. a height between the heights whose area at that ratio is `area_range[0]` and
   `area_range[1]` of the image (rounded half to even, and kept inside the image), picked by
   `word % (count)`; the width is `round(height * ratio)`; a window whose area misses the
   range by rounding is grown or shrunk by one row, and dropped if it still misses;
3. its top and left offsets, `word % (room)` each, when there is room.

A window is accepted when it covers at least `min_object_covered` of some bounding box (boxes
are scaled to pixels and truncated to ints; boxes under one pixel are ignored). When no attempt
succeeds, the window is the whole image. The result is `(begin, size, bboxes)`:
`begin = [top, left, 0]` and `size = [height, width, -1]` (for `fl.slice`, in `image_size`'s
dtype) and the window as a normalized box, float32 `[1, 1, 4]`.

The stateless op reads the stream TensorFlow derives from `seed=[a, b]`, so its windows are
TensorFlow's; the stateful op uses the two seeds `fl.random.get_seed(seed)` gives (none when
`seed=0`, TensorFlow's default) and moves its stream on by `max_attempts` counters per call,
as TensorFlow's kernel reserves them (checked against the kernel source, not against values
printed by TensorFlow).

>>> begin, size, box = stateless_sample_distorted_bounding_box(
...     [100, 100, 3], [[[0.1, 0.1, 0.9, 0.9]]], seed=[1, 2], min_object_covered=0.5)
>>> begin.dtype, size.shape, box.shape
(tf.int32, TensorShape([3]), TensorShape([1, 1, 4]))
"""

import secrets

import numpy as np

from ..data import tracing
from ..data.spec import TensorSpec
from ..errors import InvalidArgumentError
from ..ops._eager import returns_tensors
from ..random.ops import _reserve
from ..random.philox import Philox
from ..random.stateless import key_counter
from ._common import as_array
from ._random import unit_floats

_INT32_MAX = np.iinfo(np.int32).max


def _crop(width, height, min_area_fraction, max_area_fraction, ratio, words):
    """One window `(x, y, width, height)` or None, drawing from `words()` as the kernel does."""
    min_area = np.float32(min_area_fraction) * np.float32(width) * np.float32(height)
    max_area = np.float32(max_area_fraction) * np.float32(width) * np.float32(height)
    crop_height = int(np.rint(np.sqrt(np.float32(min_area / ratio))))
    max_height = int(np.rint(np.sqrt(np.float32(max_area / ratio))))
    if int(np.rint(np.float32(max_height) * ratio)) > width:
        # The tallest window whose rounded width still fits (double arithmetic, as C++ does).
        max_height = int((width + 0.5 - float(np.float32(1e-7))) / float(ratio))
        if int(np.rint(np.float32(max_height) * ratio)) > width:
            max_height -= 1
    max_height = min(max_height, height)
    crop_height = min(crop_height, max_height)
    if crop_height < max_height:
        crop_height += int(words()) % (max_height - crop_height + 1)
    crop_width = int(np.rint(np.float32(crop_height) * ratio))
    area = np.float32(crop_width * crop_height)
    if area < min_area:
        crop_height += 1
        crop_width = int(np.rint(np.float32(crop_height) * ratio))
        area = np.float32(crop_width * crop_height)
    if area > max_area:
        crop_height -= 1
        crop_width = int(np.rint(np.float32(crop_height) * ratio))
        area = np.float32(crop_width * crop_height)
    if (area < min_area or area > max_area or crop_width > width or crop_height > height
            or crop_width <= 0 or crop_height <= 0):
        return None
    y = int(words()) % (height - crop_height) if crop_height < height else 0
    x = int(words()) % (width - crop_width) if crop_width < width else 0
    return x, y, crop_width, crop_height


def _covers(window, boxes, min_object_covered):
    """Whether `window` holds at least `min_object_covered` of one box (the kernel's test)."""
    x, y, w, h = window
    if w * h < 1:
        return False
    for x0, y0, x1, y1 in boxes:
        area = (x1 - x0) * (y1 - y0)
        if area < 1:
            continue
        left, top, right, bottom = max(x, x0), max(y, y0), min(x + w, x1), min(y + h, y1)
        inside = (right - left) * (bottom - top) if left <= right and top <= bottom else 0
        if np.float32(inside) / np.float32(area) >= np.float32(min_object_covered):
            return True
    return False


def _checked(image_size, bounding_boxes, min_object_covered, aspect_ratio_range, area_range,
             max_attempts, use_image, function):
    size = as_array(image_size, function, "image_size")
    if size.dtype.kind not in "iu" or size.shape != (3,):
        raise InvalidArgumentError(f"{function}: image_size must be 3 integers [height, width, "
                                   f"channels], got {image_size!r}")
    boxes = np.asarray(bounding_boxes, dtype=np.float32)
    if boxes.ndim != 3 or boxes.shape[-1] != 4:
        raise InvalidArgumentError(f"{function}: bounding_boxes must be 3-D [batch, num_boxes, "
                                   f"4], got shape {list(boxes.shape)}")
    if np.any((boxes < 0) | (boxes > 1)):
        raise InvalidArgumentError(f"{function}: all bounding box coordinates must be in "
                                   f"[0.0, 1.0], got {boxes.reshape(-1, 4).tolist()}")
    covered = float(min_object_covered)
    if covered < 0:
        raise InvalidArgumentError(f"{function}: min_object_covered must be >= 0, got "
                                   f"{covered}")
    ratios = [float(v) for v in (aspect_ratio_range or [0.75, 1.33])]
    areas = [float(v) for v in (area_range or [0.05, 1.0])]
    attempts = 100 if max_attempts is None else int(max_attempts)
    if len(ratios) != 2 or min(ratios) <= 0:
        raise InvalidArgumentError(f"{function}: aspect_ratio_range must be two numbers > 0, "
                                   f"got {aspect_ratio_range!r}")
    if len(areas) != 2 or min(areas) <= 0 or max(areas) > 1:
        raise InvalidArgumentError(f"{function}: area_range must be two numbers in (0, 1], got "
                                   f"{area_range!r}")
    if attempts <= 0:
        raise InvalidArgumentError(f"{function}: max_attempts must be > 0, got {attempts}")
    height, width = int(size[0]), int(size[1])
    pixel_boxes = [(int(np.float32(b[1]) * np.float32(width)),
                    int(np.float32(b[0]) * np.float32(height)),
                    int(np.float32(b[3]) * np.float32(width)),
                    int(np.float32(b[2]) * np.float32(height))) for b in boxes.reshape(-1, 4)]
    if not pixel_boxes:
        if not use_image:
            raise InvalidArgumentError(f"{function}: no bounding boxes given; pass "
                                       "use_image_if_no_bounding_boxes=True to use the whole "
                                       "image instead")
        pixel_boxes = [(0, 0, width, height)]
    return size.dtype, height, width, pixel_boxes, covered, ratios, areas, attempts


def _sample(stream, checked):
    """`(begin, size, bboxes)` from a Philox `stream` and the checked arguments."""
    dtype, height, width, boxes, covered, ratios, areas, attempts = checked
    low, high = np.float32(ratios[0]), np.float32(ratios[1])
    window = None
    for _ in range(attempts):
        ratio = unit_floats(stream.uint32(1))[0] * (high - low) + low
        found = _crop(width, height, areas[0], areas[1], np.float32(ratio),
                      lambda: stream.uint32(1)[0])
        if found is not None and _covers(found, boxes, covered):
            window = found
            break
    x, y, w, h = window if window is not None else (0, 0, width, height)
    box = np.array([[[y / np.float32(height), x / np.float32(width),
                      (y + h) / np.float32(height), (x + w) / np.float32(width)]]], np.float32)
    return np.array([y, x, 0], dtype), np.array([h, w, -1], dtype), box


def _stand_in(dtype):
    return tracing.stand_in((TensorSpec((3,), dtype), TensorSpec((3,), dtype),
                             TensorSpec((1, 1, 4), np.float32)))


@returns_tensors
def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """A random crop window `(begin, size, bboxes)` covering enough of a box (stateful).

    Args:
        image_size: `[height, width, channels]`, integers.
        bounding_boxes: `[batch, num_boxes, 4]` normalized `[y_min, x_min, y_max, x_max]`
            in [0, 1].
        seed: an op seed; 0 (the default) draws fresh seeds on every call.
        min_object_covered: the fraction of some box the window must hold.
        aspect_ratio_range: `[low, high]` width / height, default `[0.75, 1.33]`.
        area_range: `[low, high]` fractions of the image area, default `[0.05, 1.0]`.
        max_attempts: windows tried before the whole image is used, default 100.
        use_image_if_no_bounding_boxes: with no boxes, cover the whole image instead of
            failing.
        name: ignored.

    Raises:
        InvalidArgumentError: the kernel's checks (shapes, coordinates outside [0, 1], ranges,
            no boxes without `use_image_if_no_bounding_boxes`).

    >>> begin, size, box = sample_distorted_bounding_box([10, 10, 3], [[[0.0, 0.0, 1.0, 1.0]]],
    ...                                                  seed=3, min_object_covered=1.0)
    >>> begin.numpy().tolist(), size.numpy().tolist(), box.numpy().tolist()
    ([0, 0, 0], [10, 10, -1], [[[0.0, 0.0, 1.0, 1.0]]])
    """
    function = "sample_distorted_bounding_box"
    checked = _checked(image_size, bounding_boxes, min_object_covered, aspect_ratio_range,
                       area_range, max_attempts, use_image_if_no_bounding_boxes, function)
    if tracing.active():
        return _stand_in(checked[0])
    attrs = (tuple(checked[5]), tuple(checked[6]), checked[7], bool(
        use_image_if_no_bounding_boxes), str(checked[0]))
    if seed:
        key, counter = _reserve(function, seed, attrs, checked[7])
    else:  # TensorFlow passes seeds (0, 0), fresh random ones, whatever the global seed
        key, counter = secrets.randbits(64), secrets.randbits(64) << 64
    return _sample(Philox.from_key_counter(key, counter), checked)


@returns_tensors
def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed,
                                            min_object_covered=0.1, aspect_ratio_range=None,
                                            area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """`sample_distorted_bounding_box` fixed by `seed=[a, b]`: TensorFlow's window for that seed.

    Raises:
        InvalidArgumentError: as `sample_distorted_bounding_box`, or a seed that is not two
            integers.

    >>> begin, size, _ = stateless_sample_distorted_bounding_box(
    ...     [64, 64, 3], [[[0.0, 0.0, 1.0, 1.0]]], seed=[7, 8], area_range=[0.25, 0.25],
    ...     aspect_ratio_range=[1.0, 1.0])
    >>> size.numpy().tolist()
    [32, 32, -1]
    """
    function = "stateless_sample_distorted_bounding_box"
    checked = _checked(image_size, bounding_boxes, min_object_covered, aspect_ratio_range,
                       area_range, max_attempts, use_image_if_no_bounding_boxes, function)
    key, counter = key_counter(seed)
    if tracing.active():
        return _stand_in(checked[0])
    return _sample(Philox.from_key_counter(key, counter), checked)
