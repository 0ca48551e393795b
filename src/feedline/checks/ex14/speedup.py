"""Check for exercise `ex-14-2`: predict the speed-up of batching before a vectorised map.

The check compares the learner's answer with a reference on costs drawn from the seed.
"""

import math

from .._common import call_answer, check, fail, passed, rng, seconds


def _speedup(n, read_s, call_s, item_s, step_s, batch_size):
    """Walk both pipelines: per element map then batch, versus batch then a vectorised map."""
    before = after = 0.0
    remaining = n
    while remaining:
        size = min(batch_size, remaining)
        before += size * (read_s + call_s + item_s) + step_s
        after += size * read_s + (call_s + size * item_s) + step_s
        remaining -= size
    return before / after


@check("ex-14-2", hint="add up one epoch before and after: per element the map costs its call "
                        "plus one item; per batch it costs one call plus one item per element "
                        "in the batch; the last batch may be shorter. The speed-up is before / "
                        "after",
       replayable=True)
def check_predicted_speedup(predicted_speedup):
    """ex-14-2: `predicted_speedup(n, read_s, call_s, item_s, step_s, batch_size)` is exact.

    >>> def predicted_speedup(n, read_s, call_s, item_s, step_s, batch_size):
    ...     batches = -(-n // batch_size)
    ...     before = n * (read_s + call_s + item_s) + batches * step_s
    ...     after = n * (read_s + item_s) + batches * (call_s + step_s)
    ...     return before / after
    >>> check_predicted_speedup(predicted_speedup)
    ex-14-2 passed: the predicted speed-ups match the schedule on 9 new pipelines
    """
    check_id = "ex-14-2"
    generator = rng(check_id)
    cases = []
    for _ in range(7):
        batch_size = int(generator.integers(4, 65))
        n = int(generator.integers(2, 12)) * batch_size + int(generator.integers(1, batch_size))
        read_s, call_s = (float(c) for c in generator.uniform(0.0002, 0.005, size=2))
        item_s, step_s = float(generator.uniform(0.00001, 0.0005)), float(
            generator.uniform(0.005, 0.05))
        cases.append((n, read_s, call_s, item_s, step_s, batch_size))
    cases += [(64, 0.001, 0.002, 0.0001, 0.02, 32), (10, 0.0, 0.01, 0.0, 0.0, 1)]
    for case in cases:
        want = _speedup(*case)
        got = seconds(check_id, call_answer(check_id, predicted_speedup, *case,
                                            want_dataset=False))
        if not math.isclose(got, want, rel_tol=1e-6):
            fail(check_id, _explain_speedup(case, got, want))
    passed(check_id, f"the predicted speed-ups match the schedule on {len(cases)} new "
                     "pipelines")


def _explain_speedup(case, got, want):
    n, read_s, call_s, item_s, step_s, batch_size = case
    said = (f"for n={n}, read_s={read_s:.5f}, call_s={call_s:.5f}, item_s={item_s:.6f}, "
            f"step_s={step_s:.4f}, batch_size={batch_size} expected a speed-up of {want:.4f}, "
            f"got {got:.4f}")
    close = lambda value: math.isclose(got, value, rel_tol=1e-6)  # noqa: E731
    batches, full = -(-n // batch_size), n // batch_size
    before = n * (read_s + call_s + item_s) + batches * step_s
    # (`want` is before / after, with after = n * (read_s + item_s) + batches * (call_s + step_s))
    if close(1 / want):
        return said + "; that is after / before: a speed-up is the old time over the new one"
    if close((n * (read_s + call_s + item_s) + full * step_s)
             / (n * (read_s + item_s) + full * (call_s + step_s))):
        return said + (f"; {n} elements in batches of {batch_size} make {batches} batches: "
                       "the last, shorter one costs a call and a step too")
    if close(before / (n * read_s + batches * (call_s + batch_size * item_s + step_s))):
        return said + ("; the last batch is shorter, so its vectorised call handles fewer "
                       "items")
    if close((call_s + item_s) / (call_s / batch_size + item_s)) or close(
            n * (call_s + item_s) / (batches * call_s + n * item_s)):
        return said + ("; that is the speed-up of the map alone: reading and the training "
                       "step take the same time in both pipelines, and they count in the total")
    if close(before / (n * read_s + batches * (call_s + step_s))):
        return said + "; the vectorised map still does the work of every item"
    return said
