"""`Embedding`: Keras' lookup of one learned vector per integer id.

The vectors are an `fl.Variable` (`layer.embeddings`) that training changes: the lookup is
`fl.gather`, so a `GradientTape` (and `Model.fit`) sends each looked-up row its gradient.
They start as Keras' default draws them (uniform in [-0.05, 0.05], from feedline's own
generator, so not Keras' numbers), or as the values you give with `set_weights`.

>>> import numpy as np
>>> layer = Embedding(input_dim=5, output_dim=2)
>>> layer.set_weights([np.arange(10, dtype=np.float32).reshape(5, 2)])
>>> layer(np.array([2, 4, 2])).tolist()
[[4.0, 5.0], [8.0, 9.0], [4.0, 5.0]]
"""

import warnings

import numpy as np

from .. import ops
from ..errors import InvalidArgumentError
from ..variable import Variable
from ._base import Layer
from ._keras_defaults import refuse_quantization
from ._regularized import RegularizedMixin, regularizer_config

_SEEDS = np.random.SeedSequence(20261123)


class Embedding(RegularizedMixin, Layer):
    """Each integer id in `0 .. input_dim - 1` becomes its row of `embeddings`.

    Args:
        input_dim: the number of ids.
        output_dim: the length of each vector.
        embeddings_initializer: "uniform" (Keras' default, in [-0.05, 0.05]), "zeros" or
            "ones".
        mask_zero: id 0 is padding: `compute_mask` marks it (and `input_dim` counts it).
        embeddings_regularizer, embeddings_constraint: a penalty added to the training loss
            and a constraint applied after each optimizer step, as in Keras.

    Raises:
        InvalidArgumentError: when called with an id outside `0 .. input_dim - 1`.
    """

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 weights=None, lora_rank=None, quantization_config=None, name=None, **kwargs):
        if kwargs.pop("input_length", None) is not None:  # Keras 2 code, still common
            warnings.warn("Embedding: `input_length` no longer exists in Keras 3 and is "
                          "ignored; delete the argument", UserWarning, stacklevel=2)
        super().__init__(name, **kwargs)
        refuse_quantization(quantization_config, "Embedding")
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        if self.input_dim <= 0 or self.output_dim <= 0:
            raise ValueError(f"Embedding: input_dim and output_dim must be positive, got "
                             f"input_dim={input_dim}, output_dim={output_dim}")
        self.embeddings_initializer = embeddings_initializer
        self.embeddings_regularizer = embeddings_regularizer
        self.embeddings_constraint = embeddings_constraint
        self.mask_zero, self.lora_rank = bool(mask_zero), lora_rank
        from ..keras import constraints, regularizers

        self.embeddings = Variable(self._initial(embeddings_initializer), name="embeddings",
                                   constraint=constraints.get(embeddings_constraint))
        self._own_weights().append(self.embeddings)
        if regularizers.get(embeddings_regularizer) is not None:
            self._regularized_weights().append(
                (self.embeddings, regularizers.get(embeddings_regularizer)))
        if weights is not None:
            self.set_weights(weights)

    def _initial(self, initializer):
        shape, dtype = (self.input_dim, self.output_dim), np.dtype(self.compute_dtype)
        name = initializer if isinstance(initializer, str) else \
            initializer.get("class_name", "") if isinstance(initializer, dict) else ""
        name = name.lower()
        if name in ("zeros", "zero"):
            return np.zeros(shape, dtype)
        if name in ("ones", "one"):
            return np.ones(shape, dtype)
        if name in ("uniform", "randomuniform", "random_uniform"):
            generator = np.random.default_rng(_SEEDS.spawn(1)[0])
            return generator.uniform(-0.05, 0.05, size=shape).astype(dtype)
        raise ValueError(f"Embedding: embeddings_initializer {initializer!r} is not supported "
                         "here; use 'uniform', 'zeros' or 'ones', or set_weights([...])")

    def get_weights(self):
        return [self.embeddings.numpy()]

    def set_weights(self, weights):
        """Give the vectors: `[array of shape (input_dim, output_dim)]`."""
        (values,) = weights
        values = np.asarray(values, dtype=self.compute_dtype)
        if values.shape != (self.input_dim, self.output_dim):
            raise ValueError(f"Embedding: weights must have shape "
                             f"{(self.input_dim, self.output_dim)}, got {values.shape}")
        self.embeddings.assign(values)

    def call(self, inputs):
        if hasattr(inputs, "nested_row_splits"):  # ragged ids: ragged rows of vectors
            return inputs.with_flat_values(np.asarray(self.call(inputs.flat_values)))
        ids = np.asarray(inputs)
        if ids.dtype.kind not in "iu":
            if ids.dtype.kind == "f" and np.array_equal(ids, np.round(ids)):
                ids = ids.astype(np.int64)  # Keras casts float ids to int
            else:
                raise TypeError(f"{self.name} expects integer ids; received dtype {ids.dtype}")
        bad = (ids < 0) | (ids >= self.input_dim)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise InvalidArgumentError(
                f"{self.name}: indices{list(where)} = {int(ids[where])} is not in "
                f"[0, {self.input_dim})")
        return ops.gather(self.embeddings, ids)

    def compute_mask(self, inputs, mask=None):
        """Where the ids are not 0, when `mask_zero`; else None."""
        return np.asarray(inputs) != 0 if self.mask_zero else None

    def _config(self):
        return {"input_dim": self.input_dim, "output_dim": self.output_dim,
                "embeddings_initializer": self.embeddings_initializer,
                **regularizer_config(self, "embeddings_regularizer", "embeddings_constraint"),
                "mask_zero": self.mask_zero, "quantization_config": None,
                # As Keras 3: lora_rank only when set.
                **({"lora_rank": self.lora_rank} if self.lora_rank else {})}
