"""An interleave whose consumer reads every block itself, with no worker thread (a later
epoch after the trial chose that), opens and reads the datasets of whole rounds in one go:
the same elements in the same order as the sequential interleave, errors in their places,
checkpoints that resume exactly, and the files of small-file readers closed."""

import os

import numpy as np
import pytest
from outcomes import outcomes
from threadkit import settle, snapshot

import feedline as fl
from feedline.data import Dataset, Iterator
from feedline.data.autotune import model
from feedline.data.ops import interleave_trial
from feedline.data.state.iterators import restore_iterator, save_iterator

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def inline_runs(monkeypatch):
    """Counts the runs `_inline_rounds` gathered, so a test knows that path ran."""
    calls = {"runs": 0}
    gather = interleave_trial.TrialInterleaveIterator._inline_rounds

    def counted(self):
        calls["runs"] += 1
        return gather(self)

    monkeypatch.setattr(interleave_trial.TrialInterleaveIterator, "_inline_rounds", counted)
    return calls


def settled_inline(dataset):
    """`dataset`, as an epoch after its trial chose to read without threads."""
    dataset.__dict__["_trial_outcome"] = "without"
    return dataset


def random_case(rng):
    """A random interleave: dataset lengths (some empty), elements that raise, inputs that
    raise, inputs whose function raises; and the same pipeline's sequential form."""
    count = int(rng.integers(0, 30))
    lengths = rng.integers(0, 90, count)
    bad_elements = set(rng.choice(5000, 8).tolist()) if rng.random() < 0.5 else set()
    bad_inputs = set(rng.choice(max(count, 1), 2).tolist()) if rng.random() < 0.3 else set()
    bad_functions = set(rng.choice(max(count, 1), 2).tolist()) if rng.random() < 0.3 else set()
    cycle = int(rng.integers(1, 6))

    def check_element(value):
        if int(value) % 5000 in bad_elements:
            raise ValueError(f"element {int(value)}")
        return value

    def check_input(index):
        if int(index) in bad_inputs:
            raise ValueError(f"input {int(index)}")
        return index

    def open_dataset(index):
        if int(index) in bad_functions:
            raise ValueError(f"function {int(index)}")
        start = int(index) * 1000
        return Dataset.range(start, start + int(lengths[int(index)])).map(check_element)

    def pipeline(parallel, calls=None):
        return Dataset.range(count).map(check_input).interleave(
            open_dataset, cycle_length=cycle,
            num_parallel_calls=(calls or cycle) if parallel else None)

    return pipeline


@pytest.mark.parametrize("calls", [None, fl.data.AUTOTUNE])
def test_random_interleaves_read_inline_match_the_sequential_order(inline_runs, calls):
    rng = np.random.default_rng(7)
    before = snapshot()
    for _ in range(60):
        pipeline = random_case(rng)
        expected = outcomes(iter(pipeline(parallel=False)))
        assert outcomes(iter(settled_inline(pipeline(True, calls)))) == expected
    assert inline_runs["runs"] > 60
    assert settle(before) == []


def test_an_autotuned_interleave_counts_every_element_of_its_runs(inline_runs, monkeypatch):
    recorded = []  # the element counts the stage's autotune node was told (windows reset it)
    record = model.Node.record_output

    def counted(node, value, now, waited=0.0, count=1):
        recorded.append(count)
        return record(node, value, now, waited, count)

    monkeypatch.setattr(model.Node, "record_output", counted)
    dataset = settled_inline(Dataset.range(30).interleave(
        lambda x: Dataset.range(x * 100, x * 100 + 11 + x % 7), cycle_length=4,
        num_parallel_calls=fl.data.AUTOTUNE))
    iterator = Iterator(dataset, rewrite=False)
    values = [int(v) for v in iterator]
    assert iterator._iterator._state.node is not None and inline_runs["runs"] > 0
    assert sum(recorded) == len(values) == sum(11 + x % 7 for x in range(30))


