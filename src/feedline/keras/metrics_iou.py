"""Keras 3's `MeanIoU`: the mean intersection-over-union of integer class ids.

A running confusion matrix counts (true class, predicted class) pairs; each class' IoU is
`TP / (TP + FP + FN)` and the result averages the classes seen. As Keras 3 counts in an
integer dtype by default, float sample weights are truncated (0.7 counts 0); class ids
outside `[0, num_classes)` count nowhere.

>>> m = MeanIoU(num_classes=2)
>>> m.update_state([0, 0, 1, 1], [0, 1, 1, 1])
>>> round(float(m.result()), 4)  # class 0: 1 / 2, class 1: 2 / 3
0.5833
"""

import numpy as np

from .metrics import _plain
from .metrics_more import _CountingMetric, _weights


class MeanIoU(_CountingMetric):
    """The mean over classes of `TP / (TP + FP + FN)` from a running confusion matrix of
    integer class ids (`num_classes` of them); classes never seen are left out."""

    _STATE = ("total_cm",)

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        self.num_classes, self.ignore_class = int(num_classes), ignore_class
        self.sparse_y_true, self.sparse_y_pred, self.axis = sparse_y_true, sparse_y_pred, axis
        self._int_counts = dtype is None or "int" in str(dtype)
        super().__init__(name or "mean_io_u", dtype)

    def reset_state(self):
        self.total_cm = np.zeros((self.num_classes, self.num_classes))

    def update_state(self, y_true, y_pred, sample_weight=None):
        true, pred = np.asarray(_plain(y_true)), np.asarray(_plain(y_pred))
        if not self.sparse_y_true:
            true = np.argmax(true, axis=self.axis)
        if not self.sparse_y_pred:
            pred = np.argmax(pred, axis=self.axis)
        weight = _weights(sample_weight, true.astype(np.float64)).reshape(-1)
        if self._int_counts:  # Keras 3 counts in its int dtype: weights are truncated
            weight = np.trunc(weight)
        true, pred = true.reshape(-1).astype(np.int64), pred.reshape(-1).astype(np.int64)
        # Class ids outside [0, num_classes) and the ignored class count nowhere, as in Keras.
        keep = (true >= 0) & (true < self.num_classes) & (pred >= 0) & (pred < self.num_classes)
        if self.ignore_class is not None:
            keep &= true != self.ignore_class
        true, pred, weight = true[keep], pred[keep], weight[keep]
        np.add.at(self.total_cm, (true, pred), weight)

    def result(self):
        cm = self.total_cm
        hits = np.diag(cm)
        union = cm.sum(axis=0) + cm.sum(axis=1) - hits
        seen = union > 0
        return np.float32(np.mean(hits[seen] / union[seen]) if seen.any() else 0.0)
