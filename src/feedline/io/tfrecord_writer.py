"""`TFRecordWriter`: write records that TensorFlow (and feedline) can read back.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "demo.tfrecord.gz")
>>> with TFRecordWriter(path, "GZIP") as writer:
...     writer.write(b"hello")
>>> from feedline.io.tfrecord_reader import read_records
>>> list(read_records(path, "GZIP"))
[b'hello']
"""

import os

from . import framing
from .compression import CompressedWriter, check_compression_type


class TFRecordOptions:
    """How a TFRecord file is compressed: `compression_type` and zlib `compression_level`."""

    def __init__(self, compression_type=None, compression_level=None):
        self.compression_type = check_compression_type(compression_type)
        self.compression_level = compression_level

    @classmethod
    def get_compression_type_string(cls, options):
        """The compression name for `options` (None, a string, or `TFRecordOptions`)."""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        return check_compression_type(options)

    def __repr__(self):
        return (f"TFRecordOptions(compression_type={self.compression_type!r}, "
                f"compression_level={self.compression_level!r})")


class TFRecordWriter:
    """Write records to a TFRecord file; `options` is None, "", "GZIP", "ZLIB" or
    `TFRecordOptions`. Use it as a context manager, or call `close()`."""

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(options)
        self._path = os.fspath(path)
        self._stream = CompressedWriter(open(self._path, "wb"), options.compression_type,
                                        options.compression_level)

    def write(self, record):
        """Append one record (bytes, any bytes-like object, or str, written as UTF-8)."""
        if self._stream is None:
            raise ValueError(f"TFRecordWriter for {self._path} is closed")
        if isinstance(record, str):
            record = record.encode("utf-8")
        elif not isinstance(record, bytes):
            record = bytes(memoryview(record))
        self._stream.write(framing.frame(record))

    def flush(self):
        """Push everything written so far to the file (a sync point when compressing)."""
        if self._stream is not None:
            self._stream.flush()

    def close(self):
        """Finish the file. Closing twice is harmless."""
        if self._stream is not None:
            stream, self._stream = self._stream, None
            stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - nothing sensible to do while finalising
            pass