def test_a_checkpoint_inside_an_inline_run_resumes_exactly(inline_runs):
    def pipeline():
        return settled_inline(Dataset.range(20).interleave(
            lambda x: Dataset.range(x * 100, x * 100 + 7 + x % 4), cycle_length=3,
            num_parallel_calls=3))

    expected = [int(v) for v in Dataset.range(20).interleave(
        lambda x: Dataset.range(x * 100, x * 100 + 7 + x % 4), cycle_length=3)]
    for stop in (1, 13, 40, len(expected) - 1):
        iterator = iter(pipeline())
        head = [int(next(iterator)) for _ in range(stop)]
        state = save_iterator(iterator)
        resumed = iter(pipeline())
        restore_iterator(resumed, state)
        assert head + [int(v) for v in resumed] == expected
    assert inline_runs["runs"] > 0


def write_files(folder, count, rng):
    """Small TFRecord and CSV files of random lengths (some empty); one TFRecord file has a
    damaged record."""
    records, lines = [], []
    for index in range(count):
        length = int(rng.integers(0, 70))
        path = os.path.join(folder, f"{index:03d}.tfrecord")
        with fl.io.TFRecordWriter(path) as writer:
            for row in range(length):
                writer.write(b"%d-%d" % (index, row))
        records.append(path)
        path = os.path.join(folder, f"{index:03d}.csv")
        with open(path, "wb") as handle:
            handle.write(b"".join(b"%d,%d\n" % (index, row) for row in range(length)))
        lines.append(path)
    damaged = bytearray(open(records[5], "rb").read())
    damaged[40] ^= 0xFF
    with open(records[5], "wb") as handle:
        handle.write(damaged)
    return records, lines


def file_outcomes(iterator):
    """Every element (bytes) or error message of `iterator`, reading on after errors."""
    seen = []
    while True:
        try:
            seen.append(bytes(next(iterator)))
        except StopIteration:
            return seen
        except fl.errors.DataLossError as error:
            seen.append(str(error))


@pytest.mark.parametrize("reader", ["tfrecord", "csv"])
def test_small_files_read_inline_match_the_sequential_order(tmp_path, reader, inline_runs):
    records, lines = write_files(str(tmp_path), 40, np.random.default_rng(3))
    files, read = (records, fl.data.TFRecordDataset) if reader == "tfrecord" \
        else (lines, fl.data.TextLineDataset)
    before = snapshot()
    for cycle in (1, 2, 4, 7):
        expected = file_outcomes(iter(Dataset.from_tensor_slices(files).interleave(
            read, cycle_length=cycle)))
        got = file_outcomes(iter(settled_inline(Dataset.from_tensor_slices(files).interleave(
            read, cycle_length=cycle, num_parallel_calls=cycle))))
        assert got == expected
    assert reader == "csv" or any(isinstance(item, str) for item in expected)
    assert inline_runs["runs"] > 0
    assert settle(before) == []


def test_closing_an_inline_interleave_early_closes_its_files(tmp_path, inline_runs):
    records, _ = write_files(str(tmp_path), 12, np.random.default_rng(5))
    dataset = settled_inline(Dataset.from_tensor_slices(records[6:]).interleave(
        fl.data.TFRecordDataset, cycle_length=3, num_parallel_calls=3))
    iterator = Iterator(dataset)
    next(iterator)
    stage = iterator._iterator
    iterator.close()
    assert not stage._state.readers
    assert inline_runs["runs"] > 0


@pytest.mark.parametrize("cycle", [1, 2, 3])
def test_an_inline_run_keeps_no_more_datasets_alive_than_the_threads_would(cycle, inline_runs):
    """Each input is one big array sliced into views: an element keeps its array alive. At
    most the cycle, the inputs opened ahead and the finished one the loop still holds."""
    from feedline.perf.memory import peak_bytes

    array_bytes = 64 * 4096
    arrays = Dataset.range(12).interleave(
        lambda x: Dataset.from_tensors(x).map(
            lambda v: np.full((64, 4096), v, np.uint8)).unbatch(),
        cycle_length=cycle, num_parallel_calls=cycle)
    arrays = settled_inline(arrays)
    assert peak_bytes(arrays) < (2 * cycle + 2.5) * array_bytes
    assert inline_runs["runs"] > 0
