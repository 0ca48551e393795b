"""Check for exercise `ex-11-1`: cache the result of a slow map."""

import numpy as np

from ...data import Dataset
from .._common import call_answer, check, observe, passed, rng
from ._shared import (_Counted, _check_counts, _check_not_precomputed, _check_order, _read_epochs,
                      _recomputed)


@check("ex-11-1", hint="one method call after the slow map: .cache() keeps the elements of the "
                        "first epoch and replays them in every later epoch",
       replayable=True)
def check_with_cache(with_cache):
    """ex-11-1: `with_cache(ds)` gives the same elements while the slow map runs once each.

    >>> check_with_cache(lambda ds: ds.cache())
    ex-11-1 passed: same elements every epoch; the slow map ran once per record in 5 epochs
    """
    check_id = "ex-11-1"
    generator = rng(check_id)
    size = int(generator.integers(7, 12))
    records = generator.integers(0, 1000, size=size)
    slow_parse = _Counted(lambda x: x * 3 + 1, cost=0.001, name="slow_parse")
    dataset = call_answer(check_id, with_cache, Dataset.from_tensor_slices(records).map(
        slow_parse))
    early = observe(check_id, "slow_parse calls before reading", lambda: slow_parse.calls)
    _check_not_precomputed(check_id, dataset, "the slow map", early, size)
    got, partial = _read_epochs(check_id, dataset, size)
    _check_counts(check_id, got, size, dataset, partial)
    _check_order(check_id, got, (records * 3 + 1).tolist(),
                 lambda a, b: np.shape(a) == () and int(a) == b, "slow_parse")
    calls = observe(check_id, "slow_parse calls", lambda: slow_parse.calls)
    if calls > size:
        _recomputed(check_id, "the slow map", calls, size, dataset, partial)
    passed(check_id, "same elements every epoch; the slow map ran once per record in 5 epochs")
