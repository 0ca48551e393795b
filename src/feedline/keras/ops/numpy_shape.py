"""`keras.ops` array manipulation: shapes, joins, splits, flips, picking values.

Joins (`concatenate`, `stack`, `append`, `where` ...) promote their inputs on Keras' lattice;
everything else keeps the input's dtype; positions (`nonzero`, `searchsorted`, `digitize`) are
int32. Reshapes, transposes, joins, tiles and `take` run feedline's ops so a tape sees them.

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.concatenate([fl.constant([1], fl.int8), fl.constant([2.5])]).dtype.name
'float32'
>>> ops.expand_dims(fl.zeros([2, 3]), -1).shape, ops.shape(ops.transpose(fl.zeros([2, 3])))
(TensorShape([2, 3, 1]), (3, 2))
"""

import numpy as np

from ... import ops as fl_ops
from . import _dtypes
from ._apply import array, axis_tuple, operands, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


def reshape(x, newshape):
    """`x` with the shape `newshape` (one size may be -1)."""
    return fl_ops.reshape(tensor(x), list(np.atleast_1d(newshape)) if np.ndim(newshape) or
                          not isinstance(newshape, int) else [newshape])


def transpose(x, axes=None):
    """`x` with its axes permuted by `axes` (reversed when None)."""
    return fl_ops.transpose(tensor(x), perm=axes)


def expand_dims(x, axis):
    """`x` with a size-1 axis inserted at `axis` (each of them, for a list)."""
    x = tensor(x)
    if isinstance(axis, (list, tuple)):
        return plain(np.expand_dims)(array(x), tuple(axis))
    return fl_ops.expand_dims(x, axis)


def squeeze(x, axis=None):
    """`x` without its size-1 axes (only those in `axis` when given)."""
    return fl_ops.squeeze(tensor(x), axis=[axis] if isinstance(axis, int) else axis)


def _joined(xs):
    _, tensors = operands(*xs)
    return tensors


def concatenate(xs, axis=0):
    """`xs` joined along `axis`, dtypes promoted as Keras does (None flattens first)."""
    if axis is None:
        return concatenate([reshape(x, [-1]) for x in xs], axis=0)
    return fl_ops.concat(_joined(xs), axis=axis)


def stack(x, axis=0):
    """The tensors `x` stacked along a new `axis`, dtypes promoted as Keras does."""
    return fl_ops.stack(_joined(x), axis=axis)


def tile(x, repeats):
    """`x` repeated `repeats` times along each axis."""
    x = tensor(x)
    repeats = list(np.atleast_1d(repeats))
    if len(repeats) < x.ndim:
        repeats = [1] * (x.ndim - len(repeats)) + repeats
    elif len(repeats) > x.ndim:
        x = reshape(x, [1] * (len(repeats) - x.ndim) + list(x.shape))
    return fl_ops.tile(x, repeats)


def take(x, indices, axis=None):
    """The values of `x` at `indices` along `axis` (of the flat `x` when None)."""
    x = tensor(x)
    if axis is None:
        x, axis = fl_ops.reshape(x, [-1]), 0
    indices = array(indices)
    if indices.dtype.kind not in "iu":
        indices = indices.astype("int32")
    indices = np.where(indices < 0, indices + x.shape[axis], indices)
    return fl_ops.gather(x, indices, axis=axis)


def _np(function, doc):
    def op(x, *args, **kwargs):
        return function(array(x), *args, **kwargs)
    op.__doc__ = doc
    return plain(op)


split = _np(lambda x, sections, axis=0: [part for part in np.split(x, sections, axis)],
            "`x` cut into equal parts (an int) or at the given indices along `axis`.")
array_split = _np(lambda x, sections, axis=0: list(np.array_split(x, sections, axis)),
                  "`x` cut into `indices_or_sections` nearly equal parts along `axis`.")
