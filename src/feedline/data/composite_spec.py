"""`SparseTensorSpec` and `RaggedTensorSpec`: the specs of sparse and ragged components.

Named, constructed and printed as TensorFlow's, so an `element_spec` reads the same:

>>> SparseTensorSpec((None,), "int64")
SparseTensorSpec(TensorShape([None]), tf.int64)
>>> RaggedTensorSpec((None, None), "int64")
RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)
>>> SparseTensorSpec((3,), "int32").value_type.__name__
'SparseTensor'
"""

import numpy as np

from .. import dtypes
from .spec import dtype_text
from .tensor_shape import UNKNOWN_SHAPE, TensorShape, UnknownShape


def _shape(shape):
    """`shape` as stored: a tuple of sizes, or None for an unknown rank."""
    if shape is None or isinstance(shape, UnknownShape):
        return None
    return tuple(None if size is None else int(size) for size in shape)


def _shape_repr(shape):
    """A shape as TensorFlow's `TensorShape` repr: `TensorShape([None, 3])`."""
    return "TensorShape(None)" if shape is None else f"TensorShape({list(shape)})"


def _compatible(mine, theirs):
    if mine is None or theirs is None:
        return True
    return len(mine) == len(theirs) and all(
        a is None or b is None or a == b for a, b in zip(mine, theirs))


def _common(mine, theirs):
    if mine is None or theirs is None or len(mine) != len(theirs):
        return None
    return tuple(a if a == b else None for a, b in zip(mine, theirs))


class _CompositeSpec:
    """What the two specs share: a shape (None: unknown rank) and the values' dtype."""

    __slots__ = ()

    @property
    def shape(self):
        """The shape, a `TensorShape`; `TensorShape(None)` when the rank is unknown, as in
        TensorFlow."""
        return UNKNOWN_SHAPE if self._shape is None else TensorShape(self._shape)

    def _key(self):
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other):
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self):
        return hash((type(self),) + self._key())

    def is_compatible_with(self, value):
        """True when `value` (a spec of this kind, or a value) fits this spec."""
        from .spec import spec_of

        other = value if isinstance(value, _CompositeSpec) else spec_of(value)
        return (type(other) is type(self) and other.dtype == self.dtype
                and _compatible(self._shape, other._shape) and self._same_kind(other))

    def _same_kind(self, other):
        return True


class SparseTensorSpec(_CompositeSpec):
    """The spec of a `SparseTensor` component: its dense shape and the values' dtype."""

    __slots__ = ("_shape", "dtype")

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape, self.dtype = _shape(shape), dtypes.as_dtype(dtype)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype)

    @property
    def value_type(self):
        """The class of the values this spec describes: `SparseTensor`."""
        from ..io.sparse import SparseTensor

        return SparseTensor

    def most_specific_common(self, other):
        return SparseTensorSpec(_common(self._shape, other._shape), self.dtype)

    def _batched(self, batch_size):
        return SparseTensorSpec(None if self._shape is None else (batch_size,) + self._shape,
                                self.dtype)

    def _unbatched(self):
        return SparseTensorSpec(None if self._shape is None else self._shape[1:], self.dtype)

    def _placeholder(self, value, unknown_size):
        """A SparseTensor of this spec with every entry present and equal to `value`."""
        from ..io.sparse import SparseTensor

        shape = [unknown_size if size is None else size for size in (self._shape or ())]
        dense = _filled(shape, value, self.dtype)
        indices = np.indices(shape).reshape(len(shape), -1).T
        return SparseTensor(indices, dense.reshape(-1), shape)

    def __repr__(self):
        return f"SparseTensorSpec({_shape_repr(self._shape)}, {dtype_text(self.dtype)})"


class RaggedTensorSpec(_CompositeSpec):
    """The spec of a `RaggedTensor` component; `ragged_rank` defaults to rank - 1."""

    __slots__ = ("_shape", "dtype", "ragged_rank", "row_splits_dtype")

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64):
        self._shape, self.dtype = _shape(shape), dtypes.as_dtype(dtype)
        if ragged_rank is None:
            if self._shape is None:
                raise ValueError("RaggedTensorSpec: give ragged_rank when the rank is unknown")
            ragged_rank = len(self._shape) - 1
        self.ragged_rank = int(ragged_rank)
        self.row_splits_dtype = dtypes.as_dtype(row_splits_dtype)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)

    @property
    def value_type(self):
        """The class of the values this spec describes: `RaggedTensor`."""
        from ..io.ragged import RaggedTensor

        return RaggedTensor

    def _same_kind(self, other):
        return (other.ragged_rank, other.row_splits_dtype) == \
            (self.ragged_rank, self.row_splits_dtype)

    def most_specific_common(self, other):
        return RaggedTensorSpec(_common(self._shape, other._shape), self.dtype, self.ragged_rank,
                                self.row_splits_dtype)

    def _batched(self, batch_size):
        return RaggedTensorSpec(None if self._shape is None else (batch_size,) + self._shape,
                                self.dtype, self.ragged_rank + 1, self.row_splits_dtype)

    def _unbatched(self):
        return RaggedTensorSpec(None if self._shape is None else self._shape[1:], self.dtype,
                                self.ragged_rank - 1, self.row_splits_dtype)

    def _placeholder(self, value, unknown_size):
        """A RaggedTensor of this spec whose rows all have `unknown_size` entries of `value`.

        With ragged_rank 0 (the rows of an unbatched RaggedTensor) it is a dense array.
        """
        shape = [unknown_size if size is None else size for size in (self._shape or (None,))]
        return _uniform_ragged(_filled(shape, value, self.dtype), self.ragged_rank,
                               self.row_splits_dtype)

    def __repr__(self):
        return (f"RaggedTensorSpec({_shape_repr(self._shape)}, {dtype_text(self.dtype)}, "
                f"{self.ragged_rank}, {dtype_text(self.row_splits_dtype)})")


def _filled(shape, value, dtype):
    if dtype == dtypes.string:
        return np.full(shape, str(value).encode(), dtype=object)
    return np.full(shape, value, dtype=dtype)


def _uniform_ragged(array, ragged_rank, splits_dtype):
    if ragged_rank == 0:
        return array
    from ..io.ragged import RaggedTensor

    rows, width = array.shape[0], array.shape[1]
    inner = _uniform_ragged(array.reshape((rows * width,) + array.shape[2:]), ragged_rank - 1,
                            splits_dtype)
    return RaggedTensor(inner, np.arange(rows + 1, dtype=splits_dtype) * width)
