"""Keras 3's mean metrics (keras.io/api/metrics/): values reduced to one per sample, weighted
by sample_weight, and averaged over every sample of every batch since the last reset.
Expected values are Keras 3.15's (JAX backend)."""

import numpy as np
import pytest

from feedline.keras import metrics


def test_binary_accuracy_counts_each_sample_of_every_batch():
    m = metrics.BinaryAccuracy()
    m.update_state([1, 0, 1, 1], [0.9, 0.2, 0.3, 0.8])
    m.update_state([1], [0.1])
    assert float(m.result()) == pytest.approx(0.6)  # 3 right out of 5 samples


def test_binary_accuracy_compares_labels_for_equality():
    m = metrics.BinaryAccuracy()
    m.update_state([[0.3], [1.0]], [[0.9], [0.9]])
    assert float(m.result()) == 0.5  # the soft label 0.3 is never matched


def test_mean_averages_each_sample_before_weighting_it():
    m = metrics.Mean()
    m.update_state(np.array([[1.0, 3.0], [5.0, 7.0], [0.0, 0.0]]), sample_weight=[1.0, 2.0, 0.5])
    assert float(m.result()) == pytest.approx(4.0)  # (2 * 1 + 6 * 2 + 0) / 3.5


def test_root_mean_squared_error_weights_each_squared_error():
    m = metrics.RootMeanSquaredError()
    m.update_state([0.0, 0.0, 0.0], [1.0, 2.0, 3.0], sample_weight=[1.0, 0.0, 2.0])
    assert float(m.result()) == pytest.approx(np.sqrt(19 / 3), rel=1e-6)


def test_loss_based_metrics_accuracy_and_sum_give_kerass_values():
    """keras.io/api/metrics/ (probabilistic, regression and accuracy metrics, Sum);
    values from Keras 3.15, JAX backend."""
    cosine = metrics.CosineSimilarity()
    cosine.update_state(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[2.0, 0.0], [1.0, 1.0]]))
    assert float(cosine.result()) == pytest.approx(0.853553, rel=1e-5)  # (1 + 0.7071) / 2
    exact = metrics.Accuracy()
    exact.update_state(np.array([[1], [2], [3]]), np.array([1, 0, 3]))
    assert float(exact.result()) == pytest.approx(2 / 3)
    total = metrics.Sum()
    total.update_state(np.array([[1.0, 2.0], [3.0, 4.0]]), sample_weight=[1.0, 0.5])
    assert float(total.result()) == 6.5  # 1 * (1 + 2) + 0.5 * (3 + 4)
    assert isinstance(metrics.get("sparse_categorical_crossentropy"),
                      metrics.SparseCategoricalCrossentropy)
