"""`TFRecordDataset`: the records of one or more TFRecord files, as `bytes` scalars.

Files are read one after another. A damaged record raises `DataLossError` after the good
records before it; the next `next()` moves on to the following file, so `ignore_errors()`
skips the rest of the damaged file (and counts it) and keeps reading, as tf.data does.
With `num_parallel_reads` the files are interleaved one record at a time.

Each file is read `buffer_size` bytes at a time (default 256 KiB, as in TensorFlow), so memory
stays bounded however large the file. A `.batch(n)` right after a `TFRecordDataset` reads
whole batches at once (`tfrecord_batch`): the same batches, fewer Python steps per record.
"""

import os

import numpy as np

from ... import dtypes
from ...io.compression import check_compression_type
from ...io.tfrecord_reader import read_records
from ..dataset import Dataset
from ..spec import TensorSpec
from ..state import protocol
from . import _call


def filename_list(filenames, reader):
    """`filenames` (a path, or a list/array of paths) as a list of `str`."""
    if isinstance(filenames, (str, bytes, os.PathLike, np.str_, np.bytes_)):
        filenames = [filenames]
    elif isinstance(filenames, np.ndarray):
        filenames = filenames.ravel().tolist()
    try:
        names = [as_path(name) for name in filenames]
    except TypeError:
        raise TypeError(f"{reader}: filenames must be a path, a list of paths or a Dataset of "
                        f"paths, got {type(filenames).__name__}") from None
    return names


def as_path(name):
    """One filename element (str, bytes, NumPy string, PathLike) as `str`."""
    if isinstance(name, np.ndarray) and name.shape == ():
        name = name.item()
    if isinstance(name, (bytes, np.bytes_)):
        return os.fsdecode(bytes(name))
    if isinstance(name, (str, os.PathLike)):
        return os.fspath(name)
    raise TypeError(f"not a filename: {name!r}")


def files_dataset(filenames, reader):
    """A Dataset of filenames from whatever the reader was given."""
    if isinstance(filenames, Dataset):
        return filenames
    names = filename_list(filenames, reader)
    paths = np.empty(len(names), dtype=object)
    paths[:] = [os.fsencode(name) for name in names]  # string elements are bytes already
    return Dataset.from_tensor_slices(paths)


class FileReaderDataset(Dataset):
    """Shared base of the file readers: a list or a Dataset of files, read in order or
    interleaved (`num_parallel_reads`). Subclasses provide `_read_file(path)`."""

    def _element_spec(self):
        # A record or a line is a scalar string whatever the files hold (empty ones too).
        return TensorSpec((), dtypes.string)

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        self._compression_type = check_compression_type(compression_type)
        self._buffer_size = buffer_size
        # One path given directly (not a Dataset of paths): see `single_file_reader`.
        self._single_path = as_path(filenames) if isinstance(
            filenames, (str, bytes, os.PathLike, np.str_, np.bytes_)) else None
        # A dataset of one path (an interleave opens one per small file) makes its files
        # stage only when something asks for it: building it costs more than reading the file.
        self._filenames = filenames
        self._files_stage = None if self._single_path is not None \
            else files_dataset(filenames, self._stage)
        self._num_parallel_reads = num_parallel_reads
        self._interleaved = None
        if num_parallel_reads is not None and num_parallel_reads != 1:
            read_file = self._read_file
            self._interleaved = self._files.interleave(
                lambda name: _OneFile(read_file, name), cycle_length=num_parallel_reads,
                block_length=1, num_parallel_calls=num_parallel_reads)

    @property
    def _files(self):
        """The Dataset of filenames this reader reads."""
        if self._files_stage is None:
            self._files_stage = files_dataset(self._filenames, self._stage)
        return self._files_stage

    @property
    def _inputs(self):
        return (self._interleaved,) if self._interleaved is not None else (self._files,)

    def _make_iterator(self):
        if self._interleaved is not None:
            return self._interleaved._iterator()
        return FileRecordsIterator(self, self._files._iterator(), None, 0)

    def single_file_reader(self):
        """The records of the one file this dataset was given, read by the file reader itself
        (`read_records`, `read_lines`, ...), or None when it reads several files or a Dataset
        of them. A parallel `interleave` over many small files uses it to skip the files
        stage: the same records and errors, a few microseconds less per file; the
        interleave's checkpoints count delivered elements, not the reader's position."""
        if self._single_path is None or self._interleaved is not None \
                or type(self)._make_iterator is not FileReaderDataset._make_iterator:
            return None  # several files, or a reader that wraps its records (CsvDataset)
        return iter(self._read_file(self._single_path))

    def _restore_iterator(self, state, skip):
        if self._interleaved is not None:  # the interleave's iterator was saved
            return protocol.restore(self._interleaved,
                                    dict(state, stage=self._interleaved._stage), skip)
        iterator = FileRecordsIterator(self, protocol.restore(self._files, state["input"]),
                                       state["file"], int(state["records"]))
        return protocol.advance(iterator, skip)


class FileRecordsIterator:
    """The records of one file after another. After a file's reader raised (a damaged
    record), the next `next()` moves on to the following file.

    Its state is the files iterator's state, the file being read and how many of its
    records were delivered; restoring reads that file again up to there (records are
    counted, not byte offsets, so compressed files resume the same way).
    """

    def __init__(self, dataset, files, path, records):
        self._dataset, self._files = dataset, files
        self._path, self._records, self._reader = path, records, None
        if path is not None:
            self._reader = protocol.advance(iter(dataset._read_file(path)), records)

    def __iter__(self):
        return self

    def _from_files(self, take):
        """`take(reader)` on the current file's reader, moving on to the next file at the
        end of one; after a damaged record, the next call moves on too."""
        while True:
            if self._reader is None:
                self._path = as_path(next(self._files))
                self._records, self._reader = 0, iter(self._dataset._read_file(self._path))
            try:
                return take(self._reader)
            except StopIteration:
                self._path = self._reader = None
            except BaseException:
                self._path = self._reader = None
                raise

    def __next__(self):
        record = self._from_files(next)
        self._records += 1
        return record

    def next_many(self, limit):
        """Up to `limit` (>= 1) records that one read of the current file made ready, at least
        one (one record when the file's reader reads one at a time)."""
        records = self._from_files(lambda reader: reader.next_many(limit)
                                   if hasattr(reader, "next_many") else [next(reader)])
        self._records += len(records)
        return records

    def close(self):
        if self._reader is not None:
            _call.close(self._reader)
        _call.close(self._files)

    def _save(self):
        return {"file": self._path, "records": self._records,
                "input": protocol.save(self._files, self._dataset._files)}


class _OneFile(Dataset):
    """The records of one file, for the interleaved form of a reader."""

    _stage = "file"

    def __init__(self, read_file, name):
        self._read = read_file
        self._name = as_path(name)

    def _make_iterator(self):
        return self._read(self._name)

    def _element_spec(self):
        return TensorSpec((), dtypes.string)


class TFRecordDataset(FileReaderDataset):
    """Records of TFRecord files; see the module docstring.

    >>> import os, tempfile
    >>> from feedline.io import TFRecordWriter
    >>> path = os.path.join(tempfile.mkdtemp(), "r.tfrecord")
    >>> with TFRecordWriter(path) as writer:
    ...     writer.write(b"x"); writer.write(b"yz")
    >>> list(TFRecordDataset([path, path]).as_numpy_iterator())
    [b'x', b'yz', b'x', b'yz']
    """

    _stage = "tfrecord"

    def _read_file(self, path):
        return read_records(path, self._compression_type, self._buffer_size)
