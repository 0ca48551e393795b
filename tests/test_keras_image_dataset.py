"""`fl.keras.utils.image_dataset_from_directory` lists, splits, labels and loads images as
Keras 3 does (keras/src/utils/image_dataset_utils.py and dataset_utils.py, and the cases of
image_dataset_utils_test.py; https://keras.io/api/data_loading/image/)."""

import os

import numpy as np
import pytest

import feedline as fl
from feedline.keras.utils import image_dataset_from_directory


def write_png(path, pixels):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(bytes(fl.image.encode_png(np.asarray(pixels, np.uint8))))


def make_folder(root, counts, extension="png", channels=3, size=(6, 8)):
    """`counts[k]` images in `class_k`; image `i` of a class is filled with the value `i`."""
    for k, count in enumerate(counts):
        for i in range(count):
            pixels = np.full(size + (channels,), i, np.uint8)
            path = os.path.join(root, f"class_{k}", f"image_{i}.{extension}")
            if extension == "jpg":
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as handle:
                    handle.write(bytes(fl.image.encode_jpeg(pixels)))
            else:
                write_png(path, pixels)
    return str(root)


def relative(paths, root):
    return [os.path.relpath(path, root) for path in paths]


def sorted_listing(counts):
    return [f"class_{k}/image_{i}.png" for k, count in enumerate(counts) for i in range(count)]


def test_inferred_labels_come_from_sorted_subfolders_and_the_count_is_printed(tmp_path, capsys):
    root = make_folder(tmp_path, [3, 2])
    ds = image_dataset_from_directory(root, image_size=(4, 4), batch_size=8)
    assert capsys.readouterr().out == "Found 5 files belonging to 2 classes.\n"
    assert ds.class_names == ["class_0", "class_1"]
    images, labels = next(iter(ds.as_numpy_iterator()))
    assert images.shape == (5, 4, 4, 3) and images.dtype == np.float32
    assert labels.dtype == np.int32 and sorted(labels.tolist()) == [0, 0, 0, 1, 1]


def test_images_are_float32_in_0_255_and_keep_their_pixel_values(tmp_path):
    root = tmp_path
    write_png(str(root / "a" / "x.png"), np.full((4, 4, 3), 255, np.uint8))
    ds = image_dataset_from_directory(str(root), image_size=(2, 2), shuffle=False,
                                      verbose=False)
    images, _ = next(iter(ds.as_numpy_iterator()))
    assert images.dtype == np.float32 and images.min() == images.max() == 255.0


def test_element_spec_and_repr_are_tensorflows(tmp_path):
    root = make_folder(tmp_path, [2, 2])
    ds = image_dataset_from_directory(root, image_size=(18, 18), verbose=False)
    assert repr(ds) == (
        "<_PrefetchDataset element_spec=(TensorSpec(shape=(None, 18, 18, 3), dtype=tf.float32,"
        " name=None), TensorSpec(shape=(None,), dtype=tf.int32, name=None))>")


@pytest.mark.parametrize("label_mode, shape, dtype", [
    ("int", (4,), np.int32), ("binary", (4, 1), np.float32),
    ("categorical", (4, 2), np.float32)])
def test_label_modes_give_keras_dtypes_and_shapes(tmp_path, label_mode, shape, dtype):
    root = make_folder(tmp_path, [2, 2])
    ds = image_dataset_from_directory(root, image_size=(4, 4), label_mode=label_mode,
                                      shuffle=False, verbose=False)
    _, labels = next(iter(ds.as_numpy_iterator()))
    assert labels.shape == shape and labels.dtype == dtype
    if label_mode == "categorical":
        assert labels.tolist() == [[1, 0], [1, 0], [0, 1], [0, 1]]
    if label_mode == "binary":
        assert labels[:, 0].tolist() == [0, 0, 1, 1]


def test_categorical_has_one_column_per_class(tmp_path):
    root = make_folder(tmp_path, [2, 1, 1, 1])
    ds = image_dataset_from_directory(root, image_size=(4, 4), label_mode="categorical",
                                      verbose=False)
    assert ds.element_spec[1].shape.as_list() == [None, 4]


