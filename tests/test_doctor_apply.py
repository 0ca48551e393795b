"""Applying a suggestion: the pipeline is rebuilt exactly (same elements) or left to the
learner, and the change is measured the same bounded way as the diagnosis."""

import multiprocessing
import threading
import time

import pytest

from feedline.data import Dataset
from feedline.perf import ExpensiveMap, PythonWork, diagnose
from feedline.perf.doctor import rebuild

pytestmark = pytest.mark.timeout(120)


def test_a_rebuilt_pipeline_gives_the_same_elements():
    pipeline = Dataset.range(20).map(lambda x: x * 3).filter(lambda x: x % 2 == 0).batch(3)
    mapped = next(n for n in rebuild.nodes(pipeline) if n._stage == "map")
    faster = rebuild.replace(pipeline, mapped,
                             lambda n: n._input.map(n._function, num_parallel_calls=3))
    assert [b.tolist() for b in faster] == [b.tolist() for b in pipeline]
    assert any(getattr(n, "_num_parallel_calls", None) == 3 for n in rebuild.nodes(faster))


def test_a_pipeline_with_two_inputs_on_the_way_is_not_rebuilt():
    slow = Dataset.range(5).map(abs)
    zipped = Dataset.zip(slow, Dataset.range(5))
    assert rebuild.replace(zipped, slow, lambda n: n.prefetch(1)) is None


def test_apply_top_parallelises_a_sleeping_map_and_measures_the_result(capsys):
    diagnosis = diagnose(Dataset.range(10**6).map(ExpensiveMap(0.01)), seconds=0.6)
    after = diagnosis.apply_top()
    chosen, predicted, measured = after.applied
    assert chosen.kind == "parallelize" and measured == after.throughput
    assert measured > 2 * diagnosis.throughput  # loose: the prediction is about 8x
    assert 0.3 < measured / predicted < 3
    assert "predicted" in capsys.readouterr().out


def test_a_suggestion_that_cannot_be_rebuilt_is_marked_to_apply_by_hand(capsys):
    slow = Dataset.range(10**6).map(ExpensiveMap(0.01))
    diagnosis = diagnose(Dataset.zip(slow, Dataset.range(10**6)), seconds=0.4)
    assert diagnosis.suggestions and all(s.rebuild is None for s in diagnosis.suggestions)
    assert "[apply by hand]" in str(diagnosis)
    assert diagnosis.apply_top() is None
    assert "by hand" in capsys.readouterr().out


def test_applying_a_cache_fills_it_before_measuring():
    diagnosis = diagnose(Dataset.range(40).map(ExpensiveMap(0.01)), seconds=5.0)
    assert diagnosis.suggestions[0].kind == "cache"
    after = diagnosis.apply_top(verbose=False)
    assert after.applied[0].kind == "cache"
    assert after.throughput > 5 * diagnosis.throughput  # replayed, not recomputed


def test_apply_true_moves_python_work_to_processes_and_leaves_no_thread_or_process(capsys):
    # Only what this test starts counts: an earlier test's pool may still be waiting for the
    # garbage collector (an exception's traceback keeps its iterator alive until then).
    before = set(threading.enumerate())
    children_before = set(multiprocessing.active_children())
    pipeline = Dataset.range(10**6).map(PythonWork(60_000))
    diagnosis = diagnose(pipeline, seconds=0.6, apply=True)
    out = capsys.readouterr().out
    if any(s.kind == "parallelize" for s in diagnosis.suggestions):
        assert "in_processes(PythonWork(" in out and "measured" in out
    deadline = time.monotonic() + 10

    def new_children():
        return [p for p in multiprocessing.active_children() if p not in children_before]

    while (new_children() or
           [t for t in threading.enumerate() if t not in before and t.is_alive()]) and \
            time.monotonic() < deadline:
        time.sleep(0.02)
    assert new_children() == []
    assert [t.name for t in threading.enumerate() if t not in before] == []
