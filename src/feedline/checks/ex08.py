"""Checks for exercise notebook 08, prefetch (ids `ex-08-1` to `ex-08-4`).

The first two checks run the learner's pipeline against a stand-in training loop. Both sides
sleep instead of computing (a sleeping thread leaves the CPU free, like a loop waiting for an
accelerator), and record which thread did the work and when. They then assert a structure:
production ran in a background thread, and overlapped the consumer for a good share of the
time. No check compares an absolute time.
"""

import math
import threading
import time

import numpy as np

from ..data import Dataset
from ..perf.simulate import ideal_total
from ..perf.workloads import ArtificialDataset
from ._common import (call_answer, check, fail, observe, passed, read_elements, rng, seconds,
                      take_elements)


class _Recorder:
    """Work that sleeps and remembers (kind, thread id, start, end) for every call."""

    def __init__(self):
        self.intervals = []

    def work(self, kind, seconds):
        start = time.perf_counter()
        time.sleep(seconds)
        self.intervals.append((kind, threading.get_ident(), start, time.perf_counter()))

    def of(self, kind):
        return [(thread, start, end) for k, thread, start, end in self.intervals if k == kind]

    def overlap(self, kind_a, kind_b):
        """Seconds during which some `kind_a` work and some `kind_b` work ran together."""
        total = 0.0
        for _, a_start, a_end in self.of(kind_a):
            for _, b_start, b_end in self.of(kind_b):
                total += max(0.0, min(a_end, b_end) - max(a_start, b_start))
        return total


def _observed(check_id, main, recorder):
    """The loop's thread and the recorded work, as the grader will see them."""
    main = observe(check_id, "main thread", lambda: main)
    intervals = observe(check_id, "intervals", lambda: [list(item) for item in recorder.intervals])
    return main, [tuple(item) for item in intervals]


def _consume(check_id, dataset, recorder, step_s, limit):
    """Iterate `dataset` like a training loop (one sleeping step per element)."""
    elements = []
    for element in read_elements(check_id, dataset):
        recorder.work("step", step_s)
        elements.append(element)
        if len(elements) > limit:
            fail(check_id, f"the dataset gave more than {limit} elements; expected far fewer")
    return elements


@check("ex-08-1", hint="one method call at the end of the pipeline: prefetch with a buffer of "
                        "at least one element",
       replayable=True)
def check_with_prefetch(with_prefetch):
    """ex-08-1: `with_prefetch(ds)` keeps the elements and produces them in the background.

    >>> check_with_prefetch(lambda ds: ds.prefetch(1))
    ex-08-1 passed: same elements, produced in the background while the loop worked
    """
    check_id = "ex-08-1"
    size = int(rng(check_id).integers(10, 14))
    recorder = _Recorder()

    def produce(x):
        recorder.work("produce", 0.004)
        return x * 3

    source = Dataset.range(size).map(produce)
    dataset = call_answer(check_id, with_prefetch, source)
    main = threading.get_ident()
    elements = _consume(check_id, dataset, recorder, 0.004, size + 5)
    main, recorder.intervals = _observed(check_id, main, recorder)
    if [int(x) for x in elements] != [3 * i for i in range(size)]:
        fail(check_id, f"expected the same {size} elements in the same order, got "
                       f"{[int(x) for x in elements]}; prefetch must not change the elements")
    if all(thread == main for thread, _, _ in recorder.of("produce")):
        fail(check_id, "every element was produced in the training loop's own thread, so the "
                       "loop waited for each one; add prefetch with a buffer of at least 1")
    share = recorder.overlap("produce", "step") / sum(e - s for _, s, e in recorder.of("step"))
    if share < 0.3:
        fail(check_id, f"producing overlapped the loop's steps only {share:.0%} of the time "
                       "(expected well over 30%); is the prefetch at the end of the pipeline?")
    passed(check_id, "same elements, produced in the background while the loop worked")


@check("ex-08-2", hint="a prefetch moves into the background only the work before it in the "
                        "chain: map, then batch, then prefetch(1) last",
       replayable=True)
