"""What a layer makes of the arguments every layer's constructor takes.

A layer without a `name` is named after its class in Keras' snake case, counted per name
(`_auto_name`; `reset_names` starts the counts again). `dtype` may be a name, a NumPy dtype or
Keras' serialized policy (`dtype_policy_name`), and `get_config` writes it back in Keras'
form (`serialize_dtype`). `KERAS_BASE_KWARGS` are Keras' other base arguments. A custom layer
without its own `get_config` has its constructor's arguments recorded when they are plain
values (`_constructor_arguments`). `Layer` (in `_base.py`, which re-exports all of these)
calls them.
"""

import inspect
import re

import numpy as np

_NAME_COUNTS = {}


def _auto_name(class_name):
    # Keras' snake case: a capital starts a word before lower-case letters or after one
    # (`MaxPooling2D` -> max_pooling2d, `Conv2D` -> conv2d, `StringLookup` -> string_lookup).
    base = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", class_name)
    base = re.sub(r"([a-z])([A-Z])", r"\1_\2", base).lower()
    count = _NAME_COUNTS.get(base, 0)
    _NAME_COUNTS[base] = count + 1
    return base if count == 0 else f"{base}_{count}"


def reset_names():
    """Forget the automatic names given so far: the next `Normalization()` is `normalization`."""
    _NAME_COUNTS.clear()


# The values Keras records from a custom layer's constructor to write its config by itself.
_PLAIN = (str, int, float, bool, type(None))


def _constructor_arguments(cls, args, kwargs):
    """The arguments a custom layer was built with, by name, when all are plain values (None
    otherwise): what Keras' automatic `get_config` returns for a subclass without one."""
    try:
        bound = inspect.signature(cls.__init__).bind(None, *args, **kwargs).arguments
    except TypeError:
        return None  # __init__ will raise the same error with its own message
    bound.pop(next(iter(bound)))  # self
    for name, parameter in inspect.signature(cls.__init__).parameters.items():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            bound.update(bound.pop(name, {}))
        elif parameter.kind is inspect.Parameter.VAR_POSITIONAL and bound.pop(name, ()):
            return None
    if not all(_is_plain(value) for value in bound.values()):
        return None
    return bound


def _is_plain(value):
    if isinstance(value, (list, tuple)):
        return all(_is_plain(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain(v) for k, v in value.items())
    return isinstance(value, _PLAIN)


# What Keras 3's base `Layer.__init__` takes besides `name`, `dtype` and `trainable`. feedline
# keeps them on the layer (they change nothing here) so Keras code and configs load as written.
KERAS_BASE_KWARGS = ("autocast", "activity_regularizer", "input_shape", "input_dim",
                     "batch_size", "batch_input_shape")


def dtype_policy_name(dtype):
    """The dtype policy name of `dtype`: a name, a NumPy dtype, or Keras' serialized policy.

    >>> dtype_policy_name({"class_name": "DTypePolicy", "config": {"name": "int32"}})
    'int32'
    """
    if isinstance(dtype, dict):
        config = dtype.get("config")
        if not isinstance(config, dict) or "name" not in config:
            raise ValueError(f"dtype: expected a Keras DTypePolicy config such as "
                             f"{{'class_name': 'DTypePolicy', 'config': {{'name': 'float32'}}}}"
                             f", got {dtype!r}")
        return str(config["name"])
    if isinstance(dtype, str):
        return dtype
    try:
        return np.dtype(dtype).name
    except TypeError:
        raise TypeError(f"dtype: expected a dtype name such as 'float32', got {dtype!r}") \
            from None


def serialize_dtype(name):
    """Keras 3's serialized form of the dtype policy `name`, as `get_config` writes it."""
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": name},
            "registered_name": None}