hsplit = _np(lambda x, sections: list(np.hsplit(x, sections)), "`split` along axis 1.")
vsplit = _np(lambda x, sections: list(np.vsplit(x, sections)), "`split` along axis 0.")
dsplit = _np(lambda x, sections: list(np.dsplit(x, sections)), "`split` along axis 2.")
repeat = _np(lambda x, repeats, axis=None: np.repeat(x, repeats, axis),
             "Each value of `x` repeated `repeats` times along `axis` (flat when None).")
flip = _np(lambda x, axis=None: np.flip(x, axis_tuple(axis)), "`x` reversed along `axis`.")
fliplr = _np(np.fliplr, "`x` reversed along axis 1.")
flipud = _np(np.flipud, "`x` reversed along axis 0.")
roll = _np(lambda x, shift, axis=None: np.roll(x, shift, axis_tuple(axis)),
           "`x` shifted by `shift` along `axis`, values wrapping round (flat when None).")
broadcast_to = _np(lambda x, shape: np.broadcast_to(x, tuple(shape)).copy(),
                   "`x` broadcast to `shape`.")
moveaxis = _np(np.moveaxis, "`x` with the axes `source` moved to `destination`.")
swapaxes = _np(np.swapaxes, "`x` with `axis1` and `axis2` exchanged.")
ravel = _np(np.ravel, "`x` flattened to one axis.")
tril = _np(lambda x, k=0: np.tril(x, k), "`x` with the values above diagonal `k` set to 0.")
triu = _np(lambda x, k=0: np.triu(x, k), "`x` with the values below diagonal `k` set to 0.")
diag = _np(lambda x, k=0: np.diag(x, k), "The diagonal `k` of a matrix, or a matrix with "
           "vector `x` on diagonal `k`.")
diagflat = _np(lambda x, k=0: np.diagflat(x, k), "A matrix with the flat `x` on diagonal `k`.")
diagonal = _np(lambda x, offset=0, axis1=0, axis2=1: np.diagonal(x, offset, axis1, axis2).copy(),
               "The diagonal at `offset` of the matrices in `axis1` and `axis2`.")
rot90 = _np(lambda x, k=1, axes=(0, 1): np.rot90(x, k, axes),
            "`x` turned by 90 degrees `k` times in the plane of `axes`.")
sort = _np(lambda x, axis=-1: np.sort(x, axis=axis), "`x` sorted along `axis`.")
diff = _np(lambda x, n=1, axis=-1: np.diff(x, n, axis), "The `n`-th differences along `axis`.")
nonzero = _np(lambda x: tuple(index.astype("int32") for index in np.nonzero(x)),
              "The indices of the nonzero values, one int32 vector per axis.")
unstack = _np(lambda x, num=None, axis=0: list(np.moveaxis(x, axis, 0)),
              "`x` cut into its slices along `axis`, as a list.")
for _name in ("split", "array_split", "hsplit", "vsplit", "dsplit", "repeat", "flip", "fliplr",
              "flipud", "roll", "broadcast_to", "moveaxis", "swapaxes", "ravel", "tril", "triu",
              "diag", "diagflat", "diagonal", "rot90", "sort", "diff", "nonzero", "unstack"):
    globals()[_name].__name__ = globals()[_name].__qualname__ = _name


@plain
def pad(x, pad_width, mode="constant", constant_values=None):
    """`x` padded by `pad_width` ((before, after) per axis) with NumPy's `mode`s.

    Raises:
        ValueError: when `constant_values` is given with a mode other than "constant".

    >>> import feedline as fl
    >>> fl.keras.ops.pad(fl.constant([1, 2]), [[1, 2]]).numpy().tolist()
    [0, 1, 2, 0, 0]
    """
    x = array(x)
    if mode != "constant" and constant_values is not None:
        raise ValueError(f"pad: constant_values is used only with mode='constant', got "
                         f"mode={mode!r}; leave constant_values out")
    extra = {"constant_values": constant_values or 0} if mode == "constant" else {}
    return np.pad(x, np.asarray(pad_width), mode=mode, **extra)


def _promoted(*values):
    dtype = _dtypes.result_type(*(_dtypes.dtype_of(value) for value in values))
    return [array(value, dtype) for value in values]


