"""Check for exercise `ex-11-5`: a file cache whose path names the version."""

import os
import shutil
import tempfile
import warnings

import numpy as np

from ...data import Dataset
from .._common import call_answer, check, fail, observe, passed, rng, take_elements
from ._shared import _Counted, _caches


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
