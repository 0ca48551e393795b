"""Keras' counting metrics: `Precision`, `Recall` and the top-k accuracies, and the
confusion counts `AUC` (in `metrics_auc`) builds on.

Precision and recall count true and false positives over the epoch at a `threshold`
(0.5): precision is `TP / (TP + FP)`, recall `TP / (TP + FN)` (0 when nothing is counted).

>>> m = Precision()
>>> m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
>>> round(float(m.result()), 4)  # 2 true positives out of 3 predicted positives
0.6667
"""

import numpy as np

from .metrics import Metric, _plain

_EDGE = 1e-7


def _flat(value, dtype=np.float64):
    return np.asarray(_plain(value), dtype=dtype).reshape(-1)


def _weights(sample_weight, like):
    """Per-value weights, broadcast over the values of each sample."""
    if sample_weight is None:
        return np.ones(like.shape)
    weight = np.asarray(_plain(sample_weight), dtype=np.float64)
    weight = weight.reshape(weight.shape + (1,) * (like.ndim - weight.ndim))
    return np.broadcast_to(weight, like.shape)


def _safe_divide(top, bottom):
    top, bottom = np.asarray(top, np.float64), np.asarray(bottom, np.float64)
    return np.divide(top, bottom, out=np.zeros(np.broadcast(top, bottom).shape),
                     where=bottom != 0)


class _CountingMetric(Metric):
    """A metric whose running state is arrays of counts (`_STATE` names them).

    `fit` saves a metric's running state as `(_total, _count)` before a validation pass and
    puts it back after; here `_total` stands for a copy of all the counts.
    """

    _STATE = ()
    _count = None

    @property
    def _total(self):
        return {name: np.copy(getattr(self, name)) for name in self._STATE}

    @_total.setter
    def _total(self, saved):
        if isinstance(saved, dict):
            for name, value in saved.items():
                setattr(self, name, value)


class _Confusion(_CountingMetric):
    """Weighted true/false positives/negatives at one or more thresholds."""

    _STATE = ("true_positives", "false_positives", "true_negatives", "false_negatives")

    def __init__(self, thresholds, name, dtype, evenly=None):
        self.thresholds = np.asarray(thresholds, np.float64).reshape(-1)
        self._evenly = _evenly_spaced(self.thresholds) if evenly is None else evenly
        super().__init__(name, dtype)

    def _above(self, scores):
        """Whether each score counts as above each threshold: `(thresholds,) + scores.shape`.

        Keras 3 compares in float32; with evenly spaced thresholds it buckets instead: a
        score p is above threshold i when `i < ceil(p * (n - 1))` in float32, p clipped to
        [0, 1] (so 0.2 is not above the threshold 0.2, which float64 would say it is).
        """
        count = len(self.thresholds)
        index = np.arange(count).reshape((count,) + (1,) * np.ndim(scores))
        if not self._evenly:
            return scores.astype(np.float32)[None] > self.thresholds.astype(np.float32).reshape(
                index.shape)
        clipped = np.clip(scores.astype(np.float32), np.float32(0), np.float32(1))
        bucket = np.ceil(clipped * np.float32(count - 1)) - 1
        if self.thresholds[0] < 0 or self.thresholds[-1] > 1:  # the edges just outside
            bucket = np.maximum(bucket, 0)
        return index <= bucket[None]

    def reset_state(self):
        size = len(self.thresholds)
        self.true_positives, self.false_positives = np.zeros(size), np.zeros(size)
        self.true_negatives, self.false_negatives = np.zeros(size), np.zeros(size)

    def _scores(self, y_pred):
        return np.asarray(_plain(y_pred), dtype=np.float64)

    def _select(self, labels, scores, weight):
        """The labels, scores and weights to count (all of them here)."""
        return labels, scores, weight

    def update_state(self, y_true, y_pred, sample_weight=None):
        scores = self._scores(y_pred)
        labels = np.asarray(_plain(y_true), dtype=np.float64)
        if labels.shape != scores.shape and labels.size == scores.size:
            labels = labels.reshape(scores.shape)
        weight = _weights(sample_weight, scores)
        labels, scores, weight = self._select(labels, scores, weight)
        # Keras 3 casts labels to bool: any nonzero label is a positive.
        labels, scores, weight = labels.reshape(-1) != 0, scores.reshape(-1), weight.reshape(-1)
        above = self._above(scores)  # (thresholds, values)
        self.true_positives += (above & labels) @ weight
        self.false_positives += (above & ~labels) @ weight
        self.true_negatives += (~above & ~labels) @ weight
        self.false_negatives += (~above & labels) @ weight


