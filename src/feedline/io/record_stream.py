"""One TFRecord file as a stream of verified records, taken a run at a time.

The file is read `buffer_size` bytes at a time (256 KiB by default, as in TensorFlow), so
memory stays bounded whatever the file's size; only a single record larger than the buffer
makes it grow, to that record's size. `run()` gives the records of the next buffer (the
per-record reader), `take(limit, out)` up to `limit` records (the batched reader, which
verifies a whole buffer at once: `batched=True`, see `batch_walk`).

>>> import os, tempfile
>>> from feedline.io import TFRecordWriter
>>> path = os.path.join(tempfile.mkdtemp(), "s.tfrecord")
>>> with TFRecordWriter(path) as writer:
...     for data in (b"a", b"b", b"c"):
...         writer.write(data)
>>> stream, out = RecordStream(path), []
>>> stream.take(2, out), out
(True, [b'a', b'b'])
>>> stream.take(2, out), out
(False, [b'a', b'b', b'c'])
>>> stream.run()
[]
>>> stream.close()
"""

import os

from ..errors import DataLossError, NotFoundError
from . import framing
from .batch_walk import walk_batch
from .compression import check_compression_type, read_chunks

DEFAULT_BUFFER_SIZE = 256 * 1024


def missing(path):
    """The error for a file that does not exist, naming it."""
    return NotFoundError(f"{path}; No such file or directory")


def corrupted(problem, base, path, index):
    """The error for a damaged record `framing.walk` found in a buffer that starts at stream
    offset `base`; `index`: the record's position in the file."""
    offset, what = framing.describe(problem, base)
    return DataLossError(f"corrupted record at {offset} in {path}: the {what} (record {index} "
                         "of the file)")


def truncated(buffer, position, base, path, index):
    """The error for a file that ends inside the record at `buffer[position:]`."""
    need = framing.needed_bytes(buffer, position)
    return DataLossError(
        f"truncated record at {base + position} in {path}: the file ends "
        f"{len(buffer) - position} bytes into a record of {need} bytes (record {index} of the "
        "file)")


