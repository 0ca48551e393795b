"""Check for exercise `ex-05-3`: find where a TFRecord file is damaged."""

import os
import shutil
import tempfile

from ...io import TFRecordWriter
from .._common import call_answer, check, fail, passed, rng
from ._shared import _as_int


_DAMAGES = ("length", "length CRC", "data", "data CRC", None)


def _damaged_file(directory, generator, number, where):
    """Write a TFRecord file of fresh records, one bit flipped in part `where` of one record.

    Returns (path, good records before the damage, its start offset, data start offset)."""
    count = int(generator.integers(6, 15))
    records = [generator.bytes(int(generator.integers(3, 80))) for _ in range(count)]
    path = os.path.join(directory, f"damaged-{number}.tfrecord")
    with TFRecordWriter(path) as writer:
        for record in records:
            writer.write(record)
    if where is None:
        size = sum(16 + len(record) for record in records)
        return path, count, size, size
    victim = int(generator.integers(1, count))
    start = sum(16 + len(record) for record in records[:victim])
    length = len(records[victim])
    part = {"length": (0, 8), "length CRC": (8, 12), "data": (12, 12 + length),
            "data CRC": (12 + length, 16 + length)}[where]
    position = start + int(generator.integers(*part))
    with open(path, "r+b") as handle:
        handle.seek(position)
        byte = handle.read(1)[0]
        handle.seek(position)
        handle.write(bytes([byte ^ (1 << int(generator.integers(0, 8)))]))
    return path, victim, start, start + 12


@check("ex-05-3", hint="read the records one by one, counting them and adding 16 + len(record) "
                        "bytes for each, until the reader raises DataLossError; an intact file "
                        "ends at its size",
       replayable=True)
def check_find_damage(find_damage):
    """ex-05-3: `find_damage(path)` gives (good records, byte offset) where the damage starts.

    >>> import feedline as fl
    >>> def find_damage(path):
    ...     good, offset = 0, 0
    ...     try:
    ...         for record in fl.data.TFRecordDataset(path):
    ...             good, offset = good + 1, offset + 16 + len(record)
    ...     except fl.errors.DataLossError:
    ...         pass
    ...     return good, offset
    >>> check_find_damage(find_damage)
    ex-05-3 passed: found the damaged record and its offset in 5 freshly damaged files
    """
    check_id = "ex-05-3"
    generator = rng(check_id)
    order = [_DAMAGES[int(k)] for k in generator.permutation(len(_DAMAGES))]
    directory = tempfile.mkdtemp(prefix="feedline-ex-05-3-")
    try:
        for number, where in enumerate(order):
            path, good, start, data_start = _damaged_file(directory, generator, number, where)
            got = call_answer(check_id, find_damage, path, want_dataset=False)
            if not isinstance(got, (tuple, list)) or len(got) != 2:
                fail(check_id, f"find_damage should return a pair (good records, offset), got "
                               f"{type(got).__name__} {got!r:.60}")
            got_good = _as_int(check_id, got[0], "the number of good records")
            got_offset = _as_int(check_id, got[1], "the offset")
            what = ("an intact file" if where is None else
                    f"a file whose record {good} has a flipped bit in its {where}")
            if (got_good, got_offset) == (good, start):
                continue
            message = (f"for {what}, find_damage returned ({got_good}, {got_offset}), "
                       f"expected ({good}, {start})")
            if got_good == good + 1 and where is not None:
                fail(check_id, message + ": the count includes the damaged record; count only "
                                         "the records delivered before the error")
            if got_offset == data_start and where is not None:
                fail(check_id, message + f": {data_start} is where the damaged record's data "
                                         "starts; the record itself starts 12 bytes earlier, "
                                         "at its length",
                     hint="the DataLossError names the data's offset for a bad data CRC; "
                          "compute the record's start yourself, adding 16 + len(record) per "
                          "good record")
            if got_good == good and got_offset == start - 16 * good:
                fail(check_id, message + ": every record before it also has 16 bytes of "
                                         "framing (8 length, 4 + 4 CRC), add 16 + "
                                         "len(record) per record")
            fail(check_id, message)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    passed(check_id, f"found the damaged record and its offset in {len(order)} freshly "
                     "damaged files")
