"""How a `keras.ops` function turns its arguments into tensors of the dtype Keras computes in.

Keras first converts each argument (`convert_to_tensor`: Python ints int32, floats float32,
NumPy values keep their dtype), picks the dtype by its own promotion (`_dtypes`), casts, and
then runs the backend op. Here the backend op is feedline's own (`fl.math.sin`, `fl.add` ...)
where one exists, so a `GradientTape` records it; a value that already has the dtype is passed
on as the same object, which keeps the tape's link to it. Ops feedline lacks compute with
NumPy and hand out their result through `plain`.

>>> x = tensor([1, 2])
>>> x.dtype.name, tensor(x, "float32").dtype.name, tensor(np.float64(2.5)).dtype.name
('int32', 'float32', 'float64')
"""

import numpy as np

from ... import ops as fl_ops
from ...ops._eager import returns_tensors
from ...tensor import Tensor
from ...variable import Variable
from . import _dtypes

plain = returns_tensors  # an op computed with NumPy: its result is handed out as a Tensor


def tensor(value, dtype=None):
    """`value` as a feedline tensor of `dtype` (Keras' `convert_to_tensor`); a tensor or
    variable that already has `dtype` comes back as itself."""
    if isinstance(value, (Tensor, Variable)):
        if dtype is None:
            return value
        dtype = _dtypes.standardize_dtype(dtype)
        return value if _dtypes.standardize_dtype(value.dtype) == dtype else \
            fl_ops.cast(value, dtype)
    if dtype is None:
        if isinstance(value, (list, tuple)) and _has_tensor(value):
            value = np.stack([array(item) for item in value])
        return fl_ops.convert_to_tensor(value)
    return fl_ops.cast(array(value), _dtypes.standardize_dtype(dtype))


def _has_tensor(items):
    return any(isinstance(item, (np.ndarray, np.generic, Variable)) or
               (isinstance(item, (list, tuple)) and _has_tensor(item)) for item in items)


def array(value, dtype=None):
    """`value` as a plain NumPy array, converted as Keras converts it, then cast to `dtype`."""
    if isinstance(value, Variable):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        result = value.view(np.ndarray) if type(value) is not np.ndarray else value
    elif isinstance(value, np.generic):
        result = np.asarray(value)
    elif isinstance(value, (bool, int, float)):
        result = np.asarray(value, _dtypes.standardize_dtype(_dtypes.dtype_of(value)))
    elif isinstance(value, (list, tuple)):
        if _has_tensor(value):
            result = np.stack([array(item) for item in value]) if value else np.zeros(0, "float32")
        else:
            result = np.asarray(value, _dtypes._python_list_dtype(value)) if len(value) else \
                np.zeros(0, "float32")
    else:
        result = np.asarray(value)
    if dtype is not None:
        result = result.astype(_dtypes.standardize_dtype(dtype), copy=False)
    return result


def operands(*values, extra=()):
    """The dtype Keras gives `values` combined (Python scalars weak) and `values` cast to it.

    `extra` adds dtypes to the promotion: `float` makes integer operands float (divide).
    """
    dtype = _dtypes.result_type(*(_dtypes.dtype_of(value) for value in values), *extra)
    return dtype, [tensor(value, dtype) for value in values]


def unary(fl_op, rule, name, doc, for_bool=None):
    """A one-argument keras op: cast `x` to `rule(dtype)`, then run feedline's `fl_op`
    (TensorFlow's ops refuse bools: `for_bool`, a NumPy function, computes those)."""
    def op(x):
        x = tensor(x)
        x = tensor(x, rule(x.dtype))
        if for_bool is not None and x.dtype == np.bool_:
            return plain(for_bool)(array(x))
        return fl_op(x)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


def binary(fl_op, name, doc, extra=(), for_bool=None):
    """A two-argument keras op: promote both by Keras' lattice, then run feedline's `fl_op`
    (`for_bool`, a NumPy function, computes bool results, which TensorFlow's ops refuse)."""
    def op(x1, x2):
        dtype, (x1, x2) = operands(x1, x2, extra=extra)
        if for_bool is not None and dtype == "bool":
            return plain(for_bool)(array(x1), array(x2))
        return fl_op(x1, x2)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


def axis_tuple(axis):
    """A Keras `axis` argument as NumPy takes it (a tuple for a list)."""
    if isinstance(axis, list):
        return tuple(axis)
    return axis


def same(dtype):
    """The rule "keep the input's dtype"."""
    return dtype


def to_float(dtype):
    """The rule "integers and bools become floatx, floats keep their dtype"."""
    return _dtypes.floating(dtype)
