"""Check for exercise `ex-16-4`: resume a loader exactly."""

import itertools
import threading

import numpy as np

from ...sources import Batch, DataLoader, IndexSampler, InMemoryDataSource
from .._common import call_answer, check, fail, observe, passed, rng


class _CountingSource(InMemoryDataSource):
    """An in-memory source that counts the records read (from any thread)."""

    def __init__(self, elements):
        super().__init__(elements)
        self.reads, self._lock = 0, threading.Lock()

    def _read_one(self, index):
        with self._lock:
            self.reads += 1
        return super()._read_one(index)


def _loader(case, source):
    num_records, seed, epochs, batch_size, workers = case
    sampler = IndexSampler(num_records, shuffle=True, seed=seed, num_epochs=epochs)
    return DataLoader(data_source=source, sampler=sampler, operations=[Batch(batch_size)],
                      worker_count=workers)


def _batches(iterable, limit):
    """The first `limit` + 1 batches of `iterable` as lists, or {"error": why}."""
    try:
        iterator = iter(iterable)
    except TypeError:
        return {"error": f"resume returned {type(iterable).__name__}, which cannot be "
                         "iterated; return an iterator (the loader's, after set_state)"}
    try:
        return [np.asarray(batch).tolist() for batch in itertools.islice(iterator, limit + 1)]
    except Exception as error:  # noqa: BLE001 - raised while reading the learner's iterator
        return {"error": f"reading your iterator raised {type(error).__name__}: {error}"}


@check("ex-16-4", hint="the loader's state is the next sampler position, counted in records: "
                        "after k batches of b records it is k * b; set it on a new iterator "
                        "instead of reading the first batches again",
       replayable=True)
def check_resume(resume):
    """ex-16-4: `resume(loader, batches_consumed, batch_size)` continues with the rest only.

    >>> def resume(loader, batches_consumed, batch_size):
    ...     iterator = iter(loader)
    ...     iterator.set_state({"next_position": batches_consumed * batch_size})
    ...     return iterator
    >>> check_resume(resume)
    ex-16-4 passed: every resumed loader gave exactly the remaining batches and read no record twice
    """
    check_id = "ex-16-4"
    generator = rng(check_id)
    cases = []
    for workers in (0, 2, 0):
        batch_size = int(generator.integers(3, 7))
        num_records = int(generator.integers(4, 9)) * batch_size + int(
            generator.integers(1, batch_size))
        cases.append((num_records, int(generator.integers(1 << 20)), 2, batch_size, workers))
    for case in cases:
        num_records, _, epochs, batch_size, _ = case
        records = np.arange(num_records) * 10 + 3  # records differ from their indices
        full = [np.asarray(batch).tolist() for batch in _loader(case, InMemoryDataSource(
            records))]
        consumed = int(generator.integers(1, len(full) - 1))
        source = _CountingSource(records)
        iterator = call_answer(check_id, resume, _loader(case, source), consumed, batch_size,
                               want_dataset=False)
        got = observe(check_id, "resumed batches", lambda: _batches(iterator, len(full)))
        reads = observe(check_id, "records read", lambda: source.reads)
        _judge_resume(check_id, got, full, consumed, batch_size, reads, num_records * epochs)
    passed(check_id, "every resumed loader gave exactly the remaining batches and read no "
                     "record twice")


def _judge_resume(check_id, got, full, consumed, batch_size, reads, total_records):
    setting = (f"after {consumed} of {len(full)} batches of {batch_size} (2 epochs of "
               f"{total_records // 2} records)")
    if isinstance(got, dict):
        fail(check_id, f"{setting}: {got['error']}")
    want = full[consumed:]
    if got == want:
        remaining = total_records - consumed * batch_size
        if reads > remaining:
            fail(check_id, f"{setting}: the right batches, but the source was read {reads} "
                           f"times for the {remaining} remaining records: your resume read "
                           "the consumed batches again to skip them",
                 hint="set the state instead of skipping: iterator.set_state({"
                      "'next_position': ...}) jumps there without reading anything")
        return
    if got == full:
        fail(check_id, f"{setting}: your iterator started again from the first batch, so "
                       f"the {consumed} consumed batches would be trained twice",
             hint="a new iterator starts at position 0: give it the saved position with "
                  "set_state")
    flat_full = [value for batch in full for value in batch]
    flat_got = [value for batch in got for value in batch]
    expected = consumed * batch_size
    started = next((start for start in range(len(flat_full) + 1)
                    if flat_full[start:] == flat_got), None)
    if started is not None and started != expected:
        what = ("late, losing" if started > expected else "early, repeating")
        fail(check_id, f"{setting}: your iterator resumed {abs(started - expected)} record(s) "
                       f"{what} them: it started at position {started}, expected {expected}",
             hint="the position counts records, not batches: after k batches of b records "
                  "it is k * b, exactly")
    fail(check_id, f"{setting}: expected the batches {_short(want)}, got {_short(got)}")


def _short(batches):
    if not batches:
        return "nothing"
    text = str(batches[:2])[:-1]
    return text + (", ...]" if len(batches) > 2 else "]")
