"""Checks for exercise notebook 02, shuffling (ids `ex-02-1` to `ex-02-4`).

The checks look at orders, never at times: they run the learner's pipeline or function on
fresh inputs, several times and with several seeds, and test the properties a buffer shuffle
must have (every element once per epoch, how far an element can move, what a seed fixes).
Everything runs in well under a second.
"""

import os
import shutil
import tempfile

import numpy as np

from .. import io
from ..data import Dataset
from ._common import (call_answer, check, fail, listed_if_iterator, normalised_answer, observe,
                      passed, pipeline_nodes, rng, take_elements)

# -- looking at a pipeline ---------------------------------------------------------------------


def _shuffle_buffers(dataset):
    """The buffer size of every shuffle in the pipeline."""
    return sorted(int(node._buffer_size) for node in pipeline_nodes(dataset)
                  if getattr(node, "_stage", None) == "shuffle")


def _shuffles_of_batches(dataset):
    """(buffer size, rows per element) of every shuffle that comes after a batch."""
    found = []
    for node in pipeline_nodes(dataset):
        if getattr(node, "_stage", None) == "shuffle":
            rows = int(np.prod([int(up._batch_size) for up in pipeline_nodes(node)
                                if hasattr(up, "_batch_size")]))
            if rows > 1:
                found.append([int(node._buffer_size), rows])
    return found


def _cycle_lengths(dataset):
    """The cycle length of every interleave in the pipeline."""
    return sorted(int(node._cycle_length) for node in pipeline_nodes(dataset)
                  if hasattr(node, "_cycle_length"))


def _ints(check_id, values, what):
    """`values` as a list of Python ints, or a failed check naming what was not an int."""
    out = []
    for value in values:
        array = np.asarray(value)
        if array.shape != () or not np.issubdtype(array.dtype, np.integer):
            fail(check_id, f"{what} should be single integers, got {value!r}")
        out.append(int(array))
    return out


# -- ex-02-1 ------------------------------------------------------------------------------------

BATCH, EPOCHS = 4, 3


@check("ex-02-1", hint="ds.shuffle(n, seed=seed) first, then repeat(3), then batch(4): "
                        "shuffle before repeat keeps the epochs apart, before batch mixes "
                        "single elements",
       replayable=True)
def check_train_batches(train_batches):
    """ex-02-1: `train_batches(ds, n, seed)` gives 3 shuffled epochs of batches of 4.

    >>> check_train_batches(lambda ds, n, seed: ds.shuffle(n, seed=seed).repeat(3).batch(4))
    ex-02-1 passed: 3 epochs, each a full shuffle in a new order, in batches of 4, fixed by the seed
    """
    check_id = "ex-02-1"
    generator = rng(check_id)
    n = int(generator.integers(13, 24))
    while n % BATCH == 0:
        n += 1
    values = generator.choice(1000, size=n, replace=False).astype(np.int64)
    seed, other_seed = (int(s) for s in generator.choice(10_000, size=2, replace=False))

    def run(seed):
        dataset = call_answer(check_id, train_batches, Dataset.from_tensor_slices(values), n,
                              seed)
        batches = take_elements(check_id, dataset, EPOCHS * n + 5)
        return dataset, batches

    dataset, batches = run(seed)
    stream = _check_batches(check_id, batches, n)
    _check_epochs(check_id, stream, values, n)
    _check_not_whole_batches(check_id, batches, values)
    buffers = observe(check_id, "shuffle buffers", lambda: _shuffle_buffers(dataset))
    if not buffers:
        fail(check_id, "the pipeline has no shuffle() but the elements came out shuffled",
             hint="use Dataset.shuffle, with a buffer as large as the dataset")
    if max(buffers) < n:
        fail(check_id, f"the shuffle buffer holds {max(buffers)} elements, fewer than the {n} "
                       "of the dataset: an element can then move forward by at most "
                       f"{max(buffers) - 1} places, so the epoch is not a full shuffle",
             hint="shuffle(n, ...): a buffer as large as the dataset can put any element "
                  "anywhere")
    _, again = run(seed)
    if [np.asarray(b).tolist() for b in again] != [np.asarray(b).tolist() for b in batches]:
        fail(check_id, "two calls with the same seed gave different batches",
             hint="pass seed=seed to shuffle(); without a seed every run draws a new order")
    _, other = run(other_seed)
    if [np.asarray(b).tolist() for b in other] == [np.asarray(b).tolist() for b in batches]:
        fail(check_id, f"seed={seed} and seed={other_seed} gave the same batches: the seed "
                       "argument is not used",
             hint="pass the function's own `seed` argument to shuffle(), not a constant")
    passed(check_id, "3 epochs, each a full shuffle in a new order, in batches of 4, fixed by "
                     "the seed")


