"""Keras 3's image preprocessing layers: outputs, dtypes, training behaviour and configs.

Behaviour and config keys are those of Keras 3's source, keras/src/layers/preprocessing/
(rescaling.py and image_preprocessing/resizing.py, center_crop.py, random_flip.py,
random_crop.py) and the pages under https://keras.io/api/layers/preprocessing_layers/image_preprocessing/.
"""

import numpy as np
import pytest

import feedline as fl
from feedline import layers


def policy(name):
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": name},
            "registered_name": None}


KERAS_CONFIGS = {
    layers.Rescaling: {"name": "rescaling", "trainable": True, "dtype": policy("float32"),
                       "scale": 0.5, "offset": -1.0},
    layers.Resizing: {"name": "resizing", "trainable": True, "dtype": policy("float32"),
                      "height": 2, "width": 2, "interpolation": "bilinear",
                      "crop_to_aspect_ratio": False, "pad_to_aspect_ratio": False,
                      "fill_mode": "constant", "fill_value": 0.0,
                      "antialias": False,  # written by Keras 3.15
                      "data_format": "channels_last"},
    layers.CenterCrop: {"name": "center_crop", "trainable": True, "dtype": policy("float32"),
                        "height": 2, "width": 2, "data_format": "channels_last"},
    layers.RandomFlip: {"name": "random_flip", "trainable": True, "dtype": policy("float32"),
                        "seed": 3, "mode": "horizontal", "data_format": "channels_last"},
    layers.RandomCrop: {"name": "random_crop", "trainable": True, "dtype": policy("float32"),
                        "height": 2, "width": 2, "seed": 4, "data_format": "channels_last"},
}


@pytest.mark.parametrize("cls", list(KERAS_CONFIGS), ids=lambda c: c.__name__)
def test_a_keras_config_loads_and_round_trips(cls):
    layer = cls.from_config(KERAS_CONFIGS[cls])
    assert layer.get_config() == KERAS_CONFIGS[cls]
    out = layer(np.zeros((4, 4, 3), np.uint8))
    assert out.dtype == (np.uint8 if cls is layers.Resizing else np.float32)


@pytest.mark.parametrize("cls", list(KERAS_CONFIGS), ids=lambda c: c.__name__)
def test_every_image_layer_takes_kerass_base_arguments_and_refuses_unknown_ones(cls):
    args = {k: v for k, v in KERAS_CONFIGS[cls].items() if k not in ("name", "dtype")}
    layer = cls(**args, name="mine", input_shape=(4, 4, 3))
    assert layer.name == "mine" and layer.input_shape_arg == (4, 4, 3)
    with pytest.raises(ValueError, match=r"Unrecognized keyword arguments .*\['colour'\]"):
        cls(**args, colour="red")


def test_rescaling_maps_uint8_to_float32_with_scale_and_offset():
    out = layers.Rescaling(1 / 127.5, offset=-1)(np.array([[[0, 255]]], np.uint8))
    assert out.dtype == np.float32 and out.tolist() == [[[-1.0, 1.0]]]


def test_rescaling_takes_one_scale_per_channel():
    out = layers.Rescaling([1.0, 10.0, 100.0])(np.ones((2, 2, 3)))
    assert out[0, 0].tolist() == [1.0, 10.0, 100.0]


def test_rescaling_keeps_a_numpy_scale_in_kerass_serialized_form():
    layer = layers.Rescaling(np.array([0.5, 2.0], np.float32))
    config = layer.get_config()
    assert config["scale"]["class_name"] == "__numpy__"
    assert layers.Rescaling.from_config(config)(np.ones((1, 1, 2))).tolist() == [[[0.5, 2.0]]]


def test_resizing_works_on_single_images_and_batches():
    assert layers.Resizing(3, 5)(np.zeros((6, 10, 3))).shape == (3, 5, 3)
    out = layers.Resizing(3, 5)(np.zeros((2, 6, 10, 3)))
    assert out.shape == (2, 3, 5, 3) and out.dtype == np.float32


def test_resizing_rounds_integer_images_back_to_their_dtype():
    out = layers.Resizing(1, 2)(np.array([[[0], [3], [200], [255]]], np.uint8))
    assert out.dtype == np.uint8 and out[..., 0].tolist() == [[2, 228]]


def test_crop_to_aspect_ratio_resizes_the_largest_centred_window():
    image = np.random.default_rng(0).random((4, 8, 1)).astype(np.float32)
    out = layers.Resizing(2, 2, crop_to_aspect_ratio=True)(image)
    np.testing.assert_array_equal(out, fl.image.resize(image[:, 2:6], [2, 2]))


def test_pad_to_aspect_ratio_pads_the_short_side_with_the_fill_value():
    out = layers.Resizing(4, 4, pad_to_aspect_ratio=True, fill_value=9.0,
                          interpolation="nearest")(np.zeros((2, 4, 1), np.float32))
    assert out[..., 0].tolist() == [[9] * 4, [0] * 4, [0] * 4, [9] * 4]


