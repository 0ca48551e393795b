"""Checks for exercise notebook 16, random access (ids `ex-16-1` to `ex-16-4`).

Every check calls the learner's function on inputs drawn from `rng(check_id)` and compares
with a rule: which reader suits a format and a need, shards that are disjoint and cover the
records, a permutation that changes with the epoch and uses no table, and a loader resumed
exactly. Nothing is timed.
"""

import itertools
import threading
import tracemalloc

import numpy as np

from ..sources import Batch, DataLoader, IndexSampler, InMemoryDataSource
from ._common import call_answer, check, fail, observe, passed, rng

# -- ex-16-1: pick the reader ------------------------------------------------------------------

# Formats a reader can open at any record (an index of offsets exists or can be built) ...
RANDOM_ACCESS_FORMATS = ("array_record", "tfrecord")
# ... and formats that can only be read from the start.
STREAM_FORMATS = ("tfrecord_gzip", "csv_stream")
FORMATS = RANDOM_ACCESS_FORMATS + STREAM_FORMATS


def _best_reader(record_format, global_shuffle, exact_resume):
    if record_format in STREAM_FORMATS:
        return "dataset"
    return "random_access" if global_shuffle or exact_resume else "dataset"


@check("ex-16-1", hint="first ask whether the format can be read at record i without reading "
                        "the ones before; only then does a need for a global shuffle or an exact "
                        "resume call for the random-access loader",
       replayable=True)
def check_choose_reader(choose_reader):
    """ex-16-1: `choose_reader(record_format, global_shuffle, exact_resume)` picks the reader.

    >>> check_choose_reader(lambda fmt, shuffle, resume: "dataset"
    ...     if fmt in ("tfrecord_gzip", "csv_stream") or not (shuffle or resume)
    ...     else "random_access")
    ex-16-1 passed: the right reader for all 16 combinations of format and needs
    """
    check_id = "ex-16-1"
    cases = list(itertools.product(FORMATS, (False, True), (False, True)))
    rng(check_id).shuffle(cases)
    wrong = []
    for record_format, shuffle, resume in cases:
        got = call_answer(check_id, choose_reader, record_format, shuffle, resume,
                          want_dataset=False)
        if got not in ("dataset", "random_access"):
            fail(check_id, f"choose_reader({record_format!r}, {shuffle}, {resume}) returned "
                           f"{got!r}; return the string 'dataset' or 'random_access'")
        if got != _best_reader(record_format, shuffle, resume):
            wrong.append((record_format, shuffle, resume, got))
    if wrong:
        _explain_reader(check_id, wrong)
    passed(check_id, "the right reader for all 16 combinations of format and needs")


def _explain_reader(check_id, wrong):
    """Fail on the most basic mistake among the `wrong` choices."""
    def said(case):
        record_format, shuffle, resume, got = case
        want = _best_reader(record_format, shuffle, resume)
        return (f"choose_reader({record_format!r}, global_shuffle={shuffle}, "
                f"exact_resume={resume}) returned {got!r}, expected {want!r}")

    for case in wrong:
        if case[0] in STREAM_FORMATS:
            fail(check_id, said(case) + f": a {case[0]} can only be read from its start, so a "
                                        "loader cannot ask it for record i",
                 hint="GZIP-compressed TFRecord and CSV streams have no index of record "
                      "offsets: read them with a Dataset, whatever you need")
    for case in wrong:
        if case[3] == "dataset" and case[0] != "tfrecord":
            fail(check_id, said(case) + ": a stream cannot shuffle globally nor resume at an "
                                        "exact record; a format readable at random can")
    for case in wrong:
        if case[0] == "tfrecord" and case[3] == "dataset":
            fail(check_id, said(case) + ": an uncompressed TFRecord file can be read at random "
                                        "once an index of record offsets is built "
                                        "(TFRecordDataSource does that)")
    fail(check_id, said(wrong[0]) + ": with neither a global shuffle nor an exact resume "
                                    "needed, a Dataset reads the file in order, the simplest "
                                    "way",
         hint="the loader earns its place only when you need what a stream cannot do well")


# -- ex-16-2: shards ---------------------------------------------------------------------------

def _shard_cases(generator):
    cases = [(10, 3, False), (10, 3, True), (7, 7, False), (3, 5, False), (3, 5, True)]
    for _ in range(6):
        count = int(generator.integers(2, 7))
        size = int(generator.integers(count, 60))
        if size % count == 0:
            size += int(generator.integers(1, count))  # always a remainder
        cases.append((size, count, bool(generator.integers(2))))
    order = generator.permutation(len(cases))
    return [cases[i] for i in order]


