"""`fl.sparse` ops that change where entries sit: `expand_dims`, `reshape`, `reset_shape`,
`transpose`, `slice`, `split` and `eye`. Results keep row-major index order.

>>> st = SparseTensor([[3, 4]], np.array([1.0], np.float32), [4, 10])
>>> expand_dims(st, axis=0).dense_shape.numpy().tolist()
[1, 4, 10]
"""

import numpy as np

from . import dtypes
from ._sparse_common import as_sparse, plain, row_major, sorted_sparse
from .errors import InvalidArgumentError
from .io.sparse import SparseTensor
from .ops._eager import returns_tensors


def _axis(axis, rank, function, argument="axis"):
    if not -rank <= int(axis) < rank:
        raise InvalidArgumentError(f"fl.sparse.{function}: {argument} {axis} is out of range "
                                   f"for rank {rank}; use -{rank} <= {argument} < {rank}")
    return int(axis) % rank


@returns_tensors
def expand_dims(sp_input, axis=None, name=None):
    """The SparseTensor with a new dimension of size 1 at `axis` (default -1, the end).

    Raises:
        InvalidArgumentError: for an axis outside `[-rank - 1, rank]`.

    >>> st = SparseTensor([[3, 4]], np.array([1.0], np.float32), [4, 10])
    >>> expand_dims(st).indices.numpy().tolist()
    [[3, 4, 0]]
    """
    indices, values, shape = plain(as_sparse(sp_input, "sp_input", "expand_dims"))
    axis = _axis(-1 if axis is None else axis, len(shape) + 1, "expand_dims")
    return SparseTensor(np.insert(indices, axis, 0, axis=1), values, np.insert(shape, axis, 1))


@returns_tensors
def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """A 2-D SparseTensor with ones on the diagonal, `[num_rows, num_columns]` (square default).

    >>> eye(2, 3).indices.numpy().tolist(), eye(2).values.dtype
    ([[0, 0], [1, 1]], tf.float32)
    """
    num_columns = num_rows if num_columns is None else num_columns
    size = min(int(num_rows), int(num_columns))
    diagonal = np.arange(size, dtype=np.int64)
    return SparseTensor(np.column_stack([diagonal, diagonal]),
                        np.ones(size, dtypes.as_dtype(dtype)), [num_rows, num_columns])


@returns_tensors
def reshape(sp_input, shape, name=None):
    """The SparseTensor read as one of `shape` (like `fl.reshape` of its dense form).

    One dimension may be -1: it takes the size that keeps the number of elements.

    Raises:
        ValueError: for more than one -1, or a shape with another number of elements.

    >>> st = SparseTensor([[0, 0, 1], [1, 2, 3]], np.array([1, 2]), [2, 3, 6])
    >>> out = reshape(st, [9, -1])
    >>> out.indices.numpy().tolist(), out.dense_shape.numpy().tolist()
    ([[0, 1], [8, 1]], [9, 4])
    """
    indices, values, old = plain(as_sparse(sp_input, "sp_input", "reshape"))
    new = np.asarray(shape, np.int64).reshape(-1)
    total = int(np.prod(old))
    if (new == -1).sum() > 1:
        raise ValueError(f"fl.sparse.reshape: at most one dimension can be -1, got "
                         f"{new.tolist()}")
    if (new == -1).any():
        known = int(np.prod(new[new != -1]))
        new[new == -1] = total // known if known else 0
    if int(np.prod(new)) != total:
        raise ValueError(f"fl.sparse.reshape: cannot reshape a tensor of {total} elements "
                         f"(shape {old.tolist()}) to shape {new.tolist()}")
    flat = row_major(indices, old)
    moved = np.column_stack(np.unravel_index(flat, tuple(new))) if len(new) else \
        np.zeros((len(flat), 0), np.int64)
    return SparseTensor(moved, values, new)


@returns_tensors
def reset_shape(sp_input, new_shape=None):
    """The SparseTensor with dense shape `new_shape`, or the tightest shape when None.

    The tightest shape is one more than the largest index in each dimension.

    Raises:
        ValueError: when `new_shape` has another rank, or a dimension smaller than before.

    >>> st = SparseTensor([[0, 1], [2, 0]], np.array([1, 2]), [5, 6])
    >>> reset_shape(st).dense_shape.numpy().tolist()
    [3, 2]
    """
    indices, values, shape = plain(as_sparse(sp_input, "sp_input", "reset_shape"))
    if new_shape is None:
        tight = indices.max(axis=0) + 1 if len(indices) else np.zeros(len(shape), np.int64)
        return SparseTensor(indices, values, tight)
    new_shape = np.asarray(new_shape, np.int64).reshape(-1)
    if len(new_shape) != len(shape):
        raise ValueError(f"fl.sparse.reset_shape: new_shape has rank {len(new_shape)}, "
                         f"sp_input rank {len(shape)}; give one size per dimension")
    if np.any(new_shape < shape):
        raise ValueError(f"fl.sparse.reset_shape: new_shape {new_shape.tolist()} must be at "
                         f"least the old shape {shape.tolist()} in every dimension")
    return SparseTensor(indices, values, new_shape)


