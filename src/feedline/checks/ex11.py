"""Checks for exercise notebook 11, cache (ids `ex-11-1` to `ex-11-5`).

The pipeline checks hand the learner stand-in steps that count their calls, run the learner's
pipeline for 5 epochs, and look at what happened: how often the slow step ran, what each epoch
gave, how many bytes the memory cache holds, which files a file cache wrote. The steps sleep a
millisecond at most, so every check runs in a fraction of a second, and no check measures time.
"""

import math
import os
import shutil
import tempfile
import time
import warnings

import numpy as np

from ..data import Dataset
from ..perf.simulate import ideal_total
from ..perf.workloads import ArtificialDataset, ExpensiveMap
from ._common import (call_answer, check, fail, observe, passed, pipeline_nodes, rng, seconds,
                      take_elements)

EPOCHS = 5


# -- looking at a pipeline ---------------------------------------------------------------------


def _stages(dataset):
    return {node._stage for node in pipeline_nodes(dataset)}


def _caches(dataset):
    return [node for node in pipeline_nodes(dataset) if node._stage == "cache"]


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


class _Counted:
    """A stand-in step that counts its calls and sleeps `cost` seconds per call."""

    def __init__(self, function, cost=0.0, name="step"):
        self.function, self.cost, self.calls = function, cost, 0
        self.__name__ = name

    def __call__(self, *args):
        self.calls += 1
        if self.cost:
            time.sleep(self.cost)
        return self.function(*args)


def _read_epochs(check_id, dataset, size, epochs=EPOCHS):
    """`epochs` epochs of `dataset` as lists, and whether a partial cache was discarded."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [take_elements(check_id, dataset, 3 * size + 5) for _ in range(epochs)]
    partial = any("partial cache" in str(warning.message) for warning in caught)
    return got, observe(check_id, "partial cache warned", lambda: partial)


_PARTIAL_HINT = ("an epoch that stops before the end never completes the cache, so it is "
                 "thrown away and the next epoch computes again; do not put take() after "
                 "cache()")


def _check_counts(check_id, got, size, dataset, partial):
    """Fail unless every epoch has `size` elements, naming the likely cause when not."""
    for epoch, elements in enumerate(got, start=1):
        if len(elements) == size:
            continue
        stages = observe(check_id, "stages", lambda: sorted(_stages(dataset)))
        message = (f"epoch {epoch} gave {len(elements)} elements, expected {size} (one per "
                   "input record)")
        if len(elements) < size and "take" in stages:
            hint = (_PARTIAL_HINT if partial else
                    "take() keeps only the first elements of every epoch; cache all of them")
            fail(check_id, message + "; the pipeline has a take()", hint=hint)
        if len(elements) > size and "repeat" in stages:
            fail(check_id, message + "; a repeat() inside the pipeline makes every epoch "
                                     "longer, and the training loop runs the epochs itself",
                 hint="remove the repeat(): the check iterates the dataset once per epoch")
        fail(check_id, message)


def _check_order(check_id, got, want, same, what):
    """Fail unless each epoch's elements match `want` in order (`same(a, b)` compares two)."""
    for epoch, elements in enumerate(got, start=1):
        for index, (element, expected) in enumerate(zip(elements, want)):
            if same(element, expected):
                continue
            if any(same(element, other) for other in want):
                fail(check_id, f"epoch {epoch}: element {index} is {what} of another record; "
                               "the cache must keep the order of the records (no shuffle "
                               "here)")
            fail(check_id, f"epoch {epoch}: element {index} should be {what} of record "
                           f"{index}, {_short(expected)}, got {_short(element)}")


def _short(value):
    array = np.asarray(value)
    if array.size <= 6:
        return str(array.tolist())
    return f"an array of shape {array.shape} starting {array.ravel()[:3].tolist()}"


def _recomputed(check_id, step, calls, size, dataset, partial):
    """Fail because `step` ran `calls` times instead of once per record; name the cause."""
    message = (f"{step} ran {calls} times over {EPOCHS} epochs of {size} records, expected "
               f"{size}: the epochs after the first computed it again")
    caches = observe(check_id, "cache count", lambda: len(_caches(dataset)))
    if not caches:
        fail(check_id, message + "; the pipeline has no cache()",
             hint="add .cache() right after the slow step, so epochs 2 to 5 replay its "
                  "results")
    if partial:
        fail(check_id, message + "; the cache was never complete", hint=_PARTIAL_HINT)
    fail(check_id, message + f"; the cache is above {step}, so it stores what goes into "
                             f"{step} and {step} still runs every epoch",
         hint=f"a cache saves only the work above it: put it after {step}")