def _plain_indices(got):
    """`got` as a list of ints, or an {"error": why} (computed in the kernel, recorded)."""
    try:
        items = list(got)
        values = [int(value) for value in items]
    except (TypeError, ValueError):
        return {"error": f"returned {type(got).__name__}; return a list of record indices "
                         "(ints)"}
    if any(value != item for value, item in zip(values, items)):
        return {"error": "returned indices that are not whole numbers"}
    return values


@check("ex-16-2", hint="cut the records into shard_count contiguous slices: shard i starts at "
                        "i * num_records // shard_count and ends where shard i + 1 starts; "
                        "with drop_remainder every slice has num_records // shard_count",
       replayable=True)
def check_shard_indices(shard_indices):
    """ex-16-2: `shard_indices(num_records, shard_index, shard_count, drop_remainder)` shards.

    >>> check_shard_indices(lambda n, i, c, drop: list(range(i * n // c,
    ...     i * n // c + n // c if drop else (i + 1) * n // c)))
    ex-16-2 passed: shards are disjoint, cover every record (or drop only the remainder) and differ in size by at most one
    """
    check_id = "ex-16-2"
    for num_records, count, drop in _shard_cases(rng(check_id)):
        shards = []
        for index in range(count):
            call = f"shard_indices({num_records}, {index}, {count}, drop_remainder={drop})"
            got = call_answer(check_id, shard_indices, num_records, index, count, drop,
                              want_dataset=False)
            values = observe(check_id, "shard", lambda: _plain_indices(got))
            if isinstance(values, dict):
                fail(check_id, f"{call} {values['error']}")
            shards.append(values)
        _judge_shards(check_id, num_records, count, drop, shards)
    passed(check_id, "shards are disjoint, cover every record (or drop only the remainder) and "
                     "differ in size by at most one")


def _judge_shards(check_id, num_records, count, drop, shards):
    setting = f"{num_records} records in {count} shards, drop_remainder={drop}"
    sizes = [len(shard) for shard in shards]
    for index, shard in enumerate(shards):
        outside = [value for value in shard if not 0 <= value < num_records]
        if outside:
            fail(check_id, f"{setting}: shard {index} holds index {outside[0]}, outside 0.."
                           f"{num_records - 1}")
        if len(set(shard)) != len(shard):
            fail(check_id, f"{setting}: shard {index} holds a record twice")
    for (a, first), (b, second) in itertools.combinations(enumerate(shards), 2):
        both = sorted(set(first) & set(second))
        if both:
            fail(check_id, f"{setting}: record {both[0]} is in shard {a} and in shard {b}, so "
                           "two machines would read it",
                 hint="shards must not overlap: where one shard ends, the next begins")
    seen = set().union(*map(set, shards))
    missing = sorted(set(range(num_records)) - seen)
    if drop:
        want = num_records // count
        if sizes != [want] * count:
            fail(check_id, f"{setting}: shard sizes {sizes}, expected {want} each "
                           f"({num_records} // {count}): drop_remainder gives every shard the "
                           "same number of records",
                 hint="with drop_remainder=True every shard keeps num_records // shard_count "
                      "records and the leftover ones are read by nobody")
        return
    if missing:
        fail(check_id, f"{setting}: record {missing[0]} is in no shard ({len(missing)} "
                       f"missing, shard sizes {sizes}), so no machine reads it",
             hint="without drop_remainder every record must be in some shard: the remainder "
                  "of num_records / shard_count goes to some shards as one extra record each")
    if max(sizes) - min(sizes) > 1:
        fail(check_id, f"{setting}: shard sizes {sizes} differ by more than one record, so "
                       "one machine waits for another every epoch",
             hint="start shard i at i * num_records // shard_count: that spreads the "
                  "remainder one record at a time")


# -- ex-16-3: a permutation per epoch in O(1) memory -------------------------------------------

BIG = 2_000_000  # records in the memory test: a table of them would take megabytes
MEMORY_LIMIT = 256 * 1024  # bytes one call may allocate


@check("ex-16-3", hint="a permutation you can compute index by index: for example "
                        "(a * index + b) % size with a coprime to size, where a and b come "
                        "from a generator seeded with (seed, epoch)",
       replayable=True)