@returns_tensors
def transpose(sp_input, perm=None, name=None):
    """The SparseTensor with its dimensions permuted by `perm` (reversed when None).

    >>> st = SparseTensor([[0, 1], [0, 3], [2, 0], [3, 1]], np.array([1, 2, 3, 4]), [4, 5])
    >>> transpose(st).indices.numpy().tolist()
    [[0, 2], [1, 0], [1, 3], [3, 0]]
    """
    indices, values, shape = plain(as_sparse(sp_input, "sp_input", "transpose"))
    order = list(range(len(shape)))[::-1] if perm is None else \
        [int(item) for item in np.asarray(perm).reshape(-1)]
    if sorted(order) != list(range(len(shape))):
        raise InvalidArgumentError(f"fl.sparse.transpose: perm {order} is not a permutation "
                                   f"of 0..{len(shape) - 1}")
    return sorted_sparse(indices[:, order], values, shape[order])


@returns_tensors
def slice(sp_input, start, size, name=None):  # noqa: A001 - TensorFlow's name
    """The entries of a SparseTensor inside the box `[start, start + size)`, moved to 0.

    The result's shape is `size`, cut where the box passes the end of the input.

    >>> st = SparseTensor([[0, 1], [1, 4], [2, 3]], np.array([1, 2, 3]), [3, 5])
    >>> part = slice(st, [1, 2], [2, 5])
    >>> part.indices.numpy().tolist(), part.dense_shape.numpy().tolist()
    ([[0, 2], [1, 1]], [2, 3])
    """
    indices, values, shape = plain(as_sparse(sp_input, "sp_input", "slice"))
    start = np.asarray(start, np.int64).reshape(-1)
    size = np.asarray(size, np.int64).reshape(-1)
    if len(start) != len(shape) or len(size) != len(shape):
        raise InvalidArgumentError(f"fl.sparse.slice: start and size need {len(shape)} "
                                   f"entries (the rank), got {start.tolist()} and "
                                   f"{size.tolist()}")
    stop = np.minimum(start + size, shape)
    inside = np.all((indices >= start) & (indices < stop), axis=1)
    return SparseTensor(indices[inside] - start, values[inside],
                        np.maximum(stop - start, 0))


def split(sp_input=None, num_split=None, axis=None, name=None):
    """`sp_input` cut along `axis` into `num_split` SparseTensors.

    A dimension of size `n` gives pieces of `n // num_split`, the first `n % num_split`
    of them one larger.

    Raises:
        ValueError: when `sp_input`, `num_split` or `axis` is missing.
        InvalidArgumentError: for an axis out of range, or `num_split` outside `[1, n]`.

    >>> st = SparseTensor([[0, 2], [0, 4], [0, 5], [1, 0], [1, 1]], np.arange(1, 6), [2, 7])
    >>> [part.dense_shape.numpy().tolist() for part in split(st, 2, 1)]
    [[2, 4], [2, 3]]
    """
    for argument, value in (("sp_input", sp_input), ("num_split", num_split), ("axis", axis)):
        if value is None:
            raise ValueError(f"fl.sparse.split: {argument} is required")
    indices, values, shape = plain(as_sparse(sp_input, "sp_input", "split"))
    axis = _axis(axis, len(shape), "split")
    length, count = int(shape[axis]), int(num_split)
    if not 1 <= count <= max(length, 1):
        raise InvalidArgumentError(f"fl.sparse.split: num_split must be in [1, {length}] (the "
                                   f"size of axis {axis}), got {count}")
    sizes = [length // count + (1 if piece < length % count else 0) for piece in range(count)]
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    pieces = []
    for low, high in zip(bounds[:-1], bounds[1:]):
        inside = (indices[:, axis] >= low) & (indices[:, axis] < high)
        moved = indices[inside].copy()
        moved[:, axis] -= low
        part_shape = shape.copy()
        part_shape[axis] = high - low
        pieces.append(SparseTensor(moved, values[inside], part_shape))
    return pieces
