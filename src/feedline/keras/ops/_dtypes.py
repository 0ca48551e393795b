"""Keras 3's dtype promotion, the rule every `fl.keras.ops` function uses for its result dtype.

Keras does not follow NumPy (which widens int8 + uint8 to int16 and int32 / int32 to
float64) nor TensorFlow (which refuses to mix dtypes): it walks a lattice, a graph in which
each dtype points to the next wider ones, and takes the lowest node above all operands. Python
scalars are *weak*: `int` and `float` sit low on the lattice, so `x + 1` keeps `x`'s dtype and
`int8_tensor * 2.5` becomes float32 (`floatx()`), not float64. The lattice (as Keras'
`keras/src/backend/common/dtypes.py` documents it, itself adapted from JAX):

    bool -> int -> {uint8, int8};  uint8 -> {uint16, int16} ...;  uint64, int64 -> float
    float -> {float16} -> float32 -> {float64, complex64};  float64 -> complex128

On TensorFlow's backend (the one TensorFlow users run) int64 and float64 results stay 64-bit,
while uint64 becomes uint32 and complex128 complex64 (Keras' `BIT64_TO_BIT32_DTYPE`).
feedline has no bfloat16 (NumPy lacks it), so that node is left out.

>>> result_type("int8", "uint8"), result_type("int32", float), result_type("float16", int)
('int16', 'float32', 'float16')
>>> result_type("int32", "float32"), result_type(bool, int), result_type()
('float32', 'int32', 'float32')
"""

import functools

import numpy as np

from .. import backend

_LATTICE = {  # each dtype -> the dtypes just above it; "int"/"float" are the weak Python scalars
    "bool": ("int",), "int": ("uint8", "int8", "complex64"),
    "uint8": ("int16", "uint16"), "uint16": ("int32", "uint32"), "uint32": ("int64", "uint64"),
    "uint64": ("float",), "int8": ("int16",), "int16": ("int32",), "int32": ("int64",),
    "int64": ("float",), "float": ("float16",), "float16": ("float32",),
    "float32": ("float64", "complex64"), "float64": ("complex128",),
    "complex64": ("complex128",), "complex128": (),
}
_WEAK = {int: "int", float: "float"}
_TO_32 = {"uint64": "uint32", "complex128": "complex64"}  # TensorFlow's backend keeps int64


def _above(node):
    """`node` and every dtype above it on the lattice."""
    found, todo = {node}, [node]
    while todo:
        for upper in _LATTICE[todo.pop()]:
            if upper not in found:
                found.add(upper)
                todo.append(upper)
    return frozenset(found)


_UPPER = {node: _above(node) for node in _LATTICE}


@functools.lru_cache(maxsize=512)
def _join(*nodes):
    """The least upper bound of `nodes`: the common upper bound below all the others."""
    common = frozenset.intersection(*(_UPPER[node] for node in nodes))
    lowest = [node for node in common if common <= _UPPER[node]]
    return lowest[0]


def standardize_dtype(dtype):
    """Keras' name for `dtype` (a NumPy dtype, a name, a Python type, or None for floatx).

    Raises:
        ValueError: when `dtype` names no dtype Keras has.
    """
    if dtype is None:
        return backend.floatx()
    if dtype is bool:
        return "bool"
    if dtype is int:
        return "int32"
    if dtype is float:
        return "float32"
    try:
        name = np.dtype(getattr(dtype, "name", dtype)).name
    except TypeError:
        name = str(dtype)
    if name == "object" or dtype in ("string", str, bytes):
        return "string"
    if name not in _LATTICE or name in ("int", "float"):
        raise ValueError(f"Invalid dtype: {dtype!r}; use a name such as 'float32', 'int32' "
                         "or 'bool'")
    return name


def _node(dtype):
    """The lattice node of one operand's dtype, and whether it is weak (a Python scalar type)."""
    if dtype is int or dtype is float:
        return _WEAK[dtype], True
    return standardize_dtype(dtype), False


def _resolve_weak(node):
    """A weak result as a concrete dtype at floatx's precision (int -> int32 for float32)."""
    bits = backend.floatx()[-2:]
    return {"int": f"int{bits}", "float": f"float{bits}", "complex64": "complex64"}.get(node, node)


def result_type(*dtypes):
    """The dtype Keras gives the result of combining `dtypes` (`keras.backend.result_type`).

    `int` and `float` (the Python types) stand for weak scalars; None stands for floatx().

    Raises:
        ValueError: for a name that is no dtype.
    """
    if not dtypes:
        return backend.floatx()
    nodes = [_node(backend.floatx() if dtype is None else dtype) for dtype in dtypes]
    names = {name for name, _ in nodes}
    if len(names) == 1 and not all(weak for _, weak in nodes):
        result = names.pop()  # one strong dtype (maybe with weak scalars of its own kind)
    else:  # the lowest dtype above all; weak only when that is a Python scalar's node
        result = _join(*names)
    if result in ("int", "float"):
        result = _resolve_weak(result)
    return _TO_32.get(result, result)


def dtype_of(value):
    """The operand dtype of `value` for `result_type`: `int`/`float` for Python scalars."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)) and not isinstance(value, np.generic):
        return type(value)
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        return standardize_dtype(dtype)
    return standardize_dtype(np.asarray(value).dtype if not isinstance(value, (list, tuple))
                             else _python_list_dtype(value))


def _python_list_dtype(value):
    """A nested Python list's dtype by TensorFlow's conversion: ints int32, floats float32."""
    flat = np.asarray(value, dtype=object).reshape(-1)
    kinds = {("b" if isinstance(item, (bool, np.bool_)) else np.asarray(item).dtype.kind)
             for item in flat}
    if not kinds or "f" in kinds:
        return "float32"
    if kinds == {"b"}:
        return "bool"
    return "int32" if kinds <= {"i", "u", "b"} else np.asarray(value).dtype.name


def floating(dtype):
    """The float dtype an int or bool operand computes in (`floatx()`); floats keep theirs.

    This is Keras' rule for sin, exp, log, sqrt, mean ... (`result_type(x, float)`, with int64
    also going to floatx on TensorFlow's backend).

    >>> floating("int64"), floating("float16"), floating("bool")
    ('float32', 'float16', 'float32')
    """
    dtype = standardize_dtype(dtype)
    return dtype if dtype.startswith(("float", "complex")) else backend.floatx()


def is_float(dtype):
    """True for the float dtypes."""
    return standardize_dtype(dtype).startswith("float")


def is_int(dtype):
    """True for the signed and unsigned integer dtypes."""
    return "int" in standardize_dtype(dtype)
