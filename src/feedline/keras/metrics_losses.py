"""Keras 3's metrics that average a loss function over the epoch (`BinaryCrossentropy`,
`CategoricalCrossentropy`, `SparseCategoricalCrossentropy`, `KLDivergence`, `Poisson`,
`Hinge`, `LogCoshError`, `CosineSimilarity`), plus `Accuracy` (how often `y_pred` equals
`y_true` exactly) and `Sum` (a running total). As every mean metric, each batch gives one
value per sample (see `metrics.samplewise`) and the result averages them. `CosineSimilarity`
is the cosine itself (1 for the same direction), not the loss' negative.

>>> m = BinaryCrossentropy()
>>> m.update_state([[1.0], [0.0]], [[0.5], [0.5]])
>>> round(float(m.result()), 4)  # -log(0.5)
0.6931
>>> total = Sum()
>>> total.update_state([1.0, 2.0]); total.update_state(3.0)
>>> float(total.result())
6.0
"""

import numpy as np

from . import losses, losses_more
from .metrics import Metric, _plain, _same_rank, samplewise


def _loss_metric(name, function, default_name, options, doc, sign=1.0):
    def __init__(self, name=default_name, dtype=None, **kwargs):
        unknown = set(kwargs) - set(options)
        if unknown:
            raise ValueError(f"{type(self).__name__}: unknown arguments {sorted(unknown)}; "
                             f"it takes name, dtype and {sorted(options)}")
        self._options = {**options, **kwargs}
        Metric.__init__(self, name, dtype)

    def values(self, y_true, y_pred):
        y_pred = np.asarray(y_pred, np.float32)
        return sign * np.asarray(_plain(function(y_true, y_pred, **self._options)))

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, **self._options}

    return type(name, (Metric,), {"__init__": __init__, "values": values,
                                  "get_config": get_config, "__doc__": doc})


BinaryCrossentropy = _loss_metric(
    "BinaryCrossentropy", losses.binary_crossentropy, "binary_crossentropy",
    {"from_logits": False, "label_smoothing": 0.0}, "The mean binary cross-entropy.")
CategoricalCrossentropy = _loss_metric(
    "CategoricalCrossentropy", losses.categorical_crossentropy, "categorical_crossentropy",
    {"from_logits": False, "label_smoothing": 0.0, "axis": -1},
    "The mean cross-entropy with one-hot labels.")
SparseCategoricalCrossentropy = _loss_metric(
    "SparseCategoricalCrossentropy", losses.sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy", {"from_logits": False, "axis": -1},
    "The mean cross-entropy with integer labels.")
KLDivergence = _loss_metric("KLDivergence", losses_more.kl_divergence, "kl_divergence", {},
                            "The mean Kullback-Leibler divergence.")
Poisson = _loss_metric("Poisson", losses_more.poisson, "poisson", {}, "The mean Poisson loss.")
Hinge = _loss_metric("Hinge", losses_more.hinge, "hinge", {}, "The mean hinge loss.")
LogCoshError = _loss_metric("LogCoshError", losses_more.log_cosh, "logcosh", {},
                            "The mean log(cosh(error)).")
CosineSimilarity = _loss_metric(
    "CosineSimilarity", losses_more.cosine_similarity, "cosine_similarity", {"axis": -1},
    "The mean cosine between `y_true` and `y_pred` along `axis`.", sign=-1.0)


class Accuracy(Metric):
    """How often `y_pred` equals `y_true` exactly (no threshold, no argmax)."""

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(name, dtype)

    def values(self, y_true, y_pred):
        y_true, y_pred = _same_rank(np.asarray(y_true, np.float64),
                                    np.asarray(y_pred, np.float64))
        return (y_true == y_pred).astype(np.float64)


class Sum(Metric):
    """The running sum of the (weighted) values given to `update_state(values)`."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name, dtype)

    def update_state(self, values, sample_weight=None):
        values, _ = samplewise(_plain(values), sample_weight, reduce=np.sum)
        self._total += float(np.sum(values))

    def result(self):
        return np.float32(self._total)