def test_binary_needs_exactly_two_classes(tmp_path):
    root = make_folder(tmp_path, [1, 1, 1])
    with pytest.raises(ValueError, match="exactly 2 classes"):
        image_dataset_from_directory(root, label_mode="binary", verbose=False)


def test_no_labels_lists_the_whole_tree_including_top_level_files(tmp_path, capsys):
    root = make_folder(tmp_path, [4, 3])
    for i in range(3):
        write_png(str(tmp_path / f"top_{i}.png"), np.zeros((5, 5, 3)))
    ds = image_dataset_from_directory(root, labels=None, image_size=(18, 18), batch_size=5)
    assert capsys.readouterr().out == "Found 10 files.\n"
    assert ds.class_names is None
    sizes = [batch.shape for batch in ds.as_numpy_iterator()]
    assert sizes == [(5, 18, 18, 3), (5, 18, 18, 3)]


def test_label_mode_none_also_gives_images_only(tmp_path):
    root = make_folder(tmp_path, [2, 2])
    ds = image_dataset_from_directory(root, label_mode=None, image_size=(3, 3), verbose=False)
    assert next(iter(ds.as_numpy_iterator())).shape == (4, 3, 3, 3)


@pytest.mark.parametrize("color_mode, channels", [("grayscale", 1), ("rgb", 3), ("rgba", 4)])
def test_color_mode_sets_the_number_of_channels(tmp_path, color_mode, channels):
    root = make_folder(tmp_path, [2, 2], channels=4 if color_mode == "rgba" else 3)
    ds = image_dataset_from_directory(root, color_mode=color_mode, image_size=(5, 5),
                                      verbose=False)
    images, _ = next(iter(ds.as_numpy_iterator()))
    assert images.shape == (4, 5, 5, channels)


def test_without_shuffle_files_come_in_sorted_path_order_with_nested_folders(tmp_path):
    for name in ["b/z.png", "a/y.png", "a/sub/b.png", "a/sub-x/c.png", "a/a.JPG.png",
                 "a/notes.txt", ".hidden/h.png"]:
        write_png(str(tmp_path / name), np.zeros((2, 2, 3)))
    ds = image_dataset_from_directory(str(tmp_path), shuffle=False, image_size=(2, 2),
                                      verbose=False)
    # Folders sorted by full path ("a" < "a/sub" < "a/sub-x"), files by name; hidden
    # folders are no class and .txt is no image.
    assert relative(ds.file_paths, tmp_path) == [
        "a/a.JPG.png", "a/y.png", "a/sub/b.png", "a/sub-x/c.png", "b/z.png"]
    assert ds.class_names == ["a", "b"]
    _, labels = next(iter(ds.as_numpy_iterator()))
    assert labels.tolist() == [0, 0, 0, 0, 1]


def test_extensions_are_matched_without_case(tmp_path):
    write_png(str(tmp_path / "a" / "upper.PNG"), np.zeros((2, 2, 3)))
    write_png(str(tmp_path / "a" / "data.tiff"), np.zeros((2, 2, 3)))
    ds = image_dataset_from_directory(str(tmp_path), shuffle=False, verbose=False)
    assert relative(ds.file_paths, tmp_path) == ["a/upper.PNG"]


def test_seeded_file_order_is_numpys_randomstate_shuffle_of_the_listing(tmp_path):
    counts = [6, 4]
    root = make_folder(tmp_path, counts)
    ds = image_dataset_from_directory(root, seed=1337, verbose=False)
    expected = sorted_listing(counts)
    np.random.RandomState(1337).shuffle(expected)
    assert relative(ds.file_paths, root) == expected


def test_seed_none_draws_the_seed_from_numpys_global_state_as_keras_does(tmp_path):
    root = make_folder(tmp_path, [5, 5])
    np.random.seed(7)
    drawn = np.random.RandomState(7).randint(1e6)
    unseeded = image_dataset_from_directory(root, verbose=False)
    seeded = image_dataset_from_directory(root, seed=drawn, verbose=False)
    assert unseeded.file_paths == seeded.file_paths