def _evenly_spaced(thresholds):
    """Keras' test for thresholds it buckets: at least 3, at i / (n - 1) within 1e-7."""
    count = len(thresholds)
    return count >= 3 and np.allclose(thresholds, np.arange(count) / (count - 1), atol=1e-7,
                                      rtol=0)


# Keras' stand-in for minus infinity: with `top_k`, every kept prediction is above it.
_NEG_INF = -1e10


def _threshold_list(thresholds, owner, default=0.5):
    if thresholds is None:
        return [default]
    values = np.atleast_1d(thresholds).tolist()
    if not all(0 <= v <= 1 for v in values):
        raise ValueError(f"{owner}: thresholds must be in [0, 1], got {thresholds!r}")
    return values


def _keep_top_k(scores, k):
    """`scores` with all but the `k` largest of each last-axis row set to `_NEG_INF` (the
    first of equal scores kept, as a stable top-k keeps it)."""
    order = np.argsort(-scores, axis=-1, kind="stable")[..., :k]
    kept = np.full_like(scores, _NEG_INF)
    np.put_along_axis(kept, order, np.take_along_axis(scores, order, axis=-1), axis=-1)
    return kept


class Precision(_Confusion):
    """`TP / (TP + FP)` with predictions above `thresholds` (0.5) counted positive; a list of
    thresholds gives one precision each.

    Args:
        thresholds: a threshold in [0, 1] or a list of them.
        top_k: count only the `k` highest predictions of each sample as positive (with no
            threshold given, all `k` of them, whatever their value).
        class_id: count only this class (a column of `y_true` and `y_pred`).
        name, dtype: as Keras.

    Raises:
        ValueError: for a threshold outside [0, 1], or `class_id` with 1-D predictions.
    """

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="precision",
                 dtype=None):
        self.top_k, self.class_id = top_k, class_id
        self._single = thresholds is None or np.ndim(thresholds) == 0
        default = 0.5 if top_k is None else _NEG_INF
        super().__init__(_threshold_list(thresholds, type(self).__name__, default), name, dtype)

    def _select(self, labels, scores, weight):
        if self.top_k is not None:
            scores = _keep_top_k(scores, int(self.top_k))
        if self.class_id is not None:
            if scores.ndim < 2:
                raise ValueError(f"{type(self).__name__}: class_id={self.class_id} needs "
                                 f"predictions of shape (samples, classes), got {scores.shape}")
            column = (Ellipsis, slice(self.class_id, self.class_id + 1))
            labels, scores, weight = labels[column], scores[column], weight[column]
        return labels, scores, weight

    def result(self):
        value = _safe_divide(self.true_positives, self.true_positives + self.false_positives)
        return np.float32(value[0]) if self._single else value.astype(np.float32)


class Recall(Precision):
    """`TP / (TP + FN)`, with the arguments of `Precision`."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="recall", dtype=None):
        super().__init__(thresholds, top_k, class_id, name, dtype)

    def result(self):
        value = _safe_divide(self.true_positives, self.true_positives + self.false_negatives)
        return np.float32(value[0]) if self._single else value.astype(np.float32)


class TopKCategoricalAccuracy(Metric):
    """How often the one-hot label's class is among the `k` (5) highest scores (a tie with
    the k-th score counts as in)."""

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        self.k = int(k)
        super().__init__(name, dtype)

    def _labels(self, y_true, y_pred):
        return np.argmax(y_true, axis=-1)

    def values(self, y_true, y_pred):
        scores = np.asarray(y_pred, np.float64)
        labels = np.asarray(self._labels(np.asarray(y_true), scores), np.int64)
        labels = labels.reshape(scores.shape[:-1])
        target = np.take_along_axis(scores, labels[..., None], axis=-1)
        return ((scores > target).sum(axis=-1) < self.k).astype(np.float64)


class SparseTopKCategoricalAccuracy(TopKCategoricalAccuracy):
    """How often the integer label is among the `k` (5) highest scores."""

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None,
                 from_sorted_ids=False):
        if from_sorted_ids:
            raise ValueError("SparseTopKCategoricalAccuracy: from_sorted_ids=True is not "
                             "supported by feedline; give scores")
        super().__init__(k, name, dtype)

    def _labels(self, y_true, y_pred):
        return y_true


BY_NAME = {"precision": Precision, "recall": Recall,
           "top_k_categorical_accuracy": TopKCategoricalAccuracy,
           "sparse_top_k_categorical_accuracy": SparseTopKCategoricalAccuracy}
