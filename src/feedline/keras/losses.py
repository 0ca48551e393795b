"""Keras' losses: functions giving one loss per sample, and classes that average them.

`mean_squared_error(y_true, y_pred)` gives one value per sample (the mean over the last
axis); `MeanSquaredError()(y_true, y_pred)` gives the batch's mean (weighted by
`sample_weight` when given), as Keras' "sum_over_batch_size" reduction does. As in Keras 3,
`y_true` is cast to `y_pred`'s dtype, and when the two ranks differ by one because of a
trailing axis of size 1, that axis is added to the other; probabilities are clipped to
`[1e-7, 1 - 1e-7]` before a logarithm. Everything is written with feedline's ops, so a
`GradientTape` differentiates the loss.

>>> import feedline as fl
>>> float(MeanSquaredError()([[0.0], [2.0]], fl.constant([[1.0], [1.0]])))
1.0
>>> float(SparseCategoricalCrossentropy(from_logits=True)([0], fl.constant([[0.0, 0.0]])))
0.6931471824645996
"""

import numpy as np

from .. import ops
from .activations import log_softmax
from .loss_reduction import check_reduction, reduce_weighted

EPSILON = 1e-7


def _align(y_true, y_pred):
    """`y_true` as `y_pred`'s dtype, with Keras 3's squeeze-or-expand of a size-1 last axis."""
    dtype = np.dtype(getattr(y_pred, "dtype", np.float32))
    y_true = ops.cast(y_true, dtype) if getattr(y_true, "dtype", None) != dtype else y_true
    true_rank, pred_rank = np.ndim(y_true), np.ndim(y_pred)
    if pred_rank == true_rank + 1 and np.shape(y_pred)[-1] == 1:
        y_true = ops.expand_dims(y_true, -1)
    elif true_rank == pred_rank + 1 and np.shape(y_true)[-1] == 1:
        y_true = ops.squeeze(y_true, -1)
    return y_true, y_pred


def mean_squared_error(y_true, y_pred):
    """The mean over the last axis of `(y_true - y_pred) ** 2`, one value per sample."""
    y_true, y_pred = _align(y_true, y_pred)
    return ops.reduce_mean(ops.square(ops.subtract(y_pred, y_true)), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """The mean over the last axis of `|y_true - y_pred|`."""
    y_true, y_pred = _align(y_true, y_pred)
    return ops.reduce_mean(ops.abs(ops.subtract(y_pred, y_true)), axis=-1)


def _clipped_log(probabilities):
    return ops.log(ops.clip_by_value(probabilities, EPSILON, 1.0 - EPSILON))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """`-(y log p + (1 - y) log(1 - p))`, averaged over `axis`; `y_pred` holds
    probabilities, or logits with `from_logits=True`."""
    y_true, y_pred = _align(y_true, y_pred)
    if label_smoothing:
        y_true = ops.add(ops.multiply(y_true, 1.0 - label_smoothing), 0.5 * label_smoothing)
    if from_logits:  # log(sigmoid(z)) and log(1 - sigmoid(z)) without overflow
        losses = ops.add(ops.subtract(ops.maximum(y_pred, 0.0), ops.multiply(y_pred, y_true)),
                         ops.log1p(ops.exp(ops.negative(ops.abs(y_pred)))))
    else:
        # Clipping first, as Keras does, so the two logs never see 0.
        p = ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        losses = ops.negative(ops.add(ops.multiply(y_true, ops.log(p)),
                                      ops.multiply(ops.subtract(1.0, y_true),
                                                   ops.log(ops.subtract(1.0, p)))))
    return ops.reduce_mean(losses, axis=axis)


def _log_probabilities(y_pred, from_logits, axis):
    if from_logits:
        return log_softmax(y_pred, axis=axis)
    # Keras rescales probabilities to sum to 1, then clips, then takes the log.
    total = ops.reduce_sum(y_pred, axis=axis, keepdims=True)
    return _clipped_log(ops.divide(y_pred, total))


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """`-sum(y_true * log(p))` over `axis`, with one-hot (or soft) labels."""
    y_true, y_pred = _align(y_true, y_pred)
    if label_smoothing:
        classes = np.shape(y_pred)[axis]
        y_true = ops.add(ops.multiply(y_true, 1.0 - label_smoothing),
                         label_smoothing / classes)
    logs = _log_probabilities(y_pred, from_logits, axis)
    return ops.negative(ops.reduce_sum(ops.multiply(y_true, logs), axis=axis))


def _labels(y_true, y_pred):
    """Integer labels shaped as `y_pred` without its class axis."""
    labels = np.asarray(y_true)
    if labels.ndim == np.ndim(y_pred) and labels.shape[-1] == 1:
        labels = labels[..., 0]
    return labels.astype(np.int64)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None,
                                    axis=-1):
    """`-log(p[label])` for integer labels (shape `y_pred.shape[:-1]`, or with a last axis
    of size 1); 0 where the label is `ignore_class`.

    Raises:
        InvalidArgumentError: for a label outside `[0, classes)` (from `fl.one_hot`'s check).
    """
    labels = _labels(y_true, y_pred)
    valid = None
    if ignore_class is not None:  # Keras 3 turns ignored labels into 0, then zeroes their loss
        valid = labels != ignore_class
        labels = np.where(valid, labels, 0)
    classes = np.shape(y_pred)[axis]
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        from ..errors import InvalidArgumentError

        raise InvalidArgumentError(f"sparse_categorical_crossentropy: labels must be in "
                                   f"[0, {classes}), got values from {labels.min()} to "
                                   f"{labels.max()}")
    picked = np.eye(classes, dtype=np.dtype(getattr(y_pred, "dtype", np.float32)))[labels]
    logs = _log_probabilities(y_pred, from_logits, axis)
    losses = ops.negative(ops.reduce_sum(ops.multiply(logs, picked), axis=axis))
    if valid is not None:
        losses = ops.where(valid, losses, ops.zeros_like(losses))
    return losses


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