def test_the_dataset_shuffle_is_seeded_and_reshuffles_each_epoch(tmp_path):
    root = make_folder(tmp_path, [6, 6])
    first = image_dataset_from_directory(root, seed=3, batch_size=None, image_size=(2, 2),
                                         verbose=False)
    again = image_dataset_from_directory(root, seed=3, batch_size=None, image_size=(2, 2),
                                         verbose=False)

    def epoch(ds):
        return [(float(image[0, 0, 0]), int(label)) for image, label in ds.as_numpy_iterator()]

    one, two = epoch(first), epoch(first)
    assert one == epoch(again) and one != two
    # The in-dataset shuffle is TensorFlow's buffer shuffle of the listed files (1024 slots
    # without batching), seeded with `seed`.
    order = fl.data.Dataset.range(12).shuffle(1024, seed=3)
    expected_paths = [first.file_paths[int(i)] for i in order.as_numpy_iterator()]
    values = [float(os.path.basename(p)[6:-4]) for p in expected_paths]
    assert [value for value, _ in one] == values


def test_validation_split_subsets_are_complements_and_print_their_sizes(tmp_path, capsys):
    root = make_folder(tmp_path, [5, 5])
    kwargs = dict(image_size=(4, 4), validation_split=0.2, seed=1337, verbose=False)
    training = image_dataset_from_directory(root, subset="training", **kwargs)
    validation = image_dataset_from_directory(root, subset="validation", **kwargs)
    assert capsys.readouterr().out == ("Using 8 files for training.\n"
                                       "Using 2 files for validation.\n")
    assert len(training.file_paths) == 8 and len(validation.file_paths) == 2
    assert set(training.file_paths).isdisjoint(validation.file_paths)
    everything = sorted_listing([5, 5])
    np.random.RandomState(1337).shuffle(everything)
    assert relative(validation.file_paths, root) == everything[-2:]
    assert next(iter(training.as_numpy_iterator()))[0].shape == (8, 4, 4, 3)


def test_subset_both_returns_the_two_datasets_of_the_separate_calls(tmp_path):
    root = make_folder(tmp_path, [5, 5])
    kwargs = dict(image_size=(4, 4), validation_split=0.2, seed=1337, verbose=False)
    training, validation = image_dataset_from_directory(root, subset="both", **kwargs)
    alone = image_dataset_from_directory(root, subset="validation", **kwargs)
    assert validation.file_paths == alone.file_paths
    assert training.class_names == validation.class_names == ["class_0", "class_1"]
    # Keras leaves the validation half of "both" unshuffled: its batches follow file_paths.
    values = [float(os.path.basename(p)[6:-4]) for p in validation.file_paths]
    images, _ = next(iter(validation.as_numpy_iterator()))
    assert images[:, 0, 0, 0].tolist() == values


def test_a_split_too_small_for_one_file_leaves_training_empty_as_in_keras(tmp_path):
    root = make_folder(tmp_path, [2, 2])
    with pytest.raises(ValueError, match="No training images found"):
        image_dataset_from_directory(root, validation_split=0.1, subset="both", seed=1,
                                     verbose=False)


@pytest.mark.parametrize("kwargs, words", [
    (dict(validation_split=0.2), "give both"),
    (dict(subset="training"), "give both"),
    (dict(validation_split=1.5, subset="training", seed=1), "between 0 and 1"),
    (dict(validation_split=0.2, subset="test", seed=1), "subset='test'"),
    (dict(validation_split=0.2, subset="training"), "needs a seed"),
])
def test_split_arguments_keras_refuses_are_refused(tmp_path, kwargs, words):
    root = make_folder(tmp_path, [2, 2])
    with pytest.raises(ValueError, match=words):
        image_dataset_from_directory(root, verbose=False, **kwargs)


def test_labels_given_as_a_list_follow_the_sorted_listing(tmp_path):
    root = make_folder(tmp_path, [3, 3])
    labels = [0, 1, 0, 1, 1, 1]
    ds = image_dataset_from_directory(root, labels=labels, shuffle=False, image_size=(4, 4),
                                      verbose=False)
    assert ds.class_names == ["0", "1"]
    images, got = next(iter(ds.as_numpy_iterator()))
    assert got.tolist() == labels and got.dtype == np.int32 and images.shape[0] == 6