def _check_batches(check_id, batches, n):
    """The elements of the batches, in order; fails unless they are batches of up to 4."""
    stream = []
    for index, batch in enumerate(batches):
        array = np.asarray(batch)
        if array.ndim != 1 or not 1 <= len(array) <= BATCH:
            fail(check_id, f"element {index} should be a batch of at most {BATCH} numbers, "
                           f"got an array of shape {array.shape}",
                 hint="end the pipeline with batch(4)")
        stream.extend(int(x) for x in array)
    # batch(4) leaves at most one short batch per epoch (none across epochs); batch(2) more.
    short = [len(np.asarray(batch)) for batch in batches if len(np.asarray(batch)) < BATCH]
    if len(short) > EPOCHS:
        fail(check_id, f"{len(short)} of the {len(batches)} batches hold fewer than {BATCH} "
                       f"numbers (e.g. {short[0]}); only the last batch of an epoch may be short",
             hint="batch(4): batches of 4 elements")
    if len(stream) != EPOCHS * n:
        fail(check_id, f"the batches hold {len(stream)} elements, expected {EPOCHS} epochs of "
                       f"{n} = {EPOCHS * n}",
             hint="repeat(3) gives the three epochs")
    return stream


def _check_epochs(check_id, stream, values, n):
    """Fail unless each run of n elements is a permutation, and the epochs differ."""
    want = sorted(int(v) for v in values)
    epochs = [stream[k * n:(k + 1) * n] for k in range(EPOCHS)]
    for number, epoch in enumerate(epochs, start=1):
        if sorted(epoch) != want:
            counts = {value: epoch.count(value) for value in set(epoch)}
            twice = sorted(value for value, count in counts.items() if count > 1)
            fail(check_id, f"epoch {number} (elements {(number - 1) * n} to {number * n - 1}) "
                           f"is not the {n} elements once each"
                           + (f": {twice[0]} appears twice" if twice else ""),
                 hint="shuffle before repeat: a shuffle after repeat() mixes the epochs, so "
                      "an element can come twice before another comes once")
    if epochs[0] == [int(v) for v in values]:
        fail(check_id, "the first epoch is in the order of the dataset: nothing was shuffled")
    if all(epoch == epochs[0] for epoch in epochs):
        fail(check_id, "all 3 epochs came in the same order",
             hint="leave reshuffle_each_iteration at its default (True): each epoch then "
                  "draws a new order, still fixed by the seed")


def _check_not_whole_batches(check_id, batches, values):
    """Fail when every full batch is a run of consecutive elements of the dataset."""
    position = {int(v): i for i, v in enumerate(values)}
    full = [np.asarray(b).tolist() for b in batches if len(np.asarray(b)) == BATCH]
    runs = [[position[x] for x in batch] for batch in full]
    if runs and all(run == list(range(run[0], run[0] + BATCH)) for run in runs):
        fail(check_id, "every batch holds 4 consecutive elements of the dataset in their "
                       "original order: the shuffle moved whole batches",
             hint="shuffle before batch: after batch() the shuffle sees batches, not "
                  "elements")


# -- ex-02-2 ------------------------------------------------------------------------------------

def _listed(function):
    """Call the learner's generator function and collect what it yields, as a list."""
    def call(*args):
        result = function(*args)
        return None if result is None else list(result)

    call.__name__ = getattr(function, "__name__", "buffer_shuffle")
    return call


@check("ex-02-2", hint="fill a list with the first buffer_size elements; then for each further "
                        "element pick a slot with rng.integers(len(buffer)), yield it and put "
                        "the new element in its place; at the end empty the buffer the same way",
       replayable=True)
