"""`image_dataset_from_directory`: a folder of images, one subfolder per class, as a `Dataset`.

Keras 3's pipeline, rebuilt with feedline's `Dataset`:
`from_tensor_slices(paths)` zipped with the labels, `shuffle(8 * batch_size or 1024, seed)`,
a parallel `map` that reads, decodes and resizes each image, `batch`, `prefetch(AUTOTUNE)`.
The result carries `class_names` and `file_paths`.

What is exactly Keras' (TensorFlow 2.21 with Keras 3): the files listed and their order, the
labels, the seeded shuffle of the file list (NumPy's `RandomState(seed)`) and so which files
each subset gets, the messages printed, the element dtypes and shapes, and the in-dataset
shuffle order for a given `seed` (feedline's `shuffle` follows TensorFlow's algorithm; a
global seed set with `fl.random.set_seed` changes it as it does TensorFlow's). With
`seed=None`, Keras draws the seed with `np.random.randint(1e6)`, and so does this, from
NumPy's global state. Pixel values are those of `fl.image.resize` and feedline's decoders,
which follow TensorFlow's for PNG and may differ slightly for JPEG.

>>> import os, tempfile
>>> import numpy as np
>>> import feedline as fl
>>> root = tempfile.mkdtemp()
>>> for index, kind in enumerate(["cat", "cat", "dog"]):
...     os.makedirs(os.path.join(root, kind), exist_ok=True)
...     png = fl.image.encode_png(np.full((4, 6, 3), 40 * index, np.uint8))
...     _ = open(os.path.join(root, kind, f"{index}.png"), "wb").write(bytes(png))
>>> ds = fl.keras.utils.image_dataset_from_directory(root, image_size=(2, 2), seed=1)
Found 3 files belonging to 2 classes.
>>> ds.class_names
['cat', 'dog']
>>> images, labels = next(iter(ds))
>>> images.shape, images.dtype, labels.dtype
(TensorShape([3, 2, 2, 3]), tf.float32, tf.int32)
"""


from . import _directory_listing as listing
from ._image_loading import KERAS_INTERPOLATIONS, load_image

ALLOWED_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_CHANNELS = {"grayscale": 1, "rgb": 3, "rgba": 4}


def _check_image_arguments(color_mode, image_size, interpolation, crop_to_aspect_ratio,
                           pad_to_aspect_ratio, data_format, format):
    if color_mode not in _CHANNELS:
        raise ValueError(f"color_mode={color_mode!r} is not one of \"rgb\", \"rgba\" or "
                         "\"grayscale\"")
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    elif not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError(f"image_size={image_size!r} must be (height, width), two integers "
                         "such as image_size=(256, 256)")
    interpolation = str(interpolation).lower()
    if interpolation not in KERAS_INTERPOLATIONS:
        raise ValueError(f"interpolation={interpolation!r} is not one of "
                         f"{KERAS_INTERPOLATIONS}")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("crop_to_aspect_ratio and pad_to_aspect_ratio are both True; set "
                         "at most one of them")
    data_format = "channels_last" if data_format is None else str(data_format).lower()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"data_format={data_format!r} is not \"channels_last\" or "
                         "\"channels_first\" (None means channels_last)")
    if format != "tf":
        raise ValueError(f"format={format!r}: feedline builds tf.data-style datasets only; "
                         "pass format=\"tf\" (the default)")
    return tuple(int(side) for side in image_size), interpolation, data_format


def image_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, color_mode="rgb", batch_size=32,
                                 image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False,
                                 pad_to_aspect_ratio=False, data_format=None, format="tf",
                                 verbose=True):
    """A dataset of `(images, labels)` batches read from the image files under `directory`.

    Args:
        directory: a folder; with `labels="inferred"`, one subfolder per class.
        labels: "inferred" (from the subfolder names), None, or a list/tuple of integer
            labels, one per file in the listing order (see `_directory_listing`).
        label_mode: "int" (int32 `(batch,)`), "categorical" (float32 one-hot
            `(batch, classes)`), "binary" (float32 `(batch, 1)`, exactly 2 classes) or None.
        class_names: the subfolders to use, in the order that gives their labels.
        color_mode: "rgb", "rgba" or "grayscale" (3, 4 or 1 channels).
        batch_size: images per batch; None yields single images.
        image_size: `(height, width)` every image is brought to (an int means a square).
        shuffle, seed: shuffle the file list (NumPy, seeded) and the dataset (8 batches'
            worth of buffer). Without shuffling, files come in sorted path order.
        validation_split, subset: keep a fraction for validation; subset "training",
            "validation", or "both" (a pair of datasets). Needs a seed when shuffling.
        interpolation: "bilinear", "nearest" (gives uint8, as in TensorFlow) or "area".
        follow_links: enter folders reached through symbolic links.
        crop_to_aspect_ratio, pad_to_aspect_ratio: keep the aspect ratio by a centred
            crop, or by padding with zeros.
        data_format: "channels_last" (None) or "channels_first".
        format: "tf" only (Keras' "grain" is not available).
        verbose: print how many files and classes were found.

    Returns:
        A `Dataset` with attributes `class_names` and `file_paths`; a pair of them for
        `subset="both"`.

    Raises:
        ValueError: an argument Keras refuses, or no images found (allowed extensions:
            .bmp .gif .jpeg .jpg .png).
    """
    labels, label_mode = listing.check_label_arguments(labels, label_mode, class_names,
                                                       "images")
    image_size, interpolation, data_format = _check_image_arguments(
        color_mode, image_size, interpolation, crop_to_aspect_ratio, pad_to_aspect_ratio,
        data_format, format)
    listing.check_split_arguments(validation_split, subset, shuffle, seed)
    seed, paths, labels, class_names = listing.list_labelled(
        directory, labels, label_mode, ALLOWED_FORMATS, class_names, shuffle, seed,
        follow_links, verbose)
    channels = _CHANNELS[color_mode]

    def load(path):
        return load_image(path, image_size, channels, interpolation, data_format,
                          crop_to_aspect_ratio, pad_to_aspect_ratio)

    return listing.file_datasets(
        paths, labels, label_mode, class_names, load, batch_size, shuffle, seed,
        validation_split, subset, keep_paths=True,
        nothing_found=lambda which: f"No {which}images found in directory {directory}. "
                                    f"Allowed formats: {ALLOWED_FORMATS}")
