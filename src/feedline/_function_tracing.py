"""How `fl.function` counts the traces TensorFlow would make, and makes concrete functions.

No trace happens in feedline: a `Function` only keeps count, by the rules of TensorFlow's
tf.function guide. A call's trace key holds its tensors by spec and its Python values by value.
An earlier trace serves a new key when its Python values are equal and each of its specs takes
the new one (a trace for shape `[None]` takes shape `[2]`); with `reduce_retracing`, a key that
differs from an earlier one only in sizes is recorded with those sizes unknown.
`get_concrete_function` counts like a call and keeps one `ConcreteFunction` per signature.

`Function` (in `feedline.function`) takes these methods from `TracingMixin`, and keeps what
they record in its `_Traces` (defined there, since pickles name it by that module).
"""

from .concrete_function import ConcreteFunction, bind_failure, spec_of_argument
from .data.composite_spec import _CompositeSpec
from .data.spec import TensorSpec, unknown_rank

_SPECS = (TensorSpec, _CompositeSpec)


def _hashable(key):
    try:
        hash(key)
        return key
    except TypeError:
        return repr(key)


def _serves(old, new):
    """True when a trace for the spec `old` also takes values of the spec `new`: same kind and
    dtype, and every size `old` knows is `new`'s (TensorFlow's subtype rule)."""
    if type(old) is not type(new) or old.dtype != new.dtype:
        return False
    if isinstance(old, _CompositeSpec) and not old._same_kind(new):
        return False
    if unknown_rank(old.shape):
        return True
    return not unknown_rank(new.shape) and len(new.shape) == len(old.shape) and all(
        mine is None or mine == theirs for mine, theirs in zip(old.shape, new.shape))


def _covers(seen, key):
    """True when the earlier trace `seen` serves a call whose trace key is `key`."""
    return len(seen) == len(key) and all(
        _serves(old, new) if isinstance(old, _SPECS) else old == new
        for old, new in zip(seen, key))


def _same_kinds(seen, key):
    """True when two trace keys differ at most in the sizes of their tensors."""
    return len(seen) == len(key) and all(
        type(old) is type(new) and old.dtype == new.dtype if isinstance(old, _SPECS)
        else old == new for old, new in zip(seen, key))


def _relaxed(seen, key):
    """`key` with the sizes that differ from a like earlier trace made unknown (None)."""
    for old in seen:
        if _same_kinds(old, key):
            return tuple(mine.most_specific_common(theirs) if isinstance(mine, _SPECS)
                         else mine for mine, theirs in zip(old, key))
    return key


class TracingMixin:
    """The trace counting and `get_concrete_function` of `Function` (see the module
    docstring)."""

    def _key(self, args, kwargs):
        """The trace key of a call: tensors by spec, Python values by value."""
        if self.input_signature is not None:
            return ("input_signature",)
        bound = self._bind(args, kwargs)
        return tuple(_hashable(spec_of_argument(value)) for value in bound.arguments.values())

    def _note_trace(self, key):
        """Count `key` as TensorFlow would: a new trace unless an earlier one serves it (a
        trace for shape [None] serves [2]); `reduce_retracing` traces with relaxed sizes."""
        seen = self._traces.keys
        with self._traces.lock:
            if key in seen or any(_covers(old, key) for old in seen):
                return
            seen.append(_relaxed(seen, key) if self._reduce_retracing else key)

    # -- tracing -------------------------------------------------------------------------------

    def get_concrete_function(self, *args, **kwargs):
        """A `ConcreteFunction` for one signature: arguments may be values or `fl.TensorSpec`s
        (nests of them too); with an `input_signature`, no arguments are needed.

        Returns:
            The same `ConcreteFunction` for the same signature each time.

        Raises:
            TypeError: when the arguments do not fit the function or its `input_signature`.

        >>> import feedline as fl
        >>> scale = fl.function(lambda x: x * 2.0)
        >>> concrete = scale.get_concrete_function(fl.TensorSpec([None], fl.float32))
        >>> concrete.structured_outputs
        TensorSpec(shape=(None,), dtype=tf.float32, name=None)
        >>> concrete(fl.constant([1.0, 2.0]))
        <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>
        """
        if self.input_signature is not None:
            if args or kwargs:
                self._conform_specs(args, kwargs)
            bound = self._bind(self.input_signature[:len(self._parameters())], {})
            specs = dict(bound.arguments)
        else:
            bound = self._bind(args, kwargs)
            specs = {name: spec_of_argument(value) for name, value in bound.arguments.items()}
        key = self._key(args, kwargs) if self.input_signature is None else ("input_signature",)
        self._note_trace(key)
        key = _hashable(tuple(specs.items()))
        if key not in self._traces.concrete:
            self._traces.concrete[key] = ConcreteFunction(self, specs)
        return self._traces.concrete[key]

    def _conform_specs(self, args, kwargs):
        """Check specs or values handed to `get_concrete_function` against the signature."""
        bound = self._bind(args, kwargs)
        for value, spec in zip(bound.arguments.values(), self.input_signature):
            given = spec_of_argument(value)
            if isinstance(given, _SPECS) and not (
                    type(given) is type(spec) and spec.is_compatible_with(given)):
                raise bind_failure(f"Can not cast {given!r} to {spec!r}", args, kwargs,
                                   self._signature_text())

    def experimental_get_tracing_count(self):
        """How many traces TensorFlow would have made so far (see the module docstring)."""
        return len(self._traces.keys)
