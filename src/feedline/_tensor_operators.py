"""The Python operators of `Tensor` (`+`, `<`, `&`, ...) with TensorFlow's eager dtype rules.

TensorFlow never promotes: `tf.constant(1) + tf.constant(2.0)` raises InvalidArgumentError
("cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a
float tensor [Op:AddV2]"), and `/` raises TypeError ("`x` and `y` must have the same dtype").
The other operand, when it is not a tensor, converts to the tensor's dtype: a Python value when
it fits (2 for float32, not 2.5 for int32), a NumPy value when its kind can be cast (an int64
array for an int32 tensor, any number for a float tensor); otherwise TypeError ("Cannot
convert 2.5 to EagerTensor of dtype int32"). The arithmetic itself is the public op's
(`fl.add`, `fl.math.floordiv`, ...), so `x // 0` and `x / y` follow the same rules as those.

NumPy's own functions (`np.allclose`, `np.var`, `np.testing`) also use these operators on
tensors, expecting NumPy's promotion; a call made from NumPy's modules keeps NumPy's
behaviour (`from_numpy`).

>>> import feedline as fl
>>> fl.constant([1, 2]) * 3, fl.constant([1, 2]) / 2
(<tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 6], dtype=int32)>,
 <tf.Tensor: shape=(2,), dtype=float64, numpy=array([0.5, 1. ])>)
>>> fl.constant(1) + fl.constant(2.0)
Traceback (most recent call last):
...
feedline.errors.InvalidArgumentError: cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a float tensor [Op:AddV2] name: 
"""

import sys

import numpy as np

from . import dtypes
from .autodiff import _state
from .errors import InvalidArgumentError

_frame = sys._getframe
_numpy_dtype = np.ndarray.dtype.__get__  # a tensor's NumPy dtype, without the DType wrapper

# TensorFlow's C++ names of dtypes, which its kernels' messages use.
_KERNEL_NAMES = {"float32": "float", "float64": "double", "float16": "half"}

# Each operator: the kernel TensorFlow runs for it, and the public op (module, name) that
# computes it here. `&`, `|` and `^` run the logical kernel on bools, the bitwise on integers.
_OPERATORS = {
    "add": ("AddV2", "arithmetic", "add"), "sub": ("Sub", "arithmetic", "subtract"),
    "mul": ("Mul", "arithmetic", "multiply"), "truediv": ("RealDiv", "arithmetic", "truediv"),
    "floordiv": ("FloorDiv", "arithmetic", "floordiv"),
    "mod": ("FloorMod", "arithmetic", "floormod"), "pow": ("Pow", "arithmetic", "pow"),
    "lt": ("Less", "compare", "less"), "le": ("LessEqual", "compare", "less_equal"),
    "gt": ("Greater", "compare", "greater"), "ge": ("GreaterEqual", "compare", "greater_equal"),
    "eq": ("Equal", "compare", "equal"), "ne": ("NotEqual", "compare", "not_equal"),
    "and": ("LogicalAnd", None, "__and__"), "or": ("LogicalOr", None, "__or__"),
    "xor": ("LogicalXor", None, "__xor__"), "matmul": ("MatMul", None, "__matmul__"),
}
# Kernels whose op adds nothing to NumPy's ufunc once the dtypes agree (the others check for
# integer division by zero, negative integer powers, or change the dtype).
_SAME_DTYPE_UFUNCS = {"AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply,
                      "Less": np.less, "LessEqual": np.less_equal, "Greater": np.greater,
                      "GreaterEqual": np.greater_equal, "Equal": np.equal,
                      "NotEqual": np.not_equal}
_BITWISE = {"LogicalAnd": "BitwiseAnd", "LogicalOr": "BitwiseOr", "LogicalXor": "BitwiseXor"}
# The divisions, computed here without the public op's general checks once the dtypes agree
# (see `_divide`); `/` divides integers as floats by the public op's own table.
_DIVISIONS = {"RealDiv": np.true_divide, "FloorDiv": np.floor_divide, "FloorMod": np.mod}
_TRUEDIV_FLOATS = {}  # NumPy dtype -> float dtype, filled from `ops.arithmetic` on first use

