"""TFRecord throughput: write, read-and-verify, and read+parse into NumPy batches.

Data: 60,000 MNIST-like Examples (a 784-byte image as bytes + an int64 label, ~50 MB), made
here. Each figure is printed beside the floor measured in the same run: a loop that only walks
the record headers of the same file held in memory (struct unpack, no CRC, no copy), which no
Python reader can beat, and beside its target (a fraction of that floor). Each measurement has
its own floor, timed right before each of its passes (best of as many passes on both sides):
on a shared machine the load changes during a run, and a ratio must compare two timings made
in the same moments, not a pipeline's against the floor's luckiest pass of the whole run:

- read + verify CRCs (`TFRecordDataset` iterated record by record)            >= 0.15 x floor
- read + parse, general path (`parse_example`'s per-record walk, forced)      >= 0.12 x floor
- read + parse, fixed-layout path (`.batch(B)` read a batch at a time, each   >= 0.35 x floor
  batch sliced as a 2-D array; what `TFRecordDataset(f).batch(B).map(parse)` does by itself),
  then `decode_raw` of the images, as TensorFlow code does. Printed again without the
  prefetch TensorFlow 2.21 injects at the end of every pipeline (for information): that
  prefetch first times its thread against reading directly and keeps the faster
  (`feedline.data.ops._trial`), so the two lines should be close. Parsing is timed over
  epochs of one dataset, as training reads it; the first epoch of a new dataset, which also
  runs that trial, is printed on its own.

It also prints the peak extra memory (tracemalloc) of one read+parse pass: reading streams
through a `buffer_size` buffer, so it stays near a few batches, far below the file's size.

Run: .venv/bin/python benchmarks/records.py [--records N] [--batch B]
"""

import argparse
import os
import struct
import tempfile
import time
import tracemalloc

import numpy as np

import feedline as fl
from feedline.io import parsing


def make_examples(count, seed=0):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(count, 784), dtype=np.uint8)
    labels = rng.integers(0, 10, size=count)
    Example, Features, Feature = fl.train.Example, fl.train.Features, fl.train.Feature
    return [Example(features=Features(feature={
        "image": Feature(bytes_list=fl.train.BytesList(value=[image.tobytes()])),
        "label": Feature(int64_list=fl.train.Int64List(value=[int(label)]))}))
        .SerializeToString() for image, label in zip(images, labels)], images, labels


def header_walk(data):
    """The floor: hop from header to header, reading only each length."""
    unpack, position, end, count = struct.Struct("<Q").unpack_from, 0, len(data), 0
    while position < end:
        position += unpack(data, position)[0] + 16
        count += 1
    return count


def best_of(repeats, function, floor=None):
    """The best time of `repeats` calls, and the last result. With `floor` (a callable), the
    floor is timed right before each call too: on a shared machine the load changes during a
    run, and the floor must see the same quiet moments as the measurement it is compared to."""
    best = float("inf")
    for _ in range(repeats):
        if floor is not None:
            floor()
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


class Floor:
    """The header walk over `data`, timed whenever called; `best` is its fastest time."""

    def __init__(self, data, count):
        self.data, self.count, self.best = data, count, float("inf")

    def __call__(self):
        start = time.perf_counter()
        walked = header_walk(self.data)
        self.best = min(self.best, time.perf_counter() - start)
        assert walked == self.count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=60_000)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()

    records, images, labels = make_examples(args.records)
    spec = {"image": fl.io.FixedLenFeature([], fl.string),
            "label": fl.io.FixedLenFeature([], fl.int64)}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "mnist_like.tfrecord")

        def write():
            with fl.io.TFRecordWriter(path) as writer:
                for record in records:
                    writer.write(record)

        write_time, _ = best_of(args.repeats, write)
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            in_memory = handle.read()
        floors = {}

        def floor_for(name):
            """The floor timed beside the measurement `name` (see the module docstring)."""
            return floors.setdefault(name, Floor(in_memory, args.records))

        def read():
            return sum(1 for _ in fl.data.TFRecordDataset(path))

        read_time, count = best_of(args.repeats, read, floor_for("read"))
        assert count == args.records

        def parsed_batches(inject_prefetch=True):
            dataset = fl.data.TFRecordDataset(path).batch(args.batch).map(
                lambda batch: fl.io.parse_example(batch, spec))
            if not inject_prefetch:
                options = fl.data.Options()
                options.experimental_optimization.inject_prefetch = False
                dataset = dataset.with_options(options)
            return dataset

        def read_parse(dataset):
            """One epoch of `dataset`, as a training loop reads it: how many images."""
            seen, last = 0, None
            for parsed in dataset:
                image = fl.io.decode_raw(parsed["image"], fl.uint8)  # as TensorFlow code does
                seen += len(image)
                last = (image, parsed["label"])
            assert np.array_equal(last[0], images[-len(last[0]):])
            assert np.array_equal(last[1], labels[-len(last[1]):])
            return seen

        general = parsed_batches()

        def general_read_parse():
            parsing.FAST_PATH = False
            try:
                return read_parse(general)
            finally:
                parsing.FAST_PATH = True

        # Epochs of one dataset, as training reads it. The first epoch of a new dataset also
        # runs the injected prefetch's thread trial (later ones start as it ended): it is
        # timed on its own, for information.
        first_time, count = best_of(args.repeats, lambda: read_parse(parsed_batches()),
                                    floor_for("first"))
        fixed = parsed_batches()
        parse_time, count = best_of(args.repeats, lambda: read_parse(fixed),
                                    floor_for("fixed"))
        assert count == args.records
        # Without the prefetch TensorFlow 2.21 adds at the end (it tries going without itself).
        plain = parsed_batches(False)
        plain_time, count = best_of(args.repeats, lambda: read_parse(plain),
                                    floor_for("plain"))
        assert count == args.records
        general_time, count = best_of(args.repeats, general_read_parse,
                                      floor_for("general"))
        assert count == args.records
        tracemalloc.start()
        read_parse(parsed_batches())
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()

    floor = args.records / min(walk.best for walk in floors.values())

    def rate(seconds, name, target=None):
        """`seconds` per pass as records/s and as a fraction of its own floor."""
        speed, own_floor = args.records / seconds, args.records / floors[name].best
        aim = f"target >= {target:.2f} x" if target else "for information"
        return f"{speed:>12,.0f} records/s  ({speed / own_floor:.2f} x floor; {aim})"

    print(f"records: {args.records:,} MNIST-like Examples, {size / 1e6:.1f} MB, "
          f"batch {args.batch}, best of {args.repeats}")
    print(f"floor (header walk, in memory)      : {floor:>12,.0f} records/s  (fastest pass; "
          "each ratio uses the floor timed beside it)")
    print(f"write                               : {size / write_time / 1e6:>12,.1f} MB/s  "
          f"({args.records / write_time:,.0f} records/s, {args.records / write_time / floor:.2f}"
          " x floor)")
    print(f"read + verify CRCs                  : {rate(read_time, 'read', 0.15)}")
    print(f"read + parse, general path          : {rate(general_time, 'general', 0.12)}")
    print(f"read + parse, fixed-layout fast path: {rate(parse_time, 'fixed', 0.35)}")
    for label, seconds, name in (("the first epoch of a new dataset", first_time, "first"),
                                 ("without the injected prefetch", plain_time, "plain")):
        print(f"  {label + ':':<34}{rate(seconds, name)}")
    print(f"peak extra memory, read + parse     : {peak / 1e6:12.1f} MB  (file {size / 1e6:.1f} "
          "MB; default buffer_size 256 KiB)")


if __name__ == "__main__":
    main()
