"""Keras 3's `AUC`: the area under the ROC or precision-recall curve, from counts at
`num_thresholds` thresholds (200) spread evenly over [0, 1], the end ones just outside it (at
-1e-7 and 1 + 1e-7). ROC sums true positive rate against false positive rate by trapezoids;
PR uses Davis & Goadrich's interpolation between thresholds, as Keras does. With
`multi_label=True` each column is its own label with its own curve, and the result is the
mean of their areas.

>>> auc = AUC(num_thresholds=3)
>>> auc.update_state([0, 0, 1, 1], [0.0, 0.5, 0.3, 1.0])
>>> float(auc.result())
0.75
>>> both = AUC(num_thresholds=3, multi_label=True)
>>> both.update_state([[0, 1], [1, 0]], [[0.2, 0.9], [0.8, 0.1]])
>>> float(both.result())  # each label perfectly ranked
1.0
"""

import numpy as np

from .metrics import _plain
from .metrics_more import _EDGE, _Confusion, _evenly_spaced, _safe_divide, _weights


class AUC(_Confusion):
    """The area under the ROC (`curve="ROC"`) or precision-recall (`curve="PR"`) curve.

    Args:
        num_thresholds: how many thresholds (200), evenly spaced over [0, 1].
        curve: "ROC" or "PR".
        summation_method: "interpolation" (Keras' default), "minoring" or "majoring".
        thresholds: explicit thresholds in [0, 1] instead (-1e-7 and 1 + 1e-7 are added).
        from_logits: pass the predictions through a sigmoid first.

    Raises:
        multi_label: treat each column of `y_pred` as its own label: one curve per label,
            the result their mean (weighted by `label_weights` when given).
        num_labels: the number of labels (else read from the first batch).
        label_weights: one weight per label (per class when not `multi_label`, where they
            weight the counts).

    Raises:
        ValueError: for an unknown curve or summation method, or `num_thresholds < 2`.
    """

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name="auc", dtype=None, thresholds=None, multi_label=False,
                 num_labels=None, label_weights=None, from_logits=False):
        curve, summation_method = str(curve).upper(), str(summation_method).lower()
        if curve not in ("ROC", "PR"):
            raise ValueError(f"AUC: curve must be 'ROC' or 'PR', got {curve!r}")
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f"AUC: summation_method must be 'interpolation', 'minoring' or "
                             f"'majoring', got {summation_method!r}")
        self.multi_label, self.num_labels = bool(multi_label), num_labels
        self.label_weights = None if label_weights is None else np.asarray(label_weights,
                                                                             np.float64)
        if thresholds is not None:
            inner = sorted(np.atleast_1d(thresholds).tolist())
        else:
            if num_thresholds < 2:
                raise ValueError(f"AUC: num_thresholds must be at least 2, got "
                                 f"{num_thresholds!r}")
            inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self.curve, self.summation_method = curve, summation_method
        self.num_thresholds, self.from_logits = len(inner) + 2, bool(from_logits)
        evenly = thresholds is None or _evenly_spaced(np.array([0.0] + inner + [1.0]))
        super().__init__([0.0 - _EDGE] + inner + [1.0 + _EDGE], name, dtype, evenly)

    def _scores(self, y_pred):
        scores = super()._scores(y_pred)
        return 1.0 / (1.0 + np.exp(-scores)) if self.from_logits else scores

    def reset_state(self):
        super().reset_state()
        if getattr(self, "multi_label", False) and self.num_labels is not None:
            self._per_label(int(self.num_labels))

    def _per_label(self, labels):
        """Counts of shape (thresholds, labels), for multi_label."""
        for name in self._STATE:
            setattr(self, name, np.zeros((len(self.thresholds), labels)))

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.multi_label:
            return super().update_state(y_true, y_pred, sample_weight)
        scores = self._scores(y_pred)
        if scores.ndim != 2:
            raise ValueError(f"AUC: with multi_label=True, y_pred must be (samples, labels), "
                             f"got shape {scores.shape}")
        labels = np.asarray(_plain(y_true), dtype=np.float64).reshape(scores.shape) != 0
        if self.true_positives.ndim == 1:  # the first batch tells the number of labels
            self._per_label(scores.shape[1])
        weight = _weights(sample_weight, scores)
        above = self._above(scores)  # (thresholds, samples, labels)
        for name, hit in (("true_positives", above & labels), ("false_positives", above & ~labels),
                          ("true_negatives", ~above & ~labels),
                          ("false_negatives", ~above & labels)):
            setattr(self, name, getattr(self, name) + np.einsum("tnl,nl->tl", hit, weight))

    def _select(self, labels, scores, weight):
        if self.label_weights is not None:  # as Keras: per-class weights scale the counts
            weight = weight * self.label_weights
        return labels, scores, weight

    def _combine(self, by_label):
        """One AUC from per-label AUCs (or the single one)."""
        if not self.multi_label:
            return np.float32(by_label)
        if self.label_weights is None:
            return np.float32(np.mean(by_label))
        return np.float32(_safe_divide(np.sum(by_label * self.label_weights),
                                       np.sum(self.label_weights)))

    def result(self):
        tp, fp = self.true_positives, self.false_positives
        tn, fn = self.true_negatives, self.false_negatives
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._combine(_interpolated_pr_auc(tp, fp, fn))
        recall = _safe_divide(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _safe_divide(fp, fp + tn), recall
        else:
            x, y = recall, _safe_divide(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2
        elif self.summation_method == "minoring":
            heights = np.minimum(y[:-1], y[1:])
        else:
            heights = np.maximum(y[:-1], y[1:])
        return self._combine(np.sum((x[:-1] - x[1:]) * heights, axis=0))


def _interpolated_pr_auc(tp, fp, fn):
    """The PR area with precision interpolated between thresholds (Davis & Goadrich 2006):
    between two thresholds, precision follows the line through the counts of true positives
    against predicted positives, integrated in closed form."""
    positives = tp + fp
    gained_tp = tp[:-1] - tp[1:]
    gained_p = positives[:-1] - positives[1:]
    slope = _safe_divide(gained_tp, np.maximum(gained_p, 0))
    intercept = tp[1:] - slope * positives[1:]
    both = (positives[:-1] > 0) & (positives[1:] > 0)
    ratio = np.where(both, _safe_divide(positives[:-1], np.maximum(positives[1:], 0)), 1.0)
    pieces = _safe_divide(slope * (gained_tp + intercept * np.log(np.where(ratio > 0, ratio,
                                                                             1.0))),
                          np.maximum(tp[1:] + fn[1:], 0))
    return np.sum(pieces, axis=0)
