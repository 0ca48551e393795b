"""`py_function` and `numpy_function`: TensorFlow's bridges to Python, kept so that code
written for TensorFlow runs unchanged (`function` lives in `feedline.function`).

TensorFlow traces `Dataset.map` functions into a graph, so plain Python inside them (NumPy,
`PIL`, file reads) must be wrapped in `tf.py_function`; `tf.function` compiles Python into a
graph. Feedline never builds graphs: every function already runs as Python on NumPy values.
So `py_function` only calls it and converts its results to the dtypes `Tout` names, as
TensorFlow would.

Two things follow TensorFlow's kernel rather than plain Python:

- while `element_spec` traces a `map` function (`data.tracing`), `func` is not called: the
  result is a placeholder of unknown shape with `Tout`'s dtypes (the op's shape function,
  `UnknownShape` in TensorFlow's `core/ops/script_ops.cc`);
- an exception raised by `func` reaches the caller as TensorFlow's kernel reports it
  (`DoCallPyFunc` in `python/lib/core/py_func.cc`): `ValueError` and `TypeError` as
  `InvalidArgumentError`, `StopIteration` as `OutOfRangeError`, `MemoryError` as
  `ResourceExhaustedError`, `NotImplementedError` as `UnimplementedError`, anything else as
  `UnknownError`; the message starts "ValueError: ..." and the original is the `__cause__`.

>>> import feedline as fl
>>> ds = fl.data.Dataset.range(3).map(
...     lambda x: fl.py_function(lambda v: v.numpy() * 1.5, [x], fl.float32))
>>> [float(v) for v in ds]
[0.0, 1.5, 3.0]
"""

import traceback

import numpy as np

from . import dtypes, errors
from .data import structure, tracing
from .data.spec import TensorShape, TensorSpec
from .errors import InvalidArgumentError
from .tensor import Tensor, as_tensors

# How TensorFlow's kernel files a Python exception, checked in this order.
_ERROR_KINDS = [((ValueError, TypeError), errors.InvalidArgumentError),
                ((StopIteration,), errors.OutOfRangeError),
                ((MemoryError,), errors.ResourceExhaustedError),
                ((NotImplementedError,), errors.UnimplementedError)]


def _convert(value, dtype, index, caller):
    """One result as a NumPy value of `dtype` (a TensorSpec's dtype is used too)."""
    dtype = dtypes.as_dtype(getattr(dtype, "dtype", dtype))
    if dtype == dtypes.string:
        leaf = structure.to_leaf(value.tolist() if isinstance(value, np.ndarray)
                                 and value.dtype.kind in "SU" else value)
        if structure.leaf_dtype(leaf) != dtypes.string:
            raise InvalidArgumentError(f"{caller}: result {index} is {value!r:.40}, which is "
                                       "not a string as Tout says")
        return leaf
    array = np.asarray(value)
    if array.dtype.kind in "SUO" or (array.dtype.kind == "f" and dtype.kind in "iub") or (
            array.dtype.kind == "c" and dtype.kind != "c"):
        raise InvalidArgumentError(
            f"{caller}: result {index} has dtype {array.dtype}, which does not convert to "
            f"{dtype.name} as Tout says; return a value of that dtype or change Tout")
    array = array.astype(dtype)
    return array[()] if array.ndim == 0 else array


def _call(func, inp, Tout, caller, tensors=False):  # noqa: N803 - TensorFlow's name
    if not callable(func):
        raise TypeError(f"{caller}: func must be callable, got {type(func).__name__}")
    if isinstance(inp, (tuple, list)):
        args = list(inp)
    else:
        raise TypeError(f"{caller}: inp must be a list of the function's arguments; write "
                        f"inp=[{'x' if inp is None else type(inp).__name__.lower()}]")
    if tracing.active():  # only the spec is wanted: func does not run (see the docstring)
        return _stand_in(Tout, tensors)
    if tensors:  # TensorFlow hands py_function eager tensors, with `.numpy()`
        args = [as_tensors(structure.to_element(arg)) for arg in args]
    try:
        results = func(*args)
    except Exception as error:  # noqa: BLE001 - filed under TensorFlow's kinds, then raised
        raise _wrapped(error) from error
    if Tout is None:
        return None
    if isinstance(Tout, (list, tuple)):
        if results is None and not Tout:  # a function run for its side effects
            return []
        if isinstance(results, np.ndarray) or not isinstance(results, (list, tuple)):
            results = [results]
        if len(results) != len(Tout):
            raise InvalidArgumentError(f"{caller}: the function returned {len(results)} values "
                                       f"but Tout lists {len(Tout)} dtypes")
        converted = [_convert(value, dtype, index, caller)
                     for index, (value, dtype) in enumerate(zip(results, Tout))]
    else:
        converted = _convert(results, Tout, 0, caller)
    # py_function's results are tensors (`image.set_shape(...)` follows it in the guides).
    return as_tensors(converted) if tensors else converted


