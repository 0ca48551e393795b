"""`SparseTensor`: the values present in a tensor, with their indices and the full shape.

`indices` is an int64 array `[n, rank]` (in row-major order), `values` holds the `n` values,
`dense_shape` is the int64 shape of the whole tensor. Python `values` convert as TensorFlow
converts them (ints to int32, floats to float32, strings to bytes); NumPy values keep their
dtype. As a dataset element it batches like
TensorFlow's: a batch of `k` sparse tensors of rank `r` is one of rank `r + 1`, its shape the
largest of each dimension, and `unbatch` splits it back into rows.

>>> st = SparseTensor([[0, 1], [2, 0]], np.array([5, 7]), [3, 2])
>>> st.to_dense().tolist()
[[0, 5], [0, 0], [7, 0]]
>>> SparseTensor([[0], [2]], [1, 2], [3]).dtype, SparseTensor([[0]], [0.5], [1]).dtype
(tf.int32, tf.float32)
>>> batch_sparse([SparseTensor([[1]], np.array([4]), [2]), SparseTensor([[0]], np.array([6]), [1])])
SparseTensor(indices=tf.Tensor(
[[0 1]
 [1 0]], shape=(2, 2), dtype=int64),
 values=tf.Tensor([4 6], shape=(2,), dtype=int64),
 dense_shape=tf.Tensor([2 2], shape=(2,), dtype=int64))
"""

import numpy as np

from .. import dtypes
from ..data import structure
from ..tensor import Tensor


class SparseTensor:
    """See the module docstring."""

    # Plain arrays inside, for the library's own fast paths; a learner reading `indices`,
    # `values` or `dense_shape` gets tensors, as TensorFlow gives (and HOML prints).
    __slots__ = ("_indices", "_values", "_dense_shape")
    _is_composite_tensor = True  # an element leaf that is not one array (see data.structure)

    def __init__(self, indices, values, dense_shape):
        dense_shape = np.asarray(dense_shape, dtype=np.int64).view(np.ndarray)
        self._indices = np.asarray(indices, dtype=np.int64).reshape(-1, len(dense_shape))
        # Python values take TensorFlow's dtypes (ints int32, floats float32, str bytes);
        # NumPy values keep theirs.
        self._values = values.view(np.ndarray) if isinstance(values, np.ndarray) else \
            np.asarray(structure.to_leaf(values))
        self._dense_shape = dense_shape

    @property
    def indices(self):
        """The int64 `[n, rank]` positions of the values, as a tensor."""
        return self._indices.view(Tensor)

    @property
    def values(self):
        """The `n` values, as a tensor."""
        return self._values.view(Tensor)

    @property
    def dense_shape(self):
        """The int64 shape of the whole tensor, as a tensor."""
        return self._dense_shape.view(Tensor)

    @property
    def dtype(self):
        from .. import dtypes

        return dtypes.from_numpy(self._values.dtype)

    @property
    def shape(self):
        return tuple(int(size) for size in self._dense_shape)

    def to_dense(self, default_value=None):
        """A dense array of `dense_shape`, with `default_value` (0 or b'') where no value is."""
        if default_value is None:
            default_value = b"" if self._values.dtype == dtypes.string else 0
        dense = np.full(self.shape, default_value, dtype=self._values.dtype)
        if len(self._values):
            dense[tuple(self._indices.T)] = self._values
        return dense

    def __eq__(self, other):
        return (isinstance(other, SparseTensor)
                and np.array_equal(self._indices, other._indices)
                and np.array_equal(self._dense_shape, other._dense_shape)
                and self._values.shape == other._values.shape
                and bool(np.all(self._values == other._values)))

    __hash__ = None

    def __repr__(self):
        # TensorFlow's form: each part printed as an eager tensor prints itself.
        from ..tensor import as_tensors

        indices, values, dense_shape = (as_tensors(np.asarray(part)) for part in (
            self._indices, self._values, self._dense_shape))
        return (f"SparseTensor(indices={indices!s}, values={values!s}, "
                f"dense_shape={dense_shape!s})")


def batch_sparse(tensors):
    """Sparse tensors of one rank as one of rank + 1 (entry `i` of the batch is tensor `i`).

    Raises:
        InvalidArgumentError: when the ranks differ.
    """
    ranks = {len(tensor._dense_shape) for tensor in tensors}
    if len(ranks) != 1:
        from ..errors import InvalidArgumentError
        raise InvalidArgumentError(f"cannot batch sparse tensors of different ranks "
                                   f"{sorted(ranks)}")
    shape = np.max([tensor._dense_shape for tensor in tensors], axis=0) if ranks != {0} else []
    rows = np.repeat(np.arange(len(tensors), dtype=np.int64),
                     [len(tensor._indices) for tensor in tensors])
    indices = np.concatenate([tensor._indices for tensor in tensors])
    values = np.concatenate([tensor._values for tensor in tensors])
    return SparseTensor(np.column_stack([rows, indices]), values,
                        np.concatenate([[len(tensors)], shape]))


def unbatch_sparse(tensor):
    """The rows of a sparse tensor: one of rank - 1 for each index of its first dimension."""
    if len(tensor._dense_shape) == 0:
        raise ValueError("cannot unbatch a scalar sparse tensor: it needs a first dimension")
    rows = tensor._indices[:, 0]
    # Indices are in row-major order, so each row's entries are one run.
    bounds = np.searchsorted(rows, np.arange(tensor._dense_shape[0] + 1))
    return [SparseTensor(tensor._indices[start:stop, 1:], tensor._values[start:stop],
                         tensor._dense_shape[1:])
            for start, stop in zip(bounds[:-1], bounds[1:])]
