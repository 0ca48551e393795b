"""Learning a lookup layer's vocabulary from data: count the tokens (and, for tf_idf, the
documents each appears in) batch by batch, then keep the most frequent.

`IndexLookup` (`StringLookup`, `IntegerLookup`) takes these methods from `AdaptMixin`.
"""

import collections
import itertools

import numpy as np

from ._base import is_batch_stream, iter_batches


class AdaptMixin:
    """`adapt`, `update_state` and `finalize_state` of `IndexLookup` (see the module)."""

    # -- adapt ------------------------------------------------------------------------------

    def adapt(self, data, steps=None):
        """Learn the vocabulary (and document frequencies for tf_idf) from data or batches."""
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}' after setting a static "
                             "vocabulary via `vocabulary` argument or `set_vocabulary()` method.")
        self._reset_counts()
        if is_batch_stream(data):
            for batch in iter_batches(data, steps):
                self.update_state(batch)
        else:
            array = self._to_keys(data)
            if array.ndim == 1:
                array = array[:, None]  # a plain list: each value is its own document
            self.update_state(array)
        self.finalize_state()

    def _reset_counts(self):
        self._counts = collections.Counter()
        self._doc_counts = collections.Counter()
        self._num_docs = 0

    def update_state(self, data):
        """Count the tokens of one batch (rank 0/1: one document; rank 2+: one per row)."""
        if not hasattr(self, "_counts"):
            self._reset_counts()
        array = self._to_keys(data)
        if array.ndim <= 1:
            rows = [array.reshape(-1)]
        else:
            rows = list(array.reshape(array.shape[0], -1))
        self._count_rows(rows, flat=array.reshape(-1))

    def _count_rows(self, rows, flat=None):
        if flat is None:
            flat = list(itertools.chain.from_iterable(rows))
        if self._strings:
            self._counts.update(flat.tolist() if isinstance(flat, np.ndarray) else flat)
        else:
            values, counts = np.unique(np.asarray(flat, dtype=np.int64), return_counts=True)
            self._counts.update(dict(zip(values.tolist(), counts.tolist())))
        if self.output_mode == "tf_idf":
            for row in rows:
                self._doc_counts.update(set(row.tolist() if isinstance(row, np.ndarray)
                                            else row))
            self._num_docs += len(rows)

    def _merged(self, counter):
        merged = collections.Counter()
        for token, count in counter.items():
            merged[self._norm(token)] += count
        return merged

    def finalize_state(self):
        """Turn the counts gathered by `update_state` into the vocabulary."""
        counts = self._merged(self._counts)
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                counts.pop(self._norm(special), None)
        ranked = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
        if self.max_tokens:
            ranked = ranked[:max(self.max_tokens - self._token_start(), 0)]
        tokens = [token for token, _ in ranked]
        if self.output_mode == "tf_idf":
            docs = self._merged(self._doc_counts)
            frequency = np.array([docs[t] for t in tokens], dtype=np.float64)
            idf = np.log(1.0 + self._num_docs / (1.0 + frequency)).astype(np.float32)
            fill = idf.mean(dtype=np.float32) if idf.size else np.float32(0)
            idf = np.concatenate([np.full(self._token_start(), fill, np.float32), idf])
            if self.pad_to_max_tokens and self.max_tokens is not None:
                idf = np.pad(idf, (0, max(0, self.max_tokens - idf.size)))
            self._idf = idf
        self._set_tokens(tokens)
        self._reset_counts()
