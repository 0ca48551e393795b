"""`TensorSpec` and `DatasetSpec`: the shape and dtype of the components of an element.

Sparse and ragged components have their own specs (`composite_spec`); `spec_of`,
`batched_spec`, `unbatched_spec` and `placeholder` handle all kinds.
"""

import numpy as np

from .. import dtypes
from . import structure
from .tensor_shape import UNKNOWN_SHAPE, TensorShape, UnknownShape


class TensorSpec:
    """Shape and dtype of a component; `None` in `shape` means any size along that axis.

    Its repr is TensorFlow's, word for word, so printed specs can be compared with TF's:

    >>> TensorSpec((None, 3), "float32")
    TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)
    >>> TensorSpec((None,), "int64").is_compatible_with(np.arange(4))
    True
    """

    __slots__ = ("_shape", "dtype", "name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        shape = None if shape is None else TensorShape(shape)
        self._shape = None if isinstance(shape, UnknownShape) else shape  # unknown rank: None
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @property
    def shape(self):
        """The shape, a `TensorShape`; `TensorShape(None)` when even the rank is unknown (its
        `.rank` is None), as in TensorFlow."""
        return UNKNOWN_SHAPE if self._shape is None else self._shape

    @classmethod
    def from_value(cls, leaf):
        """The spec of one element leaf (a SparseTensor or RaggedTensor gets its own spec)."""
        if structure.is_composite(leaf):
            return composite_spec_of(leaf)
        return cls(structure.leaf_shape(leaf), structure.leaf_dtype(leaf))

    @property
    def value_type(self):
        """The class of the values this spec describes: `feedline.Tensor` (TensorFlow's
        `tf.Tensor`)."""
        from ..tensor import Tensor

        return Tensor

    def _batched(self, batch_size):
        return TensorSpec(None if self._shape is None else (batch_size,) + self._shape,
                          self.dtype)

    def _unbatched(self):
        return TensorSpec(None if self._shape is None else self._shape[1:], self.dtype)

    def is_compatible_with(self, value):
        """True when `value` (a leaf or a spec) fits this spec."""
        if isinstance(value, TensorSpec):
            other_shape, other_dtype = value.shape, value.dtype
        else:
            leaf = structure.to_leaf(value)
            other_shape, other_dtype = structure.leaf_shape(leaf), structure.leaf_dtype(leaf)
        if other_dtype != self.dtype:
            return False
        if unknown_rank(self._shape) or unknown_rank(other_shape):
            return True
        return len(self._shape) == len(other_shape) and all(
            mine is None or theirs is None or mine == theirs
            for mine, theirs in zip(self._shape, other_shape))

    def most_specific_common(self, other):
        """The narrowest spec both specs fit (differing sizes become `None`)."""
        if self._shape is None or unknown_rank(other.shape) or \
                len(self._shape) != len(other.shape):
            return TensorSpec(None, self.dtype)
        return TensorSpec([a if a == b else None for a, b in zip(self._shape, other.shape)],
                          self.dtype)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self._shape == other._shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self._shape, self.dtype))

    def __repr__(self):
        return f"TensorSpec(shape={shape_text(self._shape)}, dtype={dtype_text(self.dtype)}, " \
               f"name={self.name!r})"


def shape_text(shape):
    """A shape as TensorFlow prints a TensorShape: `(None, 3)`, `(3,)`, `()`, `<unknown>`."""
    return "<unknown>" if unknown_rank(shape) else str(tuple(shape))


def unknown_rank(shape):
    """True for a shape whose rank is unknown: `None`, or `TensorShape(None)` (what a
    `TensorSpec`'s `shape` is then)."""
    return shape is None or isinstance(shape, UnknownShape)


def dtype_text(dtype):
    """A dtype as TensorFlow prints a DType: `tf.float32`, `tf.string`, `tf.bool`."""
    return "tf." + ("string" if dtype == dtypes.string else dtype.name)


def spec_of(element):
    """The spec structure of an element."""
    return structure.map_structure(TensorSpec.from_value, element)


def composite_spec_of(leaf):
    """The `SparseTensorSpec` or `RaggedTensorSpec` of a sparse or ragged leaf."""
    from ..io.sparse import SparseTensor
    from .composite_spec import RaggedTensorSpec, SparseTensorSpec

    kind = SparseTensorSpec if isinstance(leaf, SparseTensor) else RaggedTensorSpec
    return kind.from_value(leaf)