# Which NumPy kinds TensorFlow casts to a tensor's kind when converting a NumPy operand (its
# IsCompatible rule): integers to integers, integers and floats to floats, any number to
# complex; bool and string only to themselves.
_CASTABLE = {"i": "iu", "u": "iu", "f": "iuf", "c": "iufc", "b": "b", "O": "OSU"}


def from_numpy(depth=2):
    """True when the code calling the operator (or property) is NumPy's own."""
    return _frame(depth).f_globals.get("__name__", "").startswith("numpy")


def kernel_name(dtype):
    """The dtype as TensorFlow's kernels spell it in messages: float, double, int32."""
    return _KERNEL_NAMES.get(dtype.name, dtype.name)


def make_operator(short, numpy_fallback):
    """The method for the operator `__<short>__` (or `__r<short>__` when `short` starts with
    'r' and names a reflected operator)."""
    reflected = short.startswith("r") and short[1:] in _OPERATORS
    kernel, module, name = _OPERATORS[short[1:] if reflected else short]
    state = {}

    def apply(self, other):
        if from_numpy():
            return numpy_fallback(self, other)
        if other is None and kernel in ("Equal", "NotEqual"):
            return kernel == "NotEqual"  # as TensorFlow's `x == None`: a plain False
        converted = _operand(self, other, kernel, reflected)
        if converted is NotImplemented:  # not a value a tensor takes: let `other` try
            return NotImplemented
        left, right = (converted, self) if reflected else (self, converted)
        if module is None:
            return _plain(self, left, right, kernel, name)
        fast = _SAME_DTYPE_UFUNCS.get(kernel)
        if fast is not None and not _recording():
            # Operands of one dtype: NumPy's ufunc keeps it, as the op would (no checks left).
            try:
                return _as_tensor(fast(np.asarray(left), np.asarray(right)))
            except ValueError:  # shapes that do not broadcast: let the op say so
                pass
        division = _DIVISIONS.get(kernel)
        if division is not None and not _recording():
            result = _divide(kernel, division, left, right)
            if result is not None:
                return result
        function = state.get("op") or state.setdefault("op", _public_op(module, name))
        if kernel in ("Equal", "NotEqual"):
            try:
                return function(left, right)
            except InvalidArgumentError as error:
                if "incompatible shapes" not in str(error):
                    raise
                return _as_tensor(np.bool_(kernel == "NotEqual"))
        return function(left, right)

    apply.__name__ = f"__{short}__"
    return apply


def _public_op(module, name):
    from importlib import import_module

    return getattr(import_module(f"feedline.ops.{module}"), name)


_TENSOR_TYPES = []


def _tensor_types():
    if not _TENSOR_TYPES:
        from .string_tensor import StringTensor
        from .tensor import Tensor
        from .variable import Variable

        _TENSOR_TYPES.append((Tensor, StringTensor, Variable))
    return _TENSOR_TYPES[0]


def _operand(tensor, other, kernel, reflected=False):
    """`other` as an array of `tensor`'s dtype, or the error TensorFlow raises; NotImplemented
    for a value that is no tensor (a RaggedTensor, say), which may know the operator."""
    dtype = _numpy_dtype(tensor)
    if type(other) is type(tensor) and _numpy_dtype(other) is dtype:  # the common case
        return other
    number = type(other)
    if (number is float or number is int) and dtype.kind in "fiu":  # `x * 2`, `x - 0.5`
        if dtype.kind == "f":
            return dtype.type(other)
        if number is int and _fits_integer(other, dtype):
            return dtype.type(other)
    dtype = dtypes.from_numpy(dtype)
    if isinstance(other, _tensor_types()):  # a tensor or a variable: its dtype is fixed
        if other.dtype != dtype:
            _mismatch(dtype, other.dtype, kernel)  # (Python puts a tensor first: not reflected)
        return other
    if isinstance(other, (np.ndarray, np.generic)):
        if other.dtype.kind not in _CASTABLE.get(dtype.kind, dtype.kind):
            _not_convertible(other, dtype, kernel, reflected)
        if dtype.kind == "O" and other.dtype.kind == "U":
            from .string_tensor import _utf8_array

            return _utf8_array(other)
        return np.asarray(other).astype(dtype.dtype, copy=False)
    from .ops import _convert

    if _convert.structure.is_composite(other):
        return NotImplemented
    try:
        array = _convert._as_array(other, f"the {kernel} operator")
    except TypeError:
        return NotImplemented
    if not _convert._fits(array, dtype.dtype):
        _not_convertible(other, dtype, kernel, reflected)
    return array.astype(dtype.dtype, copy=False)


