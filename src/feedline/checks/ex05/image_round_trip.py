"""Check for exercise `ex-05-2`: an image through an Example and back."""

import numpy as np

from ... import train
from ...io import decode_png
from .._common import call_answer, check, fail, passed, rng
from ._shared import _as_int


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _fresh_images(generator, count=5):
    """(image, label) pairs of new sizes; gray and colour; never 8x8 only."""
    pairs = []
    for number in range(count):
        channels = 1 if number % 2 == 0 else 3
        height, width = (int(side) for side in generator.integers(3, 17, size=2))
        image = generator.integers(0, 256, size=(height, width, channels), dtype=np.uint8)
        pairs.append((image, int(generator.integers(0, 10))))
    return pairs


def _inspect_example(check_id, serialized):
    """The image bytes and label stored in `serialized`, failing with what is wrong."""
    if isinstance(serialized, train.Example):
        fail(check_id, "to_example returned an Example message, not its bytes",
             hint="return example.SerializeToString(): TFRecord files and the parsers take bytes")
    if not isinstance(serialized, bytes):
        fail(check_id, f"to_example should return the serialized Example as bytes, got "
                       f"{type(serialized).__name__}")
    try:
        example = train.Example.FromString(serialized)
    except Exception:  # noqa: BLE001 - any protobuf decode error means the same
        fail(check_id, "to_example returned bytes that are not a serialized Example")
    features = example.features.feature
    if set(features) != {"image", "label"}:
        fail(check_id, f"the Example should have the features 'image' and 'label', it has "
                       f"{sorted(features)}")
    image, label = features["image"], features["label"]
    if image.WhichOneof("kind") != "bytes_list" or len(image.bytes_list.value) != 1:
        fail(check_id, f"'image' should be a bytes_list with one value (the PNG file), it is "
                       f"a {image.WhichOneof('kind')} of {_count(image)} values",
             hint="fl.train.Feature(bytes_list=fl.train.BytesList(value=[fl.io.encode_png("
                  "image)]))")
    if label.WhichOneof("kind") != "int64_list" or len(label.int64_list.value) != 1:
        fail(check_id, f"'label' should be an int64_list with one value, it is a "
                       f"{label.WhichOneof('kind')} of {_count(label)} values")
    stored = image.bytes_list.value[0]
    if not stored.startswith(PNG_SIGNATURE):
        fail(check_id, f"'image' holds {len(stored)} bytes that are not a PNG file (they "
                       f"start with {stored[:8]!r})",
             hint="store fl.io.encode_png(image): a PNG keeps the height, width and "
                  "channels, raw bytes (image.tobytes()) lose them")
    return stored, label.int64_list.value[0]


def _count(feature):
    kind = feature.WhichOneof("kind")
    return 0 if kind is None else len(getattr(feature, kind).value)


@check("ex-05-2", hint="to_example: the PNG bytes (fl.io.encode_png) in a bytes_list and the "
                        "label in an int64_list, serialized; parse_digit: FixedLenFeature([], "
                        "fl.string) and FixedLenFeature([], fl.int64), then fl.io.decode_png",
       replayable=True)
def check_image_round_trip(to_example, parse_digit):
    """ex-05-2: `parse_digit(to_example(image, label))` gives the image and label back.

    >>> import feedline as fl
    >>> def to_example(image, label):
    ...     feature = {"image": fl.train.Feature(bytes_list=fl.train.BytesList(
    ...                    value=[fl.io.encode_png(image)])),
    ...                "label": fl.train.Feature(int64_list=fl.train.Int64List(value=[label]))}
    ...     return fl.train.Example(features=fl.train.Features(
    ...         feature=feature)).SerializeToString()
    >>> def parse_digit(serialized):
    ...     spec = {"image": fl.io.FixedLenFeature([], fl.string),
    ...             "label": fl.io.FixedLenFeature([], fl.int64)}
    ...     parsed = fl.io.parse_single_example(serialized, spec)
    ...     return fl.io.decode_png(parsed["image"]), parsed["label"]
    >>> check_image_round_trip(to_example, parse_digit)
    ex-05-2 passed: 5 fresh gray and colour images of new sizes came back pixel for pixel
    """
    check_id = "ex-05-2"
    generator = rng(check_id)
    pairs = _fresh_images(generator)
    for image, label in pairs:
        serialized = call_answer(check_id, to_example, image, label, want_dataset=False)
        stored, stored_label = _inspect_example(check_id, serialized)
        if stored_label != label:
            fail(check_id, f"to_example stored the label {stored_label}, expected {label}")
        if not np.array_equal(decode_png(stored), image):
            fail(check_id, f"the PNG stored for an image of shape {image.shape} decodes to "
                           f"different pixels (shape {decode_png(stored).shape})")
        result = call_answer(check_id, parse_digit, serialized, want_dataset=False)
        if not isinstance(result, tuple) or len(result) != 2:
            fail(check_id, f"parse_digit should return a pair (image, label), got "
                           f"{type(result).__name__}")
        got_image, got_label = np.asarray(result[0]), result[1]
        if got_image.shape != image.shape:
            meaning = ("the channel axis is missing: keep the (height, width, channels) "
                       "array decode_png gives" if got_image.shape == image.shape[:2] else
                       "decode_png with channels=0 keeps the file's channels; a fixed "
                       "channels= or a reshape to 8x8 does not fit every image"
                       if got_image.ndim == 3 and got_image.shape[:2] == image.shape[:2] else
                       "the image must come from the PNG bytes, whatever its size")
            fail(check_id, f"for an image of shape {image.shape}, parse_digit gave an image "
                           f"of shape {got_image.shape}: {meaning}", hint=meaning)
        if got_image.dtype != np.uint8 or not np.array_equal(got_image, image):
            fail(check_id, f"parse_digit gave different pixels for an image of shape "
                           f"{image.shape} (dtype {got_image.dtype}); expected the uint8 "
                           "pixels back exactly (PNG is lossless)")
        if _as_int(check_id, got_label, "the label parse_digit returned") != label:
            fail(check_id, f"parse_digit gave the label {int(got_label)}, expected {label}")
    passed(check_id, f"{len(pairs)} fresh gray and colour images of new sizes came back pixel "
                     "for pixel")
