"""Many small files: parallel interleave over them against plain threaded reads of the same.

Data, made here: N small CSV files (read with `TextLineDataset`) and N small TFRecord files
(read with `TFRecordDataset`), a few KB each. Each kind is read through

    Dataset.from_tensor_slices(files).interleave(reader, cycle_length=k, num_parallel_calls=k)

and compared, in the same run, with the floor: the same files read whole with
`open(path, "rb").read()` in a `ThreadPoolExecutor(k)`, which opens and reads each file and
does nothing else (timed right before every measured pass, its best time kept, so that both
see the same machine load). Target: >= 0.8 x the floor's files/s (the pipeline also splits
lines or verifies CRCs and hands out every element as a tensor). Splitting and verifying run in
Python under the GIL, so for small files already in the page cache the threads overlap nothing:
after its first epoch the interleave reads on the consumer's thread (see ops/interleave_trial).
The sequential interleave's files/s is printed too; it takes its elements one at a time.
The interleave is timed over epochs of one dataset, as training reads it; the first epoch of
a new dataset, which also runs the stages' thread trials, is printed beside it, and so is the
same interleave with `num_parallel_calls=AUTOTUNE`, as published code writes it.
Last comes a bare loop with no pipeline at all (feedline's own line or record reader over each
file in turn, one Python step per element): what Python itself reaches on the same files.

Run: .venv/bin/python benchmarks/small_files.py [--files N] [--cycle K]
"""

import argparse
import concurrent.futures
import os
import tempfile
import time
import tracemalloc

import numpy as np

import feedline as fl
from feedline.data.ops.text_line import read_lines
from feedline.io.tfrecord_reader import read_records


def make_files(folder, count, seed=0):
    """`count` CSV files and `count` TFRecord files; returns both lists and the line count."""
    rng = np.random.default_rng(seed)
    csv_files, record_files, lines = [], [], 0
    for index in range(count):
        rows = rng.integers(20, 60)
        table = rng.normal(size=(rows, 6)).round(4)
        path = os.path.join(folder, f"part-{index:04d}.csv")
        with open(path, "w") as handle:
            handle.write("a,b,c,d,e,f\n")
            handle.writelines(",".join(map(str, row)) + "\n" for row in table.tolist())
        csv_files.append(path)
        lines += rows + 1
        path = os.path.join(folder, f"part-{index:04d}.tfrecord")
        with fl.io.TFRecordWriter(path) as writer:
            for row in table.astype(np.float32):
                writer.write(row.tobytes())
        record_files.append(path)
    return csv_files, record_files, lines


def best_of(repeats, function, floor_pass=None):
    """The best time of `repeats` calls, and the last result. With `floor_pass`, the floor is
    run right before each call too (its best time kept in `floor_pass.best`): on a shared
    machine the load changes during a run, and the floor must see the same quiet moments as
    the pipeline it is compared to."""
    best = float("inf")
    for _ in range(repeats):
        if floor_pass is not None:
            floor_pass()
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


class Floor:
    """The threaded plain reads of `files`, timed whenever called; `best` is its fastest."""

    def __init__(self, files, cycle):
        self.files, self.cycle, self.best = files, cycle, float("inf")

    def __call__(self):
        start = time.perf_counter()
        floor(self.files, self.cycle)
        self.best = min(self.best, time.perf_counter() - start)


def read_whole(path):
    with open(path, "rb") as handle:
        return handle.read()


def floor(files, cycle):
    """Every file read whole by a pool of `cycle` threads: bytes read."""
    with concurrent.futures.ThreadPoolExecutor(cycle) as pool:
        return sum(len(data) for data in pool.map(read_whole, files))


def interleaved(files, reader, cycle, parallel=True, calls=None):
    """Every element of every file, through a parallel (or the sequential) interleave with
    `calls` parallel calls (default: `cycle`)."""
    return fl.data.Dataset.from_tensor_slices(files).interleave(
        reader, cycle_length=cycle, num_parallel_calls=(calls or cycle) if parallel else None)


def epoch(dataset):
    """One pass over `dataset`, as a training loop makes it: how many elements."""
    return sum(1 for _ in dataset)


def bare_loop(files, reader):
    """Every element of every file read by the file reader alone, one after another."""
    return sum(1 for path in files for _ in reader(path))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200, help="files of each kind")
    parser.add_argument("--cycle", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        csv_files, record_files, lines = make_files(folder, args.files)
        kinds = [("CSV lines (TextLineDataset)", csv_files, fl.data.TextLineDataset, lines,
                  read_lines),
                 ("TFRecords (TFRecordDataset)", record_files, fl.data.TFRecordDataset,
                  lines - len(csv_files), read_records)]
        print(f"files: {args.files} CSV + {args.files} TFRecord, cycle_length = "
              f"num_parallel_calls = {args.cycle}, best of {args.repeats}")
        for name, files, reader, elements, file_reader in kinds:
            floor_pass = Floor(files, args.cycle)
            # The first epoch of a new pipeline includes the stages' thread trials; later
            # epochs of the same dataset start the way the trial ended (see ops/_trial.py).
            first_time, _ = best_of(args.repeats, lambda: epoch(
                interleaved(files, reader, args.cycle)), floor_pass)
            dataset = interleaved(files, reader, args.cycle)
            read_time, count = best_of(args.repeats, lambda: epoch(dataset), floor_pass)
            assert count == elements, (count, elements)
            # As published code writes it (for information).
            tuned = interleaved(files, reader, args.cycle, calls=fl.data.AUTOTUNE)
            tuned_time, _ = best_of(args.repeats, lambda: epoch(tuned), floor_pass)
            # The sequential interleave, which takes its elements one at a time (information).
            sequential = interleaved(files, reader, args.cycle, False)
            sequential_time, _ = best_of(args.repeats, lambda: epoch(sequential), floor_pass)
            bare_time, bare_count = best_of(args.repeats, lambda: bare_loop(files, file_reader),
                                            floor_pass)
            assert bare_count == elements, (bare_count, elements)
            tracemalloc.start()
            epoch(interleaved(files, reader, args.cycle))
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            floor_time = floor_pass.best
            print(f"{name}: floor (threaded open().read()) {len(files) / floor_time:>8,.0f} "
                  f"files/s; interleave {len(files) / read_time:>8,.0f} files/s "
                  f"({count / read_time:,.0f} elements/s): {floor_time / read_time:.2f} x floor "
                  f"(target >= 0.80 x); its first epoch {floor_time / first_time:.2f} x floor; "
                  f"with AUTOTUNE {len(files) / tuned_time:,.0f} files/s "
                  f"({floor_time / tuned_time:.2f} x floor); "
                  f"sequential interleave {len(files) / sequential_time:,.0f} "
                  f"files/s; bare reader loop {len(files) / bare_time:,.0f} files/s "
                  f"({floor_time / bare_time:.2f} x floor); peak extra memory "
                  f"{peak / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
