"""`fl.keras.activations`: Keras 3's functions, values checked against Keras 3 itself
(https://keras.io/api/layers/activations/)."""

import numpy as np

import feedline as fl


def test_relu_clips_and_thresholds_before_subtracting_the_negative_slope():
    """Keras 3 keeps x above the threshold, clips to [0, max_value], then subtracts
    negative_slope * relu(threshold - x): values between threshold and 0 become 0."""
    x = np.array([-2.0, -0.5, 0.5, 4.0], np.float32)
    out = fl.keras.activations.relu(x, negative_slope=0.5, max_value=3.0, threshold=-1.0)
    np.testing.assert_allclose(out.numpy(), [-0.5, 0.0, 0.5, 3.0])  # value from Keras 3.15, JAX backend


def test_relu_with_a_negative_threshold_and_no_maximum_passes_values_above_it():
    x = np.array([-2.0, -0.5, 1.0], np.float32)
    out = fl.keras.activations.relu(x, threshold=-1.0)
    np.testing.assert_allclose(out.numpy(), [0.0, -0.5, 1.0])  # value from Keras 3.15, JAX backend


def test_relu_with_only_a_negative_slope_is_leaky():
    out = fl.keras.activations.relu(np.array([-2.0, 3.0], np.float32), negative_slope=0.1)
    np.testing.assert_allclose(out.numpy(), [-0.2, 3.0], rtol=1e-6)
    assert out.dtype == np.float32


KERAS_VALUES = {  # at x = [-4, -1, 0.5, 3.5]; values from Keras 3.15, JAX backend
    "gelu": [-0.000127, -0.158655, 0.345731, 3.499186],
    "hard_sigmoid": [0.0, 0.333333, 0.583333, 1.0],
    "hard_silu": [0.0, -0.333333, 0.291667, 3.5],
    "mish": [-0.072592, -0.303401, 0.375245, 3.493991],
    "log_sigmoid": [-4.01815, -1.313262, -0.474077, -0.02975],
    "softsign": [-0.8, -0.5, 0.333333, 0.777778],
}


def test_more_keras_activations_by_name_give_kerass_values():
    """https://keras.io/api/layers/activations/: names Dense(activation=...) accepts."""
    x = np.array([-4.0, -1.0, 0.5, 3.5], np.float32)
    for name, expected in KERAS_VALUES.items():
        out = fl.keras.activations.get(name)(x).numpy()
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6, err_msg=name)


def test_swish_is_silu_and_serializes_as_silu():
    assert fl.keras.activations.swish is fl.keras.activations.silu
    assert fl.keras.activations.serialize(fl.keras.activations.swish) == "silu"  # as Keras 3
