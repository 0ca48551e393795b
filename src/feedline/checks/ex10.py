"""Checks for exercise notebook 10, parallel map (ids `ex-10-1` to `ex-10-4`).

`ex-10-1` runs the learner's pipeline with a stand-in map function that sleeps and records on
which thread and when each call ran; it then asserts a structure (the elements and their order
are those of a plain `map`, and calls ran at the same time), never an absolute time. `ex-10-2`
and `ex-10-3` compare numbers with the rules the exercises state, on descriptions and values
drawn fresh for every run. `ex-10-4` hands the learner a pure-Python function that reports the
process it ran in, and asserts that the calls ran in two or more other processes and that the
order of the input was kept.
"""

import math
import os
import threading
import time

import numpy as np

from ..data import Dataset
from ..data.ops.parallel_map import in_processes
from ..perf.simulate import ideal_total
from ..perf.timeline import peak_overlap
from ..perf.workloads import ExpensiveMap
from ._common import (call_answer, check, fail, observe, passed, pipeline_nodes, rng, seconds,
                      take_elements)


def _maps(dataset):
    """[(runs in processes, num_parallel_calls, deterministic)] for each map in the pipeline."""
    return [[isinstance(node._function, in_processes), node._num_parallel_calls,
             node._deterministic]
            for node in pipeline_nodes(dataset) if node._stage == "map" and hasattr(node, "_function")]


def _order_message(got, want, what):
    """Why `got` is not `want`: another order, or other elements."""
    if sorted(got) == sorted(want):
        return (f"the elements are right but their order is not: expected {want}, got {got}",
                "keep the default deterministic=True, so that the map hands out its results "
                "in the order of its input even when a later call finishes first")
    return (f"expected {what} {want}, got {got}", None)


# -- ex-10-1: parallelise a map without changing its output ------------------------------------

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


# -- ex-10-2: choose num_parallel_calls for a machine and a workload ---------------------------

KINDS = ("io", "numpy", "python")


