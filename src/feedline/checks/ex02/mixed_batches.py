"""Check for exercise `ex-02-4`: batches that mix labels, within a memory budget.

The check writes files sorted by label, runs the learner's pipeline over them, and tests what
its batches hold and how much its shuffles and interleaves keep in memory.
"""

import os
import shutil
import tempfile

import numpy as np

from ... import io
from ...data import Dataset  # noqa: F401 - the doctest of check_mixed_batches uses it
from .._common import (call_answer, check, fail, observe, passed, pipeline_nodes, rng,
                       take_elements)
from ._shared import _shuffle_buffers


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
