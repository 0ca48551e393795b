"""Precision, Recall, AUC (ROC and PR, interpolation), the top-k accuracies and MeanIoU:
Keras 3's definitions (https://keras.io/api/metrics/classification_metrics/: AUC with 200
thresholds, the end ones at -1e-7 and 1 + 1e-7; PR interpolation of Davis & Goadrich)
worked by hand; running state across batches; use in fit."""

import numpy as np
import pytest

import feedline as fl
from feedline.keras import metrics


def test_precision_and_recall_count_over_batches_at_threshold_one_half():
    precision, recall = metrics.Precision(), metrics.Recall()
    for y_true, y_pred in (([1, 0], [0.9, 0.8]), ([1, 1], [0.2, 0.7])):
        precision.update_state(y_true, y_pred)
        recall.update_state(y_true, y_pred)
    # predicted positive: 0.9 (TP), 0.8 (FP), 0.7 (TP); missed: 0.2 (FN)
    assert float(precision.result()) == pytest.approx(2 / 3)
    assert float(recall.result()) == pytest.approx(2 / 3)
    precision.reset_state()
    assert float(precision.result()) == 0.0


def test_precision_with_several_thresholds_gives_one_value_each():
    m = metrics.Precision(thresholds=[0.5, 0.85])
    m.update_state([1, 0, 1], [0.9, 0.8, 0.6])
    np.testing.assert_allclose(m.result(), [2 / 3, 1.0], rtol=1e-6)


def test_auc_roc_uses_keras_thresholds_and_trapezoids():
    auc = metrics.AUC()
    assert auc.thresholds[0] == pytest.approx(-1e-7) and auc.thresholds[-1] == 1 + 1e-7
    assert len(auc.thresholds) == 200
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, 400)
    scores = np.clip(labels * 0.3 + rng.uniform(0, 0.7, 400), 0, 1)
    auc.update_state(labels[:200], scores[:200])
    auc.update_state(labels[200:], scores[200:])
    # the exact area: the chance a positive outscores a negative
    pos, neg = scores[labels == 1], scores[labels == 0]
    exact = (pos[:, None] > neg[None, :]).mean()
    assert float(auc.result()) == pytest.approx(exact, abs=0.01)


def test_auc_pr_with_interpolation_on_a_hand_worked_case():
    auc = metrics.AUC(num_thresholds=3, curve="PR")
    auc.update_state([0, 0, 1, 1], [0.0, 0.5, 0.3, 1.0])
    # thresholds (-1e-7, 0.5, 1+1e-7): (tp, fp, fn) = (2, 2, 0), (1, 0, 1), (0, 0, 2).
    # Piece 1: predicted positives 4 -> 1, slope (2-1)/(4-1) = 1/3, intercept 1 - 1/3 =
    # 2/3, area 1/3 * (1 + 2/3 * log(4/1)) / (tp + fn = 2). Piece 2: positives 1 -> 0,
    # slope 1, intercept 0, the ratio's log taken as 0 (an end is 0): area 1 * 1 / 2.
    expected = (1 / 3) * (1 + (2 / 3) * np.log(4.0)) / 2 + 0.5
    assert float(auc.result()) == pytest.approx(expected, rel=1e-5)


def test_auc_minoring_and_majoring_bound_the_interpolated_roc():
    values = {}
    for method in ("minoring", "interpolation", "majoring"):
        auc = metrics.AUC(num_thresholds=5, summation_method=method)
        auc.update_state([0, 1, 0, 1, 1], [0.1, 0.35, 0.4, 0.8, 0.65])
        values[method] = float(auc.result())
    assert values["minoring"] <= values["interpolation"] <= values["majoring"]


def test_auc_refuses_unknown_curves():
    with pytest.raises(ValueError, match="curve must be"):
        metrics.AUC(curve="DET")


def test_top_k_accuracies_count_labels_among_the_k_best_scores():
    scores = np.array([[0.1, 0.5, 0.4], [0.6, 0.3, 0.1]])
    sparse = metrics.SparseTopKCategoricalAccuracy(k=2)
    sparse.update_state([2, 2], scores)
    assert float(sparse.result()) == 0.5
    dense = metrics.TopKCategoricalAccuracy(k=1)
    dense.update_state([[0, 1, 0], [0, 0, 1]], scores)
    assert float(dense.result()) == 0.5


def test_mean_iou_averages_intersection_over_union_per_class():
    m = metrics.MeanIoU(num_classes=2)
    m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    # class 0: 1 / (2 + 2 - 1); class 1 the same
    assert float(m.result()) == pytest.approx(1 / 3)


