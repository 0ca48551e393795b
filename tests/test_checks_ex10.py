"""The ex-10 checks accept the reference answers and reject plausible wrong ones."""

import copy
import math
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

from feedline.checks import _replay, ex10
from feedline.data import AUTOTUNE, Dataset, in_processes
from checkkit import assert_same_verdict_when_replayed, blank, check_rejects, graded


# -- ex-10-1: parallelise a map without changing its output -----------------------------------

@pytest.mark.parametrize("answer", [
    lambda ds, f: ds.map(f, num_parallel_calls=4),
    lambda ds, f: ds.map(f, num_parallel_calls=AUTOTUNE),
    lambda ds, f: ds.map(f, num_parallel_calls=2, deterministic=True).prefetch(1),
])
def test_parallelise_accepts_a_parallel_map_that_keeps_the_order(answer, capsys):
    ex10.check_parallelise(answer)
    assert capsys.readouterr().out == (
        "ex-10-1 passed: the same elements in the same order, with several calls at once\n")


def decoded_by_a_thread_pool_first(ds, f):
    """Calls f side by side and in order, but all of them before the pipeline exists."""
    with ThreadPoolExecutor(4) as pool:
        return Dataset.from_tensor_slices(np.array(list(pool.map(f, list(ds)))))


@pytest.mark.parametrize("wrong, match", [
    (lambda ds, f: ds.map(f), "one at a time \\(all in the loop's own thread\\)"),
    (lambda ds, f: ds.map(f).prefetch(4), "one at a time \\(one after another in a background"),
    (lambda ds, f: ds.map(f, num_parallel_calls=1), "one at a time"),
    (lambda ds, f: ds.map(f, num_parallel_calls=4, deterministic=False),
     "(?s)order is not.*deterministic=True"),
    (lambda ds, f: ds.map(f, num_parallel_calls=4).take(3), "expected decode"),
    (lambda ds, f: ds.map(in_processes(f), num_parallel_calls=2), "cannot be sent"),
    (lambda ds, f: [f(x) for x in ds], "should return a Dataset"),
    (decoded_by_a_thread_pool_first, "(?s)already run on all \\d+ elements.*ds.map"),
    (blank, "NotImplementedError"),
])
def test_parallelise_rejects(wrong, match):
    check_rejects(ex10.check_parallelise, wrong, match)


def test_parallelise_check_rejects_a_sequential_map_with_the_exercise_hint():
    with pytest.raises(AssertionError) as failure:
        ex10.check_parallelise(lambda ds, f: ds.map(f))
    assert "num_parallel_calls=2 or more, or AUTOTUNE" in str(failure.value)


# -- ex-10-2: choose num_parallel_calls ---------------------------------------------------------

def choose_parallel_calls(cores, kind, call_s, step_s):
    needed = max(1, math.ceil(call_s / step_s))
    return {"io": needed, "numpy": min(needed, cores), "python": 1}[kind]


def test_choose_parallel_calls_accepts_the_rule(capsys):
    ex10.check_choose_parallel_calls(choose_parallel_calls)
    assert capsys.readouterr().out == (
        "ex-10-2 passed: the right num_parallel_calls for every machine and workload\n")


def test_choose_parallel_calls_examples_from_the_exercise():
    assert ex10._choose_parallel_calls(2, "io", 0.050, 0.004) == 13
    assert ex10._choose_parallel_calls(2, "numpy", 0.050, 0.004) == 2
    assert ex10._choose_parallel_calls(8, "numpy", 0.0125, 0.005) == 3
    assert ex10._choose_parallel_calls(4, "python", 0.030, 0.005) == 1
    with pytest.raises(ValueError, match="kind must be one of"):
        ex10._choose_parallel_calls(2, "gpu", 0.01, 0.01)


def always_the_cores(cores, kind, call_s, step_s):
    return cores


def never_capped(cores, kind, call_s, step_s):
    return max(1, math.ceil(call_s / step_s))


def capped_for_io_too(cores, kind, call_s, step_s):
    return 1 if kind == "python" else min(cores, max(1, math.ceil(call_s / step_s)))


def rounded_down(cores, kind, call_s, step_s):
    needed = max(1, int(call_s / step_s))
    return {"io": needed, "numpy": min(needed, cores), "python": 1}[kind]


def threads_for_python(cores, kind, call_s, step_s):
    needed = max(1, math.ceil(call_s / step_s))
    return {"io": needed, "numpy": min(needed, cores), "python": min(needed, cores)}[kind]


def a_few_spare(cores, kind, call_s, step_s):
    return choose_parallel_calls(cores, kind, call_s, step_s) + (kind == "io")


@pytest.mark.parametrize("wrong, match", [
    (always_the_cores, "holds the GIL|uses no core|more threads than cores"),
    (never_capped, "holds the GIL|more threads than cores"),
    (capped_for_io_too, "uses no core, so the cores are no limit"),
    (rounded_down, "round up"),
    (threads_for_python, "holds the GIL"),
    (a_few_spare, "choose the smallest that keeps up"),
    (lambda cores, kind, call_s, step_s: call_s / step_s, "whole number"),
    (lambda cores, kind, call_s, step_s: "AUTOTUNE", "whole number"),
    (blank, "NotImplementedError"),
])
def test_choose_parallel_calls_rejects(wrong, match):
    check_rejects(ex10.check_choose_parallel_calls, wrong, match)


# -- ex-10-3: predict the total time ---------------------------------------------------------