def test_labels_as_a_tuple_shuffle_with_the_files_and_the_callers_list_is_untouched(tmp_path):
    root = make_folder(tmp_path, [2, 2])
    listing = sorted_listing([2, 2])
    _, validation = image_dataset_from_directory(
        root, labels=(0, 1, 2, 3), seed=5, validation_split=0.5, subset="both", verbose=False)
    # Label k belongs to the k-th file of the sorted listing, wherever the shuffle moved it
    # (the validation half of "both" is not reshuffled, so it follows file_paths).
    _, labels = next(iter(validation.as_numpy_iterator()))
    assert labels.tolist() == [listing.index(p) for p in relative(validation.file_paths, root)]
    caller = [0, 1, 2, 3]
    ds = image_dataset_from_directory(root, labels=caller, seed=5, verbose=False)
    assert caller == [0, 1, 2, 3] and ds.class_names == ["0", "1", "2", "3"]


def test_wrong_number_of_labels_is_refused(tmp_path):
    root = make_folder(tmp_path, [4])
    with pytest.raises(ValueError, match="match the number of files"):
        image_dataset_from_directory(root, labels=[0, 1, 0], shuffle=False, verbose=False)


def test_labels_that_are_not_a_list_are_refused_with_the_choices(tmp_path):
    with pytest.raises(ValueError, match='labels="inferred"'):
        image_dataset_from_directory(str(tmp_path), labels="folders")


def test_class_names_choose_and_order_the_classes(tmp_path):
    root = make_folder(tmp_path, [1, 2, 3])
    ds = image_dataset_from_directory(root, class_names=["class_2", "class_0"], shuffle=False,
                                      image_size=(2, 2), verbose=False)
    assert ds.class_names == ["class_2", "class_0"]
    _, labels = next(iter(ds.as_numpy_iterator()))
    assert labels.tolist() == [0, 0, 0, 1]


def test_class_names_that_are_no_subfolder_are_refused(tmp_path):
    root = make_folder(tmp_path, [1, 1])
    with pytest.raises(ValueError, match="must name subfolders"):
        image_dataset_from_directory(root, class_names=["class_0", "dogs"], verbose=False)
    with pytest.raises(ValueError, match="labels=\"inferred\""):
        image_dataset_from_directory(root, labels=[0, 1], class_names=["a"], verbose=False)


def test_a_folder_without_images_is_an_error_naming_the_formats(tmp_path):
    (tmp_path / "class_0").mkdir()
    (tmp_path / "class_0" / "readme.txt").write_text("no images")
    with pytest.raises(ValueError, match=r"No images found in directory .*\.png"):
        image_dataset_from_directory(str(tmp_path), verbose=False)


def test_batch_size_none_gives_single_images(tmp_path):
    root = make_folder(tmp_path, [2, 1])
    ds = image_dataset_from_directory(root, batch_size=None, image_size=(3, 5), verbose=False)
    image, label = next(iter(ds.as_numpy_iterator()))
    assert image.shape == (3, 5, 3) and label.shape == ()
    assert ds.element_spec[0].shape.as_list() == [3, 5, 3]


def test_image_size_may_be_one_int_and_channels_first_moves_channels(tmp_path):
    root = make_folder(tmp_path, [1, 1])
    ds = image_dataset_from_directory(root, image_size=7, data_format="channels_first",
                                      verbose=False)
    assert next(iter(ds.as_numpy_iterator()))[0].shape == (2, 3, 7, 7)


def test_crop_to_aspect_ratio_keeps_the_centred_window(tmp_path):
    columns = np.tile((np.arange(6, dtype=np.uint8) * 10)[None, :, None], (2, 1, 3))
    write_png(str(tmp_path / "a" / "wide.png"), columns)
    ds = image_dataset_from_directory(str(tmp_path), image_size=(2, 2), shuffle=False,
                                      crop_to_aspect_ratio=True, verbose=False)
    images, _ = next(iter(ds.as_numpy_iterator()))
    # A 2x6 image cropped to 2x2: columns 2 and 3 (offset int((6 - 2) / 2) = 2).
    assert images[0, :, :, 0].tolist() == [[20.0, 30.0], [20.0, 30.0]]


