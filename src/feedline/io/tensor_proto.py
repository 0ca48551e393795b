"""`serialize_tensor`, `parse_tensor`, `serialize_sparse`: tensors as TensorProto bytes.

TensorProto is TensorFlow's message for one tensor (tensorflow/core/framework/tensor.proto).
The fields used here: 1 `dtype` (a DataType enum number), 2 `tensor_shape` (a TensorShapeProto:
field 2 repeated `dim`, each with field 1 `size`), 4 `tensor_content` (the raw little-endian
values of a numeric tensor, row-major) and 8 `string_val` (one entry per string). TensorFlow
2.21 writes numeric tensors as `tensor_content` and strings as `string_val`. Older versions
(the Hands-On ML book's outputs show it) packed strings into `tensor_content` too: first every
string's length as a varint, then all their bytes one after another. The reader takes both,
and also the typed repeated fields (`float_val`, `int_val`, ...) that hand-made protos use.

>>> data = serialize_tensor(np.array([[1.5, -2.0]], np.float32))
>>> data.hex()
'08011208120208011202080222080000c03f000000c0'
>>> parse_tensor(data, "float32").tolist()
[[1.5, -2.0]]
"""

import struct

import numpy as np

from .. import dtypes
from ..data import tracing
from ..data.spec import TensorSpec
from ..errors import InvalidArgumentError
from . import _wire
from .sparse import SparseTensor
from ..ops._eager import returns_tensors

# DataType enum numbers from tensorflow/core/framework/types.proto.
_DTYPE_NUMBERS = {
    np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3,
    np.dtype(np.uint8): 4, np.dtype(np.int16): 5, np.dtype(np.int8): 6, dtypes.string: 7,
    np.dtype(np.complex64): 8, np.dtype(np.int64): 9, np.dtype(np.bool_): 10,
    np.dtype(np.uint16): 17, np.dtype(np.complex128): 18, np.dtype(np.float16): 19,
    np.dtype(np.uint32): 22, np.dtype(np.uint64): 23,
}
_NUMBER_DTYPES = {number: dtype for dtype, number in _DTYPE_NUMBERS.items()}
# The typed repeated fields: field number -> how its packed entries are read.
_TYPED_FIELDS = {5: "<f", 6: "<d", 13: "varint", 7: "varint", 10: "varint", 11: "varint",
                 16: "varint", 17: "varint"}


