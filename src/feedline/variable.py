"""`Variable`: a named, mutable value with a fixed dtype and shape, as `tf.Variable` is.

A pipeline needs one for the few pieces of state that live outside the data: a step counter
saved with an iterator in a `feedline.train.Checkpoint`, a flag a training loop flips. The
value is a NumPy array the variable owns (a copy of what it was given); `assign`,
`assign_add` and `assign_sub` change it in place, keeping its dtype and shape, and refuse a
value of another dtype or shape with TensorFlow's error kinds. Reading it (`numpy()`,
`value()`, arithmetic, comparisons, `np.asarray`) gives a new value, never a view that later
assignments would change.

Python values convert by TensorFlow's rules: `Variable(0)` is int32, `Variable(0.5)` float32,
and `assign(1)` on a float32 variable stores 1.0.

>>> step = Variable(0)
>>> step
<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=0>
>>> _ = step.assign_add(1)
>>> int(step), step + 10
(1, <tf.Tensor: shape=(), dtype=int32, numpy=11>)
"""

import numpy as np

from . import dtypes, ops
from .autodiff import _state
from .data.spec import TensorShape
from .errors import InvalidArgumentError
from .ops import _convert, linalg
from .tensor import Tensor, _Reference


_dtype_name = _convert._dtype_name


def _as_value(value, dtype, what):
    """`value` as a NumPy array of `dtype` (or of its own dtype when `dtype` is None).

    A Python value converts to `dtype` when it fits (2 for a float32 variable) and raises
    TypeError when it does not (2.5 for an int32 one); a NumPy value or another variable
    already has a dtype, and a different one is a ValueError, as TensorFlow raises for a tensor
    of the wrong dtype. (TensorFlow may convert a plain NumPy array silently here; feedline
    treats NumPy values as tensors and asks for `fl.cast`.)
    """
    if isinstance(value, Variable):
        value = value._array
    if _convert.is_python(value):
        if dtype is None:
            return _convert._as_array(value, what)
        return _convert.convert_python(value, dtype, what, "value")
    array = _convert._as_array(value, what)
    if dtype is not None and array.dtype != dtype:
        raise ValueError(f"{what}: requested dtype {_dtype_name(dtype)} for a value of dtype "
                         f"{_dtype_name(array.dtype)}; cast it first, e.g. "
                         f"fl.cast(value, fl.{_dtype_name(dtype)})")
    return array


def _declared_shape(shape, array):
    """The shape assignments must fit: the initial value's, or `shape` (None marks any size)."""
    if shape is None:
        return TensorShape(array.shape)
    declared = TensorShape(shape)
    if not declared.is_compatible_with(array.shape):
        raise ValueError(f"Variable: the initial value has shape {array.shape}, which does not "
                         f"fit shape={tuple(declared)}; give a shape with None for sizes that vary")
    return declared


