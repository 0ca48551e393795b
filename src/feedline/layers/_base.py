"""What every layer shares: naming, dtype policy, build-once, config round trips.

The helpers that convert inputs live in `_inputs.py` and are re-exported here.
The arguments every constructor takes (automatic names, dtype policies, Keras' base
arguments, a custom layer's recorded arguments) are read in `_layer_arguments.py`, and what
`__call__` works out about its inputs in `_layer_calls.py`; both are re-exported here.
"""

import inspect

import numpy as np

from ..tensor import as_tensors
from ._layer_io import SymbolicIOMixin
from ._weights import WeightsMixin
from ._inputs import (check_choice, first_component, is_batch_stream, iter_batches,  # noqa: F401
                      to_call_inputs, to_float_array, to_int_array, to_string_array)
from ._layer_arguments import (_NAME_COUNTS, _PLAIN, KERAS_BASE_KWARGS,  # noqa: F401
                               _auto_name, _constructor_arguments, _is_plain,
                               dtype_policy_name, reset_names, serialize_dtype)  # re-exported
from ._layer_calls import _TAKES_TRAINING, _shape_of, _takes_training  # noqa: F401


class NotAdaptedError(RuntimeError, ValueError):
    """A layer that learns its state was called before `adapt` (or before its state was given).

    A ValueError too: what Keras 3 raises there (Discretization without bin boundaries)."""


# Filled by `_symbolic` when it loads: the type of `Input`'s placeholders.
SYMBOLIC_TYPES = ()


def _holds_symbolic(inputs):
    if isinstance(inputs, SYMBOLIC_TYPES):
        return True
    if isinstance(inputs, (list, tuple)):
        return any(_holds_symbolic(item) for item in inputs)
    if isinstance(inputs, dict):
        return any(_holds_symbolic(item) for item in inputs.values())
    return False