def _choose_parallel_calls(cores, kind, call_s, step_s):
    """The rule of the exercise: enough calls in flight to keep up with the step, but no more
    threads than cores for CPU work that releases the GIL, and one for pure Python."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    needed = max(1, math.ceil(call_s / step_s))
    if kind == "io":
        return needed
    if kind == "numpy":
        return min(needed, cores)
    return 1


def _describe_machine(cores, kind, call_s, step_s):
    return (f"for cores={cores}, kind={kind!r}, call_s={call_s:.4f}, step_s={step_s:.4f}")


def _ratio_away_from_whole(generator, low, high):
    """A ratio call_s / step_s whose fraction is clearly not 0, so rounding is never a toss."""
    return int(generator.integers(low, high)) + float(generator.uniform(0.2, 0.8))


def _whole_number(check_id, value, what):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer, float,
                                                                       np.floating)):
        fail(check_id, f"expected a whole number of {what}, got {type(value).__name__}")
    if value != int(value):
        fail(check_id, f"expected a whole number of {what}, got {value}")
    return int(value)


@check("ex-10-2", hint="needed = ceil(call_s / step_s) calls in flight keep up with the step; "
                        "waiting uses no core, so io gets all of them; numpy work is capped at "
                        "the cores; pure Python in threads gains nothing, so 1",
       replayable=True)
def check_choose_parallel_calls(choose_parallel_calls):
    """ex-10-2: `choose_parallel_calls(cores, kind, call_s, step_s)` follows the rule.

    >>> check_choose_parallel_calls(_choose_parallel_calls)
    ex-10-2 passed: the right num_parallel_calls for every machine and workload
    """
    check_id = "ex-10-2"
    generator = rng(check_id)
    cases = []
    for kind in KINDS * 3:
        cores = int(generator.choice([2, 4, 8, 16]))
        step_s = float(generator.uniform(0.002, 0.02))
        ratio = _ratio_away_from_whole(generator, 0, 3 * cores)
        cases.append((cores, kind, round(ratio * step_s, 6), round(step_s, 6)))
    cases += [
        (2, "io", 0.050, 0.004),       # 12.5 -> 13 waits in flight on 2 cores
        (2, "numpy", 0.050, 0.004),    # the same, but only 2 cores to compute on
        (8, "numpy", 0.0125, 0.005),   # 2.5 -> 3: fewer than the cores is enough
        (4, "python", 0.030, 0.005),   # pure Python: threads take turns
        (2, "io", 0.003, 0.010),       # the step is slower than a call: 1 is enough
    ]
    generator.shuffle(cases)
    for cores, kind, call_s, step_s in cases:
        want = _choose_parallel_calls(cores, kind, call_s, step_s)
        got = _whole_number(check_id, call_answer(check_id, choose_parallel_calls, cores, kind,
                                                  call_s, step_s, want_dataset=False),
                            "parallel calls")
        if got == want:
            continue
        setting = f"{_describe_machine(cores, kind, call_s, step_s)}: expected {want}, got {got}"
        needed = max(1, math.ceil(call_s / step_s))
        if got < 1:
            fail(check_id, f"{setting}; a map needs at least one call in flight")
        if kind == "python":
            fail(check_id, f"{setting}; pure-Python work holds the GIL, so threads run it one "
                           "at a time whatever their number: more than 1 only adds switching",
                 hint="for pure Python, threads gain nothing: answer 1 (exercise 4 uses "
                      "processes instead)")
        if kind == "numpy" and got > cores:
            fail(check_id, f"{setting}; NumPy work needs a core per call, and there are "
                           f"{cores}: more threads than cores make no call faster",
                 hint="cap CPU work at the number of cores: min(needed, cores)")
        if got < needed and got == math.floor(call_s / step_s):
            fail(check_id, f"{setting}; {got} calls in flight give {got} elements per "
                           f"{call_s:.4f} s, fewer than one per step: round up",
                 hint="k calls in flight give k elements per call_s seconds; the loop needs "
                      "one per step_s, so k >= call_s / step_s, rounded up")
        if kind == "io" and got < needed and got == cores:
            fail(check_id, f"{setting}; a call that waits uses no core, so the cores are no "
                           f"limit: with {got} calls in flight the map gives {got} elements "
                           f"per {call_s:.4f} s, slower than one per step",
                 hint="for waiting work do not cap at the cores: ceil(call_s / step_s)")
        if got > want:
            fail(check_id, f"{setting}; {want} already keeps up with the step, and every "
                           "extra worker holds elements in memory: choose the smallest that "
                           "keeps up")
        fail(check_id, setting)
    passed(check_id, "the right num_parallel_calls for every machine and workload")


# -- ex-10-3: predict the time of a parallel map with a consumer -------------------------------

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


# -- ex-10-4: make a pure-Python function scale -------------------------------------------------

class _PurePython:
    """Pure-Python work (holds the GIL) that says which process ran it: element 0 is slow.

    Defined at the top level of a module, so it can be sent to worker processes."""

    def __init__(self, scale, slow_loops=1_500_000, quick_loops=40_000):
        self.scale, self.slow_loops, self.quick_loops = scale, slow_loops, quick_loops

    def __call__(self, x):
        total = 0
        for i in range(self.slow_loops if int(x) == 0 else self.quick_loops):
            total += i & 3
        return np.int64(x * self.scale + 1 + (total & 0)), np.int64(os.getpid())

    def __repr__(self):
        return "pure_python_work"


@check("ex-10-4", hint="ds.map(in_processes(f), num_parallel_calls=2) (or AUTOTUNE): in_processes "
                        "runs f in worker processes, each with its own GIL; keep the default "
                        "deterministic=True",
       replayable=True)
def check_scale_python(scale_python):
    """ex-10-4: `scale_python(ds, f)` runs `f` in 2 or more worker processes, in order.

    >>> check_scale_python(lambda ds, f: ds.map(in_processes(f), num_parallel_calls=2))
    ex-10-4 passed: f ran in 2 or more worker processes, and the order was kept
    """
    check_id = "ex-10-4"
    generator = rng(check_id)
    size = int(generator.integers(8, 12))
    scale = int(generator.integers(2, 9))
    work = _PurePython(scale)
    dataset = call_answer(check_id, scale_python, Dataset.range(size), work)
    elements = take_elements(check_id, dataset, size + 5)
    main = observe(check_id, "main process", os.getpid)
    maps = observe(check_id, "maps", lambda: _maps(dataset))
    try:
        got = [int(value) for value, _ in elements]
        processes = [int(pid) for _, pid in elements]
    except (TypeError, ValueError):
        fail(check_id, "expected every element to be what f returns, a pair (value, process "
                       "id); apply f once, with map")
    want = [i * scale + 1 for i in range(size)]
    if got != want:
        message, hint = _order_message(got, want, "the values")
        fail(check_id, message, hint=hint)
    if not maps:
        fail(check_id, "the pipeline has no map: f ran before the dataset was made (a pool's "
                       "results turned into a dataset), so a training loop would wait for the "
                       "whole epoch first",
             hint="ds.map(in_processes(f), num_parallel_calls=2): the pipeline calls f as "
                  "the elements are read")
    others = set(processes) - {main}
    if not others:
        in_procs = [m for m in maps if m[0]]
        if in_procs and all(calls is None for _, calls, _ in in_procs):
            fail(check_id, "f ran in the notebook's own process: in_processes without "
                           "num_parallel_calls is a plain map, one call at a time, here",
                 hint="give the map num_parallel_calls=2 or more (or AUTOTUNE) as well")
        fail(check_id, f"all {size} calls ran in the notebook's own process, so they took "
                       "turns at its GIL: threads cannot run pure Python side by side",
             hint="wrap f with in_processes(f) and give the map num_parallel_calls=2 or more")
    if main in processes:
        fail(check_id, f"{processes.count(main)} of {size} calls ran in the notebook's own "
                       "process; run every call of f in the worker processes")
    if len(others) < 2:
        fail(check_id, "every call ran in a single worker process, so the calls still ran one "
                       "at a time: ask for num_parallel_calls=2 or more (or AUTOTUNE)")
    passed(check_id, "f ran in 2 or more worker processes, and the order was kept")
