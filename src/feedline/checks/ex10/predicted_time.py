"""Check for exercise `ex-10-3`: predict how long a parallel map and a training loop take.

The reference is the simulated schedule of k workers feeding the loop; `_closed_form` is the
same walk through the elements written the way a learner would.
"""

import math

from ...data import Dataset
from ...perf.simulate import ideal_total
from ...perf.workloads import ExpensiveMap
from .._common import call_answer, check, fail, passed, rng, seconds


def _schedule(n, call_s, k, step_s):
    """The reference: the simulated schedule of n calls of call_s on k workers and a loop
    taking step_s per element (element i is ready after i // k + 1 rounds of call_s; the loop
    takes it when it is ready and the step on the previous one is done)."""
    mapped = Dataset.range(n).map(ExpensiveMap(call_s), num_parallel_calls=k)
    return ideal_total(mapped, 1, step_s)


def _closed_form(n, call_s, k, step_s):
    """The loop's walk through the elements, as a learner writes it."""
    taken = 0.0
    for i in range(n):
        ready = (i // k + 1) * call_s
        taken = ready if i == 0 else max(ready, taken + step_s)
    return taken + step_s


@check("ex-10-3", hint="walk through the elements: element i is ready after i // k + 1 rounds "
                        "of call_s; the loop takes it when it is ready and the previous step "
                        "is done; the epoch ends one step after the last element is taken",
       replayable=True)
def check_predicted_time(predicted_time):
    """ex-10-3: `predicted_time(n, call_s, k, step_s)` matches the computed schedule.

    >>> check_predicted_time(_closed_form)
    ex-10-3 passed: the predicted totals match the schedule of k workers and the loop
    """
    check_id = "ex-10-3"
    generator = rng(check_id)
    cases = []
    for _ in range(8):
        n, k = int(generator.integers(2, 40)), int(generator.integers(1, 17))
        cases.append((n, float(generator.uniform(0.005, 0.05)), k,
                      float(generator.uniform(0.001, 0.02))))
    cases += [(16, 0.025, 5, 0.0), (10, 0.02, 4, 0.002), (12, 0.02, 2, 0.015),
              (1, 0.03, 4, 0.01), (9, 0.01, 16, 0.005)]
    for n, call_s, k, step_s in cases:
        want = _schedule(n, call_s, k, step_s)
        got = seconds(check_id, call_answer(check_id, predicted_time, n, call_s, k, step_s,
                                            want_dataset=False))
        if math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-12):
            continue
        rounds = math.ceil(n / k)
        reason = ""
        if math.isclose(got, n * call_s / k + n * step_s) or math.isclose(got, n * call_s / k):
            reason = ("; the calls come in whole rounds of k: ceil(n / k) rounds, and a "
                      "round with fewer than k calls still takes call_s")
        elif math.isclose(got, rounds * call_s + n * step_s):
            reason = ("; that adds the loop's steps after the map, but the workers keep "
                      "working while the loop runs its step: the two overlap")
        elif math.isclose(got, max(rounds * call_s, n * step_s)):
            reason = ("; the loop cannot start before the first element is ready, and the "
                      "last step comes after the last element")
        elif math.isclose(got, n * (call_s + step_s)):
            reason = "; that is a plain map, one call at a time, with no overlap"
        fail(check_id, f"for n={n}, call_s={call_s:.4f}, k={k}, step_s={step_s:.4f} expected "
                       f"{want:.4f} s, got {got:.4f} s{reason}")
    passed(check_id, "the predicted totals match the schedule of k workers and the loop")