def _check_not_precomputed(check_id, dataset, step, calls_before_reading, size):
    """Fail when `step` ran on every record before the check read an element, and the
    pipeline has no cache: the results were computed ahead and turned into a new dataset."""
    if calls_before_reading < size:
        return
    if observe(check_id, "cache count", lambda: len(_caches(dataset))):
        return  # a cache warmed by one epoch inside the answer is still a cache
    fail(check_id, f"{step} had already run on all {size} records when your function "
                   "returned, and the pipeline has no cache(): the results were computed "
                   "ahead, into a list or array, and made into a new dataset; a real dataset "
                   "may not fit in memory that way",
         hint=f"keep {step} in the pipeline (map) and add .cache() after it: the first "
              "epoch fills the cache")


# -- ex-11-1 ------------------------------------------------------------------------------------

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


# -- ex-11-2 ------------------------------------------------------------------------------------

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


# -- ex-11-3 ------------------------------------------------------------------------------------

WHERE = ("none", "before_map", "after_map")


def _schedule(n, epochs, open_s, read_s, map_s, step_s, where):
    """The reference: the simulated schedule of the pipeline with the cache at `where`.

    A cache fills during the first epoch, which runs everything; later epochs read the cache
    and run only what is below it (the map, when the cache sits before it) and the step."""
    source = ArtificialDataset(n, open_cost=open_s, read_cost=read_s)
    decode = ExpensiveMap(map_s)
    dataset = {"none": lambda: source.map(decode),
               "before_map": lambda: source.cache().map(decode),
               "after_map": lambda: source.map(decode).cache()}[where]()
    return ideal_total(dataset, epochs, step_s)


@check("ex-11-3", hint="the first epoch runs everything and fills the cache; each later epoch "
                        "runs only what comes after the cache, plus the training step",
       replayable=True)
def check_predicted_time(predicted_time):
    """ex-11-3: `predicted_time(n, epochs, open_s, read_s, map_s, step_s, where)` is exact.

    >>> def predicted_time(n, epochs, open_s, read_s, map_s, step_s, where):
    ...     full = open_s + n * (read_s + map_s + step_s)
    ...     later = {"none": full, "before_map": n * (map_s + step_s),
    ...              "after_map": n * step_s}[where]
    ...     return full + (epochs - 1) * later
    >>> check_predicted_time(predicted_time)
    ex-11-3 passed: the predicted totals match the schedule with no cache, before and after the map
    """
    check_id = "ex-11-3"
    generator = rng(check_id)
    cases = []
    for _ in range(6):
        n, epochs = int(generator.integers(2, 40)), int(generator.integers(2, 8))
        costs = [float(c) for c in generator.uniform(0.001, 0.05, size=4)]
        cases.append((n, epochs, *costs))
    cases += [(10, 1, 0.02, 0.005, 0.02, 0.005), (6, 5, 0.0, 0.01, 0.03, 0.002)]
    for case in cases:
        for where in WHERE:
            want = _schedule(*case, where)
            got = seconds(check_id, call_answer(check_id, predicted_time, *case, where,
                                                want_dataset=False))
            if not math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-12):
                fail(check_id, _explain_time(case, where, got, want))
    passed(check_id, "the predicted totals match the schedule with no cache, before and after "
                     "the map")


def _explain_time(case, where, got, want):
    n, epochs, open_s, read_s, map_s, step_s = case
    said = (f"for n={n}, epochs={epochs}, open_s={open_s:.4f}, read_s={read_s:.4f}, "
            f"map_s={map_s:.4f}, step_s={step_s:.4f}, where={where!r} expected {want:.4f} s, "
            f"got {got:.4f} s")
    full = open_s + n * (read_s + map_s + step_s)
    close = lambda value: math.isclose(got, value, rel_tol=1e-6)  # noqa: E731
    if where != "none" and close(epochs * (n * step_s if where == "after_map"
                                           else n * (map_s + step_s))):
        return said + ("; the first epoch is not cheaper: it runs every stage to fill the "
                       "cache")
    if where == "before_map" and close(full + (epochs - 1) * (open_s + n * (map_s + step_s))):
        return said + "; an epoch read from the cache does not open the file again"
    if where == "before_map" and close(full + (epochs - 1) * n * step_s):
        return said + ("; a cache before the map saves only the source: the map still runs "
                       "every epoch")
    if where == "after_map" and close(full + (epochs - 1) * n * (map_s + step_s)):
        return said + "; a cache after the map saves the map too, not just the source"
    if where != "none" and close(full):
        return said + "; the later epochs still run the training step on every element"
    if where == "none" and close(full):
        return said + f"; without a cache every one of the {epochs} epochs costs the same"
    return said


