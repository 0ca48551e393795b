"""Check for exercise `ex-06-1`: a Normalization adapted on the training split only."""

import numpy as np

from ...layers import Normalization
from .._common import call_answer, check, fail, passed, rng
from ._shared import _kind, _outputs, _same, _short


def _adapted(data, axis=-1):
    layer = Normalization(axis=axis)
    layer.adapt(np.asarray(data, dtype=np.float64))
    return layer


def _splits(generator):
    """Three splits of the same features whose means and spreads differ from split to split."""
    features = int(generator.integers(2, 5))
    centre = generator.uniform(-50, 150, size=features)
    spread = generator.uniform(0.5, 30, size=features)

    def draw(rows, shift, scale):
        return centre + shift * spread + scale * spread * generator.normal(size=(rows, features))

    return (draw(int(generator.integers(40, 80)), 0.0, 1.0),
            draw(int(generator.integers(15, 30)), 0.8, 1.5),
            draw(int(generator.integers(15, 30)), -0.7, 0.6))


_ADAPT_HINT = ("make a Normalization(), call its adapt() on the training split only, and "
               "return the layer; validation, test and serving data then use that same layer")


@check("ex-06-1", hint=_ADAPT_HINT, replayable=True)
def check_normalizer(normalizer_for):
    """ex-06-1: `normalizer_for(train, valid, test)` is a Normalization adapted on `train` only.

    >>> def normalizer_for(train, valid, test):
    ...     layer = Normalization()
    ...     layer.adapt(train)
    ...     return layer
    >>> check_normalizer(normalizer_for)
    ex-06-1 passed: the training split comes out with mean 0 and variance 1 in every feature
    """
    check_id = "ex-06-1"
    train, valid, test = _splits(rng(check_id))
    layer = call_answer(check_id, normalizer_for, train, valid, test, want_dataset=False)
    kind = _kind(check_id, layer)
    if kind != "Normalization":
        fail(check_id, f"normalizer_for returned a {kind}; expected the adapted Normalization "
                       "layer itself",
             hint="return the layer, not its output: the same layer must later be applied "
                  "to validation, test and serving rows")
    outcome, got = _outputs(check_id, "training split normalised", layer, train)
    if outcome == "error":
        fail(check_id, f"calling the layer on the training split failed: {got}",
             hint="a Normalization layer must be adapted (layer.adapt(train)) before it is "
                  "called")
    want = _adapted(train)(train)
    if _same(got, want):
        passed(check_id, "the training split comes out with mean 0 and variance 1 in every "
                         "feature")
        return
    _explain_normalizer(check_id, got, want, train, valid, test)


def _explain_normalizer(check_id, got, want, train, valid, test):
    mistakes = [
        (np.concatenate([train, valid, test]), -1,
         "the layer was adapted on all three splits: the validation and test rows leaked into "
         "its mean and variance"),
        (np.concatenate([train, valid]), -1,
         "the layer was adapted on the training and validation splits together: the "
         "validation rows leaked into its statistics"),
        (test, -1, "the layer was adapted on the test split"),
        (valid, -1, "the layer was adapted on the validation split"),
        (train, None, "the layer has one mean and one variance for all the features together "
                      "(axis=None); each feature needs its own"),
    ]
    for data, axis, what in mistakes:
        if _same(got, _adapted(data, axis)(train)):
            fail(check_id, f"{what}; on the training split the features then have means "
                           f"{_short(np.mean(got, axis=0))} instead of 0")
    if np.shape(got) != np.shape(want):
        fail(check_id, f"on the training split (shape {np.shape(train)}) the layer gave shape "
                       f"{np.shape(got)}; expected one normalised value per input value")
    fail(check_id, "the normalised training split should have mean 0 and variance 1 in every "
                   f"feature; got means {_short(np.mean(got, axis=0))} and variances "
                   f"{_short(np.var(got, axis=0))}")
