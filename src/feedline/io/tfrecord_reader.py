"""Reading TFRecord files: records in order, each verified, damage reported precisely.

Records are found by walking large chunks of the (uncompressed) file stream. Every record's
two CRCs are checked. At a bad CRC or a file that ends inside a record, the records before it
are delivered first, then `DataLossError` names the file and the byte offset where the bad
record starts (in the uncompressed stream, as TensorFlow counts it).

>>> import os, tempfile
>>> from feedline.io import TFRecordWriter
>>> path = os.path.join(tempfile.mkdtemp(), "demo.tfrecord")
>>> with TFRecordWriter(path) as writer:
...     for data in (b"one", b"two"):
...         writer.write(data)
>>> list(read_records(path))
[b'one', b'two']
"""

import os

from ..errors import DataLossError, NotFoundError
from . import framing
from .compression import CHUNK_SIZE, check_compression_type, read_chunks


def open_binary(path):
    """Open `path` for reading, with a `NotFoundError` that names it when it is missing."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise NotFoundError(f"{path} is a directory, not a file") from None


def read_records(path, compression_type=None, buffer_size=None):
    """Yield the data of every record of the TFRecord file at `path`, as `bytes`.

    Raises:
        DataLossError: at a corrupt or truncated record, after yielding every record before it.
    """
    path = os.fspath(path)
    compression_type = check_compression_type(compression_type)
    chunk_size = max(int(buffer_size or 0), CHUNK_SIZE)
    with open_binary(path) as handle:
        chunks = read_chunks(handle, compression_type, path, chunk_size)
        buffer, base = b"", 0  # `base`: stream offset of buffer[0]
        for chunk in chunks:
            buffer = buffer + chunk if buffer else chunk
            # Gather until the pending record is whole: one huge record may span many chunks.
            if len(buffer) < framing.needed_bytes(buffer, 0):
                continue
            records = []
            position, problem = framing.walk(buffer, 0, records)
            yield from records
            if problem is not None:
                raise _damage(problem, base, path)
            buffer, base = buffer[position:], base + position
        if buffer:
            records = []
            position, problem = framing.walk(buffer, 0, records)
            yield from records
            if problem is not None:
                raise _damage(problem, base, path)
            if position < len(buffer):
                need = framing.needed_bytes(buffer, position)
                raise DataLossError(
                    f"truncated record at {base + position} in {path}: the file ends "
                    f"{len(buffer) - position} bytes into a record of {need} bytes")


def _damage(problem, base, path):
    _, offset, what = problem
    return DataLossError(f"corrupted record at {base + offset} in {path}: the {what}")


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
