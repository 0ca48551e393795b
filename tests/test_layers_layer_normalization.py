"""LayerNormalization and UnitNormalization: Keras 3's formulas worked by hand
(https://keras.io/api/layers/normalization_layers/layer_normalization/: epsilon 1e-3,
axis -1, gamma ones, beta zeros), gradients against finite differences, config."""

import numpy as np
import pytest

from feedline.layers import LayerNormalization, UnitNormalization
from gradcheck import assert_gradients_match


def test_layer_normalization_centres_and_scales_each_sample_with_epsilon_1e_3():
    x = np.array([[1.0, 2.0, 3.0, 6.0]])
    out = LayerNormalization()(x).numpy()
    mean, variance = 3.0, np.mean((x - 3.0) ** 2)  # 3.5
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(variance + 1e-3), rtol=1e-6)
    assert out.dtype == np.float32


def test_layer_normalization_learns_gamma_then_beta_per_feature():
    layer = LayerNormalization()
    layer(np.ones((2, 3)))
    assert [w.name for w in layer.weights] == ["gamma:0", "beta:0"]  # TensorFlow names
    assert [tuple(w.shape) for w in layer.weights] == [(3,), (3,)]
    layer.set_weights([np.array([2.0, 2.0, 2.0]), np.array([1.0, 0.0, -1.0])])
    out = layer(np.array([[0.0, 1.0, 2.0]])).numpy()
    normalized = np.array([-1.0, 0.0, 1.0]) / np.sqrt(2 / 3 + 1e-3)
    np.testing.assert_allclose(out[0], normalized * 2 + [1.0, 0.0, -1.0], rtol=1e-5)


def test_layer_normalization_over_two_axes_uses_both():
    x = np.arange(12.0).reshape(1, 3, 4)
    out = LayerNormalization(axis=[1, 2], epsilon=0.0)(x).numpy()
    np.testing.assert_allclose(out, (x - x.mean()) / x.std(), rtol=1e-5)


def test_rms_scaling_divides_the_uncentred_inputs_by_the_standard_deviation():
    """Keras 3's deprecated rms_scaling (layer_normalization.py warns that it scales by
    the variance): gamma exists even with scale=False, beta never."""
    layer = LayerNormalization(rms_scaling=True, epsilon=0.0, scale=False)
    out = layer(np.array([[3.0, 4.0]])).numpy()
    np.testing.assert_allclose(out, [[6.0, 8.0]])  # value from Keras 3.15, JAX backend
    assert [w.name for w in layer.weights] == ["gamma:0"]


def test_layer_normalization_passes_gradients_to_inputs_and_weights():
    layer = LayerNormalization(dtype="float64")
    x = np.random.default_rng(0).normal(size=(2, 4))
    layer(x)
    layer.set_weights([np.array([1.0, 2.0, 0.5, 1.5]), np.array([0.1, 0.2, 0.3, 0.4])])
    weights = np.array([1.0, -2.0, 3.0, 0.5])  # a sum of outputs would have no gradient
    assert_gradients_match(lambda v: layer(v) * weights, x, rtol=1e-4)


def test_layer_normalization_refuses_an_axis_the_inputs_lack():
    with pytest.raises(ValueError, match="axis=3"):
        LayerNormalization(axis=3)(np.ones((2, 3)))


def test_layer_normalization_config_round_trips():
    layer = LayerNormalization(axis=1, epsilon=0.01, center=False, name="ln")
    again = LayerNormalization.from_config(layer.get_config())
    assert (again.axis, again.epsilon, again.center, again.name) == (1, 0.01, False, "ln")


def test_unit_normalization_divides_each_sample_by_its_l2_norm():
    out = UnitNormalization()(np.array([[3.0, 4.0], [0.0, 0.0]])).numpy()
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, 0.0]], rtol=1e-6)
    layer = UnitNormalization(dtype="float64")
    assert_gradients_match(lambda v: layer(v) * np.array([1.0, 3.0]),
                           np.array([[1.0, 2.0], [-0.5, 0.7]]))


def test_gamma_regularizer_and_beta_constraint_act_as_in_keras():
    from feedline.keras import constraints, regularizers

    layer = LayerNormalization(gamma_regularizer=regularizers.L2(1.0),
                               beta_constraint=constraints.NonNeg())
    layer(np.ones((1, 3)))
    assert [float(v) for v in layer.losses] == [3.0]  # gamma starts at ones
    assert isinstance(layer.beta.constraint, constraints.NonNeg)
    assert layer.get_config()["gamma_regularizer"]["class_name"] == "L2"