class Variable:
    """A mutable value with TensorFlow's `tf.Variable` interface; see the module docstring.

    Args:
        initial_value: a Python or NumPy value (or a function returning one).
        trainable: kept for TensorFlow's signature (`True` when None).
        validate_shape: kept for TensorFlow's signature (there it allows an initial value of
            unknown shape, which a NumPy value never has).
        name: the name, shown as `name:0` (TensorFlow's default is `Variable:0`).
        dtype: the dtype Python values convert to; a NumPy value must already have it.
        shape: the shape assignments must fit, with None for sizes that may vary.
        caching_device, variable_def, import_scope, constraint, synchronization,
            aggregation: kept for TensorFlow's signature; `constraint` is stored.

    Raises:
        ValueError: without an initial value, or for a value of another dtype.
        TypeError: for a Python value that does not fit `dtype` (2.5 as int32).
    """

    __hash__ = None  # as in TensorFlow: use `.ref()` as a dictionary key
    __array_priority__ = 100  # `np.int32(1) + v` asks the variable first (TensorFlow's rules)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None, aggregation=None,
                 shape=None):
        if initial_value is None:
            raise ValueError("Variable: initial_value must be given, e.g. fl.Variable(0)")
        if callable(initial_value):
            initial_value = initial_value()
        wanted = None if dtype is None else dtypes.as_dtype(dtype)
        self._array = np.array(_as_value(initial_value, wanted, "Variable"))  # owned copy
        self._shape = _declared_shape(shape, self._array)
        self._name = f"{'Variable' if name is None else name}:0"
        self._trainable = True if trainable is None else bool(trainable)
        self._constraint = constraint

    # -- what it is ----------------------------------------------------------------------------

    @property
    def dtype(self):
        """The dtype as a `DType` (`tf.float32`)."""
        return dtypes.from_numpy(self._array.dtype)

    @property
    def shape(self):
        """The declared shape (a `TensorShape`; None marks a size that assignments may change)."""
        return self._shape

    def get_shape(self):
        return self.shape

    @property
    def name(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    @property
    def constraint(self):
        return self._constraint

    def ref(self):
        """A hashable handle on this variable (`deref()` gives it back)."""
        return _Reference(self)

    # -- reading -------------------------------------------------------------------------------

    def numpy(self):
        """A copy of the value: an array, or a NumPy scalar (`bytes` for a string) at rank 0."""
        return _convert._result(self._array.copy())

    def value(self):
        """The value as a `feedline.Tensor` (a copy)."""
        return self._array.copy().view(Tensor)

    read_value = value

    def __array__(self, dtype=None, copy=None):
        return np.array(self._array, dtype=dtype)

    # -- writing -------------------------------------------------------------------------------

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Replace the value (same dtype, a shape that fits); returns the variable.

        Raises:
            ValueError: for another shape, or a NumPy value of another dtype.
            TypeError: for a Python value that does not fit the dtype.
        """
        array = _as_value(value, self.dtype, "Variable.assign")
        if not self._shape.is_compatible_with(array.shape):
            raise ValueError(
                f"Cannot assign value to variable '{self._name}': Shape mismatch. The variable "
                f"shape {tuple(self._shape)} and the assigned value shape {array.shape} are "
                "incompatible; assign a value of the variable's shape")
        self._array = np.array(array)
        return self if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        """Add `delta` (same dtype and exactly the same shape) to the value; returns the variable.

        Raises:
            InvalidArgumentError: when `delta`'s shape is not the variable's (no broadcasting).
        """
        return self._update(np.add, delta, "assign_add", read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        """Subtract `delta` (same dtype and shape) from the value; returns the variable."""
        return self._update(np.subtract, delta, "assign_sub", read_value)

    def _update(self, function, delta, what, read_value):
        array = _as_value(delta, self.dtype, f"Variable.{what}")
        if array.shape != self._array.shape:
            raise InvalidArgumentError(
                f"Variable.{what}: cannot update variable with shape {list(self._array.shape)} "
                f"using a value with shape {list(array.shape)}; the shapes must be equal")
        _convert.require_kinds(self._array, "iufc", f"Variable.{what}", "the variable",
                               "numbers (int, uint, float)")
        with np.errstate(all="ignore"):  # integers wrap on overflow, as TensorFlow's do
            self._array = np.asarray(function(self._array, array), dtype=self.dtype)
        return self if read_value else None

    def _in_place(self, *_):
        raise RuntimeError("`variable += value` (and -=, *=, ...) does not change a Variable; "
                           "use variable.assign_add(value) / assign_sub / assign to change it, "
                           "or `out = variable + value` for a new value")

    __iadd__ = __isub__ = __imul__ = __itruediv__ = __ifloordiv__ = __imod__ = __ipow__ = \
        _in_place

    # -- as a Python number ----------------------------------------------------------------------

    def _scalar(self, kind):
        if self._array.ndim:
            raise TypeError(f"{kind}() needs a scalar Variable; this one has shape "
                            f"{self._array.shape}: index it first, e.g. v[0]")
        return self._array[()]

    def __int__(self):
        return int(self._scalar("int"))

    def __float__(self):
        return float(self._scalar("float"))

    def __index__(self):
        if self.dtype.kind not in "iu":
            raise TypeError(f"a {_dtype_name(self.dtype)} Variable cannot be used as an index; "
                            "cast it to an integer dtype first")
        return int(self._scalar("index"))

    def __bool__(self):
        return bool(self._array)

    def __len__(self):
        if not self._array.ndim:
            raise TypeError("len() of a scalar Variable is not defined")
        return len(self._array)

    def __iter__(self):
        return iter(self.value())

    def __getitem__(self, index):
        if _state.active:  # a gradient tape follows `v[...]` back to the variable
            return _state.recorder("feedline.tensor.getitem",
                                   lambda: self.value()._item(index), (self, index), {})
        return self.value()[index]

    # -- printing ------------------------------------------------------------------------------

    def __repr__(self):
        value = self.numpy()
        text = repr(value) if isinstance(value, (np.ndarray, bytes)) else str(value)
        if "\n" in text:
            text = "\n" + text
        return (f"<tf.Variable '{self._name}' shape={self._shape} "
                f"dtype={_dtype_name(self.dtype)}, numpy={text}>")


def _tensor(value):
    """An op's result as a `feedline.Tensor`, as TensorFlow's operators give a tensor."""
    if type(value) is Tensor:  # the op's own result (a gradient tape may be following it)
        return value
    return np.asarray(value).view(Tensor) if not isinstance(value, bytes) else value


def _operand(value):
    """A variable's value as the ops take a tensor (a NumPy scalar at rank 0); others as given."""
    return _convert._result(value._array) if isinstance(value, Variable) else value


def _binary(function, reflected=False):
    def method(self, other):
        if _state.active:  # a gradient tape must see the variables themselves, as inputs
            return _tensor(function(other, self) if reflected else function(self, other))
        left, right = (_operand(other), _operand(self)) if reflected else (
            _operand(self), _operand(other))
        return _tensor(function(left, right))
    return method


def _unary(function):
    def method(self):
        return _tensor(function(self if _state.active else _operand(self)))
    return method


def _install_operators():
    """Give `Variable` the operators of a tensor, each computed by the `feedline` op of that
    name (so dtypes follow TensorFlow's rules: no promotion, Python numbers adapt)."""
    for name, function in [("add", ops.add), ("sub", ops.subtract), ("mul", ops.multiply),
                           ("truediv", ops.truediv), ("floordiv", ops.floordiv),
                           ("mod", ops.floormod), ("pow", ops.pow),
                           ("matmul", linalg.matmul)]:
        setattr(Variable, f"__{name}__", _binary(function))
        setattr(Variable, f"__r{name}__", _binary(function, reflected=True))
    for name, function in [("lt", ops.less), ("le", ops.less_equal), ("gt", ops.greater),
                           ("ge", ops.greater_equal)]:
        setattr(Variable, f"__{name}__", _binary(function))
    for name, function in [("neg", ops.negative), ("abs", ops.abs)]:
        setattr(Variable, f"__{name}__", _unary(function))


def _equality(function, when_unequal):
    def method(self, other):
        if other is None:  # TensorFlow answers a plain bool here
            return when_unequal
        right = _operand(other)
        try:
            np.broadcast_shapes(self._array.shape, np.shape(right))
        except ValueError:  # TensorFlow's `==` calls shapes that cannot match simply unequal
            return _tensor(np.bool_(when_unequal))
        return _tensor(function(_operand(self), right))
    return method


def _install_equality():
    # TensorFlow 2 compares variables elementwise (`v == 1` is a bool tensor), which is also
    # why a variable is unhashable.
    Variable.__eq__ = _equality(ops.equal, False)
    Variable.__ne__ = _equality(ops.not_equal, True)


_install_operators()
_install_equality()
