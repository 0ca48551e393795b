"""`TFRecordDataset(...).batch(n)` read a batch at a time instead of a record at a time.

When `batch` follows a plain `TFRecordDataset` (no `num_parallel_reads`, no parallel batch,
no tracing hook that wants to see both stages), the batch takes its records straight from
the files with `RecordStream(..., batched=True).take(n)`: a buffer's records are verified at
once (`io.batch_walk`: in C where it was built, else with NumPy), and the batch is built once
from the list, never element by element.

The batches are exactly those of the per-record pipeline: same elements (an object array of
`bytes`), batches spanning file boundaries, a damaged record raising `DataLossError` (the
partial batch is dropped, as there) and the next batch continuing with the next file. The
iterator saves the same state as the per-record pipeline, so either restores the other's.

>>> import os, tempfile
>>> from feedline.io import TFRecordWriter
>>> from feedline.data import TFRecordDataset
>>> path = os.path.join(tempfile.mkdtemp(), "b.tfrecord")
>>> with TFRecordWriter(path) as writer:
...     for data in (b"a", b"b", b"c"):
...         writer.write(data)
>>> [batch.tolist() for batch in TFRecordDataset([path, path]).batch(4)]
[[b'a', b'b', b'c', b'a'], [b'b', b'c']]
"""

import numpy as np

from .. import dataset as _dataset
from ...io import record_views
from ...io.record_stream import RecordStream
from ..state import protocol
from . import _call
from .tfrecord import TFRecordDataset, as_path

_SKIP_RUN = 4096  # records discarded per step when fast-forwarding


def applies(batch_dataset):
    """Whether `batch_dataset` can read its TFRecord input a batch at a time."""
    reader = batch_dataset._input
    return (type(reader) is TFRecordDataset and reader._interleaved is None
            and batch_dataset._num_parallel_calls is None and not _dataset.iterator_hooks)


def make_iterator(batch_dataset):
    """A fresh batched iterator over `batch_dataset`'s TFRecord files."""
    reader = batch_dataset._input
    return BatchedRecordsIterator(batch_dataset, reader._files._iterator())


def restore_iterator(batch_dataset, state, skip_records):
    """The batched iterator at a state saved by either form of the pipeline."""
    reader = batch_dataset._input
    if not isinstance(state, dict) or state.get("stage") != reader._stage:
        protocol.restore(reader, state)  # raises the protocol's error for a foreign state
    files = protocol.restore(reader._files, state["input"])
    iterator = BatchedRecordsIterator(batch_dataset, files)
    if state["file"] is not None:
        iterator._open(state["file"])
        iterator._discard(int(state["records"]))
    iterator._discard(skip_records)
    return iterator


class BatchedRecordsIterator:
    """Batches of records taken from one file after another; see the module docstring."""

    def __init__(self, batch_dataset, files):
        self._batch, self._reader = batch_dataset, batch_dataset._input
        self._files = files
        self._stream, self._path, self._records = None, None, 0

    def __iter__(self):
        return self

    def _open(self, path):
        self._path, self._records = path, 0
        try:
            self._stream = RecordStream(path, self._reader._compression_type,
                                        self._reader._buffer_size, batched=True)
        except BaseException:
            self._path = None
            raise

    def _fill(self, out, count):
        """Append up to `count` records to `out`, moving on through the files. Returns the
        stream's `view` of them when one `take` gave them all, else None."""
        wanted, views = len(out) + count, []
        while len(out) < wanted:
            if self._stream is None:
                name = next(self._files, None)
                if name is None:
                    return
                self._open(as_path(name))
            before = len(out)
            try:
                more = self._stream.take(wanted - len(out), out)
            except BaseException:
                # As in the per-record reader: the damaged file is left, the next call moves on.
                self._stream, self._path = None, None
                raise
            self._records += len(out) - before
            if len(out) > before:
                views.append(self._stream.view)
            if not more:
                self._stream, self._path = None, None

        return views[0] if len(views) == 1 else None

    def _discard(self, count):
        while count > 0:
            out = []
            self._fill(out, min(count, _SKIP_RUN))
            if not out:
                return
            count -= len(out)

    def __next__(self):
        size = self._batch._batch_size
        out = []
        view = self._fill(out, size)
        if not out or (self._batch._drop_remainder and len(out) < size):
            raise StopIteration
        batch = np.empty(len(out), dtype=object)
        batch[:] = out
        if view is not None:  # let parse_example read the batch without joining it
            buffer, offset, count, stride, length = view
            record_views.remember(batch, out, np.ndarray((count, length), np.uint8, buffer,
                                                         offset, (stride, 1)))
        return batch

    def close(self):
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        _call.close(self._files)

    def _save(self):
        state = {"file": self._path, "records": self._records,
                 "input": protocol.save(self._files, self._reader._files),
                 "stage": self._reader._stage}
        return {"input": state}