def test_auc_precision_and_recall_are_reported_by_fit_by_name():
    fl.random.set_seed(0)
    model = fl.keras.Sequential([fl.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(loss="binary_crossentropy", optimizer=fl.keras.optimizers.SGD(0.5),
                  metrics=["auc", metrics.Precision(), "recall"])
    x = np.random.default_rng(0).normal(size=(64, 2)).astype(np.float32)
    y = (x[:, :1] > 0).astype(np.float32)
    history = model.fit(x, y, epochs=5, verbose=0)
    assert {"auc", "precision", "recall"} <= set(history.history)
    assert history.history["auc"][-1] > 0.9
    fl.random.set_seed(None)


def test_counting_metrics_keep_their_epoch_counts_across_a_validation_pass():
    fl.random.set_seed(0)
    model = fl.keras.Sequential([fl.keras.layers.Dense(1, activation="sigmoid")])
    auc, iou = metrics.AUC(), metrics.MeanIoU(num_classes=2)
    model.compile(loss="binary_crossentropy", optimizer="sgd", metrics=[auc, "precision"])
    x = np.random.default_rng(0).normal(size=(16, 2)).astype(np.float32)
    y = (x[:, :1] > 0).astype(np.float32)
    history = model.fit(x, y, validation_data=(x[:8], y[:8]), epochs=2, verbose=0)
    assert {"auc", "val_auc", "precision", "val_precision"} <= set(history.history)
    assert auc.true_positives.sum() + auc.false_negatives.sum() == 200 * y.sum()
    iou.update_state([0, 1], [0, 1])
    saved = iou._total
    iou.update_state([0, 1], [1, 0])
    iou._total = saved
    assert float(iou.result()) == 1.0
    fl.random.set_seed(None)


_LABELS = np.array([[0, 1, 1], [1, 0, 1], [0, 0, 1]], np.float32)
_SCORES = np.array([[0.9, 0.8, 0.1], [0.3, 0.6, 0.2], [0.1, 0.4, 0.45]], np.float32)


@pytest.mark.parametrize("arguments, precision, recall", [  # values from Keras 3.15, JAX backend
    ({"top_k": 2}, 0.5, 0.6),
    ({"class_id": 1}, 0.5, 1.0),
    ({"top_k": 1, "class_id": 2}, 1.0, 1 / 3),
    ({"top_k": 2, "thresholds": 0.5}, 1 / 3, 0.2),
])
def test_precision_and_recall_with_top_k_and_class_id(arguments, precision, recall):
    """https://keras.io/api/metrics/classification_metrics/#precision-class: top_k counts
    only each sample's k best scores, class_id one column."""
    for metric, expected in ((metrics.Precision, precision), (metrics.Recall, recall)):
        m = metric(**arguments)
        m.update_state(_LABELS, _SCORES)
        assert float(m.result()) == pytest.approx(expected, rel=1e-6)


def test_a_nonzero_soft_label_counts_as_positive():
    m = metrics.Precision()
    m.update_state(np.array([0.3, 0.0, 1.0]), np.array([0.9, 0.9, 0.2]))
    assert float(m.result()) == 0.5  # value from Keras 3.15, JAX backend


def test_mean_iou_truncates_float_weights_and_skips_ids_outside_the_classes():
    """Keras 3's MeanIoU counts in an int dtype (it warns about float weights)."""
    m = metrics.MeanIoU(num_classes=3)
    m.update_state(np.array([0, 1, 2, 2, 5]), np.array([0, 2, 2, 1, 1]),
                   sample_weight=np.array([1.0, 0.7, 2.5, 1.0, 1.0]))
    assert float(m.result()) == pytest.approx(0.555556, rel=1e-5)  # Keras 3.15, JAX backend


@pytest.mark.parametrize("arguments, expected", [  # values from Keras 3.15, JAX backend
    ({"multi_label": True}, 0.75),
    ({"multi_label": True, "label_weights": [1.0, 3.0]}, 0.75),
    ({"label_weights": [1.0, 3.0]}, 0.703125),
    ({"multi_label": True, "curve": "PR"}, 0.797267),
])
def test_auc_per_label_curves_and_label_weights(arguments, expected):
    """https://keras.io/api/metrics/classification_metrics/#auc-class: multi_label averages
    one curve per column; label_weights weight that mean, or the counts otherwise."""
    m = metrics.AUC(num_thresholds=11, **arguments)
    m.update_state(np.array([[0, 1], [1, 1], [0, 0], [1, 0]]),
                   np.array([[0.3, 0.9], [0.6, 0.4], [0.5, 0.2], [0.4, 0.7]], np.float32))
    assert float(m.result()) == pytest.approx(expected, abs=1e-6)
