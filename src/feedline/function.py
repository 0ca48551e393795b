"""`fl.function`: TensorFlow's `tf.function`, as an object that runs its Python eagerly.

TensorFlow turns a decorated Python function into a graph, once per *signature* of the
arguments (a trace), and runs the graph afterwards. Feedline has no graphs: every call runs
the Python function, as TensorFlow does under `tf.config.run_functions_eagerly(True)`. So a
Python `print` inside runs on every call, where TensorFlow prints only while tracing (its
`tf.print` prints on every call, as `fl.print` does).

What carries over from TensorFlow:

- `input_signature`: calls are checked against it (a `TypeError` "Binding inputs to
  tf.function failed ..." as TensorFlow raises), and Python values convert to its dtypes.
- `get_concrete_function(...)`: a `ConcreteFunction` for one signature, whose output specs
  are found by calling the function on placeholder values, the way `Dataset.map` finds its
  `element_spec` (`data/ops/_trace.py`); unknown sizes stay `None`.
- `experimental_get_tracing_count()`: how many traces TensorFlow would have made so far, by
  the rules of TensorFlow's tf.function guide: each new Python value is a new trace (`f(1)`,
  `f(2)`), a tensor of a dtype and shape seen before is not (`f(tf.constant(1))`,
  `f(tf.constant(2))`), nor one an earlier trace accepts (a trace for shape `[None]` takes
  shape `[2]`); with `reduce_retracing=True` a second shape traces once with the differing
  sizes unknown. A teaching aid: no trace happens here.
- used on a method (of an `fl.Module` or a Keras model), it binds to the instance, and each
  instance keeps its own traces, as in TensorFlow.

The counting of traces and `get_concrete_function` are in `_function_tracing` (the mixin
`TracingMixin`, whose rules are re-exported here). This module holds `Function` itself, how it
binds to an instance, pickles, and checks and runs a call, and the `function` decorator.

>>> import feedline as fl
>>> @fl.function
... def double(x):
...     return x * 2
>>> int(double(fl.constant(3))), int(double(fl.constant(4))), double(5), double(6)
(6, 8, 10, 12)
>>> double.experimental_get_tracing_count()  # one for the tensors, one per Python value
3
"""

import functools
import inspect
import pickle
import threading

from ._function_tracing import TracingMixin
from ._function_tracing import (_SPECS, _covers, _hashable, _relaxed,  # noqa: F401
                                _same_kinds, _serves)  # re-exported
from .concrete_function import ConcreteFunction, bind_failure, cast_to_spec
from .concrete_function import spec_of_argument  # noqa: F401 - re-exported
from .data.composite_spec import _CompositeSpec  # noqa: F401 - re-exported
from .data.spec import TensorSpec  # noqa: F401 - the examples use it; re-exported
from .data.spec import unknown_rank  # noqa: F401 - re-exported

_OPTIONS = {"input_signature", "autograph", "jit_compile", "reduce_retracing", "name"}
# Where an instance keeps the traces of its decorated methods (see `Function.__get__`).
_TRACES = "_fl_function_traces"


class _Traces:
    """The signatures seen and concrete functions made for one function (or one instance's
    method). Not saved with the instance: a loaded object starts counting afresh."""

    def __init__(self):
        self.keys, self.concrete = [], {}
        self.lock = threading.Lock()  # a parallel `Dataset.map` may call from many threads

    def __reduce__(self):
        return _Traces, ()


