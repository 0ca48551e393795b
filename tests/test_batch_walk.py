"""Walking a buffer of TFRecord records a batch at a time, in C where it was built and in
NumPy otherwise, gives exactly what the per-record walk (`framing.walk`) gives: the same
records, the same position, the same first damaged record; and runs of equal-length records
that are exactly the 2-D views they claim to be."""

import numpy as np
import pytest

from feedline.io import batch_walk, framing

native = pytest.mark.skipif(batch_walk.NATIVE is None,
                            reason="the compiled walker was not built here (no C compiler or "
                                   "no CRC32C instruction): Python walks the records")


def random_buffer(rng):
    """Framed records (runs of one length, empty ones, varied ones), maybe damaged in one
    place or cut short; and a record boundary to start from."""
    lengths = []
    while len(lengths) < rng.integers(0, 90):
        length = int(rng.choice([0, 1, 7, 8, 24, 100, int(rng.integers(0, 2000))]))
        lengths.extend([length] * int(rng.integers(1, 40)))
    records = [rng.integers(0, 256, length, dtype=np.uint8).tobytes() for length in lengths]
    framed = [framing.frame(record) for record in records]
    starts = np.cumsum([0] + [len(part) for part in framed]).tolist()
    buffer = bytearray(b"".join(framed))
    damage = rng.choice(["none", "length", "length CRC", "data", "footer", "cut"])
    if buffer and damage != "none":
        index = int(rng.integers(0, len(records)))
        at = {"length": 0, "length CRC": 9, "data": 12, "footer": 12 + lengths[index]}.get(
            damage, None)
        if damage == "cut":
            buffer = buffer[:int(rng.integers(0, len(buffer)))]
        elif damage != "data" or lengths[index]:
            buffer[starts[index] + at + int(rng.integers(0, 3 if at < 12 else 1))] ^= 1 << int(
                rng.integers(0, 8))
    start = starts[int(rng.integers(0, len(starts)))] if rng.random() < 0.5 else 0
    return bytes(buffer), min(start, len(buffer))


def reference(buffer, start, limit):
    records = []
    position, problem = framing.walk(buffer, start, records, limit)
    return records, position, problem


def walked(buffer, start, limit):
    records, runs = [b"before"], []
    position, problem = batch_walk.walk_batch(buffer, start, records, limit, runs)
    return records[1:], position, problem, runs


def check_runs(buffer, records, runs):
    """Each run is `count` records of `length` bytes, `stride` apart from `offset`."""
    for index, count, offset, stride, length in runs:
        rows = np.ndarray((count, length), np.uint8, buffer, offset, (stride, 1))
        assert [row.tobytes() for row in rows] == records[index:index + count]


@pytest.mark.parametrize("path", ["native", "python"])
def test_batch_walks_match_the_per_record_walk(path, monkeypatch):
    if path == "native" and batch_walk.NATIVE is None:
        pytest.skip("the compiled walker was not built here")
    if path == "python":
        monkeypatch.setattr(batch_walk, "NATIVE", None)
    rng = np.random.default_rng(11)
    damaged = 0
    for _ in range(400):
        buffer, start = random_buffer(rng)
        limit = int(rng.integers(1, 120)) if rng.random() < 0.3 else len(buffer) + 1
        records, position, problem, runs = walked(buffer, start, limit)
        assert (records, position, problem) == reference(buffer, start, limit)
        check_runs(buffer, [b"before"] + records, runs)  # indices count b"before"
        damaged += problem is not None
    assert damaged > 50  # the damage reached the walks, not only clean buffers


@native
def test_the_native_walk_gives_maximal_runs_of_one_length():
    buffer = b"".join(framing.frame(bytes([n]) * length)
                      for n, length in enumerate([3, 3, 3, 5, 5, 3]))
    records, position, problem, runs = batch_walk.NATIVE(buffer, 0, 100)
    assert position == len(buffer) and problem is None
    assert [(index, count, length) for index, count, _, _, length in runs] == [
        (0, 3, 3), (3, 2, 5), (5, 1, 3)]


@native
def test_the_native_walk_refuses_a_start_outside_the_buffer():
    with pytest.raises(ValueError, match="start"):
        batch_walk.NATIVE(framing.frame(b"x"), 100, 1)
    with pytest.raises(TypeError):
        batch_walk.NATIVE("not bytes", 0, 1)
