"""Keras' metrics: running averages over an epoch (`update_state`, `result`, `reset_state`).

"accuracy" is resolved as Keras resolves it from the shapes of the first batch: binary
accuracy when the model gives one value per sample (threshold 0.5), sparse categorical when
the labels are class numbers and the model gives one score per class, categorical when the
labels are one-hot. Metrics are bookkeeping, computed in NumPy (no gradient needed).

>>> m = get("accuracy", y_true=np.array([1, 0]), y_pred=np.array([[0.2, 0.8], [0.3, 0.7]]))
>>> m.update_state(np.array([1, 0]), np.array([[0.2, 0.8], [0.3, 0.7]]))
>>> type(m).__name__, m.name, float(m.result())
('SparseCategoricalAccuracy', 'accuracy', 0.5)
"""

import numpy as np


def _plain(value):
    return np.asarray(getattr(value, "numpy", lambda: value)())


class Metric:
    """Base class: a weighted running mean of per-sample values (`values`)."""

    def __init__(self, name=None, dtype=None):
        self.name = name or type(self).__name__.lower()
        self.dtype = dtype or "float32"
        self.reset_state()

    def reset_state(self):
        self._total, self._count = 0.0, 0.0

    def values(self, y_true, y_pred):  # pragma: no cover - every metric overrides it
        raise NotImplementedError

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add a batch's per-sample values to the running mean."""
        self._add(self.values(_plain(y_true), _plain(y_pred)), sample_weight)

    def _add(self, values, sample_weight):
        values, weight = samplewise(values, sample_weight)
        self._total += float(values.sum())
        self._count += float(values.shape[0] if values.ndim else 1) if weight is None \
            else float(weight.sum())

    def result(self):
        """The running mean so far (0 before any update), as a float32 scalar."""
        return np.float32(self._total / self._count if self._count else 0.0)

    def __call__(self, y_true, y_pred, sample_weight=None):
        self.update_state(y_true, y_pred, sample_weight)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


def _same_rank(values, weight):
    """Keras 3's squeeze-or-expand: ranks one apart, the longer ending in a size-1 axis,
    lose that axis (or a rank-1 partner gains one)."""
    if values.ndim == weight.ndim + 1 and values.shape[-1] == 1:
        return (values, weight[..., None]) if weight.ndim == 1 else (values[..., 0], weight)
    if weight.ndim == values.ndim + 1 and weight.shape[-1] == 1:
        return (values[..., None], weight) if values.ndim == 1 else (values, weight[..., 0])
    return values, weight


def samplewise(values, sample_weight, reduce=np.mean):
    """Keras 3's reduction of a batch's values to one (weighted) value per sample: values
    are averaged (`reduce`) over the axes the weights lack, multiplied by the weights, then
    both are averaged over all but the first axis. Returns `(values, weights or None)`.

    >>> values, weights = samplewise(np.ones((2, 3)), np.array([1.0, 2.0]))
    >>> values.tolist(), weights.tolist()
    ([1.0, 2.0], [1.0, 2.0])
    """
    values = np.asarray(values, dtype=np.float64)
    weight = None
    if sample_weight is not None:
        weight = np.asarray(_plain(sample_weight), dtype=np.float64)
        values, weight = _same_rank(values, weight)
        if values.ndim > weight.ndim:
            values = reduce(values, axis=tuple(range(weight.ndim, values.ndim)))
        weight = np.broadcast_to(weight, values.shape)
        values = values * weight
        if weight.ndim > 1:
            weight = reduce(weight, axis=tuple(range(1, weight.ndim)))
    if values.ndim > 1:
        values = reduce(values, axis=tuple(range(1, values.ndim)))
    return values, weight


