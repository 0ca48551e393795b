"""TensorFlow's dtypes (`fl.float32`, `fl.int64`, `fl.string`, ...) and `as_dtype`.

Each is a `DType` (see `_dtype.py`): one interned object per dtype, wrapping a NumPy dtype, so
it goes wherever NumPy takes a dtype (`np.zeros(3, fl.float32)`) and answers what TensorFlow
code asks (`x.dtype.is_floating`, `fl.int32.max`). Strings are `bytes`; a batch of strings is
a NumPy array of dtype `object` holding bytes, so `string` wraps `np.dtype(object)`. NumPy has
no bfloat16 or quantized dtypes, so feedline has none either.

>>> as_dtype("string") is string, as_dtype(bytes) == string, as_dtype("int64")
(True, True, tf.int64)
>>> as_dtype(np.float32) is float32, as_dtype("float"), as_dtype(float)
(True, tf.float32, tf.float32)
"""

import builtins
import threading

import numpy as np

from . import _dtype
from ._dtype import DType

__all__ = ["DType", "as_dtype", "bool", "bool_", "complex64", "complex128", "double",
           "float16", "float32", "float64", "half", "int8", "int16", "int32", "int64", "string",
           "uint8", "uint16", "uint32", "uint64"]

bool_ = DType(np.bool_, "bool")
int8 = DType(np.int8, "int8")
uint8 = DType(np.uint8, "uint8")
int16 = DType(np.int16, "int16")
int32 = DType(np.int32, "int32")
int64 = DType(np.int64, "int64")
uint16 = DType(np.uint16, "uint16")
uint32 = DType(np.uint32, "uint32")
uint64 = DType(np.uint64, "uint64")
float16 = DType(np.float16, "float16")
float32 = DType(np.float32, "float32")
float64 = DType(np.float64, "float64")
complex64 = DType(np.complex64, "complex64")
complex128 = DType(np.complex128, "complex128")
string = DType(object, "string")
half, double = float16, float64  # TensorFlow's other names for them
globals()["bool"] = bool_  # `fl.dtypes.bool`, TensorFlow's name (not shadowed in this module)

_CANONICAL = (bool_, int8, uint8, int16, int32, int64, uint16, uint32, uint64, float16,
              float32, float64, complex64, complex128, string)

# The dtype of each NumPy dtype (keys are plain NumPy dtypes, so a lookup stays in C).
_BY_NUMPY = {dtype.dtype: dtype for dtype in _CANONICAL}
# The other spellings that name a dtype: NumPy scalar types, TensorFlow's names and aliases
# ("float" is float32 in TensorFlow, float64 in NumPy), TensorFlow's Python types.
_NAMED = {spelling: dtype for dtype in _CANONICAL
          for spelling in (dtype.dtype.type, dtype.name)}
_NAMED.update({"half": float16, "float": float32, "double": float64, "str": string,
               "bytes": string, "object": string, "bool_": bool_, builtins.float: float32,
               builtins.bool: bool_, builtins.object: string, builtins.bytes: string,
               builtins.str: string, np.bytes_: string, np.str_: string})

# NumPy dtypes with no DType of their own ('<U5', '>f4', datetime64), each given a wrapper
# once (see `DType`): the cache is read without the lock, written under it.
_OTHERS = {}
_OTHERS_LOCK = threading.Lock()


def as_dtype(type_value):
    """The `DType` for `type_value`: a DType, a NumPy dtype or scalar type, a name, or a
    Python type (TensorFlow's rules: `float` is float32; `bytes`, `str`, `object` are string).

    Also takes what NumPy turns into a dtype (`"f4"`, `int` as int64), which TensorFlow
    refuses, and anything with a `.dtype` (an array gives its dtype, as in TensorFlow).

    Raises:
        TypeError: if `type_value` names no dtype.

    >>> as_dtype("int32"), as_dtype(np.dtype("uint8")), as_dtype(np.zeros(2)).name
    (tf.int32, tf.uint8, 'float64')
    """
    if type(type_value) is DType:
        return type_value._canonical
    if isinstance(type_value, np.dtype):
        return from_numpy(type_value)._canonical
    try:
        return _NAMED[type_value]
    except (KeyError, TypeError):  # TypeError: unhashable, a list say
        pass
    if not isinstance(type_value, type) and hasattr(type_value, "dtype"):
        return as_dtype(type_value.dtype)
    try:
        numpy_dtype = np.dtype(type_value)
    except (TypeError, ValueError):
        raise TypeError(f"Cannot convert value {type_value!r} to a DType; use a dtype such as "
                        "fl.float32 or a name such as 'int64'") from None
    return from_numpy(numpy_dtype)._canonical


def from_numpy(numpy_dtype):
    """The `DType` standing for exactly this NumPy dtype (what `Tensor.dtype` gives): the
    interned one when there is one, else a wrapper that keeps NumPy's dtype ('<U5' stays
    '<U5' for `.kind` and `.itemsize`) and equals its TensorFlow dtype."""
    found = _BY_NUMPY.get(numpy_dtype) or _OTHERS.get(numpy_dtype)
    if found is not None:
        return found
    with _OTHERS_LOCK:
        if numpy_dtype not in _OTHERS:
            if numpy_dtype.kind in "SUO":
                _OTHERS[numpy_dtype] = DType(numpy_dtype, "string", string)
            else:
                canonical = _BY_NUMPY.get(numpy_dtype.newbyteorder("="))
                name = canonical.name if canonical is not None else numpy_dtype.name
                _OTHERS[numpy_dtype] = DType(numpy_dtype, name, canonical)
        return _OTHERS[numpy_dtype]


_dtype._as_dtype = as_dtype


def is_string(dtype):
    """True when `dtype` is the string dtype (object arrays of bytes)."""
    return as_dtype(dtype) is string
