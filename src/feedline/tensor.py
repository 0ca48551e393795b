"""`Tensor`: the values a learner's loop receives, as TensorFlow's eager code sees them.

TensorFlow hands `for x in dataset` an eager tensor: it has `.numpy()`, and it prints as
`tf.Tensor(3, shape=(), dtype=int64)`. Published code relies on both (`print(x.numpy())` is
on almost every page of the tf.data guide). Feedline's values are NumPy arrays, so `Tensor`
is a NumPy array subclass that adds what that code uses: `.numpy()` (the plain array, or a
NumPy scalar / `bytes` for rank 0), `get_shape()`, and TensorFlow's printed form. Everything
NumPy does still works on it (it *is* an `np.ndarray`).

Only the values a loop, `next()`, `get_next()`, `reduce` or `get_single_element` hands out
are wrapped. Inside the pipeline (map functions, filters) values stay plain NumPy, as they
are symbolic in TensorFlow anyway, and `as_numpy_iterator()` gives plain NumPy values too.

>>> import numpy as np
>>> x = as_tensors(np.int64(3))
>>> print(x)
tf.Tensor(3, shape=(), dtype=int64)
>>> x.numpy(), x + 1
(np.int64(3), <tf.Tensor: shape=(), dtype=int64, numpy=4>)
>>> as_tensors((np.array([1, 2]), b"a"))
(<tf.Tensor: shape=(2,), dtype=int64, numpy=array([1, 2])>, <tf.Tensor: shape=(), dtype=string, numpy=b'a'>)
"""

import numpy as np

from . import dtypes
from ._tensor_operators import from_numpy, make_operator
from .autodiff import _state
from .data.spec import TensorShape


_ARRAY_SHAPE = np.ndarray.shape  # the plain tuple, under the `TensorShape` a Tensor shows
_ARRAY_DTYPE = np.ndarray.dtype  # the NumPy dtype, under the `DType` a Tensor shows
_DTYPE_OF = dtypes._BY_NUMPY  # the common dtypes, looked up without a call


def _dtype_name(dtype):
    return dtypes.from_numpy(dtype).name