def _tf_name(dtype):
    return "string" if dtype == dtypes.string else {
        "float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


def _as_array(tensor):
    if isinstance(tensor, (bytes, str)):
        return np.array([_bytes(tensor)], dtype=object).reshape(())
    array = np.asarray(tensor)
    if array.dtype.kind in "SUO":
        result = np.empty(array.shape, dtype=object)
        for index, item in np.ndenumerate(array):
            result[index] = _bytes(item)
        return result
    return array


def _bytes(item):
    if isinstance(item, str):
        return item.encode("utf-8")
    if isinstance(item, (bytes, np.bytes_)):
        return bytes(item)
    raise TypeError(f"serialize_tensor: a string tensor holds {type(item).__name__}; "
                    "every entry must be bytes or str")


@returns_tensors
def serialize_tensor(tensor, name=None):
    """The TensorProto bytes of `tensor`, exactly as `tf.io.serialize_tensor` writes them.

    Args:
        tensor: a NumPy array or scalar, bytes/str, or nested lists of them.

    Returns:
        `bytes`.

    Raises:
        TypeError: for a dtype TensorFlow has no number for.

    >>> serialize_tensor(np.int32(7)).hex()
    '08031200220407000000'
    """
    array = _as_array(tensor)
    dtype = dtypes.as_dtype(array.dtype)
    if dtype not in _DTYPE_NUMBERS:
        raise TypeError(f"serialize_tensor: dtype {array.dtype} has no TensorFlow DataType; "
                        "cast to one of " + ", ".join(sorted(d.name for d in _DTYPE_NUMBERS)))
    shape = b"".join(_wire.message(2, _wire.varint_field(1, size)) for size in array.shape)
    out = [_wire.varint_field(1, _DTYPE_NUMBERS[dtype]), _wire.message(2, shape)]
    if dtype == dtypes.string:
        out.extend(_wire.message(8, item) for item in array.reshape(-1))
    elif array.size:
        raw = np.ascontiguousarray(array, dtype=dtype.newbyteorder("<")).tobytes()
        out.append(_wire.message(4, raw))
    return b"".join(out)


@returns_tensors
def parse_tensor(serialized, out_type, name=None):
    """The tensor that TensorProto bytes describe; its dtype must be `out_type`.

    Args:
        serialized: bytes from `serialize_tensor` (or TensorFlow's).
        out_type: the dtype expected (`fl.int64`, `"float32"`, `fl.string`, ...).

    Returns:
        A NumPy array (0-d for scalars; strings as an object array of bytes).

    Raises:
        InvalidArgumentError: when the bytes are no TensorProto, or hold another dtype.

    >>> parse_tensor(serialize_tensor([b"a", b"bc"]), "string").tolist()
    [b'a', b'bc']
    >>> parse_tensor(serialize_tensor(np.int32(1)), "int64")
    Traceback (most recent call last):
    ...
    feedline.errors.InvalidArgumentError: parse_tensor: ... out_type is int64; pass out_type=int32 ...
    """
    expected = dtypes.as_dtype(out_type)
    if tracing.active():  # only the spec is wanted: ParseTensor's shape is unknown
        return tracing.stand_in(TensorSpec(None, expected))
    if isinstance(serialized, np.ndarray) and serialized.ndim == 0:
        serialized = serialized[()]
    if not isinstance(serialized, (bytes, bytearray, memoryview)):
        raise TypeError(f"parse_tensor: serialized must be bytes (a scalar string), got "
                        f"{type(serialized).__name__}")
    try:
        dtype, shape, content, typed, strings = _read_proto(bytes(serialized))
    except (IndexError, ValueError, struct.error) as error:
        raise InvalidArgumentError(
            f"parse_tensor: the {len(serialized)} bytes are not a TensorProto ({error})") from None
    if dtype != expected:
        raise InvalidArgumentError(
            f"parse_tensor: the bytes hold a tensor of dtype {_tf_name(dtype)} but out_type is "
            f"{_tf_name(expected)}; pass out_type={_tf_name(dtype)} (or cast after parsing)")
    count = int(np.prod(shape, dtype=np.int64))
    if dtype == dtypes.string:
        if content is not None and not strings:
            strings = _packed_strings(content, count)
        flat = np.empty(len(strings), dtype=object)
        flat[:] = strings
    elif content is not None:
        flat = np.frombuffer(content, dtype=dtype.newbyteorder("<")).astype(dtype)
    else:
        flat = np.array(typed, dtype=np.float64 if dtype.kind in "fc" else object).astype(dtype)
    return _fill(flat, count, dtype).reshape(shape)


def _packed_strings(content, count):
    """The `count` strings of a string tensor's `tensor_content`: `count` varint lengths,
    then the strings' bytes back to back (see the module docstring).

    >>> _packed_strings(b"\\x01\\x02abc", 2)
    [b'a', b'bc']
    """
    lengths, position = [], 0
    try:
        for _ in range(count):
            length, position = _wire.read_varint(content, position)
            lengths.append(length)
    except (IndexError, ValueError):
        raise InvalidArgumentError(
            f"parse_tensor: tensor_content of {len(content)} bytes ends inside the lengths of "
            f"its {count} strings") from None
    strings = []
    for length in lengths:
        strings.append(content[position:position + length])
        position += length
    if position != len(content):
        raise InvalidArgumentError(
            f"parse_tensor: the packed strings of {count} entries take {position} bytes, but "
            f"tensor_content holds {len(content)}")
    return strings


def _fill(flat, count, dtype):
    """TensorProto may hold fewer values than the shape: the last one repeats (none: zeros)."""
    if len(flat) == count:
        return flat
    if len(flat) > count:
        raise InvalidArgumentError(f"parse_tensor: {len(flat)} values for {count} entries")
    if len(flat) == 0:
        return np.full(count, b"" if dtype == dtypes.string else 0, dtype=dtype)
    return np.concatenate([flat, np.full(count - len(flat), flat[-1], dtype=dtype)])


def _read_proto(data):
    dtype_number, shape, content, typed, strings = 0, [], None, [], []
    for number, wire_type, value in _wire.fields(data):
        if number == 1:
            dtype_number = value
        elif number == 2:
            shape = [_dim_size(dim) for n, _, dim in _wire.fields(value) if n == 2]
        elif number == 4:
            content = value
        elif number == 8:
            strings.append(value)
        elif number in _TYPED_FIELDS:
            typed.extend(_wire.packed(value, wire_type, _TYPED_FIELDS[number]))
    if dtype_number not in _NUMBER_DTYPES:
        raise ValueError(f"DataType {dtype_number} is not supported")
    dtype = _NUMBER_DTYPES[dtype_number]
    if dtype.kind == "i":  # negative numbers travel as 64-bit two's complement varints
        typed = [value - (1 << 64) if value >= 1 << 63 else value for value in typed]
    if dtype == np.float16 and typed:  # half_val holds the 16 bits of each value
        typed = list(np.array(typed, np.uint16).view(np.float16))
    return dtype, shape, content, typed, strings


def _dim_size(dim):
    sizes = [value for number, _, value in _wire.fields(dim) if number == 1]
    return sizes[-1] if sizes else 0


@returns_tensors
def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """A string 3-vector: the serialized `indices`, `values` and `dense_shape` of a SparseTensor.

    >>> st = SparseTensor([[0, 1]], np.array([5], np.int64), [2, 3])
    >>> [parse_tensor(part, "int64").tolist() for part in serialize_sparse(st)]
    [[[0, 1]], [5], [2, 3]]
    """
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"serialize_sparse takes a SparseTensor, got {type(sp_input).__name__}")
    if dtypes.as_dtype(out_type) != dtypes.string:
        raise TypeError("serialize_sparse: only out_type=fl.string is supported")
    parts = np.empty(3, dtype=object)
    plain = serialize_tensor.__wrapped__  # plain bytes inside the array, not tensors
    parts[:] = [plain(sp_input.indices), plain(sp_input.values), plain(sp_input.dense_shape)]
    return parts


def deserialize_sparse(serialized_sparse, dtype):
    """The SparseTensor that `serialize_sparse` wrote (the inverse of it, for one tensor).

    >>> st = SparseTensor([[1]], np.array([b"x"], object), [3])
    >>> deserialize_sparse(serialize_sparse(st), "string") == st
    True
    """
    indices, values, shape = list(serialized_sparse)
    return SparseTensor(parse_tensor(indices, dtypes.int64), parse_tensor(values, dtype),
                        parse_tensor(shape, dtypes.int64))
