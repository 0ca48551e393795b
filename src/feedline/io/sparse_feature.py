"""`SparseFeature`: a `SparseTensor` built from an index feature and a value feature.

Some `Example`s store a sparse vector as two lists: where the values go (`index_key`, int64
positions, one list per dimension) and the values themselves (`value_key`). `SparseFeature`
tells `parse_example` to read both and return one `SparseTensor` of `dense_shape`
`[batch] + size` (`size` for `parse_single_example`). As in TensorFlow, each record's indices
are sorted unless `already_sorted=True`, every index must be inside `size`, and the index and
value lists of a record must have the same length.

>>> from feedline.train import Example, Features, Feature, FloatList, Int64List
>>> record = Example(features=Features(feature={
...     "ix": Feature(int64_list=Int64List(value=[3, 0])),
...     "val": Feature(float_list=FloatList(value=[0.5, 2.0]))})).SerializeToString()
>>> from feedline.io import parse_single_example
>>> parse_single_example(record, {"x": SparseFeature("ix", "val", "float32", 4)})["x"]
SparseTensor(indices=tf.Tensor(
[[0]
 [3]], shape=(2, 1), dtype=int64),
 values=tf.Tensor([2.  0.5], shape=(2,), dtype=float32),
 dense_shape=tf.Tensor([4], shape=(1,), dtype=int64))
"""

from collections import namedtuple

import numpy as np

from ..errors import InvalidArgumentError
from .features import VarLenFeature, check_dtype
from .sparse import SparseTensor


class SparseFeature(namedtuple("SparseFeature",
                               ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """Where the values go (`index_key`: a feature name, or one per dimension) and what they
    are (`value_key`), read into a `SparseTensor` of shape `size` (an int or one per
    dimension)."""

    __slots__ = ()

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        index_keys = [index_key] if isinstance(index_key, str) else list(index_key)
        sizes = [size] if isinstance(size, (int, np.integer)) else list(size)
        if len(index_keys) != len(sizes):
            raise ValueError(f"SparseFeature: index_key has {len(index_keys)} names but size "
                             f"has {len(sizes)} entries; give one size per index key")
        if any(int(each) < 0 for each in sizes):
            raise ValueError(f"SparseFeature: size must not be negative, got {size}")
        return super().__new__(cls, index_key, value_key, check_dtype(dtype), size,
                               bool(already_sorted))


def _index_keys(spec):
    return [spec.index_key] if isinstance(spec.index_key, str) else list(spec.index_key)


def _sizes(spec):
    return [int(spec.size)] if isinstance(spec.size, (int, np.integer)) else \
        [int(size) for size in spec.size]


def split(features):
    """`(plain features, sparse)`: `features` with each `SparseFeature` replaced by the
    `VarLenFeature`s it reads, and the list of `(key, SparseFeature)` to build afterwards."""
    if not isinstance(features, dict) or not any(
            isinstance(spec, SparseFeature) for spec in features.values()):
        return features, []
    plain, sparse = {}, []
    for key, spec in features.items():
        if isinstance(spec, SparseFeature):
            sparse.append((key, spec))
        else:
            plain[key] = spec
    for key, spec in sparse:
        needed = [(name, VarLenFeature("int64")) for name in _index_keys(spec)]
        needed.append((spec.value_key, VarLenFeature(spec.dtype)))
        for name, wanted in needed:
            other = plain.setdefault(name, wanted)
            if other != wanted:
                raise ValueError(f"SparseFeature {key!r} reads {name!r} as {wanted}, but "
                                 f"features also asks for it as {other}; use one spec")
    return plain, sparse


def join(parsed, features, sparse, batched):
    """`parsed` with each sparse feature built and the helper entries it needed dropped."""
    if not sparse:
        return parsed
    result = {key: value for key, value in parsed.items() if key in features}
    for key, spec in sparse:
        result[key] = _build(key, spec, [parsed[name] for name in _index_keys(spec)],
                             parsed[spec.value_key], batched)
    return result


def _build(key, spec, index_lists, value_list, batched):
    sizes = _sizes(spec)
    rows = value_list.indices[:, 0] if batched else np.zeros(len(value_list.values), np.int64)
    for position, (name, indices) in enumerate(zip(_index_keys(spec), index_lists)):
        if len(indices.values) != len(value_list.values) or (
                batched and not np.array_equal(indices.indices[:, 0], rows)):
            raise InvalidArgumentError(
                f"Key: {key}.  SparseFeature: the index feature {name!r} and the value "
                f"feature {spec.value_key!r} must hold as many values in every record")
        bad = (indices.values < 0) | (indices.values >= sizes[position])
        if bad.any():
            where = int(np.argmax(bad))
            raise InvalidArgumentError(
                f"Key: {key}.  SparseFeature: index {int(indices.values[where])} of "
                f"{name!r} is out of bounds for size {sizes[position]}")
    coordinates = np.stack([index.values.astype(np.int64) for index in index_lists], axis=1) \
        if index_lists else np.zeros((len(value_list.values), 0), np.int64)
    values = value_list.values
    if not spec.already_sorted and len(values):
        order = np.lexsort(tuple(coordinates[:, ::-1].T) + (rows,))
        coordinates, values, rows = coordinates[order], values[order], rows[order]
    if batched:
        batch = int(value_list.dense_shape[0])
        return SparseTensor(np.column_stack([rows, coordinates]), values, [batch] + sizes)
    return SparseTensor(coordinates, values, sizes)