# -- ex-11-4 ------------------------------------------------------------------------------------

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
    augment = _Counted(lambda image: image + noise.uniform(-0.4, 0.4, size=image.shape),
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


# -- ex-11-5 ------------------------------------------------------------------------------------

@check("ex-11-5", hint="a file cache, cache(path), whose path is in `directory` and contains "
                        "the version: the same version finds its file, a new version never "
                        "reads an old one",
       replayable=True)
def check_versioned_file_cache(cached_pipeline):
    """ex-11-5: `cached_pipeline(records, transform, version, directory)` caches per version.

    >>> import os
    >>> check_versioned_file_cache(lambda records, transform, version, directory:
    ...     records.map(transform).cache(os.path.join(directory, f"transformed-{version}")))
    ex-11-5 passed: each version has its own cache file in the directory, reused by later runs
    """
    check_id = "ex-11-5"
    generator = rng(check_id)
    size = int(generator.integers(5, 9))
    records = generator.integers(0, 1000, size=size)
    first, second = (int(k) for k in generator.choice(np.arange(2, 10), size=2, replace=False))
    old, new = f"v{first}", f"v{first + 1}"
    directory = tempfile.mkdtemp(prefix="feedline-ex-11-5-")
    try:
        def run(factor, version):
            """One run of the learner's code: a new pipeline, one epoch, the calls it made."""
            transform = _Counted(lambda x: x * factor, cost=0.0005, name="transform")
            dataset = call_answer(check_id, cached_pipeline, Dataset.from_tensor_slices(
                records), transform, version, directory)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                elements = take_elements(check_id, dataset, 3 * size + 5)
            calls = observe(check_id, "transform calls", lambda: transform.calls)
            if [int(x) for x in elements] != (records * factor).tolist():
                return elements, calls, dataset
            return None, calls, dataset

        wrong, _, dataset = run(first, old)
        if wrong is not None:
            fail(check_id, f"version {old!r} with transform x * {first} gave "
                           f"{[int(x) for x in wrong]}, expected "
                           f"{(records * first).tolist()}")
        files = observe(check_id, "cache files", lambda: sorted(
            name for name in os.listdir(directory) if name.endswith(".cache")))
        if not files:
            where = ("the pipeline has no file cache: cache() with no name keeps the elements "
                     "in memory, which a later run cannot read"
                     if not observe(check_id, "has a file cache",
                                    lambda: any(c._filename for c in _caches(dataset)))
                     else "the cache file was written somewhere else")
            fail(check_id, f"after one epoch there is no .cache file in `directory`: {where}",
                 hint="give cache() a path inside `directory`, "
                      "os.path.join(directory, name)")
        _, calls, dataset = run(first, old)
        if calls:
            message = (f"a later run of version {old!r} called transform {calls} times "
                       "instead of reading the file its first run wrote")
            read_back = set(observe(check_id, "cache files read", lambda: sorted(
                {os.path.basename(c.cache_path) for c in _caches(dataset) if c._filename}))
                ) & set(files)
            if read_back:
                fail(check_id, message + f": it read {sorted(read_back)[0]}, but the cache is "
                                         "above transform, so transform still runs",
                     hint="a cache saves only the work above it: records.map(transform)"
                          ".cache(path)")
            fail(check_id, message + ": the file name must be the same for the same version "
                                     "(no random or time part, and do not delete the file)")
        wrong, _, _ = run(second, new)
        if wrong is not None:
            stale = [int(x) for x in wrong] == (records * first).tolist()
            fail(check_id, f"version {new!r} with transform x * {second} gave "
                           f"{[int(x) for x in wrong]}, expected {(records * second).tolist()}"
                           + ("; those are the stale elements of version " + repr(old)
                              + ": both versions used the same cache file" if stale else ""),
                 hint="put the version in the file name, so that a new version never reads "
                      "an old version's file" if stale else None)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    passed(check_id, "each version has its own cache file in the directory, reused by later "
                     "runs")
