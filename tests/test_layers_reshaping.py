"""TimeDistributed, ZeroPadding/Cropping/UpSampling 1D and 2D, Permute, RepeatVector and
Identity: shapes and values as Keras 3 documents them
(https://keras.io/api/layers/reshaping_layers/), gradients back to the inputs, errors."""

import numpy as np
import pytest

import feedline as fl
from feedline import layers
from gradcheck import assert_gradients_match

SEQUENCE = np.arange(6.0).reshape(1, 3, 2)
IMAGE = np.arange(12.0).reshape(1, 3, 4, 1)


def test_zero_padding_1d_adds_zero_steps_on_both_sides():
    out = layers.ZeroPadding1D((1, 2))(SEQUENCE).numpy()
    assert out.shape == (1, 6, 2)
    np.testing.assert_array_equal(out[0, 1:4], SEQUENCE[0])
    assert out[0, [0, 4, 5]].sum() == 0


def test_zero_padding_2d_takes_symmetric_or_per_side_padding():
    assert layers.ZeroPadding2D(1)(IMAGE).numpy().shape == (1, 5, 6, 1)
    out = layers.ZeroPadding2D(((1, 0), (0, 2)))(IMAGE).numpy()
    assert out.shape == (1, 4, 6, 1)
    np.testing.assert_array_equal(out[0, 1:, :4], IMAGE[0])


def test_cropping_removes_steps_rows_and_columns():
    np.testing.assert_array_equal(layers.Cropping1D((1, 1))(SEQUENCE).numpy(),
                                  SEQUENCE[:, 1:2])
    out = layers.Cropping2D(((1, 0), (1, 2)))(IMAGE).numpy()
    np.testing.assert_array_equal(out, IMAGE[:, 1:, 1:2])


def test_upsampling_repeats_each_step_row_and_column():
    assert layers.UpSampling1D(3)(SEQUENCE).numpy()[0, :, 0].tolist() == [0, 0, 0, 2, 2, 2,
                                                                           4, 4, 4]
    out = layers.UpSampling2D((2, 1))(IMAGE).numpy()
    np.testing.assert_array_equal(out, np.repeat(IMAGE, 2, axis=1))


@pytest.mark.parametrize("layer, x", [
    (layers.ZeroPadding1D(1, dtype="float64"), SEQUENCE),
    (layers.ZeroPadding2D(1, dtype="float64"), IMAGE),
    (layers.Cropping1D((1, 0), dtype="float64"), SEQUENCE),
    (layers.Cropping2D(1, dtype="float64"), IMAGE),
    (layers.UpSampling1D(2, dtype="float64"), SEQUENCE),
    (layers.UpSampling2D(2, dtype="float64"), IMAGE),
    (layers.UpSampling2D((2, 3), interpolation="bilinear", dtype="float64"), IMAGE),
])
def test_resizing_layers_pass_gradients_back_to_their_inputs(layer, x):
    weights = np.random.default_rng(0).normal(size=layer(x).shape)
    assert_gradients_match(lambda v: layer(v) * weights, x)


def test_bad_padding_cropping_and_sizes_name_the_argument():
    with pytest.raises(ValueError, match="padding"):
        layers.ZeroPadding1D(-1)
    with pytest.raises(ValueError, match="cropping"):
        layers.Cropping1D((5, 5))(SEQUENCE)
    with pytest.raises(ValueError, match="size"):
        layers.UpSampling2D(0)
    with pytest.raises(ValueError, match="interpolation='bicubic'"):
        layers.UpSampling2D(2, interpolation="bicubic")
    with pytest.raises(ValueError, match="rank 4"):
        layers.ZeroPadding2D(1)(SEQUENCE)


def test_bilinear_upsampling_interpolates_with_half_pixel_centres():
    """keras.io/api/layers/reshaping_layers/up_sampling2d/ (interpolation="bilinear")."""
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32).reshape(1, 2, 2, 1)
    out = layers.UpSampling2D(2, interpolation="bilinear")(x).numpy()[0, ..., 0]
    assert out.tolist() == [[1.0, 1.25, 1.75, 2.0], [1.5, 1.75, 2.25, 2.5],  # Keras 3.15, JAX
                            [2.5, 2.75, 3.25, 3.5], [3.0, 3.25, 3.75, 4.0]]


def test_time_distributed_applies_one_dense_to_every_step_with_shared_weights():
    dense = layers.Dense(3)
    wrapped = layers.TimeDistributed(dense)
    x = np.random.default_rng(0).normal(size=(2, 4, 5)).astype(np.float32)
    out = wrapped(x).numpy()
    assert out.shape == (2, 4, 3)
    for step in range(4):
        np.testing.assert_allclose(out[:, step], dense(x[:, step]).numpy(), rtol=1e-5)
    assert len(wrapped.trainable_weights) == 2  # the Dense's kernel and bias, once


def test_time_distributed_trains_inside_a_model():
    fl.random.set_seed(0)
    model = fl.keras.Sequential([layers.TimeDistributed(layers.Dense(1))])
    model.compile(loss="mse", optimizer=fl.keras.optimizers.SGD(0.1))
    x = np.random.default_rng(1).normal(size=(32, 4, 2)).astype(np.float32)
    history = model.fit(x, x.sum(-1, keepdims=True), epochs=15, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0] / 10
    fl.random.set_seed(None)


def test_time_distributed_refuses_something_that_is_not_a_layer_and_low_rank_inputs():
    with pytest.raises(ValueError, match="layer instance"):
        layers.TimeDistributed(lambda x: x)
    with pytest.raises(ValueError, match="rank >= 3"):
        layers.TimeDistributed(layers.Dense(1))(np.ones((2, 3)))


def test_time_distributed_config_round_trips():
    layer = layers.TimeDistributed(layers.Dense(2, name="inner"), name="td")
    again = layers.TimeDistributed.from_config(layer.get_config())
    assert (again.name, again.layer.name, again.layer.units) == ("td", "inner", 2)


def test_permute_reorders_the_axes_after_the_batch_axis():
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(layers.Permute((2, 1))(x).numpy(), x.transpose(0, 2, 1))
    with pytest.raises(ValueError, match="permutation"):
        layers.Permute((0, 1))


def test_repeat_vector_makes_a_sequence_of_copies_and_sums_gradients():
    out = layers.RepeatVector(3)(np.array([[1.0, 2.0]])).numpy()
    assert out.tolist() == [[[1.0, 2.0]] * 3]
    layer = layers.RepeatVector(2, dtype="float64")
    assert_gradients_match(lambda v: layer(v) * np.array([[1.0], [3.0]]),
                           np.array([[1.0, 2.0]]))
    with pytest.raises(ValueError, match="rank 2"):
        layer(np.ones((1, 2, 3)))


def test_identity_hands_its_input_on():
    x = np.array([[1.0, 2.0]])
    np.testing.assert_array_equal(np.asarray(layers.Identity()(x)), x)
