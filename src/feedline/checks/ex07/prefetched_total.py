"""Check for exercise `ex-07-4`: predict the total time of a pipeline ending in prefetch(1).

The prediction is compared with the simulated schedule, on pipelines where the producer is the
slower side and on pipelines where the training loop is.
"""

import math

from ...perf.simulate import ideal_total
from ...perf.workloads import ArtificialDataset, ExpensiveMap
from .._common import call_answer, check, fail, passed, rng, seconds


def _prefetched_schedule(n, epochs, open_s, read_s, map_s, step_s):
    """The simulated pipeline behind prefetch(1): the producer (open, read, map) works at
    most one element ahead of the loop; the prefetch thread starts again, from the opening of
    the file, every epoch."""
    dataset = ArtificialDataset(n, open_cost=open_s, read_cost=read_s).map(ExpensiveMap(map_s))
    return ideal_total(dataset.prefetch(1), epochs, step_s)


@check("ex-07-4", hint="per epoch: the first element costs the opening plus its read and map "
                        "before the loop can start; then every element costs the slower of "
                        "producing (read + map) and training (step); the last step comes "
                        "after. Every epoch starts again from the opening",
       replayable=True)
def check_prefetched_total(prefetched_total):
    """ex-07-4: `prefetched_total(n, epochs, open_s, read_s, map_s, step_s)` is exact.

    >>> def prefetched_total(n, epochs, open_s, read_s, map_s, step_s):
    ...     produce = read_s + map_s
    ...     return epochs * (open_s + produce + (n - 1) * max(produce, step_s) + step_s)
    >>> check_prefetched_total(prefetched_total)
    ex-07-4 passed: the predicted totals match the schedule, whichever side is slower
    """
    check_id = "ex-07-4"
    generator = rng(check_id)
    cases = []
    for slower in ("producer", "loop") * 3:
        n, epochs = int(generator.integers(3, 50)), int(generator.integers(1, 6))
        open_s, read_s, map_s = (float(c) for c in generator.uniform(0.001, 0.03, size=3))
        produce = read_s + map_s
        step_s = float(produce * (generator.uniform(0.3, 0.8) if slower == "producer"
                                  else generator.uniform(1.3, 3.0)))
        cases.append((n, epochs, open_s, read_s, map_s, step_s))
    cases += [(1, 2, 0.03, 0.015, 0.02, 0.01), (10, 2, 0.03, 0.002, 0.005, 0.03)]
    for case in cases:
        want = _prefetched_schedule(*case)
        got = seconds(check_id, call_answer(check_id, prefetched_total, *case,
                                            want_dataset=False))
        if not math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-12):
            fail(check_id, _explain_prefetched(case, got, want))
    passed(check_id, "the predicted totals match the schedule, whichever side is slower")


def _explain_prefetched(case, got, want):
    n, epochs, open_s, read_s, map_s, step_s = case
    said = (f"for n={n}, epochs={epochs}, open_s={open_s:.4f}, read_s={read_s:.4f}, "
            f"map_s={map_s:.4f}, step_s={step_s:.4f} expected {want:.4f} s, got {got:.4f} s")
    close = lambda value: math.isclose(got, value, rel_tol=1e-6)  # noqa: E731
    produce, slower = read_s + map_s, max(read_s + map_s, step_s)
    if close(epochs * (open_s + n * (produce + step_s))):
        return said + "; that is the time without prefetch: producing and training overlap"
    if close(epochs * (open_s + n * slower)):
        return said + ("; the loop cannot start before the first element is made, and the "
                       "last step still runs after the last element")
    if close(open_s + epochs * (produce + (n - 1) * slower + step_s)):
        return said + "; every epoch opens the file again"
    if close(open_s + produce + (epochs * n - 1) * slower + step_s):
        return said + ("; the prefetch does not run ahead across epochs: each epoch makes a "
                       "new iterator, which opens the file and fills the buffer from scratch")
    if close(epochs * (produce + (n - 1) * slower + step_s)):
        return said + "; opening the file delays the first element of each epoch"
    return said
