"""Check for exercise `ex-11-3`: predict the time of a cached pipeline over several epochs."""

import math

from ...perf.simulate import ideal_total
from ...perf.workloads import ArtificialDataset, ExpensiveMap
from .._common import call_answer, check, fail, passed, rng, seconds


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