_INTEGER_RANGES = {}


def _fits_integer(value, dtype):
    limits = _INTEGER_RANGES.get(dtype)
    if limits is None:
        info = np.iinfo(dtype)
        limits = _INTEGER_RANGES.setdefault(dtype, (int(info.min), int(info.max)))
    return limits[0] <= value <= limits[1]


def _mismatch(expected, found, kernel):
    if kernel == "RealDiv":  # TensorFlow's `/` checks the dtypes in Python, with a TypeError
        raise TypeError(f"`x` and `y` must have the same dtype, got {expected!r} != {found!r}.")
    if kernel in _BITWISE and expected.kind in "iu":
        kernel = _BITWISE[kernel]
    if _tracing():  # while a function is traced, TensorFlow's graph builder refuses first
        raise TypeError(f"Input 'y' of '{kernel}' Op has type {found.name} that does not match "
                        f"type {expected.name} of argument 'x'.")
    raise InvalidArgumentError(
        f"cannot compute {kernel} as input #1(zero-based) was expected to be a "
        f"{kernel_name(expected)} tensor but is a {kernel_name(found)} tensor [Op:{kernel}] "
        f"name: ")


def _not_convertible(value, dtype, kernel, reflected):
    if _tracing():
        raise TypeError(f"Expected {dtype.name} passed to parameter '{'x' if reflected else 'y'}' "
                        f"of op '{kernel}', got {value!r} of type '{type(value).__name__}' "
                        f"instead.")
    raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name} (the "
                    f"{kernel} operator converts the other operand to the tensor's dtype; "
                    f"cast one side first, e.g. fl.cast(x, fl.float32))")


def _recording():
    return _state.active


def _tracing():
    from .data import tracing

    return tracing.active()


def _plain(tensor, left, right, kernel, name):
    """`&`, `|`, `^`, `@` computed by NumPy once the dtypes agree (TensorFlow takes bools
    and integers for the first three)."""
    if kernel != "MatMul" and tensor.dtype.kind not in "biu":
        raise TypeError(f"the {kernel} operator takes bool or integer tensors, not "
                        f"{tensor.dtype.name}; compare first (x > 0) or cast to fl.bool")
    return _as_tensor(getattr(np.ndarray, name)(
        *(np.asarray(side) for side in (left, right))))


def _divide(kernel, division, left, right):
    """`left / right`, `//` or `%` of two numeric operands of one dtype, as the public op
    computes it; None when the op must decide (another dtype, an integer division by zero,
    which it refuses with TensorFlow's error, or shapes that do not broadcast)."""
    left, right = np.asarray(left), np.asarray(right)
    dtype = left.dtype
    if right.dtype != dtype or dtype.kind not in "iuf":
        return None
    if kernel == "RealDiv":
        if not _TRUEDIV_FLOATS:
            from .ops.arithmetic import _TRUEDIV

            _TRUEDIV_FLOATS.update((np.dtype(k), np.dtype(v)) for k, v in _TRUEDIV.items())
        wide = _TRUEDIV_FLOATS.get(dtype)
        if wide is not None:
            left, right = left.astype(wide), right.astype(wide)
    elif dtype.kind != "f" and not right.all():
        return None
    try:
        with np.errstate(all="ignore"):  # x / 0 is inf or nan, silently, as in TensorFlow
            return _as_tensor(division(left, right))
    except ValueError:
        return None


def _as_tensor(value):
    """An op's NumPy result as a tensor: arrays as views, NumPy scalars as 0-d tensors (the
    commonest results first: an operator on an element in a `map` runs once per element)."""
    kind = type(value)
    if kind is np.ndarray and value.dtype.kind != "O":
        return value.view(_tensor_types()[0])
    if isinstance(value, np.generic) and kind is not np.object_:
        return np.asarray(value).view(_tensor_types()[0])
    from .tensor import as_tensors

    return as_tensors(np.asarray(value) if np.ndim(value) else value)
