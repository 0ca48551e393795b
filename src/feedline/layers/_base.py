"""What every preprocessing layer shares: naming, config round trips, input conversion.

>>> to_string_array(["a", b"b"]).dtype
dtype('O')
"""

import itertools
import re

import numpy as np

from .. import data as _data


class NotAdaptedError(RuntimeError):
    """A layer that learns its state was called before `adapt` (or before its state was given)."""


_NAME_COUNTS = {}


def _auto_name(class_name):
    base = re.sub(r"(?<!^)(?=[A-Z])", "_", class_name).lower()
    count = _NAME_COUNTS.get(base, 0)
    _NAME_COUNTS[base] = count + 1
    return base if count == 0 else f"{base}_{count}"


class Layer:
    """Base class: `layer(x)` runs `call`; `get_config`/`from_config` rebuild an equal layer.

    >>> class Twice(Layer):
    ...     def call(self, x):
    ...         return np.asarray(x) * 2
    >>> Twice(name="t")([1, 2]).tolist(), Twice.from_config({"name": "u"}).name
    ([2, 4], 'u')
    """

    def __init__(self, name=None):
        self.name = name if name is not None else _auto_name(type(self).__name__)

    def __call__(self, inputs, *args, **kwargs):
        return self.call(inputs, *args, **kwargs)

    def call(self, inputs):  # pragma: no cover - every layer overrides it
        raise NotImplementedError

    def _config(self):
        return {}

    def get_config(self):
        """The constructor arguments (learned state included) that rebuild this layer."""
        return {"name": self.name, **self._config()}

    @classmethod
    def from_config(cls, config):
        """A new layer from `get_config()`'s dictionary."""
        return cls(**dict(config))

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name!r}>"


def check_choice(value, allowed, arg_name, layer_name):
    """Raise ValueError unless `value` is one of `allowed`."""
    if not (isinstance(value, str) and value in allowed):
        raise ValueError(f"Unknown value for `{arg_name}` argument of layer {layer_name}. "
                         f"Expected one of {list(allowed)}. Received: {arg_name}={value!r}")


def first_component(batch):
    """The features of a batch: `(x, y)` and `(x, y, w)` batches give `x`."""
    if isinstance(batch, tuple) and batch:
        return batch[0]
    return batch


def iter_batches(data, steps=None):
    """The batches `adapt` reads: a Dataset or any iterable of batches (first `steps` only)."""
    if isinstance(data, _data.Dataset) and steps is not None:
        data = data.take(steps)
    iterator = (first_component(batch) for batch in data)
    if steps is not None and not isinstance(data, _data.Dataset):
        iterator = itertools.islice(iterator, steps)
    return iterator


def is_batch_stream(data):
    """True when `adapt(data)` should iterate `data` batch by batch."""
    if isinstance(data, _data.Dataset):
        return True
    return (not isinstance(data, (list, tuple, np.ndarray, str, bytes))
            and hasattr(data, "__iter__"))


def to_string_array(values, layer_name="layer"):
    """An object array of `str`/`bytes` from strings, lists of them or NumPy string arrays.

    Raises TypeError for numeric or boolean input.
    """
    if isinstance(values, (str, bytes)):
        return np.array(values, dtype=object)
    if not isinstance(values, np.ndarray):
        values = np.array(values, dtype=object)
        if values.size and not isinstance(values.flat[0], (str, bytes, np.str_, np.bytes_)):
            values = np.array(values.tolist())
    if values.dtype.kind in "US":
        return values.astype(object)
    if values.dtype.kind != "O":
        raise TypeError(f"{layer_name} expects strings (str or bytes); received an array of "
                        f"dtype {values.dtype}")
    return values


def to_int_array(values, layer_name="layer"):
    """An int64 array; integral floats are accepted, strings and fractions are refused."""
    array = np.asarray(values)
    if array.dtype.kind in "iu":
        return array.astype(np.int64, copy=False)
    if array.dtype.kind == "f" and np.all(np.floor(array) == array):
        return array.astype(np.int64)
    if array.dtype.kind == "O":
        try:
            converted = np.array(array.tolist(), dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            converted = None
        if converted is not None and not any(isinstance(v, (str, bytes))
                                             for v in array.reshape(-1).tolist()):
            return converted.reshape(array.shape)
    raise TypeError(f"{layer_name} expects integers; received an array of dtype {array.dtype}")


def to_float_array(values, layer_name="layer", dtype=np.float32):
    """A float array of `dtype`; strings are refused."""
    array = np.asarray(values)
    if array.dtype.kind in "biuf":
        return array.astype(dtype, copy=False)
    raise TypeError(f"{layer_name} expects numbers; received an array of dtype {array.dtype}")
