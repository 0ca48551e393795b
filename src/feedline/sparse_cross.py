"""`fl.sparse.cross` and `cross_hashed`: the per-row cartesian product of feature columns.

Each input is a rank-2 SparseTensor or dense tensor with one row per example. Row `i` of the
result holds one cross for every way of picking one feature of row `i` from each input;
the last input varies fastest. As in TensorFlow, the SparseTensor inputs come first in the
product and the dense ones after them, whatever their order in `inputs`. Integer features
are written in decimal for `cross`; `cross_hashed` hashes strings with Fingerprint64 and
takes integers as they are, chaining them with FingerprintCat64 from `hash_key`.

>>> a = SparseTensor([[0, 0], [1, 0], [1, 1]], np.array([b"a", b"b", b"c"], object), [2, 2])
>>> d = SparseTensor([[0, 0], [1, 0]], np.array([b"d", b"e"], object), [2, 1])
>>> f = np.array([[b"f"], [b"g"]], object)
>>> cross([a, d, f]).values.numpy().tolist()
[b'a_X_d_X_f', b'b_X_e_X_g', b'c_X_e_X_g']
"""

import itertools

import numpy as np

from ._sparse_common import as_sparse, is_sparse, plain
from .errors import InvalidArgumentError
from .io.sparse import SparseTensor
from .layers._hashing import fingerprint64
from .ops._convert import _as_array
from .ops._eager import returns_tensors

_DEFAULT_HASH_KEY = 0xDECAFCAFFE  # TensorFlow's key when hash_key is not given
_MUL = 0xC6A4A7935BD1E995  # FingerprintCat64's multiplier
_U64 = (1 << 64) - 1


def _shift_mix(value):
    return value ^ (value >> 47)


def fingerprint_cat64(first, second):
    """TensorFlow's FingerprintCat64: one 64-bit hash from two, in order.

    >>> fingerprint_cat64(0, 0) != fingerprint_cat64(0, 1)
    True
    """
    result = first ^ _MUL
    result ^= (_shift_mix((second * _MUL) & _U64) * _MUL) & _U64
    result = (result * _MUL) & _U64
    result = (_shift_mix(result) * _MUL) & _U64
    return _shift_mix(result)


def _columns(inputs, function):
    """Each input as a list of rows, each row the list of its features; sparse inputs first."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"fl.sparse.{function}: inputs must be a list of tensors or "
                        f"SparseTensors, got {type(inputs).__name__}")
    sparse = [as_sparse(item, "inputs", function) for item in inputs if is_sparse(item)]
    dense = [_as_array(item, f"fl.sparse.{function}") for item in inputs if not is_sparse(item)]
    columns = []
    for item in sparse:
        indices, values, shape = plain(item)
        if len(shape) != 2:
            raise InvalidArgumentError(f"fl.sparse.{function}: every SparseTensor input must "
                                       f"have rank 2, got shape {shape.tolist()}")
        bounds = np.searchsorted(indices[:, 0], np.arange(int(shape[0]) + 1))
        columns.append([list(values[low:high]) for low, high in zip(bounds[:-1], bounds[1:])])
    for array in dense:
        if array.ndim != 2:
            raise InvalidArgumentError(f"fl.sparse.{function}: every dense input must have "
                                       f"rank 2, got shape {array.shape}")
        columns.append([list(row) for row in array])
    if not columns:
        raise InvalidArgumentError(f"fl.sparse.{function}: inputs is empty")
    if len({len(column) for column in columns}) != 1:
        raise InvalidArgumentError(f"fl.sparse.{function}: the inputs differ in their number "
                                   f"of rows: {[len(column) for column in columns]}")
    return columns


def _as_text(feature):
    if isinstance(feature, (bytes, np.bytes_)):
        return bytes(feature)
    if isinstance(feature, str):
        return feature.encode()
    return str(int(feature)).encode()


def _crossed(columns, combine, dtype):
    indices, values = [], []
    for row in range(len(columns[0])):
        for position, features in enumerate(itertools.product(*(c[row] for c in columns))):
            indices.append([row, position])
            values.append(combine(features))
    width = max((index[1] + 1 for index in indices), default=0)
    array = np.empty(len(values), dtype)
    array[:] = values
    return SparseTensor(np.array(indices, np.int64).reshape(-1, 2), array,
                        [len(columns[0]), width])


@returns_tensors
def cross(inputs, name=None, separator=None):
    """The crosses of `inputs` as strings, features joined by `separator` (default `"_X_"`).

    Raises:
        InvalidArgumentError: for inputs that are not rank 2 or differ in rows.

    >>> out = cross([np.array([[b"a"], [b"b"]], object), np.array([[b"c"], [b"d"]], object)],
    ...             separator="_Y_")
    >>> out.values.numpy().tolist()
    [b'a_Y_c', b'b_Y_d']
    """
    joiner = _as_text("_X_" if separator is None else separator)
    return _crossed(_columns(inputs, "cross"),
                    lambda features: joiner.join(map(_as_text, features)), object)


@returns_tensors
def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """The crosses of `inputs` as int64 hashes, modulo `num_buckets` when it is positive.

    Each cross starts from `hash_key` (TensorFlow's default key when None or 0) and chains
    each feature's hash with FingerprintCat64: Fingerprint64 for a string, the value
    itself for an integer. Without buckets the hash is taken modulo 2**63 - 1.

    >>> out = cross_hashed([np.array([[b"a"], [b"b"]], object)], num_buckets=10)
    >>> out.values.dtype, out.dense_shape.numpy().tolist()
    (tf.int64, [2, 1])
    """
    start = int(hash_key or _DEFAULT_HASH_KEY) & _U64
    modulus = int(num_buckets) if num_buckets and int(num_buckets) > 0 else (1 << 63) - 1

    def combine(features):
        hashed = start
        for feature in features:
            if isinstance(feature, (bytes, np.bytes_, str)):
                part = fingerprint64(feature)
            else:
                part = int(feature) & _U64
            hashed = fingerprint_cat64(hashed, part)
        return hashed % modulus

    return _crossed(_columns(inputs, "cross_hashed"), combine, np.int64)