def check_buffer_shuffle(buffer_shuffle):
    """ex-02-2: `buffer_shuffle(elements, buffer_size, rng)` follows the buffer rule.

    >>> def buffer_shuffle(elements, buffer_size, rng):
    ...     buffer = []
    ...     for element in elements:
    ...         if len(buffer) == buffer_size:
    ...             yield buffer.pop(int(rng.integers(len(buffer))))
    ...         buffer.append(element)
    ...     while buffer:
    ...         yield buffer.pop(int(rng.integers(len(buffer))))
    >>> check_buffer_shuffle(buffer_shuffle)
    ex-02-2 passed: every element once, none earlier than the buffer allows, random and seeded
    """
    check_id = "ex-02-2"
    generator = rng(check_id)
    answer = _listed(buffer_shuffle)

    def run(n, size, seed):
        values = [int(v) for v in generator.choice(10_000, size=n, replace=False)]
        got = call_answer(check_id, answer, iter(values), size, np.random.default_rng(seed),
                          want_dataset=False)
        got = _ints(check_id, got, "the elements yielded")
        _check_one_shuffle(check_id, values, size, got)
        return values, got

    # Shapes of every kind: a buffer of 1, smaller than, equal to and larger than the input.
    cases = [(1, 1), (6, 1), (10, 3), (9, 9), (5, 12)]
    cases += [(int(generator.integers(2, 30)), int(generator.integers(2, 8))) for _ in range(5)]
    for n, size in cases:
        run(n, size, int(generator.integers(1 << 30)))

    # The same seed gives the same order; different seeds give different orders.
    seed = int(generator.integers(1 << 30))
    values = [int(v) for v in generator.choice(10_000, size=12, replace=False)]
    first, second = (call_answer(check_id, answer, iter(values), 4, np.random.default_rng(seed),
                                 want_dataset=False) for _ in range(2))
    if _ints(check_id, first, "the elements yielded") != _ints(check_id, second,
                                                                "the elements yielded"):
        fail(check_id, "two calls with generators seeded alike gave different orders",
             hint="draw every random choice from `rng` (rng.integers), not from `random` or "
                  "np.random: the caller's seed must fix the order")

    # Over many seeds: each element reaches its earliest possible position, and with a buffer
    # larger than the input the last element comes out first.
    n, size, trials = 12, 4, 60
    earliest_seen = set()
    orders = set()
    for _ in range(trials):
        values, got = run(n, size, int(generator.integers(1 << 30)))
        index = {value: i for i, value in enumerate(values)}
        positions = [index[value] for value in got]
        orders.add(tuple(positions))
        earliest_seen |= {i for p, i in enumerate(positions) if p == max(0, i - size + 1)}
    if len(orders) == 1:
        fail(check_id, f"{trials} calls with buffer_size={size} and different seeds all gave "
                       f"the same order, {list(orders)[0]} (as input positions)",
             hint="yield a *random* element of the buffer (rng.integers), not the oldest or "
                  "the newest one")
    missing = sorted(set(range(n)) - earliest_seen)
    if missing:
        i = missing[0]
        fail(check_id, f"over {trials} calls with {n} elements and buffer_size={size}, the "
                       f"element at input position {i} never came out at position "
                       f"{max(0, i - size + 1)}, which a buffer shuffle reaches about one time "
                       f"in {size}",
             hint="refill the buffer after each element you yield (the new element goes into "
                  "the freed slot), and pick every slot with the same chance")
    last_first, firsts = 0, set()
    for _ in range(40):
        values, got = run(5, 8, int(generator.integers(1 << 30)))
        last_first += got[0] == values[-1]
        firsts.add(values.index(got[0]))
    if not last_first:
        fail(check_id, "with buffer_size=8 and 5 elements the last element never came out "
                       "first in 40 calls; a buffer that holds them all should pick it about "
                       "one time in 5",
             hint="when the input ends before the buffer is full, pick at random among all "
                  "the elements it holds")
    # Emptying the buffer with `buffer.pop()` (no slot) always starts with the newest element.
    if len(firsts) < 3:
        fail(check_id, "with buffer_size=8 and 5 elements, 40 calls only ever started with "
                       "the element at input position "
                       f"{' or '.join(str(i) for i in sorted(firsts))}; once the input ends, "
                       "each element left in the buffer should come out first about one time "
                       "in 5",
             hint="after the input ends, pop a random slot, buffer.pop(int(rng.integers("
                  "len(buffer)))), not the last one")
    passed(check_id, "every element once, none earlier than the buffer allows, random and "
                     "seeded")


