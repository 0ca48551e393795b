"""`Input` and `InputLayer`: the symbolic inputs a functional model starts from.

>>> import feedline as fl
>>> fl.keras.Input(shape=[8], name="num")
<KerasTensor shape=(None, 8), dtype=float32, name=num>
"""

import warnings

import numpy as np

from .. import dtypes
from ._base import Layer
from ._symbolic import Node, SymbolicTensor


class InputLayer(Layer):
    """The layer behind `Input`: it holds the input's shape, dtype and name.

    Args:
        shape: the shape of one sample (no batch axis), e.g. `[8]`; `[]` for a scalar.
        batch_size: kept for Keras' signature.
        dtype: the dtype of the values ("float32" by default; `fl.string` for text).
        name: the input's name (a model fed a dict finds the input's values by this name).
        batch_shape: the shape with its batch axis, instead of `shape`.
        sparse, ragged, input_tensor, optional: kept for Keras' signature.
    """

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None,
                 batch_shape=None, input_tensor=None, optional=False, name=None, ragged=None,
                 **kwargs):
        input_shape = kwargs.pop("input_shape", None)
        if input_shape is not None and shape is None and batch_shape is None:
            # Keras 2's spelling, which Keras 3 still takes (with a warning): the same thing.
            warnings.warn("InputLayer: `input_shape` is deprecated; use `shape` instead",
                          UserWarning, stacklevel=2)
            shape = input_shape
        super().__init__(name, **kwargs)
        if batch_shape is None:
            if shape is None:
                raise ValueError("Input: give shape= (one sample's shape, e.g. [8]) or "
                                 "batch_shape=")
            batch_shape = (batch_size,) + tuple(shape)
        value_dtype = "object" if dtype in (dtypes.string, "string") else (dtype or "float32")
        self.batch_shape_arg = tuple(None if s is None else int(s) for s in batch_shape)
        self.output = SymbolicTensor((None,) + self.batch_shape_arg[1:],
                                     np.dtype(value_dtype), self.name, None)
        self.output.node = Node(self, None, {})

    def call(self, inputs):
        return inputs

    def _config(self):
        return {"batch_shape": list(self.batch_shape_arg)}


def Input(shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, name=None,
          tensor=None, optional=False, ragged=None):  # noqa: N802 - Keras' name
    """A symbolic input of a functional model (see `InputLayer` for the arguments).

    >>> import feedline as fl
    >>> fl.keras.Input(shape=[], dtype=fl.string, name="city")
    <KerasTensor shape=(None,), dtype=string, name=city>
    """
    return InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse,
                      batch_shape=batch_shape, name=name, ragged=ragged).output