def open_binary(path):
    """Open `path` for reading, with a `NotFoundError` that names it when it is missing."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise missing(path) from None
    except IsADirectoryError:
        raise NotFoundError(f"{path} is a directory, not a file") from None


def chunk_size_of(buffer_size):
    """The read size for a `buffer_size` argument (None or 0: the default)."""
    if buffer_size is None or int(buffer_size) == 0:
        return DEFAULT_BUFFER_SIZE
    if int(buffer_size) < 0:
        raise ValueError(f"buffer_size must be positive or 0 (the default), got {buffer_size}")
    return int(buffer_size)


class RecordStream:
    """The verified records of the TFRecord file at `path`; see the module docstring.

    Each buffer is walked in one go (with `batched=True`, by `walk_batch`); its records wait
    in `_ready` until taken. A damaged record found on the way is remembered and raised only
    when every record before it has been taken, as the per-record reader does.
    """

    def __init__(self, path, compression_type=None, buffer_size=None, batched=False):
        self.path = os.fspath(path)
        compression_type = check_compression_type(compression_type)
        self._handle = open_binary(self.path)
        self._chunk_size = chunk_size_of(buffer_size)
        # Uncompressed files are read at chosen offsets (`_reread`); compressed ones in order.
        self._chunks = read_chunks(self._handle, compression_type, self.path,
                                   self._chunk_size) if compression_type else None
        self._hint = 0  # bytes the batched reader still wants, to end a read at a batch's end
        self._stride = 0  # the last equal-length run's record size (header and footer too)
        self._ready_buffer = self._ready_run = None  # `_ready`'s buffer, its run if one
        self.view = None  # after `take`: (buffer, offset, count, stride, length) or None
        self._batched = batched
        self._buffer = b""
        self._spare = None  # (chunk, offset): the part of a chunk after a bridge
        self._base = self._position = 0  # stream offset of _buffer[0]; next record in it
        self._ended = False
        self._short = False  # the last read of an uncompressed file reached its end
        self._ready, self._next = [], 0  # walked records not yet taken, and the first of them
        self._walked = 0  # records walked so far, to name a damaged record by its index
        self._error = None

    def run(self):
        """The next records (all those of the next buffer); an empty list at the end.

        Raises:
            DataLossError: at a corrupt or truncated record, once the records before it were
                returned.
        """
        while not self._ready:
            if not self._walk() and not self._refill():
                self._finish()
                return []
        ready, start = self._ready, self._next
        self._ready, self._next = [], 0
        return ready[start:] if start else ready

    def take(self, limit, out):
        """Append up to `limit` records to `out`; False once the file has no more.

        Afterwards `view` is `(buffer, offset, count, stride, length)` when the records taken
        lie in one buffer at equal strides (a 2-D view of them needs no copy), else None.
        """
        wanted, parts = len(out) + limit, []
        self.view = None
        while len(out) < wanted:
            if not self._ready:
                if self._walk():
                    continue
                self._hint = (wanted - len(out)) * self._stride
                if not self._refill():
                    return self._finish()
                continue
            start, ready = self._next, self._ready
            stop = min(start + wanted - len(out), len(ready))
            parts.append((start, stop - start))
            if start == 0 and stop == len(ready):
                out.extend(ready)
            else:
                out.extend(ready[start:stop])
            self._ready, self._next = (ready, stop) if stop < len(ready) else ([], 0)
            if len(parts) == 1 and self._ready_run is not None:
                first, stride, length = self._ready_run
                self.view = (self._ready_buffer, first + start * stride, stop - start, stride,
                             length)
        if len(parts) != 1:
            self.view = None
        return True

    def _walk(self):
        """Walk the rest of the buffer into `_ready`; True when that found records."""
        if self._error is not None:
            error, self._error = self._error, None
            self.close()
            raise error
        if len(self._buffer) - self._position < framing.HEADER_SIZE:
            return False
        ready, runs = [], []
        self._ready_buffer, self._ready_run = self._buffer, None
        if self._batched:
            self._position, problem = walk_batch(self._buffer, self._position,
                                                 ready, len(self._buffer), runs)
            if runs:
                self._stride = runs[-1][3]
                if len(runs) == 1 and runs[0][1] == len(ready):
                    self._ready_run = runs[0][2:]
        else:
            self._position, problem = framing.walk(self._buffer, self._position, ready)
        if problem is not None:
            self._error = corrupted(problem, self._base, self.path, self._walked + len(ready))
        self._walked += len(ready)
        self._ready, self._next = ready, 0
        return bool(ready) or self._error is not None

    def _refill(self):
        """Move on to the next chunk; False at the end of the file.

        A record cut by a chunk boundary is completed in a small "bridge" buffer (its first
        part plus just enough of the next chunk); the rest of that chunk is then walked in
        place, so the big chunks are never copied.
        """
        if self._chunks is None:
            return self._reread()
        need = framing.needed_bytes(self._buffer, self._position)
        rest = self._buffer[self._position:]
        end_offset = self._base + len(self._buffer)  # stream offset just after the buffer
        pieces, have = [rest] if rest else [], len(rest)
        while have < need:
            if self._spare is not None:
                chunk, start = self._spare
                self._spare = None
            else:
                chunk, start = next(self._chunks, None), 0
                if chunk is None:
                    break
            if not pieces and len(chunk) - start >= need:
                self._buffer = chunk
                self._position, self._base = start, end_offset - start
                return True
            take = min(need - have, len(chunk) - start)
            if start + take < len(chunk):
                self._spare = (chunk, start + take)
            pieces.append(chunk[start:start + take])
            have += take
        if have == len(rest):
            return False
        self._buffer = b"".join(pieces)
        self._position, self._base = 0, end_offset - len(rest)
        return True

    def _reread(self):
        """Read the next buffer of an uncompressed file, starting at the first byte not yet
        walked: a record cut by the last read is read again whole (at most one record), so
        buffers always start at a record and nothing is ever joined. A batched reader's read
        ends where its batch does (`_hint`), so each batch is one view of one buffer."""
        if self._ended or self._short:
            return False
        start = self._base + self._position
        need = framing.needed_bytes(self._buffer, self._position)
        size = self._chunk_size
        if self._hint:
            size = min(size, self._hint)
        size = max(size, need)
        self._handle.seek(start)
        data = self._handle.read(size)
        # A buffered read returns less than asked only at the end of the file: no need to
        # read again to learn that (small files are one read, not two).
        self._short = len(data) < size
        if len(data) <= len(self._buffer) - self._position:
            return False  # nothing beyond what we had: the end of the file
        self._buffer, self._position, self._base = data, 0, start
        return True

    def _finish(self):
        self.close()
        if self._position < len(self._buffer):
            raise truncated(self._buffer, self._position, self._base, self.path, self._walked)
        return False

    def close(self):
        """Close the file (idempotent)."""
        if not self._ended:
            self._ended = True
            if self._chunks is not None:
                self._chunks.close()
            self._handle.close()
