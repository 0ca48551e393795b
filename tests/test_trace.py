"""Tracing any pipeline without changing it: spans per element, per worker, per epoch."""

import json
import threading
import time

import pytest

from feedline.data import Dataset
from feedline.data import dataset as dataset_module
from feedline.data.optimize import without_rewrites
from feedline.perf import ArtificialDataset, ExpensiveMap, benchmark, span, trace
from feedline.perf.timeline import Timeline

pytestmark = pytest.mark.timeout(60)


def test_every_stage_records_one_span_per_element():
    with trace() as tracer:
        # As written: by default a prefetch is added at the end (TensorFlow's inject_prefetch).
        out = [int(x) for x in without_rewrites(
            Dataset.range(4).map(lambda x: x * 2).filter(lambda x: x > 0))]
    assert out == [2, 4, 6]
    timeline = tracer.timeline()
    assert len(timeline.of("range")) == 4
    assert len(timeline.of("map")) == 4
    assert [s.index for s in timeline.of("filter")] == [0, 1, 2]
    assert {s.worker for s in timeline.spans} == {threading.current_thread().name}


def test_the_hook_is_removed_after_the_trace():
    with trace():
        assert len(dataset_module.iterator_hooks) == 1
    assert dataset_module.iterator_hooks == []
    with span("outside"):  # no trace: nothing recorded, nothing fails
        pass


def test_stages_with_the_same_name_are_numbered():
    with trace() as tracer:
        list(without_rewrites(Dataset.range(3).map(lambda x: x).map(lambda x: x)))
    assert set(tracer.timeline().stages) == {"range", "map", "map#2"}


def test_same_named_stages_are_numbered_by_their_place_in_the_pipeline_not_by_start_order():
    first = Dataset.range(3).map(lambda x: x + 1)
    second = first.map(lambda x: x * 2)
    with trace() as tracer:
        # The downstream map asks for its row first, as when its iterator starts first.
        assert tracer.label(second) == "map#2"
        assert tracer.label(first) == "map"
        assert tracer.label(second) == "map#2"


def test_same_named_stages_on_two_branches_get_distinct_numbers():
    left = Dataset.range(3).map(abs)
    right = Dataset.range(3).filter(lambda x: x > 0).map(lambda x: -x)
    with trace() as tracer:
        labels = {tracer.label(left), tracer.label(right)}
        below = Dataset.zip(left, right).map(lambda a, b: a + b)
        assert labels == {"map", "map#2"}
        assert tracer.label(below) == "map#3"  # two maps upstream, whichever branch


def test_a_trace_of_prefetch_shows_the_read_overlapping_the_training_step():
    result = benchmark(ArtificialDataset(3, 0.01, 0.01).prefetch(1), num_epochs=1,
                       train_step=0.01)
    timeline = result.timeline
    reads = timeline.of("read")
    steps = timeline.of("train_step")
    assert len(reads) == 3 and len(steps) == 3
    assert {s.worker for s in reads}.isdisjoint({s.worker for s in steps})
    overlap = sum(max(0.0, min(r.end, s.end) - max(r.start, s.start))
                  for r in reads for s in steps)
    assert overlap > 0


def test_a_parallel_map_records_overlapping_calls_on_several_workers():
    with trace() as tracer:
        list(Dataset.range(8).map(ExpensiveMap(0.01), num_parallel_calls=4))
    calls = tracer.timeline().of("map", kind="work")
    assert len(calls) == 8
    assert len({s.worker for s in calls}) >= 2
    assert any(a.start < b.end and b.start < a.end
               for a in calls for b in calls if a is not b)


def test_benchmark_numbers_epochs_and_times_them():
    result = benchmark(ArtificialDataset(3, 0.0, 0.0), num_epochs=3, train_step=0.0)
    assert len(result.epoch_times) == 3 and result.num_elements == 9
    assert sorted({s.epoch for s in result.timeline.of("read")}) == [0, 1, 2]
    assert result.total >= sum(result.epoch_times) * 0.99


def test_summary_splits_busy_from_waiting_and_names_the_bottleneck():
    result = benchmark(ArtificialDataset(3, 0.0, 0.02).map(ExpensiveMap(0.001)),
                       num_epochs=1, train_step=0.001)
    summary = result.timeline.summary()
    rows = {row.stage: row for row in summary.stages}
    assert summary.bottleneck == "read"
    assert rows["map"].waiting >= rows["read"].busy * 0.9  # the map waited for the reads
    assert rows["read"].busy > rows["map"].busy
    assert "bottleneck: read" in str(summary)


def test_chrome_trace_is_json_with_complete_events(tmp_path):
    with trace() as tracer:
        list(Dataset.range(3).prefetch(1))
    path = tmp_path / "trace.json"
    tracer.timeline().to_chrome_trace(path)
    events = json.loads(path.read_text())["traceEvents"]
    complete = [e for e in events if e["ph"] == "X"]
    assert complete and all({"name", "ts", "dur", "pid", "tid"} <= set(e) for e in complete)
    assert any(e["ph"] == "M" and e["name"] == "thread_name" for e in events)


def test_user_spans_count_their_calls():
    with trace() as tracer:
        for _ in range(3):
            with span("step"):
                time.sleep(0)
    assert [s.index for s in tracer.timeline().of("step")] == [0, 1, 2]


def test_self_time_excludes_nested_spans():
    spans = Timeline([]).spans
    assert spans == []
    with trace() as tracer:
        list(ArtificialDataset(2, 0.01, 0.0))
    summary = {row.stage: row for row in tracer.timeline().summary().stages}
    assert summary["open"].busy >= 0.009
    assert summary["read"].busy < summary["open"].busy  # the open inside read is not read's