def _check_one_shuffle(check_id, values, size, got):
    """Fail unless `got` is `values` once each, and no element leaves before it could."""
    said = f"for {len(values)} elements and buffer_size={size}"
    if sorted(got) != sorted(values):
        missing = [v for v in values if v not in got]
        extra = [v for v in got if v not in values or got.count(v) > 1]
        if extra:
            fail(check_id, f"{said} the element {extra[0]} was yielded "
                           + ("but was never in the input" if extra[0] not in values
                              else "twice"),
                 hint="take an element out of the buffer when you yield it")
        if sorted(got) == sorted(values[:size]):
            fail(check_id, f"{said} you yielded only the first {size} elements",
                 hint="refill: after yielding an element, read the next input element into "
                      "the freed slot")
        if missing and set(missing) <= set(values[-size:]):
            fail(check_id, f"{said} {len(missing)} of the last elements never came out: "
                           "they were still in the buffer when the input ended",
                 hint="after the input ends, keep yielding random elements until the buffer "
                      "is empty")
        fail(check_id, f"{said} {len(missing)} elements never came out, e.g. {missing[0]}")
    position = {value: i for i, value in enumerate(values)}
    for p, value in enumerate(got):
        i = position[value]
        if p < i - size + 1:
            fail(check_id, f"{said} the element at input position {i} came out at position "
                           f"{p}; when position {p} is yielded only {size + p} elements have "
                           f"been read, so the earliest it can leave is {i - size + 1}",
                 hint="the buffer holds at most buffer_size elements: pick one *before* "
                      "reading the next, never out of buffer_size + 1")


# -- ex-02-3 ------------------------------------------------------------------------------------

def _reach(i, n, buffer_size):
    """The reference: earliest and latest output positions of input position i."""
    if buffer_size == 1:
        return i, i
    return max(0, i - buffer_size + 1), n - 1


@check("ex-02-3", hint="an element is read buffer_size - 1 steps before the output can first "
                        "pick it, and nothing ever forces it out of the buffer",
       replayable=True)
def check_reach(reach):
    """ex-02-3: `reach(i, n, buffer_size)` gives the earliest and latest output positions.

    >>> def reach(i, n, buffer_size):
    ...     if buffer_size == 1:
    ...         return i, i
    ...     return max(0, i - buffer_size + 1), n - 1
    >>> check_reach(reach)
    ex-02-3 passed: the earliest and latest positions are right for every buffer size
    """
    check_id = "ex-02-3"
    generator = rng(check_id)
    cases = [(0, 10, 3), (9, 10, 3), (5, 10, 1), (4, 10, 20), (3, 10, 4), (7, 8, 2)]
    for _ in range(20):
        n = int(generator.integers(2, 500))
        cases.append((int(generator.integers(n)), n, int(generator.integers(1, n + 20))))
    # A pair given as a generator or map(...) crosses to the grader as a list of its items.
    reach = normalised_answer(reach, listed_if_iterator)
    for i, n, size in cases:
        got = call_answer(check_id, reach, i, n, size, want_dataset=False)
        try:
            earliest, latest = (int(x) for x in got)
        except (TypeError, ValueError):
            fail(check_id, f"reach({i}, {n}, {size}) should return two integers (earliest, "
                           f"latest), got {got!r}")
        want = _reach(i, n, size)
        if (earliest, latest) != want:
            fail(check_id, f"reach({i}, {n}, {size}) returned ({earliest}, {latest}), expected "
                           f"{want}" + _explain_reach(i, n, size, earliest, latest, want))
    passed(check_id, "the earliest and latest positions are right for every buffer size")


