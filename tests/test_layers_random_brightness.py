"""RandomBrightness, from Keras 3's source (keras/src/layers/preprocessing/image_preprocessing/
random_brightness.py): a factor f means [-f, f] within [-1, 1]; each image draws d and gets
d * (high - low) of value_range added, then is clipped to value_range (sorted); identity when
not training. Keras' docstring example: factor 0.1 on [0, 255] adds 25.5.
"""

import numpy as np
import pytest

import feedline as fl
from feedline.layers import RandomBrightness

BATCH = np.full((3, 2, 2, 3), 100, np.uint8)


def test_a_fixed_factor_adds_that_fraction_of_the_value_range():
    out = RandomBrightness((0.1, 0.1))(BATCH)
    assert out.dtype == np.float32 and np.allclose(out.numpy(), 125.5)


def test_each_image_gets_one_shift_within_the_factor_range():
    out = RandomBrightness(0.2, seed=1)(BATCH).numpy() - 100
    per_image = out.reshape(3, -1)
    assert (per_image == per_image[:, :1]).all()
    assert (np.abs(per_image) <= 0.2 * 255 + 1e-3).all()
    assert len(set(per_image[:, 0].round(3))) > 1


def test_results_are_clipped_to_the_value_range_which_is_sorted():
    layer = RandomBrightness((1.0, 1.0), value_range=(1, 0))
    assert layer.value_range == [0, 1]
    assert layer(np.full((2, 2, 1), 0.5, np.float32)).numpy().max() == 1.0


def test_inference_returns_the_images_in_their_own_dtype():
    """Keras 3's transform_images returns the images untouched when not training."""
    out = RandomBrightness(0.5)(BATCH, training=False)
    assert out.dtype == BATCH.dtype and (out.numpy() == 100).all()  # as Keras 3.15, JAX backend
    as_float = RandomBrightness(0.5)(BATCH.astype(np.float64), training=False)
    assert as_float.dtype == np.float32


def test_seeded_layers_repeat():
    a = RandomBrightness(0.5, seed=4)(BATCH).numpy()
    assert (RandomBrightness(0.5, seed=4)(BATCH).numpy() == a).all()


@pytest.mark.parametrize("factor", [1.2, (2, 3), (-3, -2), "x"])
def test_bad_factors_are_refused(factor):
    with pytest.raises(ValueError, match="factor"):
        RandomBrightness(factor)


def test_a_bad_value_range_is_refused():
    with pytest.raises(ValueError, match="value_range"):
        RandomBrightness(0.1, value_range=(0, 1, 2))


def test_config_round_trip():
    layer = RandomBrightness(0.3, value_range=(0, 1), seed=5)
    config = layer.get_config()
    assert config["factor"] == [-0.3, 0.3]
    assert RandomBrightness.from_config(config).get_config() == config


def test_runs_in_map():
    dataset = fl.data.Dataset.from_tensor_slices(BATCH).map(RandomBrightness(0.1))
    assert tuple(dataset.element_spec.shape) == (2, 2, 3)
    assert all(e.dtype == np.float32 for e in dataset.as_numpy_iterator())
