"""Calling a lookup layer: tokens to indices (unknown ones to the OOV indices), encoded as the
output mode asks, or indices back to tokens with `invert=True`.

`IndexLookup` (`StringLookup`, `IntegerLookup`) takes these methods from `LookupCallMixin`.
"""

import itertools

import numpy as np

from ..errors import InvalidArgumentError
from ..io.ragged import RaggedTensor
from ._base import NotAdaptedError
from ._encoding import encode
from ._ragged_lookup import ragged_lookup
from ._hashing import fingerprint_buckets

_MISSING = -1  # lookup result of a token not in the table


class LookupCallMixin:
    """`call` and the lookups it makes, for `IndexLookup` (see the module docstring)."""

    # -- call -------------------------------------------------------------------------------

    def _to_keys(self, values):
        raise NotImplementedError

    def _ensure_ready(self):
        if self._tokens is None:
            raise NotAdaptedError(f"Layer {self.name} has no vocabulary yet: pass `vocabulary` "
                                  "or call adapt(data) before calling it.")

    def call(self, inputs):
        self._ensure_ready()
        if isinstance(inputs, RaggedTensor):
            return ragged_lookup(self, inputs)
        if self.invert:
            return self._invert_lookup(inputs)
        keys = self._to_keys(inputs)
        indices = self._lookup(keys.reshape(-1)).reshape(keys.shape)
        return self._output(indices)

    def _output(self, indices):
        if self.output_mode == "int":
            return indices
        depth = self.max_tokens if self.pad_to_max_tokens else self.vocabulary_size()
        if self.output_mode == "tf_idf":
            counts = encode(indices, "count", depth, np.float32)
            return counts * self._idf[:depth]
        return encode(indices, self.output_mode, depth, np.int64)

    def _lookup(self, flat):
        """int64 indices of a flat array of keys (mask and OOV handled)."""
        if self._strings:
            items = flat.tolist()
            result = np.fromiter(map(self._table.get, items, itertools.repeat(_MISSING)),
                                 np.int64, count=len(items))
        else:
            result = self._int_lookup(flat)
        missing = result == _MISSING
        if missing.any():
            if self.num_oov_indices == 0:
                unknown = list(dict.fromkeys(flat[missing].tolist()))
                shown = [self._show(t) if isinstance(t, bytes) else t for t in unknown[:5]]
                raise InvalidArgumentError(
                    "When `num_oov_indices=0` all inputs should be in vocabulary, found OOV "
                    f"values {shown}{' ...' if len(unknown) > 5 else ''}, consider setting "
                    "`num_oov_indices=1`.")
            if self.num_oov_indices == 1:
                result[missing] = self._oov_start()
            else:
                result[missing] = self._oov_buckets(flat[missing]) + self._oov_start()
        return result

    def _oov_buckets(self, keys):
        return fingerprint_buckets(keys, self.num_oov_indices)

    def _invert_lookup(self, inputs):
        indices = np.asarray(inputs)
        if indices.dtype.kind not in "iu":
            raise TypeError(f"{self.name} with invert=True expects integer indices; received "
                            f"dtype {indices.dtype}")
        indices = indices.astype(np.int64)
        known = (indices >= 0) & (indices < len(self._inverse))
        default = self._norm(self.oov_token) if self._strings else self.oov_token
        out = np.empty(indices.shape, dtype=self._inverse.dtype)
        out[...] = default
        out[known] = self._inverse[indices[known]]
        return out
