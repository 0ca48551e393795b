"""`TensorSpec`: the shape and dtype of one component of an element."""

import numpy as np  # noqa: F401 - used by the doctest examples

from .. import dtypes
from . import structure


class TensorSpec:
    """Shape and dtype of a component; `None` in `shape` means any size along that axis.

    >>> TensorSpec((None, 3), "float32")
    TensorSpec(shape=(None, 3), dtype=float32)
    >>> TensorSpec((None,), "int64").is_compatible_with(np.arange(4))
    True
    """

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = None if shape is None else tuple(
            None if size is None else int(size) for size in shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_value(cls, leaf):
        """The spec of one element leaf."""
        return cls(structure.leaf_shape(leaf), structure.leaf_dtype(leaf))

    def is_compatible_with(self, value):
        """True when `value` (a leaf or a spec) fits this spec."""
        if isinstance(value, TensorSpec):
            other_shape, other_dtype = value.shape, value.dtype
        else:
            leaf = structure.to_leaf(value)
            other_shape, other_dtype = structure.leaf_shape(leaf), structure.leaf_dtype(leaf)
        if other_dtype != self.dtype:
            return False
        if self.shape is None or other_shape is None:
            return True
        return len(self.shape) == len(other_shape) and all(
            mine is None or theirs is None or mine == theirs
            for mine, theirs in zip(self.shape, other_shape))

    def most_specific_common(self, other):
        """The narrowest spec both specs fit (differing sizes become `None`)."""
        if self.shape is None or other.shape is None or len(self.shape) != len(other.shape):
            return TensorSpec(None, self.dtype)
        return TensorSpec([a if a == b else None for a, b in zip(self.shape, other.shape)],
                          self.dtype)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __repr__(self):
        dtype = "string" if self.dtype == dtypes.string else self.dtype.name
        return f"TensorSpec(shape={self.shape}, dtype={dtype})"


def spec_of(element):
    """The spec structure of an element."""
    return structure.map_structure(TensorSpec.from_value, element)


def batched_spec(spec, batch_size):
    """The spec of a batch of `spec` elements (`batch_size` may be None)."""
    return structure.map_structure(
        lambda leaf: TensorSpec(None if leaf.shape is None else (batch_size,) + leaf.shape,
                                leaf.dtype), spec)


def unbatched_spec(spec):
    """The spec of the rows of `spec`."""
    return structure.map_structure(
        lambda leaf: TensorSpec(None if leaf.shape is None else leaf.shape[1:], leaf.dtype),
        spec)