def _explain_reach(i, n, size, earliest, latest, want):
    if earliest < 0:
        return ": a position is never negative (the first output is position 0)"
    if earliest != want[0] and earliest == max(0, i - size):
        return (f": one too far forward; when position {i - size} is picked only elements 0 "
                f"to {i - 1} have been read")
    if earliest != want[0] and earliest == i and size > 1:
        return ": an element can come out before its own position, by up to buffer_size - 1"
    if size == 1 and (earliest, latest) != (i, i):
        return ": a buffer of one element keeps the order, so every element stays in place"
    if latest != want[1] and latest == min(n - 1, i + size - 1):
        return (": an element can stay in the buffer for any number of steps (every pick "
                "may pass it over), so it can come out last")
    if latest != want[1] and latest == n:
        return f": positions count from 0, so the last of {n} is {n - 1}"
    return ""


# -- ex-02-4 ------------------------------------------------------------------------------------

LABELS, ROWS, BIG_BATCH = 16, 40, 32
MAX_BUFFER, MAX_CYCLE, MIN_LABELS, FIRST_BATCHES = 64, 8, 5, 3


def parse_line(line):
    """One CSV line `label,row` as two int32 scalars (the exercise's parser).

    >>> [int(x) for x in parse_line(b"3,17")]
    [3, 17]
    """
    label, row = io.decode_csv(line, [[0], [0]])
    return label, row


def _write_sorted_files(directory, generator):
    """16 files, one per label, named in label order; row ids are distinct random numbers."""
    rows = generator.choice(100_000, size=LABELS * ROWS, replace=False)
    for label in range(LABELS):
        ids = rows[label * ROWS:(label + 1) * ROWS]
        with open(os.path.join(directory, f"label-{label:02d}.csv"), "w") as handle:
            handle.write("".join(f"{label},{row}\n" for row in ids))
    return sorted(int(r) for r in rows)


@check("ex-02-4", hint="Dataset.list_files(pattern, shuffle=True, seed=seed), interleave "
                        "TextLineDataset over up to 8 files at a time (block_length=1), "
                        "map(parse_line), shuffle(64, seed=seed), batch(32)",
       replayable=True)
def check_mixed_batches(mixed_batches):
    """ex-02-4: `mixed_batches(pattern, parse_line, seed)` mixes labels with bounded memory.

    >>> from feedline.data import TextLineDataset
    >>> def mixed_batches(pattern, parse_line, seed):
    ...     files = Dataset.list_files(pattern, shuffle=True, seed=seed)
    ...     rows = files.interleave(TextLineDataset, cycle_length=8, block_length=1)
    ...     return rows.map(parse_line).shuffle(64, seed=seed).batch(32)
    >>> check_mixed_batches(mixed_batches)
    ex-02-4 passed: the first batches of every epoch mix many labels; buffers stay within 64 rows and 8 files
    """
    check_id = "ex-02-4"
    generator = rng(check_id)
    directory = tempfile.mkdtemp(prefix="ex02-")
    try:
        rows = _write_sorted_files(directory, generator)
        pattern = os.path.join(directory, "label-*.csv")
        seed = int(generator.integers(1 << 30))
        dataset = call_answer(check_id, mixed_batches, pattern, parse_line, seed)
        epochs = [_read_epoch(check_id, dataset, rows) for _ in range(2)]
        batches, epochs = epochs[0], [[labels for labels, _ in epoch] for epoch in epochs]
        _check_memory(check_id, dataset)
        for number, labels in enumerate(epochs, start=1):
            _check_mix(check_id, dataset, number, labels)
        if _first_labels(epochs[0]) == _first_labels(epochs[1]):
            fail(check_id, "the first batches of epochs 1 and 2 hold the same labels, "
                           f"{sorted(_first_labels(epochs[0]))}: the files are read in the "
                           "same order every epoch",
                 hint="list the files with shuffle=True (and a seed), so that each epoch "
                      "opens them in a new order")
        again = call_answer(check_id, mixed_batches, pattern, parse_line, seed)
        # Rows, not just labels: an unseeded shuffle inside each file keeps the labels' order.
        if _read_epoch(check_id, again, rows) != batches:
            fail(check_id, "two pipelines built with the same seed gave different batches",
                 hint="give every random step the seed: list_files(..., seed=seed) and "
                      "shuffle(..., seed=seed)")
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    passed(check_id, f"the first batches of every epoch mix many labels; buffers stay within "
                     f"{MAX_BUFFER} rows and {MAX_CYCLE} files")


