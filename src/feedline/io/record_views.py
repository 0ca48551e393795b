"""Batches of records that are also a 2-D view of the buffer they were read from.

The batched TFRecord reader (`data.ops.tfrecord_batch`) builds each batch as an object array
of `bytes`, like the per-record pipeline. When the batch's records lie in one read buffer at
equal strides, it also remembers here the zero-copy `(records, record length)` uint8 view of
them, and `parse_example` on that very array uses the view instead of joining the records.
The view is used only while the array still holds exactly the records it was built with.
Arrays are remembered by the array that owns their memory: a pipeline hands out views of a
batch (`fl.Tensor`s, reshapes), and those views, not the array first built, reach the parser.

>>> import numpy as np
>>> buffer = b"..ab..cd"
>>> batch = np.array([b"ab", b"cd"], dtype=object)
>>> remember(batch, batch.tolist(), np.ndarray((2, 2), np.uint8, buffer, 2, (4, 1)))
>>> rows_of(batch, batch.tolist()).tobytes()
b'abcd'
>>> batch[1] = b"zz"
>>> rows_of(batch, batch.tolist()) is None
True
"""

import weakref

import numpy as np

_KEEP = 8  # batches remembered at most: a few in flight between reader and parser
_VIEWS = {}  # id(batch) -> (weak reference to the batch, its records, their 2-D view)


def _owner(array):
    """The array that owns `array`'s memory. NumPy points a view straight at the owner only
    when the view is of the same class: a `Tensor` view of a reshaped batch points at the
    reshape, so the chain of bases is followed to its end."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def remember(batch, records, rows):
    """Note that `batch` (an object array of `records`) is also the uint8 array `rows`."""
    batch = _owner(batch)
    key = id(batch)
    _VIEWS[key] = (weakref.ref(batch, lambda _, key=key: _VIEWS.pop(key, None)), records, rows)
    while len(_VIEWS) > _KEEP:
        try:
            del _VIEWS[next(iter(_VIEWS))]
        except (KeyError, RuntimeError, StopIteration):  # another thread got there first
            break


def rows_of(batch, records):
    """The 2-D view of `batch`, or None when it has none or no longer holds `records`."""
    batch = _owner(batch)
    entry = _VIEWS.get(id(batch))
    if entry is None or entry[0]() is not batch or entry[1] != records:
        return None
    return entry[2]
