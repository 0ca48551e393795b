"""`StringTensor`: a scalar string as a loop or an eager op hands it out.

A 0-d NumPy array of dtype object would not do for a scalar string: its buffer is a pointer,
so `np.frombuffer(record, np.uint8)` would silently read the wrong bytes. So a scalar string
is a `bytes` subclass with TensorFlow's `.numpy()`, shape and printed form; comparisons and
`+` treat a `str` as its UTF-8 bytes, as TensorFlow's string ops do.

>>> StringTensor(b"ab") + "c"
<tf.Tensor: shape=(), dtype=string, numpy=b'abc'>
"""

import numpy as np

from . import dtypes
from .data.spec import TensorShape
from .tensor import Tensor, _check_compatible


class StringTensor(bytes):
    """A scalar string as a loop receives it: `bytes` (so `len`, slicing, `.decode()` and
    reading its buffer work as before) that also has `.numpy()` and TensorFlow's printed form.

    A 0-d NumPy array of dtype object would not do: its buffer is a pointer, so
    `np.frombuffer(record, np.uint8)` would silently read the wrong bytes.
    """

    shape = ()
    ndim = 0
    dtype = dtypes.string

    def numpy(self):
        """The plain `bytes`."""
        return bytes(self)

    def get_shape(self):
        return TensorShape(())

    def set_shape(self, shape):
        """Check `shape` is compatible with a scalar (see `Tensor.set_shape`)."""
        _check_compatible((), shape)

    def __getitem__(self, index):
        if index is None or index is Ellipsis or isinstance(index, tuple):
            scalar = np.empty((), dtype=object)
            scalar[()] = bytes(self)
            return scalar.view(Tensor)[index]  # e.g. `x[tf.newaxis]`, shape (1,)
        return super().__getitem__(index)

    def __eq__(self, other):
        # As TensorFlow compares strings: elementwise against an array or a list, and a `str`
        # counts as its UTF-8 bytes (`label == "cat"`).
        if isinstance(other, (np.ndarray, list, tuple)):
            return _compare_strings(bytes(self), other, np.equal)
        if isinstance(other, str):
            return bytes(self) == other.encode("utf-8")
        return bytes.__eq__(self, other)

    def __ne__(self, other):
        if isinstance(other, (np.ndarray, list, tuple)):
            return _compare_strings(bytes(self), other, np.not_equal)
        if isinstance(other, str):
            return bytes(self) != other.encode("utf-8")
        return bytes.__ne__(self, other)

    __hash__ = bytes.__hash__

    def __add__(self, other):
        # `+` on string tensors joins them, as `tf.strings.join` (and TensorFlow's `+`) does; a
        # `str` counts as its UTF-8 bytes, an array of strings joins elementwise.
        if isinstance(other, (np.ndarray, list, tuple)):
            return _join_strings(bytes(self), other, first=True)
        if isinstance(other, str):
            other = other.encode("utf-8")
        return StringTensor(bytes.__add__(self, other)) if isinstance(other, bytes) \
            else NotImplemented

    def __radd__(self, other):
        if isinstance(other, (np.ndarray, list, tuple)):
            return _join_strings(bytes(self), other, first=False)
        if isinstance(other, str):
            other = other.encode("utf-8")
        return StringTensor(other + bytes(self)) if isinstance(other, bytes) else NotImplemented

    def __format__(self, format_spec):
        return format(bytes(self), format_spec)  # `f"{x}"` shows b'...', as TensorFlow's

    def __str__(self):
        return f"tf.Tensor({bytes(self)!r}, shape=(), dtype=string)"

    def __repr__(self):
        return f"<tf.Tensor: shape=(), dtype=string, numpy={bytes(self)!r}>"


def _compare_strings(value, others, compare):
    """`compare(value, others)` elementwise, others' `str` entries taken as UTF-8 bytes."""
    items = np.asarray(others, dtype=object)
    as_bytes = np.empty(items.shape, dtype=object)
    as_bytes.reshape(-1)[:] = [item.encode("utf-8") if isinstance(item, str) else
                               bytes(item) for item in items.reshape(-1).tolist()]
    return compare(as_bytes, value).astype(bool).view(Tensor)


def _join_strings(value, others, first):
    """`value + others` (or `others + value`) elementwise, `str` entries as UTF-8 bytes."""
    items = np.asarray(others, dtype=object)
    joined = np.empty(items.shape, dtype=object)
    joined.reshape(-1)[:] = [
        value + item if first else item + value
        for item in (entry.encode("utf-8") if isinstance(entry, str) else bytes(entry)
                     for entry in items.reshape(-1).tolist())]
    return joined.view(Tensor)


def _utf8_array(values):
    """`values` (a str, list or array) as an object array of bytes, `str` as UTF-8."""
    items = np.asarray(values, dtype=object)
    out = np.empty(items.shape, dtype=object)
    out.reshape(-1)[:] = [item.encode("utf-8") if isinstance(item, str) else item
                          for item in items.reshape(-1).tolist()]
    return out