def batched_spec(spec, batch_size):
    """The spec of a batch of `spec` elements (`batch_size` may be None).

    A batch of sparse tensors is sparse with one more dimension, of ragged tensors ragged with
    one more ragged dimension.
    """
    return structure.map_structure(lambda leaf: leaf._batched(batch_size), spec)


def unbatched_spec(spec):
    """The spec of the rows of `spec`."""
    return structure.map_structure(lambda leaf: leaf._unbatched(), spec)


class DatasetSpec:
    """The spec of an element that is itself a dataset (as `window` gives): its element spec.

    >>> DatasetSpec(TensorSpec((), "int64"))
    DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))
    """

    __slots__ = ("element_spec", "dataset_shape")

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self.dataset_shape = tuple(dataset_shape)

    def is_compatible_with(self, value):
        """True when `value` (a dataset or a `DatasetSpec`) has this element spec."""
        other = value if isinstance(value, DatasetSpec) else getattr(value, "element_spec", None)
        if isinstance(other, DatasetSpec):
            other = other.element_spec
        mine, theirs = structure.flatten(self.element_spec), structure.flatten(other)
        return len(mine) == len(theirs) and all(
            a.is_compatible_with(b) for a, b in zip(mine, theirs))

    def most_specific_common(self, other):
        """The narrowest `DatasetSpec` both specs fit."""
        return DatasetSpec(structure.map_structure(
            lambda a, b: a.most_specific_common(b), self.element_spec, other.element_spec),
            self.dataset_shape)

    def __eq__(self, other):
        return (isinstance(other, DatasetSpec) and self.element_spec == other.element_spec
                and self.dataset_shape == other.dataset_shape)

    def __hash__(self):
        return hash((DatasetSpec, self.dataset_shape))

    def _placeholder(self, value, unknown_size):
        """A dataset of `unknown_size` placeholder elements whose spec is this element spec
        (what a trace hands a function for a window, say)."""
        from .tracing import placeholder_dataset

        return placeholder_dataset(self.element_spec, value, unknown_size)

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, TensorShape({list(self.dataset_shape)}))"


def placeholder(spec, value, unknown_size, varied=False):
    """An element that fits `spec`: every entry `value` (a number), unknown sizes `unknown_size`.

    Strings get the digits of `value` as bytes. A spec of unknown rank gives a scalar when
    `unknown_size` is 1 and a 1-D array of `unknown_size` entries otherwise (one entry for
    2): a trace's passes then disagree on the rank (so it stays unknown). With `varied`, dense
    entries count 0, 1, 2, 0, ... instead (False, True, ... for bools), so that sizes that
    depend on the values (a mask, `unique`) differ from the uniform passes.

    >>> placeholder((TensorSpec((None, 2), "int64"), TensorSpec((), "string")), 1, 3)
    (array([[1, 1],
           [1, 1],
           [1, 1]]), b'1')
    >>> placeholder(TensorSpec((4,), "int32"), 0, 3, varied=True).tolist()
    [0, 1, 2, 0]
    """
    def make(leaf):
        if not isinstance(leaf, TensorSpec):  # sparse and ragged specs make their own
            return leaf._placeholder(value, unknown_size)
        if leaf._shape is None:
            shape = () if unknown_size == 1 else ((1,) if unknown_size == 2 else
                                                  (unknown_size,))
        else:
            shape = tuple(unknown_size if size is None else size for size in leaf.shape)
        if varied:
            counts = np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape) % 3
            if leaf.dtype == dtypes.string:
                array = np.array([str(count).encode() for count in counts.reshape(-1)],
                                 dtype=object).reshape(shape)
            else:
                array = (counts % 2 == 1 if leaf.dtype == np.bool_ else counts).astype(
                    leaf.dtype)
            return array[()] if not shape else array
        if leaf.dtype == dtypes.string:
            text = str(value).encode()
            return text if not shape else np.full(shape, text, dtype=object)
        array = np.full(shape, value, dtype=leaf.dtype)
        return array[()] if not shape else array
    return structure.map_structure(make, spec)
