"""Check for exercise `ex-06-2`: a StringLookup with `num_oov` out-of-vocabulary indices."""

import numpy as np

from ...layers import StringLookup
from .._common import call_answer, check, fail, passed, rng
from ._shared import _kind, _made_words, _outputs, _same, _short


def _lookup(values, num_oov, **options):
    layer = StringLookup(num_oov_indices=num_oov, **options)
    layer.adapt(values)
    return layer


def _column(generator):
    """A categorical column (distinct counts, so the frequency order is unique), OOV count,
    and probes: every known value, then values training never saw."""
    known = _made_words(generator, int(generator.integers(5, 9)), "")
    counts = generator.permutation(np.arange(1, len(known) + 1)) * int(generator.integers(1, 4))
    values = np.array([word for word, count in zip(known, counts) for _ in range(count)],
                      dtype=object)
    values = values[generator.permutation(len(values))]
    unseen = [word for word in _made_words(generator, 14, "new-") if word not in known][:12]
    num_oov = int(generator.integers(2, 6))
    return values, num_oov, np.array(known + unseen, dtype=object), len(known)


@check("ex-06-2", hint="StringLookup(num_oov_indices=num_oov), then adapt() on the training "
                        "values: unseen values share the first num_oov indices, the known ones "
                        "follow, most frequent first",
       replayable=True)
def check_lookup_with_oov(make_lookup):
    """ex-06-2: `make_lookup(values, num_oov)` maps unseen values to OOV indices 0..num_oov-1.

    >>> def make_lookup(values, num_oov):
    ...     layer = StringLookup(num_oov_indices=num_oov)
    ...     layer.adapt(values)
    ...     return layer
    >>> check_lookup_with_oov(make_lookup)
    ex-06-2 passed: known values keep their indices after the OOV ones; unseen values spread over the OOV indices
    """
    check_id = "ex-06-2"
    values, num_oov, probe, known = _column(rng(check_id))
    layer = call_answer(check_id, make_lookup, values, num_oov, want_dataset=False)
    kind = _kind(check_id, layer)
    if kind != "StringLookup":
        fail(check_id, f"make_lookup returned a {kind}; expected the adapted StringLookup layer")
    outcome, got = _outputs(check_id, "indices of the probes", layer, probe)
    if outcome == "error":
        if "num_oov_indices=0" in got:
            fail(check_id, f"a value training never saw made the layer fail: {got}",
                 hint="with num_oov_indices=0 there is no index for an unseen value; give the "
                      "layer num_oov of them")
        fail(check_id, f"calling the layer failed: {got}")
    want = _lookup(values, num_oov)(probe)
    if _same(got, want):
        passed(check_id, "known values keep their indices after the OOV ones; unseen values "
                         "spread over the OOV indices")
        return
    _explain_lookup(check_id, got, want, values, num_oov, probe, known)


def _explain_lookup(check_id, got, want, values, num_oov, probe, known):
    if np.shape(got) != np.shape(want):
        fail(check_id, f"for {len(probe)} values the layer gave an array of shape "
                       f"{np.shape(got)}; expected one integer index per value",
             hint="keep output_mode='int' (the default): this exercise is about the indices")
    got = np.asarray(got)
    unseen_got = got[known:]
    if _same(got, _lookup(values, 1)(probe)):
        fail(check_id, f"every unseen value went to index 0 and the known values start at 1; "
                       f"the check asked for {num_oov} OOV indices",
             hint="set num_oov_indices=num_oov: then unseen values spread over indices 0 to "
                  "num_oov - 1 and the vocabulary starts at num_oov")
    if _same(got, _lookup(values, num_oov, mask_token="")(probe)):
        fail(check_id, "every index is one too high: a mask token takes index 0 before the OOV "
                       "indices", hint="do not set mask_token in this exercise")
    if np.any((unseen_got < 0) | (unseen_got >= num_oov)):
        fail(check_id, f"unseen values got the indices {_short(unseen_got)}; with {num_oov} OOV "
                       f"indices they must all be in 0..{num_oov - 1}")
    alphabetical = StringLookup(num_oov_indices=num_oov, vocabulary=sorted(set(values)))
    if _same(got, alphabetical(probe)):
        fail(check_id, "the known values are in alphabetical order; adapt() orders the "
                       "vocabulary by frequency, the most frequent value first",
             hint="learn the vocabulary with layer.adapt(values) rather than passing a sorted "
                  "list")
    fail(check_id, f"the known values got the indices {_short(got[:known])}, expected "
                   f"{_short(want[:known])}; the unseen ones {_short(unseen_got)}, expected "
                   f"{_short(want[known:])}")