class Layer(SymbolicIOMixin, WeightsMixin):
    """Base class: `layer(x)` runs `call`; `get_config`/`from_config` rebuild an equal layer.

    Takes Keras' base arguments: `name`, `dtype` (a name or Keras' serialized policy; the
    compute dtype of layers whose output is numeric), `trainable`, and the ones that change
    nothing here but are kept (`autocast`, `input_shape`, `input_dim`, `batch_size`,
    `batch_input_shape`, `activity_regularizer`). Anything else is refused by name.

    >>> class Twice(Layer):
    ...     def call(self, x):
    ...         return np.asarray(x) * 2
    >>> Twice(name="t")([1, 2]).tolist(), Twice.from_config({"name": "u"}).name
    ([2, 4], 'u')
    >>> Twice(input_shape=(3,), trainable=False).trainable
    False

    Subclassing works as in Keras: `__init__(**kwargs)` passes the base arguments on; `build`
    runs once, with the first input's shape, before the first `call`; a subclass defined
    outside feedline receives its inputs as `fl.Tensor`s with floats cast to its compute
    dtype (float32); and its `get_config` lists its constructor's arguments by itself when
    they are plain values (strings, numbers, booleans, None, lists of them).

    >>> class Shift(Layer):
    ...     def __init__(self, by=1.0, **kwargs):
    ...         super().__init__(**kwargs)
    ...         self.by = by
    ...     def build(self, input_shape):
    ...         self.width = input_shape[-1]
    ...     def call(self, inputs):
    ...         return inputs + self.by
    >>> shift = Shift(by=0.5, name="shift")
    >>> shift(np.zeros((2, 3))).tolist(), shift.width
    ([[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]], 3)
    """

    # The dtype policy when none is given; layers whose default depends on their mode override
    # `_default_dtype`.
    _DEFAULT_DTYPE = "float32"
    # Keys a Keras config of this layer may hold that feedline reads nowhere (see from_config).
    _IGNORED_CONFIG_KEYS = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # A learner's own layer gets Keras' input conversion; feedline's layers convert theirs.
        cls._IS_CUSTOM = not cls.__module__.startswith("feedline.")

    def __new__(cls, *args, **kwargs):
        layer = super().__new__(cls)
        layer._auto_config = (_constructor_arguments(cls, args, kwargs)
                              if cls._IS_CUSTOM else None)
        return layer

    _IS_CUSTOM = False
    built = False

    def __init__(self, name=None, dtype=None, trainable=True, **kwargs):
        unknown = sorted(set(kwargs) - set(KERAS_BASE_KWARGS))
        if unknown:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: "
                             f"{unknown}. Keras layers take name, dtype, trainable, "
                             f"{', '.join(KERAS_BASE_KWARGS)} and the layer's own arguments")
        self.name = name if name is not None else _auto_name(type(self).__name__)
        self.dtype_policy = (self._default_dtype() if dtype is None
                             else dtype_policy_name(dtype))
        try:
            if self.dtype_policy != "string":  # Keras' name for text layers' dtype
                np.dtype(self.compute_dtype)
        except TypeError:
            raise ValueError(f"{type(self).__name__}: dtype {self.dtype_policy!r} is not one "
                             "feedline computes in; use a NumPy dtype name such as 'float32', "
                             "'float64', 'int32' or 'int64'") from None
        self.trainable = bool(trainable)
        self.autocast = bool(kwargs.get("autocast", True))
        self.activity_regularizer = kwargs.get("activity_regularizer")
        input_dim = kwargs.get("input_dim")
        self.input_shape_arg = (input_dim,) if input_dim is not None else kwargs.get(
            "input_shape")
        self.batch_size = kwargs.get("batch_size")
        self.batch_input_shape = kwargs.get("batch_input_shape")

    def _default_dtype(self):
        if self._DEFAULT_DTYPE == "float32":  # Keras' float policy follows backend.floatx()
            from ..keras import backend

            return backend.floatx()
        return self._DEFAULT_DTYPE

    @property
    def dtype(self):
        """The variable dtype name (`float32` for the `mixed_float16` policy), as in Keras."""
        return "float32" if self.dtype_policy.startswith("mixed_") else self.dtype_policy

    @property
    def compute_dtype(self):
        """The dtype name outputs are computed in (`float16` for `mixed_float16`)."""
        return self.dtype_policy.replace("mixed_", "", 1)

    def __call__(self, inputs, *args, **kwargs):
        if SYMBOLIC_TYPES and _holds_symbolic(inputs):  # Keras' functional API
            from ._symbolic import call_symbolically, flatten

            outputs = call_symbolically(self, inputs, kwargs)
            # Keras keeps each symbolic call (a node) on the layer: `layer.output` reads it.
            self.__dict__.setdefault("_inbound_nodes", []).append(flatten(outputs)[0].node)
            return outputs
        if self._IS_CUSTOM:
            inputs = to_call_inputs(inputs, self.compute_dtype, self.autocast)
        if not self.built:
            self.build(_shape_of(inputs))
            self.built = True
        # As Keras does, `training=` reaches `call` only when `call` takes it.
        if "training" in kwargs and not _takes_training(type(self)):
            del kwargs["training"]
        # Called eagerly, a Keras layer hands out tensors (`layer(x).numpy()` works); inside
        # `Dataset.map` the pipeline turns them back into plain NumPy values.
        return as_tensors(self.call(inputs, *args, **kwargs))

    def build(self, input_shape=None):
        """Make the state that depends on the input's shape (nothing here); runs once."""
        self.built = True

    def call(self, inputs):  # pragma: no cover - every layer overrides it
        raise NotImplementedError

    def _config(self):
        return {}

    def _base_config(self):
        return {"name": self.name, "trainable": self.trainable,
                "dtype": serialize_dtype(self.dtype_policy)}

    def get_config(self):
        """Keras' config keys for this layer: what rebuilds it (learned state included).

        Raises:
            NotImplementedError: for a custom layer whose constructor took values that are not
                plain (arrays, objects) and that does not write its own `get_config`.
        """
        config = {**self._base_config(), **self._config()}
        if self._IS_CUSTOM and type(self).get_config is Layer.get_config \
                and type(self)._config is Layer._config:
            if self._auto_config is None:
                raise NotImplementedError(
                    f"{type(self).__name__} was built with constructor arguments that are not "
                    "plain values (str, int, float, bool, None or lists of them), so its "
                    "config cannot be written for it: define get_config() to return "
                    "{**super().get_config(), 'your_argument': ...}")
            config = {**self._auto_config, **config}
        return config

    @classmethod
    def from_config(cls, config):
        """A new layer from `get_config()`'s dictionary or from a Keras layer's config.

        Keys Keras writes that feedline does not use are dropped (`_IGNORED_CONFIG_KEYS`);
        any other key the constructor does not take is refused by name.
        """
        return cls(**cls._config_arguments(config))

    @classmethod
    def _config_arguments(cls, config):
        """`config` as constructor arguments, after checking every key is known."""
        if not isinstance(config, dict):
            raise TypeError(f"{cls.__name__}.from_config expects a dict, got "
                            f"{type(config).__name__}")
        config = {key: value for key, value in config.items()
                  if key not in cls._IGNORED_CONFIG_KEYS}
        accepted = set(inspect.signature(cls.__init__).parameters) - {"self", "kwargs"}
        accepted |= {"name", "dtype", "trainable", *KERAS_BASE_KWARGS}
        unknown = sorted(set(config) - accepted)
        if unknown:
            raise ValueError(f"{cls.__name__}.from_config: unknown config keys {unknown}; "
                             f"a {cls.__name__} config holds only {sorted(accepted)}")
        return config

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name!r}>"
