"""Check for exercise `ex-11-2`: cache within a memory budget, before the step that makes
elements bigger.
"""

import numpy as np

from ...data import Dataset
from .._common import call_answer, check, fail, observe, passed, rng
from ._shared import (_Counted, _caches, _check_counts, _check_not_precomputed, _check_order,
                      _read_epochs, _recomputed)


def _nbytes(element):
    """The bytes of the arrays in one element (a nested structure of arrays and scalars)."""
    if isinstance(element, dict):
        return sum(_nbytes(value) for value in element.values())
    if isinstance(element, (tuple, list)):
        return sum(_nbytes(value) for value in element)
    return int(np.asarray(element).nbytes)


def _held_bytes(dataset):
    """Bytes of the elements that the memory caches of the pipeline keep."""
    return sum(_nbytes(element) for cache in _caches(dataset)
               for element in (cache._memory or ()))


def _held_elements(dataset):
    """The elements each memory cache keeps, one list per cache (empty while not complete)."""
    return [list(cache._memory or ()) for cache in _caches(dataset) if not cache._filename]


def _decode(x):
    return np.full(16, x, dtype=np.int32)  # 64 bytes


def _expand(decoded):
    return np.repeat(decoded.astype(np.float64), 32)  # 512 float64: 4096 bytes, 64 times more


@check("ex-11-2", hint="cache the result of the slow step, before the step that makes elements "
                        "big: records.map(decode).cache().map(expand)",
       replayable=True)
def check_cache_within_budget(make_pipeline):
    """ex-11-2: `make_pipeline(records, decode, expand)` caches between decode and expand.

    >>> check_cache_within_budget(lambda records, decode, expand:
    ...     records.map(decode).cache().map(expand))
    ex-11-2 passed: decode ran once per record; the cache holds the small decoded elements
    """
    check_id = "ex-11-2"
    generator = rng(check_id)
    size = int(generator.integers(8, 13))
    records = generator.integers(0, 10_000, size=size)
    decode = _Counted(_decode, cost=0.001, name="decode")
    expand = _Counted(_expand, name="expand")
    dataset = call_answer(check_id, make_pipeline, Dataset.from_tensor_slices(records),
                          decode, expand)
    if observe(check_id, "has a file cache",
               lambda: any(cache._filename for cache in _caches(dataset))):
        fail(check_id, "the pipeline has a file cache; this exercise is about the memory "
                       "budget of a memory cache",
             hint="use cache() with no file name, between decode and expand")
    early = observe(check_id, "decode calls before reading", lambda: decode.calls)
    _check_not_precomputed(check_id, dataset, "decode", early, size)
    got, partial = _read_epochs(check_id, dataset, size)
    _check_counts(check_id, got, size, dataset, partial)
    want = [_expand(_decode(x)) for x in records]
    _check_order(check_id, got, want, lambda a, b: np.array_equal(np.asarray(a), b),
                 "expand(decode(record))")
    calls = observe(check_id, "decode calls", lambda: decode.calls)
    if calls > size:
        _recomputed(check_id, "decode", calls, size, dataset, partial)
    budget = 2 * size * _decode(0).nbytes
    held = observe(check_id, "bytes held", lambda: _held_bytes(dataset))
    if held > budget:
        per_element = held // size
        what = ("expanded elements" if per_element >= _expand(_decode(0)).nbytes
                else "elements")
        fail(check_id, f"the cache holds {held} bytes, over the budget of {budget} bytes "
                       f"(2 x {size} decoded elements of {_decode(0).nbytes} bytes): it keeps "
                       f"{what} of about {per_element} bytes each",
             hint="a cache keeps elements as they are where it sits; put it between decode "
                  "and expand, not after expand")
    passed(check_id, "decode ran once per record; the cache holds the small decoded elements")
