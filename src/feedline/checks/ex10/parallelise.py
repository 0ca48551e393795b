"""Check for exercise `ex-10-1`: parallelise a map and keep its output.

The stand-in map function sleeps and notes the thread and the times of every call; the check
then asks for the elements of a plain `map`, in its order, and for calls that overlapped, never
for an absolute time.
"""

import threading
import time

from ...data import Dataset
from ...perf.timeline import peak_overlap
from .._common import call_answer, check, fail, observe, passed, rng, take_elements
from ._shared import _order_message


@check("ex-10-1", hint="one map with num_parallel_calls=2 or more (or AUTOTUNE); keep the "
                        "default deterministic=True so that the order stays",
       replayable=True)
def check_parallelise(parallelise):
    """ex-10-1: `parallelise(ds, f)` gives `ds.map(f)`'s elements, with calls running together.

    >>> check_parallelise(lambda ds, f: ds.map(f, num_parallel_calls=4))
    ex-10-1 passed: the same elements in the same order, with several calls at once
    """
    check_id = "ex-10-1"
    generator = rng(check_id)
    size = int(generator.integers(10, 15))
    scale = int(generator.integers(2, 9))
    calls = []

    def decode(x):
        """Sleeps (a slow first element, then quick ones) and records where it ran."""
        start = time.perf_counter()
        time.sleep(0.030 if int(x) == 0 else 0.004)
        calls.append((threading.get_ident(), start, time.perf_counter()))
        return x * scale + 1

    dataset = call_answer(check_id, parallelise, Dataset.range(size), decode)
    # Calls made before any element is read ran when the dataset was built, not in it.
    early = observe(check_id, "calls before reading", lambda: len(calls))
    main = threading.get_ident()
    got = [int(x) for x in take_elements(check_id, dataset, size + 5)]
    main = observe(check_id, "main thread", lambda: main)
    calls = [tuple(call) for call in observe(check_id, "calls", lambda: [list(c) for c in calls])]
    want = [i * scale + 1 for i in range(size)]
    if got != want:
        message, hint = _order_message(got, want, "decode(x) for every x in order:")
        fail(check_id, message, hint=hint)
    if early >= size:
        fail(check_id, f"f had already run on all {size} elements when parallelise returned, "
                       "before the check read any: the work ran outside the pipeline (a "
                       "list or thread pool turned into a dataset), so a training loop would "
                       "wait for the whole epoch first",
             hint="return ds.map(f, num_parallel_calls=...): the pipeline calls f as the "
                  "elements are read")
    if len(calls) != size:
        fail(check_id, f"f was called {len(calls)} times for {size} elements; call it once per "
                       "element, in a single map")
    peak = peak_overlap([(start, end) for _, start, end in calls])
    if peak < 2:
        on_main = sum(thread == main for thread, _, _ in calls)
        where = ("all in the loop's own thread" if on_main == size
                 else "one after another in a background thread")
        fail(check_id, f"the {size} calls of f ran one at a time ({where}); a plain map, "
                       "num_parallel_calls=1 or a prefetch does not run calls side by side",
             hint="give the map itself num_parallel_calls=2 or more, or AUTOTUNE")
    passed(check_id, "the same elements in the same order, with several calls at once")
