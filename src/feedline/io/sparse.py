"""`SparseTensor`: the values present in a tensor, with their indices and the full shape.

`indices` is an int64 array `[n, rank]` (in row-major order), `values` holds the `n` values,
`dense_shape` is the int64 shape of the whole tensor.

>>> st = SparseTensor([[0, 1], [2, 0]], np.array([5, 7]), [3, 2])
>>> st.to_dense().tolist()
[[0, 5], [0, 0], [7, 0]]
"""

import numpy as np

from .. import dtypes


class SparseTensor:
    """See the module docstring."""

    __slots__ = ("indices", "values", "dense_shape")

    def __init__(self, indices, values, dense_shape):
        self.indices = np.asarray(indices, dtype=np.int64).reshape(-1, len(dense_shape))
        self.values = values if isinstance(values, np.ndarray) else np.asarray(values)
        self.dense_shape = np.asarray(dense_shape, dtype=np.int64)

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        return tuple(int(size) for size in self.dense_shape)

    def to_dense(self, default_value=None):
        """A dense array of `dense_shape`, with `default_value` (0 or b'') where no value is."""
        if default_value is None:
            default_value = b"" if self.values.dtype == dtypes.string else 0
        dense = np.full(self.shape, default_value, dtype=self.values.dtype)
        if len(self.values):
            dense[tuple(self.indices.T)] = self.values
        return dense

    def __eq__(self, other):
        return (isinstance(other, SparseTensor)
                and np.array_equal(self.indices, other.indices)
                and np.array_equal(self.dense_shape, other.dense_shape)
                and self.values.shape == other.values.shape
                and bool(np.all(self.values == other.values)))

    __hash__ = None

    def __repr__(self):
        return (f"SparseTensor(indices={self.indices.tolist()}, values={self.values!r}, "
                f"dense_shape={self.dense_shape.tolist()})")
