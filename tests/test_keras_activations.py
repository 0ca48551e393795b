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