class Function(TracingMixin):
    """The callable `fl.function` returns; see the module docstring.

    Attributes:
        python_function: the decorated Python function.
        input_signature: the signature given, or None.
    """

    def __init__(self, python_function, input_signature=None, autograph=True,
                 jit_compile=None, reduce_retracing=False, name=None, _instance=None,
                 _traces=None):
        # First, so that its copy of a wrapped Function's attributes does not replace ours.
        functools.update_wrapper(self, python_function)  # inspect sees the function's
        if _instance is not None:  # signature; a bound method's leaves out `self`
            self.__signature__ = inspect.Signature(
                list(inspect.signature(python_function).parameters.values())[1:])
        self.python_function = python_function
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self._autograph, self._jit_compile = autograph, jit_compile
        self._reduce_retracing = bool(reduce_retracing)
        self._name = name or getattr(python_function, "__name__", "function")
        self._attribute = self._name  # the class attribute holding it (`__set_name__`)
        self._instance = _instance
        self._traces = _traces if _traces is not None else _Traces()

    # -- as a method ---------------------------------------------------------------------------

    def __set_name__(self, owner, name):
        self._attribute = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        store = getattr(instance, "__dict__", None)
        traces = None
        if isinstance(store, dict):  # each instance keeps its own traces, as in TensorFlow
            traces = store.setdefault(_TRACES, {}).setdefault(self._attribute, _Traces())
        bound = Function(self.python_function, self.input_signature, self._autograph,
                         self._jit_compile, self._reduce_retracing, self._name, instance, traces)
        bound._attribute = self._attribute
        return bound

    def __reduce__(self):
        if self._instance is not None:  # a method: found again on the (unpickled) instance
            return getattr, (self._instance, self._attribute)
        where = (self.python_function.__module__, self.python_function.__qualname__)
        try:
            found = _by_name(*where)
        except (ImportError, AttributeError):
            found = None
        if found is not self:  # a lambda or a local function: no name to find it by again
            raise pickle.PicklingError(
                f"Can't pickle fl.function {'.'.join(where)}: it is not reachable by that name")
        return _by_name, where

    # -- calling -------------------------------------------------------------------------------

    def _parameters(self):
        """The parameters a caller gives (without `self` for a method)."""
        parameters = list(inspect.signature(self.python_function).parameters.values())
        return parameters[1:] if self._instance is not None else parameters

    def _run(self, args, kwargs):
        if self._instance is not None:
            return self.python_function(self._instance, *args, **kwargs)
        return self.python_function(*args, **kwargs)

    def _bind(self, args, kwargs):
        """Arguments as (name, value) pairs in parameter order, with defaults filled in."""
        signature = inspect.Signature(self._parameters())
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise bind_failure(error, args, kwargs, self._signature_text()) from None
        bound.apply_defaults()
        return bound

    def _signature_text(self):
        names = [parameter.name for parameter in self._parameters()]
        if self.input_signature is None:
            return "(" + ", ".join(names) + ")"
        return "(" + ", ".join(f"{name}: {spec!r}" for name, spec in
                               zip(names, self.input_signature)) + ")"

    def _conform(self, args, kwargs):
        """`args`/`kwargs` cast to `input_signature` (TypeError when they do not fit)."""
        bound = self._bind(args, kwargs)
        names = list(bound.arguments)
        if len(self.input_signature) > len(names):
            raise TypeError(f"{self._name}: input_signature lists {len(self.input_signature)} "
                            f"specs but the function takes {len(names)} arguments; give one "
                            "spec per argument")
        for name, spec in zip(names, self.input_signature):
            bound.arguments[name] = cast_to_spec(bound.arguments[name], spec, args, kwargs,
                                                 self._signature_text())
        return bound.args, bound.kwargs

    def __call__(self, *args, **kwargs):
        if self.input_signature is not None:
            args, kwargs = self._conform(args, kwargs)
        self._note_trace(self._key(args, kwargs))
        return self._run(args, kwargs)

    def __repr__(self):
        return f"<feedline.function.Function {self._name} at 0x{id(self):X}>"


def _by_name(module, qualname):
    """A module-level `Function`, found again by its name when unpickled."""
    import importlib

    value = importlib.import_module(module)
    for part in qualname.split("."):
        value = getattr(value, part)
    return value


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, name=None, **experimental):
    """`@fl.function` or `@fl.function(...)`: wrap `func` in a `Function` (module docstring).

    Args:
        func: the Python function (or method) to wrap.
        input_signature: a list of `fl.TensorSpec`s (or nests of them), one per argument;
            calls must then fit it.
        autograph, jit_compile: TensorFlow's compilation switches; kept, nothing to compile.
        reduce_retracing: count one trace for tensors whose shapes differ only in sizes
            (TensorFlow then traces with those sizes unknown).
        name: the function's name.
        experimental_*: TensorFlow's experimental options, accepted and ignored.

    Raises:
        TypeError: for an option TensorFlow does not have, or a `func` that is not callable.

    >>> @function(input_signature=[TensorSpec([None], "float32")])
    ... def total(x):
    ...     return x.sum()
    >>> float(total([1, 2, 3]))  # the Python list converts to float32, as the signature says
    6.0
    """
    unknown = [key for key in experimental if not key.startswith("experimental_")]
    if unknown:
        raise TypeError(f"function() got unexpected arguments {unknown}; it takes "
                        f"{sorted(_OPTIONS)} and experimental_* options")
    if input_signature is not None and not isinstance(input_signature, (list, tuple)):
        raise TypeError("function: input_signature must be a list or tuple of specs, e.g. "
                        "input_signature=[fl.TensorSpec([None], fl.float32)]")

    def wrap(decorated):
        if not callable(decorated):
            raise TypeError(f"function decorates a callable, got {type(decorated).__name__}")
        return Function(decorated, input_signature, autograph, jit_compile, reduce_retracing,
                        name)
    return wrap if func is None else wrap(func)


__all__ = ["Function", "function", "ConcreteFunction"]