def predicted_time(n, call_s, k, step_s):
    finish_last_round = max((i // k + 1) * call_s + (n - 1 - i) * step_s for i in range(n))
    return finish_last_round + step_s


def test_predicted_time_accepts_a_closed_form(capsys):
    ex10.check_predicted_time(predicted_time)
    assert capsys.readouterr().out == (
        "ex-10-3 passed: the predicted totals match the schedule of k workers and the loop\n")


def test_the_reference_schedule_gives_the_lesson_numbers():
    assert math.isclose(ex10._schedule(16, 0.025, 5, 0.0), 0.100)
    assert math.isclose(ex10._schedule(16, 0.025, 16, 0.0), 0.025)
    assert math.isclose(ex10._schedule(12, 0.02, 2, 0.015), 0.02 + 12 * 0.015)


@pytest.mark.parametrize("wrong, match", [
    (lambda n, c, k, s: n * c / k + n * s, "whole rounds"),
    (lambda n, c, k, s: n * c / k, "whole rounds"),
    (lambda n, c, k, s: math.ceil(n / k) * c + n * s, "overlap"),
    (lambda n, c, k, s: max(math.ceil(n / k) * c, n * s), "cannot start before the first"),
    (lambda n, c, k, s: n * (c + s), "plain map"),
    (lambda n, c, k, s: math.ceil(n / k) * c + s, "expected"),
    (lambda n, c, k, s: "fast", "a number"),
    (blank, "NotImplementedError"),
])
def test_predicted_time_rejects(wrong, match):
    check_rejects(ex10.check_predicted_time, wrong, match)


# -- ex-10-4: make pure Python scale with processes --------------------------------------------

@pytest.mark.parametrize("answer", [
    lambda ds, f: ds.map(in_processes(f), num_parallel_calls=2),
    lambda ds, f: ds.map(in_processes(f), num_parallel_calls=AUTOTUNE),
    lambda ds, f: ds.map(in_processes(f), num_parallel_calls=3).prefetch(1),
])
def test_scale_python_accepts_a_process_map_that_keeps_the_order(answer, capsys):
    ex10.check_scale_python(answer)
    assert capsys.readouterr().out == (
        "ex-10-4 passed: f ran in 2 or more worker processes, and the order was kept\n")


def run_by_a_process_pool_first(ds, f):
    """Runs f in worker processes and in order, but all of it before the pipeline exists."""
    with ProcessPoolExecutor(2) as pool:
        values, pids = zip(*pool.map(f, [int(x) for x in ds], chunksize=1))
    return Dataset.from_tensor_slices((np.array(values), np.array(pids)))


@pytest.mark.parametrize("wrong, match", [
    (lambda ds, f: ds.map(f, num_parallel_calls=2), "took turns at its GIL"),
    (lambda ds, f: ds.map(f), "took turns at its GIL"),
    (lambda ds, f: ds.map(in_processes(f)), "in_processes without num_parallel_calls"),
    (lambda ds, f: ds.map(in_processes(f), num_parallel_calls=1), "single worker process"),
    (lambda ds, f: ds.map(in_processes(f), num_parallel_calls=2, deterministic=False),
     "order is not"),
    (lambda ds, f: ds.map(lambda x: f(x)[0], num_parallel_calls=2), "pair"),
    (run_by_a_process_pool_first, "(?s)has no map: f ran before.*in_processes"),
    (blank, "NotImplementedError"),
])
def test_scale_python_rejects(wrong, match):
    check_rejects(ex10.check_scale_python, wrong, match)


# -- replay: the grader gives the same verdict on the record ------------------------------------

REPLAY_CASES = [
    (ex10.check_parallelise, lambda ds, f: ds.map(f, num_parallel_calls=3),
     lambda ds, f: ds.map(f)),
    (ex10.check_choose_parallel_calls, choose_parallel_calls, always_the_cores),
    (ex10.check_predicted_time, predicted_time, lambda n, c, k, s: n * c / k),
    (ex10.check_scale_python, lambda ds, f: ds.map(in_processes(f), num_parallel_calls=2),
     lambda ds, f: ds.map(f, num_parallel_calls=2)),
]


@pytest.mark.parametrize("case", range(len(REPLAY_CASES)),
                         ids=[case[0].check_id for case in REPLAY_CASES])
def test_parallel_map_checks_give_the_same_verdict_when_replayed(monkeypatch, case):
    check, right, wrong = REPLAY_CASES[case]
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)


def test_a_forged_main_process_id_does_not_turn_a_thread_map_into_a_pass(monkeypatch):
    """A thread map's calls all ran in one process; claiming the notebook ran in another
    process still leaves a single worker process, which fails."""
    _, observation = graded(monkeypatch, ex10.check_scale_python,
                            lambda ds, f: ds.map(f, num_parallel_calls=2))
    forged = copy.deepcopy(observation)
    for event in forged["events"]:
        if event["op"] == "observe" and event["name"] == "main process":
            event["value"] = -1
    outcome, message = _replay.judge("ex-10-4", forged, "5eed")
    assert outcome == "failed" and "single worker process" in message


def test_a_forged_overlap_record_without_calls_fails(monkeypatch):
    _, observation = graded(monkeypatch, ex10.check_parallelise,
                            lambda ds, f: ds.map(f, num_parallel_calls=3))
    forged = copy.deepcopy(observation)
    for event in forged["events"]:
        if event["op"] == "observe" and event["name"] == "calls":
            event["value"] = []  # no calls recorded: nothing ran at the same time
    assert _replay.judge("ex-10-1", forged, "5eed")[0] == "failed"


def test_the_reference_is_the_simulated_schedule_even_when_the_loop_is_slow():
    # The feeder pulls at most 2k elements ahead, which delays the calls but not the loop.
    for n, call_s, k, step_s in [(30, 0.01, 2, 0.05), (9, 0.01, 16, 0.005), (1, 0.03, 4, 0.01)]:
        assert math.isclose(ex10._schedule(n, call_s, k, step_s),
                            ex10._closed_form(n, call_s, k, step_s), rel_tol=1e-9)
