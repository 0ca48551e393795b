"""RandomRotation: Keras 3's rotation about the centre, its fill modes and interpolations."""

import numpy as np
import pytest

import feedline as fl
from feedline.layers._affine import _fill_index
from feedline.layers.random_rotation import rotate


def square(size=4, channels=1):
    return np.arange(size * size * channels, dtype=np.float32).reshape(size, size, channels)


def test_a_quarter_turn_of_a_square_image_moves_whole_pixels():
    image = square()
    turned = fl.layers.RandomRotation((0.25, 0.25))(image)
    assert any(np.allclose(turned, np.rot90(image, k, axes=(0, 1)), atol=1e-4) for k in (1, 3))


def test_no_turn_and_inference_leave_the_image_as_it_is():
    image = square(5, 3)
    assert np.allclose(fl.layers.RandomRotation(0.0)(image), image)
    layer = fl.layers.RandomRotation(0.3, seed=2)
    out = layer(image.astype(np.uint8), training=False)
    assert out.dtype == np.float32 and np.array_equal(out, image)


def test_fill_modes_map_outside_coordinates_as_keras_documents():
    index = np.arange(-3, 7)
    reflect, _ = _fill_index(index, 3, "reflect")
    wrap, _ = _fill_index(index, 3, "wrap")
    nearest, inside = _fill_index(index, 3, "nearest")
    assert reflect.tolist() == [2, 1, 0, 0, 1, 2, 2, 1, 0, 0]
    assert wrap.tolist() == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    assert nearest.tolist() == [0, 0, 0, 0, 1, 2, 2, 2, 2, 2]
    assert inside.tolist() == [False] * 3 + [True] * 3 + [False] * 4


def test_constant_fill_puts_the_fill_value_where_a_wide_image_turns_out_of_itself():
    wide = np.ones((2, 6, 1), np.float32)
    turned = rotate(wide, np.pi / 2, "nearest", "constant", -1.0)
    assert (turned == -1.0).any() and (turned == 1.0).any()
    assert not (rotate(wide, np.pi / 2, "nearest", "reflect", -1.0) == -1.0).any()


def test_a_seed_repeats_the_turns_and_images_of_a_batch_turn_differently():
    batch = np.stack([square(6)] * 4)
    first = fl.layers.RandomRotation(0.2, seed=9)(batch)
    again = fl.layers.RandomRotation(0.2, seed=9)(batch)
    assert np.array_equal(first, again) and first.shape == batch.shape
    assert len({first[i].tobytes() for i in range(4)}) > 1


def test_config_round_trip_and_bad_arguments():
    layer = fl.layers.RandomRotation((-0.1, 0.2), fill_mode="wrap", seed=1, name="turn")
    again = fl.layers.RandomRotation.from_config(layer.get_config())
    assert (again.lower, again.upper, again.fill_mode, again.name) == (-0.1, 0.2, "wrap",
                                                                       "turn")
    with pytest.raises(ValueError, match="lower <= upper"):
        fl.layers.RandomRotation((0.3, 0.1))
    with pytest.raises(ValueError, match="fill_mode"):
        fl.layers.RandomRotation(0.1, fill_mode="mirror")


def test_config_is_keras_3s_factor_pair_without_value_range():
    """Keras 3's RandomRotation has no value_range (it refuses one with ValueError), and its
    get_config writes the factor as (lower, upper); Keras 3.15 (JAX backend) checked."""
    config = fl.layers.RandomRotation(0.2, seed=1).get_config()
    assert config["factor"] == [-0.2, 0.2] and "value_range" not in config
    assert fl.layers.RandomRotation.from_config(config).get_config() == config
    with pytest.raises(ValueError, match="value_range"):
        fl.layers.RandomRotation(0.2, value_range=(0, 255))