def _stand_in(Tout, tensors):  # noqa: N803 - TensorFlow's name
    """Placeholders of unknown shape with `Tout`'s dtypes, for a running trace."""
    if Tout is None:
        return None
    if isinstance(Tout, (list, tuple)):
        return [_unknown_shape(dtype, tensors) for dtype in Tout]
    return _unknown_shape(Tout, tensors)


def _unknown_shape(dtype, tensors):
    value = tracing.stand_in(TensorSpec(None, getattr(dtype, "dtype", dtype)))
    if not tensors:
        return value
    array = np.array(value, dtype=object if isinstance(value, bytes) else None)
    out = np.ndarray.__new__(ShapeToBeSet, array.shape, array.dtype)  # owns its data
    out[...] = array
    return out


class ShapeToBeSet(Tensor):
    """A traced `py_function` result, whose shape TensorFlow does not know: `set_shape`
    gives it one, as it does in a TensorFlow graph (the tf.data guide's `image.set_shape`
    after a `py_function`). Sizes left `None` take the trace pass's unknown size."""

    def set_shape(self, shape):
        if shape is None:
            return
        unknown = tracing.stand_in(TensorSpec((None,), self.dtype)).shape[0] \
            if tracing.active() else 1
        sizes = tuple(unknown if size is None else int(size) for size in TensorShape(shape))
        fill = self.reshape(-1)[0] if self.size else None
        self.resize(sizes, refcheck=False)
        if fill is not None:
            self.fill(fill)


def _wrapped(error):
    """`error` as the TensorFlow error its kernel reports, with the traceback in the text."""
    kind = next((wrapper for causes, wrapper in _ERROR_KINDS if isinstance(error, causes)),
                errors.UnknownError)
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return kind(f"{type(error).__name__}: {error}\n{text}")


def py_function(func, inp, Tout, name=None):  # noqa: N803 - TensorFlow's argument name
    """Call `func(*inp)` and convert its results to the dtypes in `Tout`.

    In TensorFlow this runs Python inside a traced graph; feedline has no graph, so it is
    only a call plus dtype conversion, kept for code written for TensorFlow. As there, `func`
    receives its arguments as tensors (`feedline.Tensor`, so `x.numpy()` works), and a
    function returning `None` with `Tout=[]` gives `[]`.

    Args:
        func: a Python function.
        inp: the list of its arguments.
        Tout: a dtype (one result), a list of dtypes (a list of results), or `None`.
        name: ignored.

    Returns:
        The converted result, a list of them, or `None` when `Tout` is `None`.

    Raises:
        InvalidArgumentError: when a result does not convert to its dtype (a float to an
            int, a number to a string) or the number of results differs from `Tout`'s.

    >>> py_function(lambda a, b: (a + b, a * b), [2, 3], [dtypes.int64, dtypes.float32])
    [<tf.Tensor: shape=(), dtype=int64, numpy=5>, <tf.Tensor: shape=(), dtype=float32, numpy=6.0>]
    """
    return _call(func, inp, Tout, "py_function", tensors=True)


def numpy_function(func, inp, Tout, stateful=True, name=None):  # noqa: N803
    """Call `func(*inp)` on NumPy values and convert its results to `Tout`'s dtypes.

    Feedline's values are NumPy values already, so this is `py_function` by another name.

    >>> numpy_function(lambda a: np.sort(a), [np.array([3, 1, 2])], dtypes.int32)
    array([1, 2, 3], dtype=int32)
    """
    return _call(func, inp, Tout, "numpy_function")


# `function` moved to its own module; this name keeps `feedline.pyfunc.function` working.
from .function import function  # noqa: E402,F401
