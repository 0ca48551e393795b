"""`TextLineDataset`: the lines of text files, as `bytes` without their line endings.

Lines end at "\\n"; every "\\r" is dropped (so CRLF files read like LF files), and a last line
without a newline still counts. Files may be GZIP or ZLIB compressed as a whole.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "t.txt")
>>> _ = open(path, "wb").write(b"a,1\\r\\nb,2\\r\\nc,3")
>>> list(TextLineDataset(path).as_numpy_iterator())
[b'a,1', b'b,2', b'c,3']
"""

from ...io.compression import CHUNK_SIZE, check_compression_type, read_chunks
from ...io.record_stream import chunk_size_of
from ...io.small_file import read_if_small
from ...io.tfrecord_reader import open_binary
from .tfrecord import FileReaderDataset


def read_lines(path, compression_type=None, buffer_size=None):
    """The lines of one file (see the module docstring), read `buffer_size` bytes at a time
    (None or 0: 256 KiB), so a small `buffer_size` bounds each read as for TFRecords; an
    iterator (see `LineReader`)."""
    return LineReader(path, compression_type, buffer_size)


class LineReader:
    """The lines of one text file: one per `next()`, or with `next_many(limit)` as many as one
    read made ready (up to `limit`), so an interleave's worker moves a file's lines in one
    step. The file is opened at the first call and closed at its end, as a generator would.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "lines.txt")
    >>> _ = open(path, "wb").write(b"a\\nb\\nc\\n")
    >>> reader = read_lines(path)
    >>> next(reader), reader.next_many(5)
    (b'a', [b'b', b'c'])
    """

    def __init__(self, path, compression_type=None, buffer_size=None):
        self._arguments = (path, compression_type, buffer_size)
        self._chunks = self._handle = None
        self._lines, self._next = [], 0  # the split lines of the chunks read, the next one
        self._pending = b""  # the start of a line the next chunk completes
        self.drained = False  # `next_many` gave the last lines: the next call would end

    def __iter__(self):
        return self

    def _refill(self):
        """Split the next chunk into `_lines`; StopIteration at the end of the file."""
        if self._chunks is None:
            if self._arguments is None:
                raise StopIteration
            path, compression_type, buffer_size = self._arguments
            chunk_size = CHUNK_SIZE if not buffer_size else chunk_size_of(buffer_size)
            self._arguments = None  # a file that cannot be opened raises once, then ends
            whole = None if check_compression_type(compression_type) \
                else read_if_small(path, chunk_size)
            if whole is not None:  # one read (see `small_file`), split at once
                self._split_whole(whole)
                return
            self._handle = open_binary(path)
            self._chunks = read_chunks(self._handle, compression_type, path, chunk_size)
        try:
            for chunk in self._chunks:
                if b"\r" in chunk:
                    chunk = chunk.replace(b"\r", b"")
                lines = (self._pending + chunk).split(b"\n") if self._pending \
                    else chunk.split(b"\n")
                self._pending = lines.pop()
                if lines:
                    self._lines, self._next = lines, 0
                    return
        except BaseException:
            self.close()
            raise
        pending = self._pending
        self.close()
        if not pending:
            raise StopIteration
        self._lines, self._next = [pending], 0  # a last line without a newline counts

    def _split_whole(self, whole):
        """The lines of a whole file's content, as the chunked loop would split them."""
        if b"\r" in whole:
            whole = whole.replace(b"\r", b"")
        lines = whole.split(b"\n")
        if not lines[-1]:
            lines.pop()  # after a final newline; a last line without one still counts
        if not lines:
            raise StopIteration
        self._lines, self._next = lines, 0

    def __next__(self):
        if self._next == len(self._lines):
            self._refill()
        line = self._lines[self._next]
        self._next += 1
        return line

    def next_many(self, limit):
        """Up to `limit` (>= 1) lines, at least one; StopIteration at the end."""
        if self._next == len(self._lines):
            self._refill()
        start = self._next
        stop = min(start + limit, len(self._lines))
        self._next = stop
        # The last lines given, with nothing left to read: the next call would end.
        self.drained = stop == len(self._lines) and self._chunks is None \
            and self._arguments is None
        if start == 0 and stop == len(self._lines):
            return self._lines
        return self._lines[start:stop]

    def close(self):
        """Close the file (idempotent); the reader then ends."""
        self._arguments, self._pending = None, b""
        if self._handle is not None:
            self._chunks.close()
            self._handle.close()
        self._chunks = self._handle = None


class TextLineDataset(FileReaderDataset):
    """Lines of one or more text files; see the module docstring."""

    _stage = "text_line"

    def _read_file(self, path):
        return read_lines(path, self._compression_type, self._buffer_size)