def test_pad_to_aspect_ratio_pads_with_zeros_around_the_fitted_image(tmp_path):
    write_png(str(tmp_path / "a" / "wide.png"), np.full((2, 4, 3), 200, np.uint8))
    ds = image_dataset_from_directory(str(tmp_path), image_size=(4, 4), shuffle=False,
                                      pad_to_aspect_ratio=True, verbose=False)
    images, _ = next(iter(ds.as_numpy_iterator()))
    assert images[0, :, :, 0].tolist() == [[0.0] * 4, [200.0] * 4, [200.0] * 4, [0.0] * 4]


def test_crop_and_pad_together_are_refused(tmp_path):
    with pytest.raises(ValueError, match="at most one"):
        image_dataset_from_directory(str(tmp_path), crop_to_aspect_ratio=True,
                                     pad_to_aspect_ratio=True)


def test_nearest_interpolation_keeps_uint8_as_tensorflows_resize_does(tmp_path):
    """tf.image.resize keeps the dtype for NEAREST_NEIGHBOR (tensorflow/tensorflow#49829)."""
    root = make_folder(tmp_path, [1, 1])
    ds = image_dataset_from_directory(root, interpolation="nearest", image_size=(3, 3),
                                      verbose=False)
    assert ds.element_spec[0].dtype == fl.uint8
    assert next(iter(ds.as_numpy_iterator()))[0].dtype == np.uint8


def test_every_keras_interpolation_resizes_and_unknown_ones_are_refused(tmp_path):
    root = make_folder(tmp_path, [1, 1])
    for interpolation in ("bicubic", "lanczos3", "lanczos5", "gaussian", "mitchellcubic"):
        ds = image_dataset_from_directory(root, interpolation=interpolation, image_size=(3, 3),
                                          verbose=False)
        images, _ = next(iter(ds.as_numpy_iterator()))
        assert images.shape[1:] == (3, 3, 3) and images.dtype == np.float32
    with pytest.raises(ValueError, match="interpolation='cubic'"):
        image_dataset_from_directory(str(tmp_path), interpolation="cubic")


@pytest.mark.parametrize("kwargs, words", [
    (dict(color_mode="rgbx"), "color_mode='rgbx'"),
    (dict(label_mode="sparse"), "label_mode='sparse'"),
    (dict(image_size=(1, 2, 3)), "image_size=\\(1, 2, 3\\)"),
    (dict(format="grain"), "format='grain'"),
    (dict(data_format="nhwc"), "data_format='nhwc'"),
])
def test_bad_arguments_name_themselves(tmp_path, kwargs, words):
    with pytest.raises(ValueError, match=words):
        image_dataset_from_directory(str(tmp_path), **kwargs)


def test_jpeg_files_are_read(tmp_path):
    root = make_folder(tmp_path, [2, 2], extension="jpg")
    ds = image_dataset_from_directory(root, image_size=(6, 8), verbose=False)
    images, _ = next(iter(ds.as_numpy_iterator()))
    assert images.shape == (4, 6, 8, 3) and float(images.max()) <= 255.0


def test_verbose_false_prints_nothing(tmp_path, capsys):
    root = make_folder(tmp_path, [1, 1])
    image_dataset_from_directory(root, verbose=False)
    assert capsys.readouterr().out == ""


def test_follow_links_enters_linked_folders_only_when_asked(tmp_path):
    root = tmp_path / "data"
    write_png(str(root / "a" / "own.png"), np.zeros((2, 2, 3)))
    write_png(str(tmp_path / "elsewhere" / "linked.png"), np.zeros((2, 2, 3)))
    os.symlink(tmp_path / "elsewhere", root / "a" / "link")
    plain = image_dataset_from_directory(str(root), shuffle=False, verbose=False)
    followed = image_dataset_from_directory(str(root), shuffle=False, follow_links=True,
                                            verbose=False)
    assert relative(plain.file_paths, root) == ["a/own.png"]
    assert relative(followed.file_paths, root) == ["a/own.png", "a/link/linked.png"]