def check_make_pipeline(make_pipeline):
    """ex-08-2: `make_pipeline(raw, decode, batch_size)` maps, batches, then prefetches.

    >>> check_make_pipeline(lambda raw, decode, b: raw.map(decode).batch(b).prefetch(1))
    ex-08-2 passed: decode and batch run in the background; prefetch comes last
    """
    check_id = "ex-08-2"
    generator = rng(check_id)
    batch_size = int(generator.integers(3, 5))
    size = batch_size * 4 + int(generator.integers(1, batch_size))
    recorder = _Recorder()

    def decode(x):
        recorder.work("decode", 0.002)
        return np.full(3, x, dtype=np.int64)

    dataset = call_answer(check_id, make_pipeline, Dataset.range(size), decode, batch_size)
    main = threading.get_ident()
    batches = [np.asarray(b) for b in
               _consume(check_id, dataset, recorder, 0.002 * batch_size, size + 5)]
    main, recorder.intervals = _observed(check_id, main, recorder)
    stage, limit = observe(check_id, "last stage", lambda: [
        getattr(dataset, "_stage", None), getattr(dataset, "_limit", None)])
    sizes = [len(batch) for batch in batches]
    want = [batch_size] * (size // batch_size) + [size % batch_size]
    if sizes != want:
        fail(check_id, f"with {size} raw elements and batch_size={batch_size} expected batch "
                       f"sizes {want}, got {sizes}")
    if not np.array_equal(np.concatenate(batches), np.repeat(np.arange(size), 3).reshape(-1, 3)):
        fail(check_id, "expected decode(x) for every raw element x, in order")
    decode_threads = [thread for thread, _, _ in recorder.of("decode")]
    if any(thread == main for thread in decode_threads):
        on_main = sum(thread == main for thread in decode_threads)
        fail(check_id, f"decode ran {on_main} of {len(decode_threads)} times in the training "
                       "loop's thread; a prefetch only moves the work *before* it into the "
                       "background, so put it after map")
    if stage != "prefetch":
        fail(check_id, f"the last step of the pipeline is {stage or '?'!r}, "
                       "not 'prefetch'; put prefetch last so batching runs in the background too")
    if limit == 0:
        fail(check_id, "the pipeline ends with prefetch(0), which keeps no element ready: the "
                       "loop still waits while each batch is made",
             hint="give prefetch a buffer of at least one element: prefetch(1) or "
                  "prefetch(AUTOTUNE)")
    share = (recorder.overlap("decode", "step")
             / sum(end - start for _, start, end in recorder.of("step")))
    if share < 0.3:
        fail(check_id, f"decoding overlapped the loop's steps only {share:.0%} of the time "
                       "(expected well over 30%): the next batch was not being prepared while "
                       "the loop worked")
    # Again with another batch size: a batch(3) written in fits only a run that drew 3.
    other = batch_size + 2
    rebuilt = call_answer(check_id, make_pipeline, Dataset.range(size),
                          lambda x: np.full(3, x, dtype=np.int64), other)
    sizes = [len(np.asarray(b)) for b in take_elements(check_id, rebuilt, size + 5)]
    if sizes[:-1] != [other] * (len(sizes) - 1) or sum(sizes) != size:
        fail(check_id, f"with batch_size={other} the batches had sizes {sizes}: the "
                       "batch_size argument is not used",
             hint="batch(batch_size), not a number written in")
    passed(check_id, "decode and batch run in the background; prefetch comes last")


def _predicted_time(n, produce_s, consume_s, prefetch):
    """The reference: the simulated schedule of n elements made in produce_s each, behind
    prefetch(1) or not, and a loop taking consume_s per element."""
    dataset = ArtificialDataset(n, open_cost=0.0, read_cost=produce_s)
    return ideal_total(dataset.prefetch(1) if prefetch else dataset, 1, consume_s)


@check("ex-08-3", hint="draw the timeline for n = 3: the first element must be produced "
                        "before the loop starts, the last consumed after, and in between each "
                        "element costs whichever side is slower",
       replayable=True)
def check_predicted_time(predicted_time):
    """ex-08-3: `predicted_time(n, produce_s, consume_s, prefetch)` matches the schedule.

    >>> check_predicted_time(lambda n, p, c, prefetch:
    ...     p + (n - 1) * max(p, c) + c if prefetch else n * (p + c))
    ex-08-3 passed: the predicted totals match the schedule, with and without prefetch
    """
    check_id = "ex-08-3"
    generator = rng(check_id)
    cases = [(int(generator.integers(2, 50)), float(generator.uniform(0.001, 0.05)),
              float(generator.uniform(0.001, 0.05))) for _ in range(6)]
    cases += [(1, 0.02, 0.03), (10, 0.01, 0.01)]
    for n, produce_s, consume_s in cases:
        for prefetch in (False, True):
            want = _predicted_time(n, produce_s, consume_s, prefetch)
            got = seconds(check_id, call_answer(check_id, predicted_time, n, produce_s,
                                                consume_s, prefetch, want_dataset=False))
            if not math.isclose(got, want, rel_tol=1e-6):
                hint = ""
                if prefetch and math.isclose(got, n * max(produce_s, consume_s)):
                    hint = ("; with prefetch the first element still has to be produced "
                            "before the loop can start, and the last one still consumed")
                elif prefetch and math.isclose(got, n * (produce_s + consume_s)):
                    hint = "; with prefetch producing and consuming overlap"
                fail(check_id, f"for n={n}, produce_s={produce_s:.4f}, "
                               f"consume_s={consume_s:.4f}, prefetch={prefetch} expected "
                               f"{want:.4f} s, got {got:.4f} s{hint}")
    passed(check_id, "the predicted totals match the schedule, with and without prefetch")


def _simulate(produce_costs, consume_s, buffer_size):
    """The reference schedule of a producer with a bounded buffer and a steady consumer."""
    finish = taken = 0.0
    takes = []
    for i, cost in enumerate(produce_costs):
        start = finish if i < buffer_size else max(finish, takes[i - buffer_size])
        finish = start + cost
        taken = finish if i == 0 else max(finish, taken + consume_s)
        takes.append(taken)
    return (takes[-1] + consume_s) if takes else 0.0


@check("ex-08-4", hint="walk through the elements in order and keep the time each one is taken "
                        "by the loop; element i may start once element i - 1 is finished and, "
                        "when i >= buffer_size, once element i - buffer_size has been taken",
       replayable=True)
def check_simulate_prefetch(simulate_prefetch):
    """ex-08-4: `simulate_prefetch(costs, consume_s, buffer_size)` gives the total time.

    >>> check_simulate_prefetch(_simulate)
    ex-08-4 passed: the simulated totals match for steady and bursty producers
    """
    check_id = "ex-08-4"
    generator = rng(check_id)
    cases = []
    for _ in range(3):  # bursty: mostly quick elements, every k-th one slow (a new file)
        n, every = int(generator.integers(12, 30)), int(generator.integers(3, 7))
        costs = np.where(np.arange(n) % every == 0, 0.03, 0.002)
        cases += [(costs.tolist(), 0.01, size) for size in (1, 2, every, 50)]
    steady = generator.uniform(0.005, 0.02, size=15).tolist()
    cases += [(steady, 0.01, 1), (steady, 0.001, 3), ([0.02], 0.01, 1)]
    for costs, consume_s, buffer_size in cases:
        want = _simulate(costs, consume_s, buffer_size)
        got = seconds(check_id, call_answer(check_id, simulate_prefetch, list(costs),
                                            consume_s, buffer_size, want_dataset=False))
        if not math.isclose(got, want, rel_tol=1e-6):
            unbounded = _simulate(costs, consume_s, len(costs) + 1)
            hint = ""
            if math.isclose(got, unbounded) and not math.isclose(want, unbounded):
                hint = ("; that is the total for an unlimited buffer: the producer must wait "
                        "while the buffer holds buffer_size finished elements")
            elif buffer_size + 1 <= len(costs) and math.isclose(
                    got, _simulate(costs, consume_s, buffer_size + 1)):
                hint = ("; that is the total for buffer_size + 1: the buffer holds elements "
                        "produced and not yet taken by the loop")
            fail(check_id, f"for {len(costs)} elements (costs from {min(costs):.3f} to "
                           f"{max(costs):.3f} s), consume_s={consume_s} and "
                           f"buffer_size={buffer_size} expected {want:.4f} s, got "
                           f"{got:.4f} s{hint}")
    passed(check_id, "the simulated totals match for steady and bursty producers")
