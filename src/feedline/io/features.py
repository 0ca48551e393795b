"""Feature specs: how `parse_example` should read each named feature of an `Example`.

Each spec is an immutable named tuple with TensorFlow's field names. `dtype` accepts anything
`feedline.dtypes.as_dtype` does and is stored as a NumPy dtype; an Example can only hold
int64, float32 and bytes, so those are the three allowed.

>>> FixedLenFeature([2], "float32", default_value=[0.0, 1.0])
FixedLenFeature(shape=(2,), dtype=tf.float32, default_value=[0.0, 1.0])
>>> VarLenFeature(bytes).dtype
tf.string
"""

from collections import namedtuple

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError

_ALLOWED = (dtypes.int64, dtypes.float32, dtypes.string)


def check_dtype(dtype):
    """`dtype` as int64, float32 or string (object), or an `InvalidArgumentError`."""
    result = dtypes.as_dtype(dtype)
    if result not in _ALLOWED:
        raise InvalidArgumentError(f"Invalid config dtype: {type_name(result)}; an Example "
                                   "holds only int64, float32 and string values")
    return result


def type_name(dtype):
    """TensorFlow's name for a dtype in messages: 'int64', 'float', 'string'."""
    dtype = dtypes.as_dtype(dtype)
    if dtype == dtypes.string:
        return "string"
    if dtype == dtypes.float32:
        return "float"
    return dtype.name


def _shape(shape):
    if shape is None:
        raise ValueError("a feature shape is required (use [] for a scalar)")
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    return tuple(int(size) for size in shape)


class FixedLenFeature(namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A feature with exactly `prod(shape)` values in every record; missing ones take
    `default_value`, and with no default a missing feature is an error."""

    __slots__ = ()

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, _shape(shape), check_dtype(dtype), default_value)


class VarLenFeature(namedtuple("VarLenFeature", ["dtype"])):
    """A feature with any number of values, parsed into a `SparseTensor`."""

    __slots__ = ()

    def __new__(cls, dtype):
        return super().__new__(cls, check_dtype(dtype))


class FixedLenSequenceFeature(namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A sequence of steps, each of `shape`: dense output `[steps] + shape`. In
    `parse_example` records with fewer steps are padded with `default_value` (or 0 / b"")."""

    __slots__ = ()

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, _shape(shape), check_dtype(dtype), bool(allow_missing),
                               default_value)


class RaggedFeature(namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A feature with any number of values, parsed into a `RaggedTensor` (batched) or a 1-D
    array (single record). `value_key` reads a differently named feature. Row splits are
    int32 unless `row_splits_dtype` says otherwise, as in TensorFlow. Partitions are not
    supported (an error says so).

    >>> RaggedFeature("int64").row_splits_dtype
    tf.int32
    """

    __slots__ = ()

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32,
                validate=False):
        if partitions:
            raise NotImplementedError("feedline's RaggedFeature does not support partitions; "
                                      "parse the values and build the rows with RaggedTensor")
        splits = dtypes.as_dtype(row_splits_dtype)
        if splits not in (dtypes.int32, dtypes.int64):
            raise InvalidArgumentError(f"Invalid ragged_split_type: {splits.name}")
        return super().__new__(cls, check_dtype(dtype), value_key, tuple(partitions), splits,
                               bool(validate))


def default_array(key, spec):
    """The default of a dense spec as a flat array (or `None` when the feature is required).

    Raises ValueError unless the default holds exactly `prod(shape)` values: like TensorFlow,
    a single value is not repeated to fill a longer shape.

    >>> default_array("n", FixedLenFeature([2], "int64", default_value=[1, 2])).tolist()
    [1, 2]
    """
    if spec.default_value is None:
        return None
    _check_default_kind(key, spec)
    size = int(np.prod(spec.shape, dtype=np.int64))
    value = np.asarray(spec.default_value, dtype=object if spec.dtype == dtypes.string
                       else spec.dtype)
    if spec.dtype == dtypes.string:
        value = np.vectorize(_as_bytes, otypes=[object])(value) if value.size else value
    if value.size != size:
        shape = list(spec.shape)
        hint = ""
        if value.size == 1:
            one = value.reshape(-1)[0].item() if value.dtype != object else value.reshape(-1)[0]
            filled = repr([one] * size) if size <= 8 else f"[{one!r}] * {size}"
            hint = f"; to fill every element with one value write default_value={filled}"
        raise ValueError(f"Key: {key}: default_value has {value.size} value"
                         f"{'' if value.size == 1 else 's'} but the shape {shape} needs "
                         f"{size}{hint}")
    return value.reshape(-1)


# Which NumPy kinds each feature dtype takes as a default, as TensorFlow's convert_to_tensor
# does: no float or text for int64, no text for float32, only text for string.
_DEFAULT_KINDS = {"int64": "biu", "float32": "biuf", "string": "USO"}


def _check_default_kind(key, spec):
    """Raise TypeError when `spec.default_value` does not convert to the feature's dtype."""
    name = "string" if spec.dtype == dtypes.string else spec.dtype.name
    raw = np.asarray(spec.default_value, dtype=object)
    items = raw.reshape(-1).tolist()
    kinds = {np.asarray(item).dtype.kind for item in items}
    if name == "string":
        fits = all(isinstance(item, (str, bytes, np.str_, np.bytes_)) for item in items)
    else:
        fits = not kinds or kinds <= set(_DEFAULT_KINDS[name])
    if not fits:
        example = {"int64": "0", "float32": "0.0", "string": "b''"}[name]
        raise TypeError(f"Key: {key}: default_value {spec.default_value!r} does not convert "
                        f"to {type_name(spec.dtype)} without loss; give {name} values, e.g. "
                        f"default_value={example} for each element")


def padding_value(spec, key="?"):
    """What pads short sequences: the spec's one-value default, else 0 or b''.

    Raises ValueError for a default of several values (TensorFlow reshapes it to a scalar)
    and TypeError for one of another kind.

    >>> padding_value(FixedLenSequenceFeature([], "int64", True, default_value=[-1]))
    np.int64(-1)
    """
    if spec.default_value is not None:
        _check_default_kind(key, spec)
        value = np.asarray(spec.default_value, dtype=object)
        if value.size != 1:
            raise ValueError(f"Key: {key}: a FixedLenSequenceFeature's default_value is the "
                             f"one value that pads every missing element, got {value.size} "
                             "values; write a single value such as default_value=0")
        value = value.reshape(-1)[0]
        return _as_bytes(value) if spec.dtype == dtypes.string else spec.dtype.type(value)
    return b"" if spec.dtype == dtypes.string else spec.dtype.type(0)


def _as_bytes(value):
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)
