"""Files that fit in one read buffer, read in one step.

A training set of many small files (one per day, per shard, per user) pays a reader's fixed
costs once per file: opening a buffered reader, a 256 KiB read buffer, a second read to find
the end. For an uncompressed regular file no larger than `buffer_size`, one unbuffered read
of its known size gives the same bytes for about half the cost; the readers then split or walk
those bytes exactly as they would a first chunk, so records, lines and errors are the same.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.txt")
>>> _ = open(path, "wb").write(b"a\\nb\\n")
>>> read_if_small(path, 1024), read_if_small(path, 2)
(b'a\\nb\\n', None)
"""

import os
import stat

from .batch_walk import walk_batch
from .record_stream import corrupted, missing, truncated


def read_if_small(path, limit):
    """The whole content of the regular file at `path` when it is at most `limit` bytes long,
    else None (a larger file, or a pipe or device, which the caller reads in chunks).

    Raises:
        NotFoundError: `path` is missing (named, as `open_binary` does).
    """
    try:
        # No file object: its cost is what this saves.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise missing(path) from None
    try:
        status = os.fstat(descriptor)
        # A directory opens too, on Linux: the chunked reader names it in its error.
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            return None
        # The size is known, so one read of a byte more also sees the end (a file that grew
        # meanwhile goes the chunked way).
        data = os.read(descriptor, status.st_size + 1)
    finally:
        os.close(descriptor)
    return data if len(data) <= status.st_size else None


def small_file_records(path, compression_type, chunk_size):
    """The verified records of an uncompressed TFRecord file of at most `chunk_size` bytes and
    the error that follows them (or None), exactly as `RecordStream` reports them; None when
    the file must be streamed instead (compressed, larger, not a regular file)."""
    if compression_type:
        return None
    path = os.fspath(path)
    data = read_if_small(path, chunk_size)
    if data is None:
        return None
    records = []
    position, problem = walk_batch(data, 0, records, len(data))
    if problem is not None:
        return records, corrupted(problem, 0, path, len(records))
    if position < len(data):
        return records, truncated(data, position, 0, path, len(records))
    return records, None
