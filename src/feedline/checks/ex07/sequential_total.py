"""Check for exercise `ex-07-2`: predict the total time of a pipeline with no overlap.

The prediction is compared with the simulated schedule of the same pipeline: per epoch one
opening, every sample read and mapped, one training step per batch (the short last one too).
"""

import math

from ...perf.simulate import ideal_total
from ...perf.workloads import ArtificialDataset, ExpensiveMap
from .._common import call_answer, check, fail, passed, rng, seconds


def _sequential_schedule(n, epochs, open_s, read_s, map_s, step_s, batch_size):
    """The simulated pipeline: per epoch open once, read and map every sample, step every
    batch (the last, shorter one too)."""
    dataset = ArtificialDataset(n, open_cost=open_s, read_cost=read_s).map(ExpensiveMap(map_s))
    return ideal_total(dataset.batch(batch_size), epochs, step_s)


@check("ex-07-2", hint="per epoch: the file is opened once, every sample is read and mapped, "
                        "and the training step runs once per batch, including a last, shorter "
                        "batch",
       replayable=True)
def check_sequential_total(sequential_total):
    """ex-07-2: `sequential_total(n, epochs, open_s, read_s, map_s, step_s, batch_size)`.

    >>> check_sequential_total(lambda n, epochs, open_s, read_s, map_s, step_s, batch_size:
    ...     epochs * (open_s + n * (read_s + map_s) + -(-n // batch_size) * step_s))
    ex-07-2 passed: the predicted totals match the schedule on 9 new pipelines
    """
    check_id = "ex-07-2"
    generator = rng(check_id)
    cases = []
    for _ in range(6):
        n, epochs = int(generator.integers(5, 60)), int(generator.integers(1, 6))
        batch_size = int(generator.integers(2, 9))
        n += 1 if n % batch_size == 0 else 0  # a last, shorter batch
        costs = [float(c) for c in generator.uniform(0.001, 0.04, size=4)]
        cases.append((n, epochs, *costs, batch_size))
    cases += [(12, 2, 0.03, 0.015, 0.02, 0.01, 4), (7, 3, 0.0, 0.002, 0.005, 0.03, 1),
              (3, 1, 0.01, 0.01, 0.01, 0.01, 8)]
    for case in cases:
        want = _sequential_schedule(*case)
        got = seconds(check_id, call_answer(check_id, sequential_total, *case,
                                            want_dataset=False))
        if not math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-12):
            fail(check_id, _explain_sequential(case, got, want))
    passed(check_id, f"the predicted totals match the schedule on {len(cases)} new pipelines")


def _explain_sequential(case, got, want):
    n, epochs, open_s, read_s, map_s, step_s, batch_size = case
    said = (f"for n={n}, epochs={epochs}, open_s={open_s:.4f}, read_s={read_s:.4f}, "
            f"map_s={map_s:.4f}, step_s={step_s:.4f}, batch_size={batch_size} expected "
            f"{want:.4f} s, got {got:.4f} s")
    close = lambda value: math.isclose(got, value, rel_tol=1e-6)  # noqa: E731
    batches = -(-n // batch_size)
    if close(epochs * (open_s + n * (read_s + map_s + step_s))):
        return said + "; the training step runs once per batch, not once per sample"
    if close(epochs * (open_s + n * (read_s + map_s)) + epochs * (n // batch_size) * step_s):
        return said + (f"; {n} samples in batches of {batch_size} make {batches} batches: "
                       "the last, shorter one is trained on too")
    if close(epochs * (open_s + n * (read_s + map_s)) + epochs * n / batch_size * step_s):
        return said + (f"; a training step is a whole step even for the last, shorter batch: "
                       f"{batches} steps per epoch, not {n / batch_size:.2f}")
    if close(open_s + epochs * (n * (read_s + map_s) + batches * step_s)):
        return said + "; every epoch opens the file again"
    if close(open_s + n * (read_s + map_s) + batches * step_s):
        return said + f"; that is one epoch; there are {epochs}"
    return said
