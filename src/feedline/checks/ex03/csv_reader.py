"""Check for exercise `ex-03-2`: `csv_reader_dataset`, shards read, shuffled and batched.

The check writes fresh files with seeded random contents to a temporary folder, hands their paths
to the learner's answer, and compares what comes back with what it wrote. The folder is deleted
afterwards.
"""

import os
import shutil
import tempfile

import numpy as np

from .._common import (call_answer, check, describe, fail, observe, passed, pipeline_nodes,
                       read_elements, rng)


FEATURES = ("width", "height", "depth")


def _write_shards(directory, generator, count):
    """`count` CSV shards with a header; returns (paths, rows as an array, file of each row)."""
    paths, rows, owners = [], [], []
    sizes = generator.integers(9, 25, size=count)
    # Every price differs, so that the check can tell each line by its price.
    prices = generator.choice(np.arange(10_000, 60_000), size=int(sizes.sum()), replace=False)
    for shard, size in enumerate(int(size) for size in sizes):
        table = np.round(generator.normal([50, 20, 5, 300], [10, 4, 1, 60], size=(size, 4)), 2)
        table[:, 3], prices = prices[:size] / 100, prices[size:]
        path = os.path.join(directory, f"part-{shard:02d}.csv")
        with open(path, "w") as handle:
            handle.write(",".join(FEATURES + ("price",)) + "\n")
            handle.writelines(",".join(repr(float(v)) for v in row) + "\n" for row in table)
        paths.append(path)
        rows.append(table.astype(np.float32))
        owners += [shard] * size
    return paths, np.concatenate(rows), np.array(owners)


@check("ex-03-2", hint="list_files(filepaths, seed=seed) → interleave(lambda p: "
                        "TextLineDataset(p).skip(1), cycle_length=n_readers) → shuffle → "
                        "map(parse: decode_csv, scale the 3 inputs) → batch(batch_size) → "
                        "prefetch(1)",
       replayable=True)
def check_csv_reader_dataset(csv_reader_dataset):
    """ex-03-2: `csv_reader_dataset(filepaths, mean, std, batch_size, seed)` reads every line once.

    >>> import feedline as fl
    >>> from feedline.data import Dataset, TextLineDataset
    >>> def csv_reader_dataset(filepaths, mean, std, batch_size=32, seed=42, n_readers=3):
    ...     def parse(line):
    ...         fields = fl.io.decode_csv(line, [fl.float32] * 4)
    ...         return (np.stack(fields[:3]) - mean) / std, np.stack(fields[3:])
    ...     files = Dataset.list_files(filepaths, seed=seed)
    ...     lines = files.interleave(lambda path: TextLineDataset(path).skip(1),
    ...                              cycle_length=n_readers)
    ...     return lines.shuffle(500, seed=seed).map(parse).batch(batch_size).prefetch(1)
    >>> check_csv_reader_dataset(csv_reader_dataset)
    ex-03-2 passed: every line once, headers skipped, inputs scaled, batches of the right shapes
    """
    check_id = "ex-03-2"
    generator = rng(check_id)
    directory = tempfile.mkdtemp(prefix="feedline-ex-03-2-")
    try:
        paths, rows, owners = _write_shards(directory, generator, int(generator.integers(4, 7)))
        mean = np.round(rows[:, :3].mean(axis=0), 1).astype(np.float32)
        std = np.round(rows[:, :3].std(axis=0), 1).astype(np.float32)
        batch_size = int(generator.integers(5, 11))
        seed = int(generator.integers(1000))
        n_readers = int(generator.choice([2, 4]))  # not the default 3: is it used?
        limit = len(rows) // batch_size * 2 + 3

        def prices(seed):
            dataset = call_answer(check_id, csv_reader_dataset, paths, mean, std, batch_size,
                                  seed, n_readers)
            batches = _read_batches(check_id, dataset, limit)
            return dataset, batches, [round(float(p), 2) for _, target in batches
                                      for p in np.asarray(target).reshape(-1)]

        dataset, batches, order = prices(seed)
        _check_batches(check_id, batches, rows, owners, mean, std, batch_size)
        _check_reader_stages(check_id, dataset, n_readers)
        _check_lines_shuffled(check_id, order, rows, owners)
        if prices(seed)[2] != order:
            fail(check_id, "two datasets made with the same seed gave the lines in different "
                           "orders", hint="pass seed=seed to list_files and to shuffle")
        if prices(seed + 1)[2] == order:
            fail(check_id, f"seed={seed} and seed={seed + 1} gave the lines in the same order: "
                           "the seed argument is not used",
                 hint="pass the function's own `seed` to list_files and shuffle, not a "
                      "constant")
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    passed(check_id, "every line once, headers skipped, inputs scaled, batches of the right "
                     "shapes")


def _read_batches(check_id, dataset, limit):
    """One epoch of batches; a header that reached decode_csv gets its own hint."""
    batches = []
    try:
        for element in read_elements(check_id, dataset):
            batches.append(element)
            if len(batches) > limit:
                fail(check_id, f"more than {limit} batches for one epoch: it should end",
                     hint="do not repeat(): the training loop runs the epochs")
    except AssertionError as failure:
        if f"valid float: {FEATURES[0]}" in str(failure):
            fail(check_id, "a header line reached decode_csv: "
                           + getattr(failure, "message", str(failure)).splitlines()[0],
                 hint="every file starts with a header: skip(1) on each file's "
                      "TextLineDataset, inside interleave (TextLineDataset(all files)"
                      ".skip(1) skips only the first file's header)")
        raise
    return batches