class Loss:
    """A loss as an object: `loss(y_true, y_pred, sample_weight=None)` reduces the per-sample
    losses as Keras 3 does (see `loss_reduction`).

    Args:
        reduction: "sum_over_batch_size" (Keras' default: the weighted sum divided by the
            number of loss values), "sum", "mean" (alias of the first),
            "mean_with_sample_weight" (divided by the sum of the weights), "none" or None.
        name: the loss' name.
        dtype: the dtype both `y_true` and `y_pred` are cast to first (float32).

    Raises:
        ValueError: for another reduction.
    """

    _FUNCTION = None

    def __init__(self, reduction="sum_over_batch_size", name=None, dtype=None, **options):
        self.reduction = check_reduction(reduction, type(self).__name__)
        self.name, self.dtype, self._options = name, dtype or "float32", options

    def call(self, y_true, y_pred):
        """One loss value per sample."""
        return type(self)._FUNCTION(y_true, y_pred, **self._options)

    def _mask(self, y_true, y_pred):
        """The loss values to leave out (None: all count)."""
        return None

    def __call__(self, y_true, y_pred, sample_weight=None):
        # Keras 3 casts both to the loss' dtype first (labels included).
        y_true, y_pred = ops.cast(y_true, self.dtype), ops.cast(y_pred, self.dtype)
        losses = self.call(y_true, y_pred)
        return reduce_weighted(losses, sample_weight, self._mask(y_true, y_pred),
                               self.reduction)

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction, "dtype": self.dtype,
                **self._options}


def _loss_class(name, function, default_name, doc, base=Loss):
    def __init__(self, reduction="sum_over_batch_size", name=default_name, dtype=None,
                 **options):
        base.__init__(self, reduction=reduction, name=name, dtype=dtype, **options)
    return type(name, (base,), {"_FUNCTION": staticmethod(function), "__init__": __init__,
                                "__doc__": doc})


class _IgnoringLoss(Loss):
    """A loss whose `ignore_class` labels are left out of the reduction, as Keras 3 masks them."""

    def _mask(self, y_true, y_pred):
        ignore_class = self._options.get("ignore_class")
        if ignore_class is None:
            return None
        return _labels(y_true, y_pred) != ignore_class


MeanSquaredError = _loss_class("MeanSquaredError", mean_squared_error, "mean_squared_error",
                               "The mean of the squared errors (see `mean_squared_error`).")
MeanAbsoluteError = _loss_class("MeanAbsoluteError", mean_absolute_error,
                                "mean_absolute_error", "The mean of the absolute errors.")
BinaryCrossentropy = _loss_class(
    "BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
    "Binary cross-entropy; options `from_logits`, `label_smoothing`, `axis`.")
CategoricalCrossentropy = _loss_class(
    "CategoricalCrossentropy", categorical_crossentropy, "categorical_crossentropy",
    "Cross-entropy with one-hot labels; options `from_logits`, `label_smoothing`, `axis`.")
SparseCategoricalCrossentropy = _loss_class(
    "SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy",
    "Cross-entropy with integer labels; options `from_logits`, `ignore_class`, `axis`.",
    base=_IgnoringLoss)

_BY_NAME = {"mse": mean_squared_error, "mean_squared_error": mean_squared_error,
            "mae": mean_absolute_error, "mean_absolute_error": mean_absolute_error,
            "binary_crossentropy": binary_crossentropy,
            "categorical_crossentropy": categorical_crossentropy,
            "sparse_categorical_crossentropy": sparse_categorical_crossentropy}


def get(identifier):
    """A loss function from a name ("mse", "sparse_categorical_crossentropy", ...), a `Loss`
    or a function.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    if isinstance(identifier, str):
        try:
            return _BY_NAME[identifier]
        except KeyError:
            raise ValueError(f"Unknown loss {identifier!r}; use one of {sorted(_BY_NAME)}, a "
                             "fl.keras.losses class or a function") from None
    if callable(identifier):
        return identifier
    raise TypeError(f"loss: expected a name such as 'mse', a Loss or a function, got "
                    f"{identifier!r}")


# Huber, LogCosh, KLDivergence, Poisson, CosineSimilarity, Hinge live in their own module.
from .losses_more import (KLD, BY_NAME as _MORE, CosineSimilarity, Hinge, Huber,  # noqa: E402
                          KLDivergence, LogCosh, Poisson, cosine_similarity, hinge, huber,
                          kl_divergence, kld, kullback_leibler_divergence, log_cosh, logcosh,
                          poisson)

_BY_NAME.update(_MORE)
