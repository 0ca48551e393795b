"""Keras' losses (keras.io/api/losses): per-sample functions, batch-mean classes, the
epsilon clip for probabilities, and Keras 3's rank alignment of y_true and y_pred."""

import math

import numpy as np
import pytest

import feedline as fl
from feedline.keras import losses


def test_mean_squared_error_gives_one_value_per_sample():
    values = losses.mean_squared_error([[0.0, 2.0], [1.0, 1.0]],
                                       fl.constant([[1.0, 0.0], [1.0, 3.0]]))
    assert values.numpy().tolist() == [2.5, 2.0]


def test_the_class_averages_the_batch_and_weights_samples():
    loss = losses.MeanSquaredError()
    y_true, y_pred = np.array([[0.0], [0.0]]), fl.constant([[1.0], [3.0]])
    assert float(loss(y_true, y_pred)) == 5.0
    assert float(loss(y_true, y_pred, sample_weight=np.array([1.0, 0.0]))) == 0.5  # / 2 samples


def test_labels_without_the_trailing_axis_are_aligned_to_predictions():
    """Keras 3 expands y_true (batch,) to (batch, 1) against y_pred (batch, 1)."""
    values = losses.mean_squared_error(np.array([1.0, 2.0]), fl.constant([[1.0], [0.0]]))
    assert values.numpy().tolist() == [0.0, 4.0]


def test_sparse_categorical_crossentropy_from_logits_and_from_probabilities():
    logits = fl.constant([[2.0, 0.0, -1.0]])
    expected = -math.log(math.exp(2) / (math.exp(2) + 1 + math.exp(-1)))
    from_logits = losses.SparseCategoricalCrossentropy(from_logits=True)([0], logits)
    assert abs(float(from_logits) - expected) < 1e-6
    probabilities = fl.keras.activations.softmax(logits)
    assert abs(float(losses.sparse_categorical_crossentropy([[0]], probabilities)[0])
               - expected) < 1e-5


def test_probabilities_are_clipped_by_keras_epsilon():
    value = losses.binary_crossentropy([[1.0]], fl.constant([[0.0]]))
    assert abs(float(value[0]) + math.log(1e-7)) < 1e-3  # -log(1e-7), not infinity


def test_binary_crossentropy_from_logits_matches_the_probability_form():
    logits = fl.constant([[0.3], [-1.2]])
    y = np.array([[1.0], [0.0]])
    direct = losses.binary_crossentropy(y, fl.sigmoid(logits)).numpy()
    stable = losses.BinaryCrossentropy(from_logits=True, reduction=None)(y, logits).numpy()
    np.testing.assert_allclose(direct, stable, rtol=1e-5)


def test_categorical_crossentropy_with_one_hot_labels():
    value = losses.categorical_crossentropy([[0.0, 1.0]], fl.constant([[0.25, 0.75]]))
    assert abs(float(value[0]) + math.log(0.75)) < 1e-6


def test_mean_absolute_error():
    assert float(losses.MeanAbsoluteError()([[1.0], [1.0]], fl.constant([[0.0], [3.0]]))) == 1.5


def test_a_label_outside_the_classes_is_refused():
    with pytest.raises(fl.errors.InvalidArgumentError, match=r"labels must be in \[0, 2\)"):
        losses.sparse_categorical_crossentropy([2], fl.constant([[0.5, 0.5]]))


def test_names_resolve_and_unknown_names_are_refused():
    assert losses.get("mse") is losses.mean_squared_error
    with pytest.raises(ValueError, match="Unknown loss 'msee'"):
        losses.get("msee")


def test_the_loss_is_differentiable():
    y_pred = fl.Variable([[0.2, 0.8]])
    with fl.GradientTape() as tape:
        value = losses.SparseCategoricalCrossentropy()([1], y_pred)
    grad = tape.gradient(value, y_pred).numpy()
    # d/dp of -log(p1 / (p0 + p1)) at p = (0.2, 0.8): (1, 1 - 1/0.8)
    np.testing.assert_allclose(grad, [[1.0, 1.0 - 1.25]], rtol=1e-5)


def test_ignore_class_zeroes_those_losses_and_averages_over_the_others():
    """https://keras.io/api/losses/probabilistic_losses/ (ignore_class): ignored labels
    give 0 and the default reduction averages over the valid entries only."""
    labels = np.array([0, 1, 2, 1])
    probabilities = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6],
                              [0.5, 0.25, 0.25]])
    per_sample = losses.SparseCategoricalCrossentropy(ignore_class=1, reduction=None)
    # values from Keras 3.15, JAX backend
    np.testing.assert_allclose(per_sample(labels, probabilities).numpy(),
                               [0.356675, 0.0, 0.510826, 0.0], rtol=1e-5)
    mean = losses.SparseCategoricalCrossentropy(ignore_class=1)
    assert float(mean(labels, probabilities)) == pytest.approx(0.43375, rel=1e-5)
    weights = np.array([1.0, 2.0, 3.0, 0.5])
    assert float(mean(labels, probabilities, sample_weight=weights)) == pytest.approx(
        0.944576, rel=1e-5)


def test_mean_with_sample_weight_divides_by_the_sum_of_the_weights():
    """Keras 3's reduction="mean_with_sample_weight" (keras/src/losses/loss.py)."""
    mse = losses.MeanSquaredError(reduction="mean_with_sample_weight")
    out = mse(np.array([[0.0], [1.0]]), np.array([[1.0], [3.0]]),
              sample_weight=np.array([1.0, 3.0]))
    assert float(out) == 3.25  # (1 * 1 + 3 * 4) / 4; value from Keras 3.15, JAX backend
    assert out.dtype == np.float32  # float64 inputs are cast to the loss' dtype


def test_reduction_auto_is_refused_as_keras_3_refuses_it():
    with pytest.raises(ValueError, match="reduction"):
        losses.MeanSquaredError(reduction="auto")