def _check_batches(check_id, batches, rows, owners, mean, std, batch_size):
    for number, batch in enumerate(batches):
        if not (isinstance(batch, tuple) and len(batch) == 2):
            fail(check_id, f"batch {number} is {describe(batch)}; expected a pair (inputs, "
                           "target)")
        inputs, target = (np.asarray(part) for part in batch)
        if inputs.ndim != 2 or inputs.shape[1] != 3 or target.ndim != 2 or target.shape[1] != 1:
            fail(check_id, f"batch {number} is {describe(batch)}; expected inputs of shape "
                           f"(batch, 3) and target of shape (batch, 1)",
                 hint="inputs: np.stack of the 3 input columns; target: np.stack of the last "
                      "column alone (a list of one), so that batching gives (batch, 1)")
        if inputs.dtype != np.float32 or target.dtype != np.float32:
            fail(check_id, f"batch {number} has dtypes {inputs.dtype} and {target.dtype}; "
                           "expected float32 for both")
    sizes = [len(np.asarray(batch[0])) for batch in batches]
    total = sum(sizes)
    if total != len(rows):
        fail(check_id, f"one epoch gave {total} lines, the files hold {len(rows)} (without "
                       "their headers)",
             hint="batch without drop_remainder keeps the last, smaller batch"
             if total < len(rows) and total % batch_size == 0 else None)
    if any(size != batch_size for size in sizes[:-1]):
        fail(check_id, f"batch sizes {sizes}; expected {batch_size} for all but the last")
    inputs = np.concatenate([np.asarray(batch[0]) for batch in batches])
    target = np.concatenate([np.asarray(batch[1]) for batch in batches])[:, 0]
    if np.allclose(np.sort(inputs[:, 0]), np.sort(rows[:, 0]), atol=1e-3):
        fail(check_id, "the inputs are not scaled: they are the raw values",
             hint="in the parse function return (inputs - mean) / std")
    found = {}
    for position, value in enumerate(target):
        found.setdefault(round(float(value), 2), []).append(position)
    order = []
    for index, row in enumerate(rows):
        positions = found.get(round(float(row[3]), 2))
        if not positions:
            fail(check_id, f"the line with price {row[3]:.2f} (file part-{owners[index]:02d}."
                           "csv) never came out")
        order.append(positions.pop(0))
    got = inputs[order]
    want = (rows[:, :3] - mean) / std
    if not np.allclose(got, want, rtol=1e-4, atol=1e-4):
        bad = int(np.argmax(np.abs(got - want).max(axis=1)))
        swapped = (rows[bad, :3] / std - mean)
        fail(check_id, f"the line {rows[bad].tolist()} gave inputs {got[bad].round(3).tolist()}, "
                       f"expected (inputs - mean) / std = {want[bad].round(3).tolist()}",
             hint="subtract the mean first, then divide by std"
             if np.allclose(got[bad], swapped, rtol=1e-4, atol=1e-4) else
             "scale every input column: (inputs - mean) / std")
    first = {int(owners[index]) for index, position in enumerate(order)
             if position < sizes[0]}
    if len(first) < 2:
        fail(check_id, "the first batch holds lines of only one file; expected lines from "
                       "several shards mixed",
             hint="interleave the files with cycle_length > 1, then shuffle")


def _check_reader_stages(check_id, dataset, n_readers):
    """Fail unless the pipeline reads n_readers files at a time and ends by prefetching."""
    stages = observe(check_id, "reader stages", lambda: [
        [node._stage, int(getattr(node, "_cycle_length", 0))]
        for node in pipeline_nodes(dataset)])
    cycles = [cycle for stage, cycle in stages if stage == "interleave"]
    if n_readers not in cycles:
        fail(check_id, f"called with n_readers={n_readers}, the pipeline reads "
                       + (f"{max(cycles)} files at a time" if cycles else
                          "the files without an interleave")
                       + f", not {n_readers}",
             hint="interleave(..., cycle_length=n_readers): use the argument, not a constant")
    if "prefetch" not in [stage for stage, _ in stages]:
        fail(check_id, "the pipeline has no prefetch, so nothing prepares the next batch "
                       "while the model trains on this one", hint="end with .prefetch(1)")


def _check_lines_shuffled(check_id, order, rows, owners):
    """Fail when every file's lines come out in the file's own order: nothing shuffled them."""
    prices = [round(float(p), 2) for p in rows[:, 3]]
    position = {price: index for index, price in enumerate(order)}
    for shard in set(owners.tolist()):
        seen = [position[price] for price, owner in zip(prices, owners) if owner == shard]
        if seen != sorted(seen):
            return
    fail(check_id, "the lines of every file came out in the file's own order: the files are "
                   "interleaved but the lines are not shuffled",
         hint="shuffle(buffer_size, seed=seed) after the interleave mixes the lines")
