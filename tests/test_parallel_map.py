"""Parallel map: the same elements as the sequential map, in input or in completion order."""

import os
import threading
import time

import numpy as np
import pytest

from feedline.data import AUTOTUNE, Dataset, Options, in_processes

pytestmark = pytest.mark.timeout(60)


def jittered(x):
    time.sleep(0.001 * ((int(x) * 7) % 5))
    return x * 10, {"even": x % 2 == 0}


def square(x):
    return x * x


def fail_on_five(x):
    if x == 5:
        raise ValueError("five is not allowed")
    return x


def as_list(dataset):
    return [(int(a), bool(b["even"])) for a, b in dataset]


@pytest.mark.parametrize("calls", [1, 2, 4, AUTOTUNE])
def test_deterministic_parallel_map_equals_the_sequential_map(calls):
    source = Dataset.range(40)
    expected = as_list(source.map(jittered))
    assert as_list(source.map(jittered, num_parallel_calls=calls)) == expected


def test_nondeterministic_map_yields_the_same_elements_in_completion_order():
    def delayed(x):
        time.sleep(0.05 if x == 0 else 0.0)
        return x

    out = [int(x) for x in Dataset.range(8).map(delayed, num_parallel_calls=4,
                                                deterministic=False)]
    assert sorted(out) == list(range(8))
    assert out[0] != 0  # the slow first element was overtaken


def test_options_deterministic_false_applies_when_the_argument_is_not_given():
    def delayed(x):
        time.sleep(0.05 if x == 0 else 0.0)
        return x

    ds = Dataset.range(8).map(delayed, num_parallel_calls=4).with_options(
        Options(deterministic=False))
    assert [int(x) for x in ds][0] != 0
    explicit = Dataset.range(8).map(delayed, num_parallel_calls=4, deterministic=True)
    assert [int(x) for x in explicit.with_options(Options(deterministic=False))] == list(range(8))


def test_results_are_converted_like_the_sequential_map():
    seq = list(Dataset.range(3).map(lambda x: float(x) / 2))
    par = list(Dataset.range(3).map(lambda x: float(x) / 2, num_parallel_calls=2))
    assert [v.dtype for v in par] == [v.dtype for v in seq] == [np.float32] * 3


def test_tuples_are_unpacked_into_arguments():
    ds = Dataset.zip((Dataset.range(4), Dataset.range(4))).map(lambda a, b: a + b,
                                                               num_parallel_calls=2)
    assert [int(x) for x in ds] == [0, 2, 4, 6]


def test_workers_really_overlap():
    running, peak, lock = [0], [0], threading.Lock()

    def slow(x):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.02)
        with lock:
            running[0] -= 1
        return x

    list(Dataset.range(12).map(slow, num_parallel_calls=4))
    assert peak[0] >= 2


def test_an_exception_reaches_the_consumer_with_its_type_and_traceback():
    seen = []
    with pytest.raises(ValueError, match="five is not allowed") as info:
        for x in Dataset.range(20).map(fail_on_five, num_parallel_calls=3):
            seen.append(int(x))
    assert seen == [0, 1, 2, 3, 4]  # every element before the failing one, in order
    assert any(entry.name == "fail_on_five" for entry in info.traceback)


def test_an_upstream_error_arrives_in_its_place():
    def boom(x):
        if x == 2:
            raise OSError("bad read")
        return x

    out = []
    with pytest.raises(OSError, match="bad read"):
        for x in Dataset.range(6).map(boom).map(lambda x: x, num_parallel_calls=2):
            out.append(int(x))
    assert out == [0, 1]


def test_the_iterator_goes_on_after_an_error_and_then_ends_cleanly():
    iterator = iter(Dataset.range(8).map(fail_on_five, num_parallel_calls=3))
    with pytest.raises(ValueError):
        for _ in iterator:
            pass
    assert [int(x) for x in iterator] == [6, 7]  # as in TensorFlow: the error took one place
    with pytest.raises(StopIteration):
        next(iterator)


def test_processes_give_the_same_elements():
    ds = Dataset.range(20).map(in_processes(square), num_parallel_calls=2)
    assert [int(x) for x in ds] == [x * x for x in range(20)]


def test_processes_really_run_elsewhere():
    pids = {int(x) for x in Dataset.range(8).map(in_processes(_pid), num_parallel_calls=2)}
    assert os.getpid() not in pids


def _pid(_):
    return os.getpid()


def test_process_errors_keep_their_type():
    with pytest.raises(ValueError, match="five"):
        list(Dataset.range(10).map(in_processes(fail_on_five), num_parallel_calls=2))


def test_processes_end_when_the_error_is_dropped_without_waiting_for_the_garbage_collector():
    """The error's traceback must not form a cycle that keeps the iterator (and its worker
    processes) alive until `gc` happens to run."""
    import gc
    import multiprocessing

    before = set(multiprocessing.active_children())
    gc.disable()
    try:
        try:
            list(Dataset.range(10).map(in_processes(fail_on_five), num_parallel_calls=2))
        except ValueError:
            pass
        deadline = time.monotonic() + 10
        while [p for p in multiprocessing.active_children() if p not in before] and \
                time.monotonic() < deadline:
            time.sleep(0.02)
        assert [p for p in multiprocessing.active_children() if p not in before] == []
    finally:
        gc.enable()


def test_a_function_that_cannot_be_sent_to_a_process_is_a_clear_error():
    with pytest.raises(TypeError, match="cannot be sent to a worker process"):
        in_processes(lambda x: x)


def test_in_processes_without_parallelism_runs_here():
    assert [int(x) for x in Dataset.range(3).map(in_processes(square))] == [0, 1, 4]


def test_parallel_batch_equals_sequential_batch():
    source = Dataset.range(23).map(lambda x: (x, {"y": x * 2}))
    expected = [(a.tolist(), b["y"].tolist()) for a, b in source.batch(4)]
    for calls in (2, AUTOTUNE):
        got = [(a.tolist(), b["y"].tolist())
               for a, b in source.batch(4, num_parallel_calls=calls)]
        assert got == expected
    dropped = source.batch(4, drop_remainder=True, num_parallel_calls=2)
    assert len(list(dropped)) == 5


def test_a_process_pool_stopped_from_its_own_manager_thread_does_not_raise():
    """An iterator's finalizer can run on the pool's manager thread (garbage collection runs
    on whichever thread allocates); shutting down there must not try to join that thread."""
    import concurrent.futures
    import threading

    from feedline.data.ops.parallel_map import _shut_down

    executor = concurrent.futures.ProcessPoolExecutor(max_workers=1)
    assert executor.submit(abs, -3).result() == 3
    manager = executor._executor_manager_thread
    failures = []

    def stop_as_the_manager():
        try:
            _shut_down(executor)
        except BaseException as error:  # noqa: BLE001 - recorded for the assertion
            failures.append(error)

    # Run the shutdown with `current_thread()` answering the manager thread, as a finalizer
    # called on that thread would see it.
    original = threading.current_thread
    threading.current_thread = lambda: manager
    try:
        stop_as_the_manager()
    finally:
        threading.current_thread = original
    executor.shutdown(wait=True)
    assert failures == []
