"""`RaggedTensor`: rows of different lengths stored as flat `values` plus `row_splits`.

Row `i` is `values[row_splits[i]:row_splits[i + 1]]`; `values` may itself be ragged (one more
ragged dimension). As a dataset element it batches like TensorFlow's: `batch` (and
`ragged_batch` of 1-D arrays) puts the rows of a batch into one RaggedTensor with one more
ragged dimension, and `unbatch` gives the rows back. The factories (`from_row_lengths`, ...)
live in `ragged_factories`, the conversions (`to_tensor`, `to_sparse`, `merge_dims`, ...) in
`ragged_conversions`, indexing in `ragged_indexing` and the operators in `ragged_operators`.

>>> rt = RaggedTensor.from_row_splits(np.array([1, 2, 3]), [0, 2, 2, 3])
>>> rt
<tf.RaggedTensor [[1, 2], [], [3]]>
>>> rt.row_lengths().tolist(), rt.shape, rt.row_splits.dtype
([2, 0, 1], TensorShape([3, None]), tf.int64)
>>> batch_rows([np.array([7]), np.array([], np.int64), np.array([8, 9])]).to_list()
[[7], [], [8, 9]]
"""

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from .ragged_conversions import RaggedConversions
from .ragged_factories import RaggedFactories
from .ragged_indexing import get_item
from .ragged_operators import RaggedOperators


class RaggedTensor(RaggedFactories, RaggedConversions, RaggedOperators):
    """See the module docstring. Build one with a `from_*` class method or `fl.ragged.constant`
    (the constructor is internal, as TensorFlow's is: it does not check its arguments)."""

    __slots__ = ("_values", "_row_splits")
    _is_composite_tensor = True  # an element leaf that is not one array (see data.structure)

    def __init__(self, values, row_splits):
        # Stored as plain NumPy, so that rows handed to a pipeline stay plain; the public
        # `values` and `row_splits` are `feedline.Tensor` views, as TensorFlow's are tensors.
        self._values = values if _is_ragged(values) else np.asarray(values)
        self._row_splits = np.asarray(row_splits)
        if self._row_splits.dtype.kind != "i":
            self._row_splits = self._row_splits.astype(np.int64)

    @property
    def values(self):
        """The rows' entries, one after another (a RaggedTensor when `ragged_rank` > 1)."""
        return self._values if _is_ragged(self._values) else self._values.view(Tensor)

    @property
    def row_splits(self):
        """Where each row starts in `values`, plus the end: int64 unless built with int32."""
        return self._row_splits.view(Tensor)

    @property
    def nested_row_splits(self):
        """The row splits of every ragged dimension, outermost first."""
        inner = self.values.nested_row_splits if isinstance(self.values, RaggedTensor) else ()
        return (self.row_splits,) + inner

    @property
    def flat_values(self):
        """The innermost values: a dense array whose first axis runs over every value."""
        return self.values.flat_values if isinstance(self.values, RaggedTensor) else self.values

    @property
    def ragged_rank(self):
        """How many dimensions are ragged (the number of row-splits arrays)."""
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        """The dtype of the values (a NumPy dtype; `object` for strings)."""
        return self.flat_values.dtype

    @property
    def shape(self):
        """`TensorShape([rows, None, ..., the flat values' inner sizes])`, as TensorFlow's."""
        from ..data.spec import TensorShape

        return TensorShape((len(self),) + (None,) * self.ragged_rank
                           + tuple(self.flat_values.shape[1:]))

    @property
    def _rank(self):
        return self.ragged_rank + self.flat_values.ndim

    def get_shape(self):
        return self.shape

    def nrows(self, out_type=None, name=None):
        """The number of rows, in the row splits' dtype (or `out_type`)."""
        return np.asarray(len(self), dtype=_index_dtype(out_type,
                                                       self.row_splits.dtype)).view(Tensor)

    def row_starts(self, name=None):
        """Where each row starts in `values`."""
        return self.row_splits[:-1]

    def row_limits(self, name=None):
        """Where each row ends in `values` (exclusive)."""
        return self.row_splits[1:]

    def row_lengths(self, axis=1, name=None):
        """How many entries each row has (`axis` 2 and more: a RaggedTensor of lengths)."""
        if axis in (1, 1 - self._rank):
            return np.diff(self.row_splits)
        if axis < 1 or not isinstance(self.values, RaggedTensor):
            raise ValueError(f"row_lengths: axis={axis} is not a ragged dimension of this "
                             f"RaggedTensor of ragged_rank {self.ragged_rank}; use axis=1 .. "
                             f"{self.ragged_rank}")
        return self.with_values(self.values.row_lengths(axis - 1))

    def nested_row_lengths(self, name=None):
        """The row lengths of every ragged dimension, outermost first."""
        return tuple(np.diff(splits) for splits in self.nested_row_splits)

    def value_rowids(self, name=None):
        """For each entry of `values`, the index of its row."""
        return np.repeat(np.arange(len(self), dtype=self.row_splits.dtype),
                         np.diff(self.row_splits)).view(Tensor)

    def nested_value_rowids(self, name=None):
        """`value_rowids()` of every ragged dimension, outermost first."""
        inner = self.values.nested_value_rowids() if isinstance(self.values, RaggedTensor) \
            else ()
        return (self.value_rowids(),) + inner

    def __len__(self):
        return len(self._row_splits) - 1

    def __getitem__(self, key):
        """Rows, slices of rows, and `[rows, columns, ...]` as TensorFlow indexes them.

        >>> rt = RaggedTensor.from_row_lengths(np.array([1, 2, 3, 4, 5]), [3, 0, 2])
        >>> rt[0].tolist(), rt[1:].to_list(), rt[:, :2].to_list(), int(rt[-1, 1])
        ([1, 2, 3], [[], [4, 5]], [[1, 2], [], [4, 5]], 5)
        """
        return get_item(self, key)

    def __iter__(self):
        """The rows one by one, as `rt[0]`, `rt[1]`, ... give them."""
        return (self[index] for index in range(len(self)))

    def _row(self, index):
        """Row `index` as a plain array (or a RaggedTensor): no checks, for pipelines."""
        start, stop = self._row_splits[index], self._row_splits[index + 1]
        return self._values[start:stop]

    def rows(self):
        """Every row, in order (plain arrays, or RaggedTensors when `values` is ragged)."""
        return [self._row(index) for index in range(len(self))]

    def to_list(self):
        """Nested Python lists of the values."""
        values = self._values.to_list() if isinstance(self._values, RaggedTensor) \
            else self._values.tolist()
        splits = self._row_splits.tolist()
        return [values[start:stop] for start, stop in zip(splits[:-1], splits[1:])]

    def numpy(self):
        """The value as NumPy, as TensorFlow gives it: a 1-D object array holding one array per
        row when rows differ in length, one stacked array when they all have the same length.

        >>> RaggedTensor.from_row_lengths(np.array([1, 2, 3]), [2, 1]).numpy()
        array([array([1, 2]), array([3])], dtype=object)
        >>> RaggedTensor.from_row_lengths(np.array([1, 2, 3, 4]), [2, 2]).numpy()
        array([[1, 2],
               [3, 4]])
        """
        values = self._values.numpy() if isinstance(self._values, RaggedTensor) \
            else self._values
        rows = [values[start:stop] for start, stop in zip(self._row_splits[:-1],
                                                          self._row_splits[1:])]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if len({len(row) for row in rows}) == 1:
            return np.array(rows)
        result = np.empty(len(rows), dtype=object)
        for index, row in enumerate(rows):  # one by one: NumPy would try to merge the rows
            result[index] = row
        return result

    def __repr__(self):
        # As TensorFlow prints an eager RaggedTensor: its rows as nested lists, each number
        # written by `str` (so 1.0, not 1.), long values wrapped as NumPy wraps them.
        with np.printoptions(formatter={"all": _format}):
            return f"<tf.RaggedTensor {_format(self.numpy())}>"