class Tensor(np.ndarray):
    """A NumPy array with TensorFlow's eager-tensor methods; see the module docstring."""

    def numpy(self):
        """The value as plain NumPy: an array, or for rank 0 a NumPy scalar (`bytes` for a
        string), as TensorFlow's `.numpy()` gives."""
        plain = self.view(np.ndarray)
        return plain[()] if plain.ndim == 0 else plain

    def __bytes__(self):  # the string of a 0-d string tensor, not its pointer
        value = self.numpy()
        return value if isinstance(value, bytes) else self.tobytes()

    def __getitem__(self, index):
        if _state.active:  # a gradient tape may want to see `x[:, 0]`
            return _state.recorder(_GETITEM, lambda: self._item(index), (self, index), {})
        return self._item(index)

    def _item(self, index):
        item = super().__getitem__(index)
        return item if isinstance(item, np.ndarray) else _leaf(item)

    def __iter__(self):  # rows as tensors, as TensorFlow's iteration gives
        return map(_leaf, super().__iter__())

    @property
    def shape(self):
        """The shape as a `TensorShape`: a tuple (so NumPy code sees no difference) with
        TensorFlow's `as_list()`, `rank`, `num_elements()`."""
        return TensorShape(_ARRAY_SHAPE.__get__(self))

    @shape.setter
    def shape(self, value):  # NumPy's in-place reshape, kept for code that uses it
        _ARRAY_SHAPE.__set__(self, value)

    @property
    def dtype(self):
        """The dtype as a `DType` (`tf.float32`), which NumPy also takes as a dtype."""
        numpy_dtype = _ARRAY_DTYPE.__get__(self)
        if from_numpy():  # NumPy's own code (np.testing, np.quantile) wants its own dtype
            return numpy_dtype
        return _DTYPE_OF.get(numpy_dtype) or dtypes.from_numpy(numpy_dtype)

    @dtype.setter
    def dtype(self, value):  # NumPy's in-place reinterpretation, kept for code that uses it
        _ARRAY_DTYPE.__set__(self, np.dtype(value))

    def get_shape(self):
        """The shape as a `TensorShape` (what `tensor.shape` is in TensorFlow)."""
        return TensorShape(_ARRAY_SHAPE.__get__(self))

    def ref(self):
        """A hashable handle on this tensor (tensors, like TensorFlow's, are unhashable)."""
        return _Reference(self)

    def set_shape(self, shape):
        """Check that the shape is compatible with `shape` (None matches any size), as an
        eager TensorFlow tensor does; nothing to update, the shape is already known.

        Raises:
            ValueError: naming both shapes when they are not compatible.
        """
        _check_compatible(super().shape, shape)

    def __str__(self):
        # A scalar prints in full (float64 1.6612158727645874), an array as NumPy prints it.
        value = str(self.numpy()) if self.ndim == 0 and self.dtype != object else \
            np.array2string(self.view(np.ndarray), separator=' ')
        if "\n" in value:  # a multi-line array starts on its own line, as TensorFlow's does
            value = "\n" + value
        return (f"tf.Tensor({value}, "
                f"shape={tuple(super().shape)}, dtype={_dtype_name(self.dtype)})")

    def __repr__(self):
        value = self.numpy()
        # A scalar shows as NumPy prints it (float32 0.1 as 0.1, not 0.10000000149011612).
        shown = repr(value) if self.ndim else (str(value) if isinstance(
            value, np.generic) else repr(value))
        if "\n" in shown:  # a multi-line array starts on its own line, as TensorFlow's does
            shown = "\n" + shown
        return (f"<tf.Tensor: shape={tuple(super().shape)}, dtype={_dtype_name(self.dtype)}, "
                f"numpy={shown}>")

    def __format__(self, format_spec):
        # As TensorFlow's tensors: `f"{x}"` and `"{:.2f}".format(x)` format the NumPy value.
        return format(self.numpy(), format_spec)

    __hash__ = None  # as in TensorFlow: use `.ref()` as a dictionary key
    __array_priority__ = 100  # `np.float64(2) * x` asks the tensor first, as with TensorFlow's

    def _operand(self, other):
        """`other` as NumPy's operators on a tensor used to take it (for NumPy's own code,
        see `_tensor_operators`): a NumPy value or Python number takes a float tensor's
        dtype, a `str` counts as its UTF-8 bytes beside strings."""
        if _ARRAY_DTYPE.__get__(self) == object:
            if isinstance(other, str):
                return other.encode("utf-8")
            if isinstance(other, (list, tuple)) or (isinstance(other, np.ndarray)
                                                    and other.dtype.kind == "U"):
                return _utf8_array(other)
            return other
        if _ARRAY_DTYPE.__get__(self).kind != "f" or isinstance(
                other, (Tensor, StringTensor, bool, np.bool_)):
            return other
        if isinstance(other, (int, float, list, np.ndarray, np.number)):
            values = np.asarray(other)
            return values.astype(_ARRAY_DTYPE.__get__(self)) if values.dtype.kind in "iuf" \
                else other
        return other


# The operators a gradient tape records, as the op whose gradient rule covers them (for
# NumPy's own calls; the others go through the public op, which records itself).
_GETITEM = "feedline.tensor.getitem"
_RECORDED = {"add": "feedline.ops.arithmetic.add", "sub": "feedline.ops.arithmetic.subtract",
             "mul": "feedline.ops.arithmetic.multiply",
             "truediv": "feedline.ops.arithmetic.truediv", "pow": "feedline.ops.arithmetic.pow",
             "matmul": "feedline.ops.linalg.matmul"}


