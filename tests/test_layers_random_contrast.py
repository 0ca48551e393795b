"""RandomContrast, from Keras 3's source (keras/src/layers/preprocessing/image_preprocessing/
random_contrast.py and its base layer's `_set_factor`): factor bounds [0, 1], a factor drawn
per image in [1 - lower, 1 + upper], `(x - mean) * factor + mean` with the mean over height
and width per channel, clipped to value_range; identity when not training.
"""

import numpy as np
import pytest

import feedline as fl
from feedline.layers import RandomContrast

BATCH = np.random.default_rng(0).uniform(60, 190, (4, 5, 5, 3)).astype(np.float32)


def test_random_contrast_keeps_each_images_mean():
    out = RandomContrast((0.3, 0.3), seed=1)(BATCH).numpy()
    np.testing.assert_allclose(out.mean(axis=(1, 2)), BATCH.mean(axis=(1, 2)), rtol=1e-5)


def test_each_image_draws_its_own_factor_within_one_minus_lower_one_plus_upper():
    out = RandomContrast((0.3, 0.5), seed=2)(BATCH).numpy()
    centred_in = BATCH - BATCH.mean(axis=(1, 2), keepdims=True)
    centred_out = out - out.mean(axis=(1, 2), keepdims=True)
    factors = (centred_out / centred_in).reshape(4, -1)
    np.testing.assert_allclose(factors, factors[:, :1].repeat(factors.shape[1], 1),
                               rtol=1e-3)
    assert ((0.7 - 1e-4 <= factors[:, 0]) & (factors[:, 0] <= 1.5 + 1e-4)).all()
    assert len(set(np.round(factors[:, 0], 4))) > 1


def test_a_single_number_never_lowers_contrast_as_in_keras_3s_code():
    assert RandomContrast(0.2).factor == (0.0, 0.2)


def test_results_are_clipped_to_the_value_range():
    image = np.array([[[0.0], [1.0]]], np.float32)
    for _ in range(5):
        out = RandomContrast((0.0, 1.0), value_range=(0, 1))(image).numpy()
        assert out.min() >= 0 and out.max() <= 1


def test_inference_returns_the_images_in_their_own_dtype():
    """Keras 3's transform_images returns the images untouched when not training; the
    layer's autocast turns float64 into float32 and leaves integers alone."""
    image = np.arange(12, dtype=np.uint8).reshape(2, 2, 3)
    out = RandomContrast(0.5)(image, training=False)
    assert out.dtype == np.uint8 and (out.numpy() == image).all()  # as Keras 3.15, JAX backend
    assert RandomContrast(0.5)(image.astype(np.float64), training=False).dtype == np.float32


def test_the_same_seed_repeats_for_a_new_layer():
    first = RandomContrast(0.5, seed=7)(BATCH).numpy()
    assert (RandomContrast(0.5, seed=7)(BATCH).numpy() == first).all()


@pytest.mark.parametrize("factor", [1.5, -0.1, (0.1, 0.2, 0.3), "big"])
def test_bad_factors_are_refused_by_name(factor):
    with pytest.raises(ValueError, match="factor"):
        RandomContrast(factor)


def test_config_round_trip_and_unbatched_shape():
    layer = RandomContrast((0.1, 0.4), value_range=(0, 1), seed=3, name="contrast")
    again = RandomContrast.from_config(layer.get_config())
    assert again.get_config() == layer.get_config()
    assert again.factor == (0.1, 0.4) and again.value_range == [0, 1]
    assert RandomContrast(0.1)(BATCH[0]).shape == (5, 5, 3)


def test_runs_in_map_with_its_element_spec():
    dataset = fl.data.Dataset.from_tensor_slices(BATCH).map(RandomContrast(0.2, seed=1))
    assert tuple(dataset.element_spec.shape) == (5, 5, 3)
    assert dataset.element_spec.dtype == "float32"
    assert len(list(dataset.as_numpy_iterator())) == 4
