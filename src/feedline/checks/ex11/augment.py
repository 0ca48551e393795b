"""Check for exercise `ex-11-4`: cache the deterministic decode, augment after the cache."""

import numpy as np

from ...data import Dataset
from .._common import call_answer, check, fail, observe, passed, rng
from ._shared import (EPOCHS, _Counted, _check_counts, _check_not_precomputed, _check_order,
                      _read_epochs, _recomputed)


def _decode_three(x):
    return np.array([x * 10, x * 10 + 1, x * 10 + 2], dtype=np.float64)


@check("ex-11-4", hint="cache the slow, deterministic decode and put the random augment after "
                        "the cache: records.map(decode).cache().map(augment)",
       replayable=True)
def check_augment_after_cache(augmented):
    """ex-11-4: `augmented(records, decode, augment)` caches decode; augment differs each epoch.

    >>> check_augment_after_cache(lambda records, decode, augment:
    ...     records.map(decode).cache().map(augment))
    ex-11-4 passed: decode ran once per record; the augmentation was drawn again every epoch
    """
    check_id = "ex-11-4"
    generator = rng(check_id)
    size = int(generator.integers(6, 11))
    records = generator.integers(0, 1000, size=size)
    noise = np.random.default_rng(int(generator.integers(1 << 30)))
    decode = _Counted(_decode_three, cost=0.001, name="decode")
    augment = _Counted(lambda image: np.asarray(image) + noise.uniform(-0.4, 0.4, size=np.shape(image)),
                       name="augment")
    dataset = call_answer(check_id, augmented, Dataset.from_tensor_slices(records), decode,
                          augment)
    early = observe(check_id, "decode calls before reading", lambda: decode.calls)
    _check_not_precomputed(check_id, dataset, "decode", early, size)
    got, partial = _read_epochs(check_id, dataset, size)
    _check_counts(check_id, got, size, dataset, partial)
    clean = [_decode_three(x) for x in records]
    _check_order(check_id, got, clean,
                 lambda a, b: np.shape(a) == b.shape and np.array_equal(np.round(a), b),
                 "augment(decode(record))")
    if all(np.array_equal(element, plain) for elements in got
           for element, plain in zip(elements, clean)):
        fail(check_id, "the elements are exactly decode(record): augment was never applied",
             hint="map augment after the cache")
    augment_calls = observe(check_id, "augment calls", lambda: augment.calls)
    frozen = [epoch for epoch in range(1, EPOCHS)
              if all(np.array_equal(a, b) for a, b in zip(got[epoch], got[epoch - 1]))]
    if frozen:
        fail(check_id, f"epoch {frozen[0] + 1} gave exactly the same augmented elements as "
                       f"epoch {frozen[0]}: the random augment ran above a cache, so the "
                       "cache stored its first results and replays them (augment ran "
                       f"{augment_calls} times for {EPOCHS} epochs of {size} records)",
             hint="a cache freezes everything above it; put the random augment after the "
                  "cache, and keep only the deterministic decode above it")
    calls = observe(check_id, "decode calls", lambda: decode.calls)
    if calls > size:
        _recomputed(check_id, "decode", calls, size, dataset, partial)
    passed(check_id, "decode ran once per record; the augmentation was drawn again every epoch")