def check_permuted_index(permuted_index):
    """ex-16-3: `permuted_index(index, size, seed, epoch)` is a seeded permutation per epoch.

    >>> import math
    >>> def permuted_index(index, size, seed, epoch):
    ...     generator = np.random.default_rng([seed, epoch])
    ...     a = int(generator.integers(1, size + 1))
    ...     while math.gcd(a, size) != 1:
    ...         a += 1
    ...     return (a * index + int(generator.integers(size))) % size
    >>> check_permuted_index(permuted_index)
    ex-16-3 passed: a different permutation every epoch and seed, without a table of the records
    """
    check_id = "ex-16-3"
    generator = rng(check_id)
    sizes = [int(generator.integers(20, 40)), int(generator.integers(40, 100)), 64]
    seeds = [int(s) for s in generator.integers(0, 10_000, size=2)]
    rotations = []
    for size in sizes:
        orders = {}
        for seed, epoch in [(seeds[0], 0), (seeds[0], 1), (seeds[0], 2), (seeds[1], 0)]:
            order = []
            for index in range(size):
                value = call_answer(check_id, permuted_index, index, size, seed, epoch,
                                    want_dataset=False)
                try:
                    order.append(int(value))
                except (TypeError, ValueError):
                    fail(check_id, f"permuted_index({index}, {size}, {seed}, {epoch}) returned "
                                   f"{type(value).__name__}; return an int")
            _judge_permutation(check_id, order, size, seed, epoch)
            orders[seed, epoch] = order
        _judge_orders(check_id, orders, size, seeds)
        rotations += [_is_rotation(order, size) for order in orders.values()]
    # A right answer rotates now and then ((a * i + b) % size with a = 1); rotating every
    # time is the sign of (index + something) % size, which keeps neighbours together.
    if all(rotations):
        fail(check_id, "every order was range(size) rotated, e.g. "
                       f"{orders[seeds[0], 1][:6]}...: record i + 1 always comes right after "
                       "record i, so nothing is shuffled",
             hint="mix the index, not just shift it: (a * index + b) % size with a coprime "
                  "to size, a and b drawn from a generator seeded with (seed, epoch)")
    _judge_memory(check_id, permuted_index, seeds[0])
    passed(check_id, "a different permutation every epoch and seed, without a table of the "
                     "records")


def _judge_permutation(check_id, order, size, seed, epoch):
    where = f"size={size}, seed={seed}, epoch={epoch}"
    outside = [value for value in order if not 0 <= value < size]
    if outside:
        fail(check_id, f"{where}: an index went to {outside[0]}, outside 0..{size - 1}")
    values, counts = np.unique(order, return_counts=True)
    if len(values) != size:
        twice = int(values[np.argmax(counts)])
        sources = [i for i, value in enumerate(order) if value == twice][:2]
        fail(check_id, f"{where}: indices {sources[0]} and {sources[1]} both go to record "
                       f"{twice}, so it is read twice in the epoch and {size - len(values)} "
                       "record(s) never",
             hint="a hash modulo size is not a permutation; for (a * index + b) % size, a must "
                  "share no factor with size (math.gcd(a, size) == 1)")
    if order == list(range(size)):
        fail(check_id, f"{where}: the order is 0, 1, 2, ...: nothing was shuffled")


def _is_rotation(order, size):
    """True when each value is the one before it plus 1 (mod size): range(size) shifted."""
    return all((b - a) % size == 1 for a, b in zip(order, order[1:]))


def _judge_orders(check_id, orders, size, seeds):
    first = orders[seeds[0], 0]
    for epoch in (1, 2):
        if orders[seeds[0], epoch] == orders[seeds[0], epoch - 1]:
            fail(check_id, f"size={size}, seed={seeds[0]}: epoch {epoch} gave the same order "
                           f"as epoch {epoch - 1}, so every epoch sees the records in the same "
                           "order",
                 hint="let the epoch change the permutation: seed your parameters with "
                      "(seed, epoch), not seed alone")
    if orders[seeds[1], 0] == first:
        fail(check_id, f"size={size}: seeds {seeds[0]} and {seeds[1]} gave the same order",
             hint="the seed must change the permutation")


def _judge_memory(check_id, permuted_index, seed):
    """One call for a large size must not build a table of all the records."""
    tracemalloc.start()
    try:
        value = call_answer(check_id, permuted_index, 12_345, BIG, seed, 0, want_dataset=False)
        peak = observe(check_id, "peak bytes", lambda: tracemalloc.get_traced_memory()[1])
    finally:
        tracemalloc.stop()
    try:
        value = int(value)
    except (TypeError, ValueError):
        fail(check_id, f"permuted_index(12345, {BIG}, {seed}, 0) returned "
                       f"{type(value).__name__}; return an int")
    if not 0 <= value < BIG:
        fail(check_id, f"permuted_index(12345, {BIG}, {seed}, 0) returned {value}, outside "
                       f"0..{BIG - 1}")
    if peak > MEMORY_LIMIT:
        fail(check_id, f"one call for size={BIG} allocated {peak / 1e6:.1f} MB: it builds "
                       "something as large as the dataset (a shuffled array?), which a "
                       "billion records would not fit",
             hint="compute where one index goes with arithmetic on the index, without a "
                  "table of all the records")


# -- ex-16-4: resume a loader exactly ----------------------------------------------------------

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
