"""Activation layers (ReLU, LeakyReLU, ELU, Softmax, PReLU) and noise layers
(GaussianNoise, GaussianDropout, SpatialDropout1D/2D): Keras 3's formulas and defaults
(https://keras.io/api/layers/activation_layers/, .../regularization_layers/), training-only
behaviour of the noise, gradients."""

import numpy as np
import pytest

import feedline as fl
from feedline import layers
from gradcheck import assert_gradients_match

X = np.array([[-2.0, -0.5, 0.5, 3.0]])


def test_relu_layer_takes_max_value_negative_slope_and_threshold():
    assert layers.ReLU()(X).numpy().tolist() == [[0.0, 0.0, 0.5, 3.0]]
    assert layers.ReLU(max_value=1.0)(X).numpy().tolist() == [[0.0, 0.0, 0.5, 1.0]]
    out = layers.ReLU(negative_slope=0.5, threshold=1.0)(X).numpy()
    np.testing.assert_allclose(out, [[-1.5, -0.75, -0.25, 3.0]])


def test_relu_layer_refuses_a_negative_threshold_as_keras_3():
    """Keras 3's ReLU layer raises ValueError for threshold < 0 (checked on Keras 3.15)."""
    with pytest.raises(ValueError, match="threshold"):
        layers.ReLU(threshold=-1.0)


def test_leaky_relu_default_slope_is_keras_3s_0_3_and_alpha_is_accepted():
    np.testing.assert_allclose(layers.LeakyReLU()(X).numpy(), [[-0.6, -0.15, 0.5, 3.0]],
                               rtol=1e-6)
    assert layers.LeakyReLU(alpha=0.1).negative_slope == 0.1


def test_elu_is_alpha_times_exp_minus_one_below_zero():
    out = layers.ELU(alpha=2.0)(X).numpy()
    np.testing.assert_allclose(out, [[2 * np.expm1(-2.0), 2 * np.expm1(-0.5), 0.5, 3.0]],
                               rtol=1e-6)


def test_softmax_layer_sums_to_one_and_gives_masked_values_no_probability():
    out = layers.Softmax()(X).numpy()
    np.testing.assert_allclose(out.sum(), 1.0, rtol=1e-6)
    masked = layers.Softmax()(X, mask=np.array([[True, False, True, False]])).numpy()
    expected = np.exp([-2.0, 0.5]) / np.exp([-2.0, 0.5]).sum()
    np.testing.assert_allclose(masked[0, [0, 2]], expected, rtol=1e-5)
    assert masked[0, [1, 3]].max() < 1e-6


def test_prelu_learns_one_slope_per_value_or_shared_axes():
    layer = layers.PReLU()
    assert layer(X).numpy().tolist() == [[0.0, 0.0, 0.5, 3.0]]  # alpha starts at zero
    assert tuple(layer.alpha.shape) == (4,)
    shared = layers.PReLU(shared_axes=[1, 2], alpha_initializer="ones")
    shared(np.ones((2, 3, 3, 5)))
    assert tuple(shared.alpha.shape) == (1, 1, 5)


@pytest.mark.parametrize("layer", [layers.LeakyReLU(dtype="float64"),
                                   layers.ELU(dtype="float64"),
                                   layers.Softmax(dtype="float64"),
                                   layers.PReLU(alpha_initializer="ones", dtype="float64")])
def test_activation_layers_pass_gradients(layer):
    weights = np.array([[1.0, -2.0, 0.5, 3.0]])
    assert_gradients_match(lambda v: layer(v) * weights, X + 0.1)


def test_activation_layers_refuse_negative_slopes():
    with pytest.raises(ValueError, match="negative_slope"):
        layers.LeakyReLU(-1.0)
    with pytest.raises(ValueError, match="max_value"):
        layers.ReLU(max_value=-1)


def test_noise_layers_change_nothing_outside_training():
    x = np.ones((2, 3, 4), np.float32)
    for layer in (layers.GaussianNoise(1.0), layers.GaussianDropout(0.5),
                  layers.SpatialDropout1D(0.5)):
        np.testing.assert_array_equal(layer(x, training=False).numpy(), x)
        np.testing.assert_array_equal(layer(x).numpy(), x)


def test_gaussian_noise_adds_noise_of_the_given_spread_while_training():
    out = layers.GaussianNoise(0.5, seed=1)(np.zeros((200, 50)), training=True).numpy()
    assert abs(out.mean()) < 0.02 and abs(out.std() - 0.5) < 0.02


def test_gaussian_dropout_multiplies_by_noise_of_mean_one():
    out = layers.GaussianDropout(0.2, seed=1)(np.ones((200, 50)), training=True).numpy()
    assert abs(out.mean() - 1) < 0.02 and abs(out.std() - np.sqrt(0.2 / 0.8)) < 0.02


def test_spatial_dropout_drops_whole_channels_and_scales_the_rest():
    out = layers.SpatialDropout2D(0.5, seed=2)(np.ones((4, 3, 3, 8)), training=True).numpy()
    assert set(np.unique(out).tolist()) == {0.0, 2.0}
    assert (out == out[:, :1, :1, :]).all()  # the same choice at every pixel


def test_noise_layers_refuse_rates_outside_zero_to_one():
    with pytest.raises(ValueError, match="rate"):
        layers.SpatialDropout1D(1.0)
    with pytest.raises(ValueError, match="stddev"):
        layers.GaussianNoise(-1.0)


def test_activity_regularization_adds_its_penalty_to_the_model_loss():
    model = fl.keras.Sequential([layers.ActivityRegularization(l1=0.5)])
    model(np.array([[1.0, -3.0]]))
    assert [float(loss) for loss in model.losses] == [2.0]