def _first_labels(labels):
    """The labels seen in the first batches of an epoch."""
    return {label for batch in labels[:FIRST_BATCHES] for label in batch}


def _read_epoch(check_id, dataset, rows):
    """(labels, row ids) of each batch of one epoch; fails unless it holds every row once."""
    batches = take_elements(check_id, dataset, len(rows) + 2)
    labels, ids = [], []
    for index, batch in enumerate(batches):
        if not isinstance(batch, tuple) or len(batch) != 2:
            fail(check_id, f"batch {index} should be a pair (labels, rows), as parse_line "
                           f"gives them batched, got {type(batch).__name__}")
        label, row = (np.asarray(part) for part in batch)
        if label.ndim != 1 or len(label) > BIG_BATCH or index < len(batches) - 1 and \
                len(label) != BIG_BATCH:
            fail(check_id, f"batch {index} holds labels of shape {label.shape}, expected "
                           f"batches of {BIG_BATCH}", hint="end with batch(32)")
        labels.append((label.tolist(), row.tolist()))
        ids.extend(int(r) for r in row)
    if sorted(ids) != rows:
        fail(check_id, f"an epoch gave {len(ids)} rows, expected each of the {len(rows)} "
                       "rows of the 16 files once",
             hint="read every file once per epoch: no repeat() and no take() in the "
                  "pipeline; the check runs the epochs itself")
    return labels


def _check_memory(check_id, dataset):
    buffers = observe(check_id, "shuffle buffers", lambda: _shuffle_buffers(dataset))
    if buffers and max(buffers) > MAX_BUFFER:
        fail(check_id, f"a shuffle buffer holds {max(buffers)} elements, more than the "
                       f"{MAX_BUFFER} allowed",
             hint="a buffer as large as the dataset does mix everything, but the memory "
                  "budget forbids it: mix the files instead, and keep a buffer of 64 rows")
    # A shuffle after batch(k) holds buffer_size * k rows: the budget counts rows.
    batched = observe(check_id, "shuffles of batches", lambda: _shuffles_of_batches(dataset))
    for buffer_size, rows in batched:
        if buffer_size * rows > MAX_BUFFER:
            fail(check_id, f"a shuffle after batch({rows}) holds up to {buffer_size} batches "
                           f"of {rows} rows, more than the {MAX_BUFFER} rows allowed",
                 hint="shuffle the rows before batch(32), with a buffer of 64")
    cycles = observe(check_id, "cycle lengths", lambda: _cycle_lengths(dataset))
    if cycles and max(cycles) > MAX_CYCLE:
        fail(check_id, f"an interleave keeps {max(cycles)} files open at once, more than "
                       f"the {MAX_CYCLE} allowed", hint=f"interleave with cycle_length={MAX_CYCLE}")


def _check_mix(check_id, dataset, number, labels):
    for index, batch in enumerate(labels[:FIRST_BATCHES]):
        distinct = len(set(batch))
        if distinct >= MIN_LABELS:
            continue
        message = (f"epoch {number}, batch {index} holds {distinct} label"
                   f"{'s' if distinct > 1 else ''} ({sorted(set(batch))}); each of the first "
                   f"{FIRST_BATCHES} batches should hold at least {MIN_LABELS}")
        cycles = observe(check_id, "cycle lengths", lambda: _cycle_lengths(dataset))
        if not cycles:
            fail(check_id, message + ": the files are read one after another, so a buffer "
                                     f"of {MAX_BUFFER} rows sees one or two files at a time",
                 hint="read several files at once with interleave(TextLineDataset, "
                      f"cycle_length={MAX_CYCLE}, block_length=1)")
        fail(check_id, message + f": an interleave over {max(cycles)} files at a time does "
                                 "not give enough labels",
             hint=f"cycle_length={MAX_CYCLE} and block_length=1 take one row from each of "
                  f"{MAX_CYCLE} files in turn")