@plain
def where(condition, x1=None, x2=None):
    """`x1` where `condition` holds, else `x2` (promoted); alone, the nonzero indices."""
    condition = array(condition).astype(bool)
    if x1 is None and x2 is None:
        return tuple(index.astype("int32") for index in np.nonzero(condition))
    if x1 is None or x2 is None:
        raise ValueError("where: give both x1 and x2, or neither (then the indices of the "
                         "True values come back)")
    a, b = _promoted(x1, x2)
    return np.where(condition, a, b)


@plain
def append(x1, x2, axis=None):
    """`x2` joined after `x1` along `axis` (both flattened when None), dtypes promoted."""
    a, b = _promoted(x1, x2)
    return np.append(a, b, axis)


def _stacker(function, doc):
    def op(xs):
        return function(_promoted(*xs))
    op.__doc__ = doc
    return plain(op)


hstack = _stacker(np.hstack, "The tensors `xs` joined along axis 1 (axis 0 for vectors).")
vstack = _stacker(np.vstack, "The tensors `xs` joined along axis 0 (vectors become rows).")
dstack = _stacker(np.dstack, "The tensors `xs` joined along axis 2.")


@plain
def take_along_axis(x, indices, axis=None):
    """The values of `x` at `indices` taken along `axis` (of the flat `x` when None)."""
    x, indices = array(x), array(indices).astype("int64")
    if axis is None:
        x, axis = x.reshape(-1), 0
    return np.take_along_axis(x, np.where(indices < 0, indices + x.shape[axis], indices), axis)


@plain
def select(condlist, choicelist, default=0):
    """For each position, the value of the first choice whose condition holds, else `default`."""
    choices = _promoted(*choicelist)
    return np.select([array(c).astype(bool) for c in condlist], choices,
                     np.asarray(default, choices[0].dtype))


@plain
def searchsorted(sorted_sequence, values, side="left"):
    """Where each of `values` would go in the 1-D `sorted_sequence` to keep it sorted, int32.

    Raises:
        ValueError: when `sorted_sequence` is not 1-D.
    """
    sequence = array(sorted_sequence)
    if sequence.ndim != 1:
        raise ValueError(f"searchsorted: sorted_sequence must be 1-D, got shape "
                         f"{sequence.shape}; search each row with vectorized_map")
    return np.searchsorted(sequence, array(values), side=side).astype("int32")


@plain
def digitize(x, bins):
    """The index of the bin of `bins` each value of `x` falls into, int32."""
    return np.digitize(array(x), array(bins)).astype("int32")


@plain
def isin(x1, x2, assume_unique=False, invert=False):
    """True where a value of `x1` appears in `x2` (False where not, when `invert`)."""
    return np.isin(array(x1), array(x2), assume_unique=assume_unique, invert=invert)


@plain
def unique(x, sorted=True, return_inverse=False, return_counts=False, axis=None, size=None,
           fill_value=None):
    """The distinct values of `x` (sorted), with int32 inverse indices and counts on request."""
    result = np.unique(array(x), return_inverse=return_inverse, return_counts=return_counts,
                       axis=axis)
    if not isinstance(result, tuple):
        return result
    return (result[0],) + tuple(part.astype("int32") for part in result[1:])


def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-D `x`s ("xy": Cartesian, "ij": matrix indexing).

    Raises:
        ValueError: for another `indexing`.
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    return plain(lambda: list(np.meshgrid(*(array(item) for item in x), indexing=indexing)))()


def get_item(x, key):
    """`x[key]` (Keras' spelling of indexing)."""
    return plain(lambda: np.asarray(array(x)[key]))()


def size(x):
    """The number of values in `x`, as an int32 scalar tensor."""
    return plain(lambda: np.int32(array(x).size))()


def ndim(x):
    """The rank of `x`, as an int32 scalar tensor."""
    return plain(lambda: np.int32(array(x).ndim))()


@plain
def unravel_index(indices, shape):
    """Flat `indices` as a tuple of coordinate arrays into an array of `shape`."""
    return tuple(np.unravel_index(array(indices), tuple(shape)))

__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