def test_resizing_refuses_unknown_interpolation_and_both_aspect_options():
    with pytest.raises(ValueError, match="Received: interpolation='cubic'"):
        layers.Resizing(2, 2, interpolation="cubic")
    with pytest.raises(ValueError, match="only one of `crop_to_aspect_ratio`"):
        layers.Resizing(2, 2, crop_to_aspect_ratio=True, pad_to_aspect_ratio=True)


def test_center_crop_keeps_the_centre_as_float32():
    out = layers.CenterCrop(2, 3)(np.arange(20, dtype=np.uint8).reshape(4, 5, 1))
    assert out.dtype == np.float32 and out[..., 0].tolist() == [[6, 7, 8], [11, 12, 13]]


def test_center_crop_of_a_smaller_image_crops_to_the_aspect_then_resizes():
    image = np.random.default_rng(1).random((2, 6, 1)).astype(np.float32)
    out = layers.CenterCrop(4, 4)(image)
    assert out.shape == (4, 4, 1)
    np.testing.assert_array_equal(out, fl.image.resize(image[:, 2:4], [4, 4]))


def test_image_layers_refuse_inputs_that_are_not_images():
    with pytest.raises(ValueError, match="rank 3 .* or 4"):
        layers.CenterCrop(2, 2)(np.zeros((4, 4)))


def test_random_flip_flips_images_of_a_batch_independently_while_training():
    batch = np.repeat(np.arange(4.0).reshape(1, 1, 4, 1), 32, axis=0)
    out = layers.RandomFlip("horizontal", seed=1)(batch).numpy()
    rows = {tuple(o[0, :, 0]) for o in out}
    assert rows == {(0.0, 1.0, 2.0, 3.0), (3.0, 2.0, 1.0, 0.0)}


def test_random_flip_is_the_identity_when_not_training():
    image = np.arange(4, dtype=np.uint8).reshape(2, 2, 1)
    out = layers.RandomFlip(seed=1)(image, training=False)
    assert out.dtype == np.float32 and out.tolist() == image.astype(np.float32).tolist()


def test_horizontal_and_vertical_uses_one_draw_for_both_flips():
    image = np.arange(4.0).reshape(2, 2, 1)
    outs = {tuple(layers.RandomFlip(seed=s)(image).numpy().ravel()) for s in range(16)}
    assert outs == {(0.0, 1.0, 2.0, 3.0), (3.0, 2.0, 1.0, 0.0)}


def test_random_flip_with_the_same_seed_repeats_in_a_new_layer():
    image = np.arange(6.0).reshape(1, 6, 1)
    a, b = layers.RandomFlip("horizontal", seed=9), layers.RandomFlip("horizontal", seed=9)
    first = [a(image).numpy()[0, 0, 0] for _ in range(16)]
    assert first == [b(image).numpy()[0, 0, 0] for _ in range(16)]
    assert set(first) == {0.0, 5.0}


def test_random_flip_refuses_an_unknown_mode():
    with pytest.raises(ValueError, match="Received: mode='diagonal'"):
        layers.RandomFlip("diagonal")


def test_random_crop_gives_every_image_of_a_batch_the_same_window():
    batch = np.stack([np.arange(36.0).reshape(6, 6, 1) + 100 * i for i in range(3)])
    layer = layers.RandomCrop(2, 3, seed=2)
    starts = set()
    for _ in range(10):
        out = layer(batch)
        assert out.shape == (3, 2, 3, 1) and out.dtype == np.float32
        np.testing.assert_array_equal(out[1] - out[0], 100.0)
        np.testing.assert_array_equal(out[2] - out[0], 200.0)
        starts.add(float(out[0, 0, 0, 0]))
    assert len(starts) > 1


def test_random_crop_returns_its_input_when_not_training():
    image = np.arange(36, dtype=np.uint8).reshape(6, 6, 1)
    np.testing.assert_array_equal(layers.RandomCrop(2, 2, seed=1)(image, training=False), image)


def test_random_crop_of_an_image_not_larger_than_the_target_resizes_it():
    out = layers.RandomCrop(4, 4, seed=1)(np.ones((3, 5, 1), np.uint8))
    assert out.shape == (4, 4, 1) and (out == 1).all()


def test_random_crop_picks_and_keeps_a_seed_when_none_is_given():
    layer = layers.RandomCrop(2, 2)
    assert isinstance(layer.get_config()["seed"], int)


def test_resizing_takes_kerass_antialias_argument():
    """keras.io/api/layers/preprocessing_layers/image_preprocessing/resizing_layer/:
    antialias (False) filters when shrinking."""
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    smooth = fl.layers.Resizing(2, 2, antialias=True)
    # values from Keras 3.15, JAX backend
    np.testing.assert_allclose(smooth(x).numpy().ravel(), [3.571429, 5.142858, 9.857144,
                                                           11.428574], rtol=1e-5)
    assert smooth.get_config()["antialias"] is True