def _numpy_operator(name):
    """The operator as NumPy computes it (NumPy's promotion), for NumPy's own calls."""
    method = getattr(np.ndarray, name)
    reflected = name.startswith("__r") and name[3:-2] in _RECORDED
    key = _RECORDED.get(name[3 if reflected else 2:-2])

    def apply(self, other):
        if key is not None and _state.active:
            return _state.recorder(key, lambda: _as_tensor(method(self, self._operand(other))),
                                   (other, self) if reflected else (self, other), {})
        return method(self, self._operand(other))

    return apply


def _as_tensor(value):
    """An operator's result as a `Tensor` object a tape can follow (NumPy may give a scalar)."""
    return value if type(value) is Tensor else np.asarray(value).view(Tensor)


def _negative(self):
    if _state.active:
        return _state.recorder("feedline.ops.elementwise.negative",
                               lambda: _as_tensor(np.ndarray.__neg__(self)), (self,), {})
    return np.ndarray.__neg__(self)


for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "floordiv",
              "rfloordiv", "mod", "rmod", "pow", "rpow", "lt", "le", "gt", "ge", "eq", "ne",
              "matmul", "rmatmul", "and", "rand", "or", "ror", "xor", "rxor"):
    setattr(Tensor, f"__{_name}__",
            make_operator(_name, _numpy_operator(f"__{_name}__")))
Tensor.__neg__ = _negative


def _check_compatible(actual, wanted):
    if wanted is None:
        return
    wanted = TensorShape(wanted)
    if not wanted.is_compatible_with(actual):
        raise ValueError(f"Tensor's shape {tuple(actual)} is not compatible with supplied "
                         f"shape {tuple(wanted)}")


class _Reference:
    """What `Tensor.ref()` returns: hashable by identity; `deref()` gives the tensor back."""

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __eq__(self, other):
        return isinstance(other, _Reference) and other._tensor is self._tensor


def _leaf(value):
    """One leaf as a tensor: arrays as `Tensor` views (no copy), NumPy scalars as 0-d
    tensors, strings (and 0-d string arrays) as `StringTensor`s; tensors, sparse and ragged
    values and anything else as they are."""
    kind = type(value)
    if kind is Tensor or kind is StringTensor:
        return value
    if kind is bytes:
        return StringTensor(value)
    if isinstance(value, np.generic):
        return np.asarray(value).view(Tensor)
    if isinstance(value, np.ndarray):
        if value.ndim == 0 and value.dtype == object and isinstance(value[()], bytes):
            return StringTensor(value[()])  # a string scalar kept as an array by an op
        return value.view(Tensor)
    return value


def as_tensors(element):
    """`element` with every NumPy leaf (and `bytes` string) as a `Tensor`, nest kept; a list
    (an op's list of results, as `unstack` gives) becomes a list of tensors."""
    kind = type(element)
    if kind is bytes:  # the commonest leaves first: a loop calls this once per element
        return StringTensor(element)
    if kind is np.ndarray and element.dtype != object:
        return element.view(Tensor)
    if kind is tuple:
        return tuple(map(as_tensors, element))
    if kind is list:
        return list(map(as_tensors, element))
    if kind is dict:
        return {key: as_tensors(value) for key, value in element.items()}
    if isinstance(element, dict):  # an OrderedDict, as make_csv_dataset gives
        return kind((key, as_tensors(value)) for key, value in element.items())
    if isinstance(element, tuple) and hasattr(element, "_fields"):  # a namedtuple
        return kind(*map(as_tensors, element))
    return _leaf(element)


def as_numpy(value):
    """`value` with every `Tensor` leaf back as plain NumPy (`.numpy()`), nest kept."""
    if isinstance(value, (Tensor, StringTensor)):
        return value.numpy()
    kind = type(value)
    if kind is tuple:
        return tuple(map(as_numpy, value))
    if kind is list:
        return list(map(as_numpy, value))
    if kind is dict:
        return {key: as_numpy(item) for key, item in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return kind(*map(as_numpy, value))
    return value


# Imported last: the string scalar refers back to `Tensor` and `_check_compatible`.
from .string_tensor import StringTensor, _utf8_array  # noqa: E402