def _is_ragged(value):
    return isinstance(value, RaggedTensor)


def _format(value):
    if isinstance(value, np.ndarray):
        return np.array2string(value, separator=", ") if value.size else repr(value.tolist())
    return str(value)


def _index_dtype(out_type, default):
    dtype = np.dtype(dtypes.as_dtype(out_type)) if out_type is not None else np.dtype(default)
    if dtype not in (np.int32, np.int64):
        raise TypeError(f"out_type must be int32 or int64, got {dtype}")
    return dtype


def concat_rows(tensors):
    """RaggedTensors with the same ragged rank, their rows one after another."""
    if not all(isinstance(tensor, RaggedTensor) for tensor in tensors):
        return np.concatenate(tensors)
    offsets = np.cumsum([0] + [tensor.row_splits[-1] for tensor in tensors[:-1]])
    splits = np.concatenate([tensors[0].row_splits[:1]] + [
        tensor.row_splits[1:] + offset for tensor, offset in zip(tensors, offsets)])
    return RaggedTensor(concat_rows([tensor.values for tensor in tensors]),
                        splits.astype(tensors[0].row_splits.dtype))


def batch_rows(rows, row_splits_dtype=dtypes.int64):
    """Rows (arrays of rank >= 1 or RaggedTensors) as one RaggedTensor, one row each.

    Raises:
        InvalidArgumentError: when the rows mix kinds, ranks or inner sizes.
    """
    from ..errors import InvalidArgumentError

    ragged = [isinstance(row, RaggedTensor) for row in rows]
    if any(ragged) and not all(ragged):
        raise InvalidArgumentError("cannot batch RaggedTensors together with dense arrays")
    if not any(ragged):
        rows = [np.asarray(row, dtype=object) if isinstance(row, bytes) else np.asarray(row)
                for row in rows]
        inner = {row.shape[1:] for row in rows}
        if any(row.ndim == 0 for row in rows) or len(inner) != 1:
            raise InvalidArgumentError(
                f"ragged batching needs rows of rank >= 1 whose sizes differ only in the first "
                f"dimension, got shapes {sorted({row.shape for row in rows})}")
    elif len({row.ragged_rank for row in rows}) != 1:
        raise InvalidArgumentError("cannot batch RaggedTensors of different ragged ranks")
    splits = np.zeros(len(rows) + 1, dtype=dtypes.as_dtype(row_splits_dtype))
    np.cumsum([len(row) for row in rows], out=splits[1:])
    return RaggedTensor(concat_rows(rows), splits)
