"""Reading TFRecord files: records in order, each verified, damage reported precisely.

The file is read `buffer_size` bytes at a time (see `record_stream`). Every record's two CRCs
are checked. At a bad CRC or a file that ends inside a record, the records before it are
delivered first, then `DataLossError` names the file and the byte offset where the bad record
starts (in the uncompressed stream, as TensorFlow counts it).

>>> import os, tempfile
>>> from feedline.io import TFRecordWriter
>>> path = os.path.join(tempfile.mkdtemp(), "demo.tfrecord")
>>> with TFRecordWriter(path) as writer:
...     for data in (b"one", b"two"):
...         writer.write(data)
>>> list(read_records(path))
[b'one', b'two']
"""

import itertools

from ..errors import DataLossError
from . import framing
from .compression import CHUNK_SIZE  # noqa: F401 - the text readers' chunk size, kept here
from .compression import check_compression_type
from .record_stream import RecordStream, chunk_size_of, open_binary  # noqa: F401 - re-exported
from .small_file import small_file_records

def read_records(path, compression_type=None, buffer_size=None):
    """The data of every record of the TFRecord file at `path`, as `bytes`, reading
    `buffer_size` bytes at a time (default 256 KiB); an iterator (see `RecordReader`).

    Raises:
        DataLossError: at a corrupt or truncated record, after yielding every record before it.
    """
    return RecordReader(path, compression_type, buffer_size)


class RecordReader:
    """The records of one TFRecord file: one per `next()`, or with `next_many(limit)` as many
    as one read made ready (up to `limit`), which lets a prefetch thread move a run of small
    records in one step. The file is opened at the first call, as a generator would.

    >>> import os, tempfile
    >>> from feedline.io import TFRecordWriter
    >>> path = os.path.join(tempfile.mkdtemp(), "many.tfrecord")
    >>> with TFRecordWriter(path) as writer:
    ...     for data in (b"a", b"b", b"c"):
    ...         writer.write(data)
    >>> reader = read_records(path)
    >>> next(reader), reader.next_many(5)
    (b'a', [b'b', b'c'])
    """

    def __init__(self, path, compression_type=None, buffer_size=None):
        self._arguments = (path, compression_type, buffer_size)
        self._stream, self._current = None, iter(())
        self._error = None  # what follows a small file's records (see `small_file`)
        self.drained = False  # `next_many` gave the last records: the next call would end

    def __iter__(self):
        return self

    def _refill(self):
        """The next read's records (non-empty); StopIteration at the end of the file."""
        if self._stream is None:
            if self._arguments is None:
                error, self._error = self._error, None
                if error is not None:
                    raise error
                raise StopIteration
            # A file that cannot be opened raises once; the reader has ended after that.
            arguments, self._arguments = self._arguments, None
            path, compression_type, buffer_size = arguments
            small = small_file_records(path, check_compression_type(compression_type),
                                       chunk_size_of(buffer_size))
            if small is not None:  # the whole file in one read
                records, self._error = small
                return records or self._refill()
            self._stream = RecordStream(*arguments, batched=True)
        try:
            records = self._stream.run()
        except BaseException:
            self.close()
            raise
        if not records:
            self.close()
            raise StopIteration
        return records

    def __next__(self):
        for record in self._current:
            return record
        self._current = iter(self._refill())
        return next(self._current)

    def next_many(self, limit):
        """Up to `limit` (>= 1) records, at least one; StopIteration at the end."""
        records = list(itertools.islice(self._current, limit))
        if records:
            return records
        records = self._refill()
        if len(records) > limit:
            self._current = iter(records)
            return list(itertools.islice(self._current, limit))
        self.drained = self._stream is None and self._arguments is None and self._error is None
        return records

    def close(self):
        """Close the file (idempotent); the reader then ends."""
        self._arguments, self._current, self._error = None, iter(()), None
        if self._stream is not None:
            self._stream.close()
            self._stream = None


def _damage(problem, base, path):
    offset, what = framing.describe(problem, base)
    return DataLossError(f"corrupted record at {offset} in {path}: the {what}")


def read_records_from_buffer(buffer, name="<buffer>"):
    """The records of an in-memory uncompressed TFRecord stream, as a list of `bytes`.

    >>> from feedline.io.framing import frame
    >>> read_records_from_buffer(frame(b"a") + frame(b"bc"))
    [b'a', b'bc']
    """
    records = []
    position, problem = framing.walk(buffer, 0, records)
    if problem is not None:
        raise _damage(problem, 0, name)
    if position < len(buffer):
        raise DataLossError(f"truncated record at {position} in {name}")
    return records