def _align(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_pred.ndim == y_true.ndim + 1 and y_pred.shape[-1] == 1:
        y_true = y_true[..., None]
    return y_true, y_pred


class Mean(Metric):
    """The weighted mean of the values given to `update_state(values, sample_weight=None)`."""

    def update_state(self, values, sample_weight=None):
        self._add(_plain(values), sample_weight)


class BinaryAccuracy(Metric):
    """How often `y_pred > threshold` equals the 0/1 label (any other label never does,
    as in Keras 3, which compares them for equality)."""

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        self.threshold = threshold
        super().__init__(name, dtype)

    def values(self, y_true, y_pred):
        y_true, y_pred = _same_rank(np.asarray(y_true, np.float64), np.asarray(y_pred))
        return ((y_pred > self.threshold) == y_true).astype(np.float64)


class SparseCategoricalAccuracy(Metric):
    """How often the highest score's class equals the integer label."""

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(name, dtype)

    def values(self, y_true, y_pred):
        labels = y_true.reshape(y_pred.shape[:-1]) if y_true.size == np.prod(
            y_pred.shape[:-1]) else y_true
        return (np.argmax(y_pred, axis=-1) == labels.astype(np.int64)).astype(np.float64)


class CategoricalAccuracy(Metric):
    """How often the highest score's class is the one-hot label's class."""

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(name, dtype)

    def values(self, y_true, y_pred):
        return (np.argmax(y_pred, axis=-1) == np.argmax(y_true, axis=-1)).astype(np.float64)


class MeanAbsoluteError(Metric):
    """The mean of `|y_true - y_pred|`."""

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(name, dtype)

    def values(self, y_true, y_pred):
        y_true, y_pred = _align(y_true, y_pred)
        return np.abs(y_pred - y_true).mean(axis=-1)


class MeanSquaredError(Metric):
    """The mean of `(y_true - y_pred) ** 2`."""

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(name, dtype)

    def values(self, y_true, y_pred):
        y_true, y_pred = _align(y_true, y_pred)
        return np.square(y_pred - y_true).mean(axis=-1)


class RootMeanSquaredError(MeanSquaredError):
    """The square root of the running mean squared error.

    >>> m = RootMeanSquaredError()
    >>> float(m([[0.0], [0.0]], [[3.0], [4.0]]))
    3.535533905029297
    """

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype)

    def values(self, y_true, y_pred):
        # Keras 3 averages the squared errors themselves (no mean over the last axis first).
        y_true, y_pred = _same_rank(np.asarray(y_true, np.float64), np.asarray(y_pred))
        return np.square(y_pred - y_true)

    def result(self):
        return np.float32(np.sqrt(super().result()))


_BY_NAME = {"binary_accuracy": BinaryAccuracy,
            "sparse_categorical_accuracy": SparseCategoricalAccuracy,
            "categorical_accuracy": CategoricalAccuracy,
            "mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError,
            "mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
            "rmse": RootMeanSquaredError, "root_mean_squared_error": RootMeanSquaredError}


def _accuracy_class(y_true, y_pred):
    true_shape, pred_shape = np.shape(y_true), np.shape(y_pred)
    if pred_shape and pred_shape[-1] == 1:
        return BinaryAccuracy
    if len(true_shape) < len(pred_shape) or (true_shape and true_shape[-1] == 1):
        return SparseCategoricalAccuracy
    return CategoricalAccuracy


def get(identifier, y_true=None, y_pred=None):
    """A metric object from a name ("accuracy", "mae", ...), a class or a metric object.
    "accuracy"/"acc" needs the first batch's `y_true` and `y_pred` (see the module docstring).

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, Metric):
        return identifier()
    if identifier in ("accuracy", "acc"):
        return _accuracy_class(y_true, y_pred)(name=identifier)
    if isinstance(identifier, str):
        try:
            return _BY_NAME[identifier](name=identifier)
        except KeyError:
            raise ValueError(f"Unknown metric {identifier!r}; use 'accuracy' or one of "
                             f"{sorted(_BY_NAME)}") from None
    if callable(identifier):  # a function of (y_true, y_pred) giving per-sample values
        metric = Metric(name=getattr(identifier, "__name__", "metric"))
        metric.values = lambda y_true, y_pred: _plain(identifier(y_true, y_pred))
        return metric
    raise TypeError(f"metric: expected a name such as 'accuracy' or a Metric, got "
                    f"{identifier!r}")


# Precision, Recall and the top-k accuracies live in their own module, MeanIoU and AUC in others.
from .metrics_more import (BY_NAME as _MORE, Precision, Recall,  # noqa: E402
                           SparseTopKCategoricalAccuracy, TopKCategoricalAccuracy)

_BY_NAME.update(_MORE)
from .metrics_iou import MeanIoU  # noqa: E402
from .metrics_auc import AUC  # noqa: E402
from .metrics_losses import (Accuracy, BinaryCrossentropy, CategoricalCrossentropy,  # noqa: E402
                             CosineSimilarity, Hinge, KLDivergence, LogCoshError, Poisson,
                             SparseCategoricalCrossentropy, Sum)

_BY_NAME["auc"] = AUC
_BY_NAME.update({"binary_crossentropy": BinaryCrossentropy,
                 "categorical_crossentropy": CategoricalCrossentropy,
                 "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
                 "kl_divergence": KLDivergence, "poisson": Poisson, "hinge": Hinge,
                 "logcosh": LogCoshError, "cosine_similarity": CosineSimilarity})
from .metrics_counts import (BY_NAME as _COUNTS, FalseNegatives, FalsePositives,  # noqa: E402
                             TrueNegatives, TruePositives)

_BY_NAME.update(_COUNTS)
