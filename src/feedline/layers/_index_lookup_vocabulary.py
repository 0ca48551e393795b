"""Setting a lookup layer's vocabulary: checking a given one (a list, an array or a file) and
building the tables that map tokens to indices and indices back to tokens.

`IndexLookup` (`StringLookup`, `IntegerLookup`) takes these methods from `VocabularyMixin`;
`adapt` ends here too, with the vocabulary it learned.
"""

import collections
import os

import numpy as np

_DROPPED = -2  # a mask token in non-int modes: contributes to no encoding


class VocabularyMixin:
    """`set_vocabulary` and the lookup tables of `IndexLookup` (see the module docstring)."""

    # -- vocabulary -------------------------------------------------------------------------

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Use `vocabulary` (a sequence, array or text file path) and, for tf_idf, its weights."""
        if self.output_mode == "tf_idf" and idf_weights is None:
            raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        if self.output_mode != "tf_idf" and idf_weights is not None:
            raise ValueError("`idf_weights` should only be set if output_mode is 'tf_idf'. "
                             f"Received: output_mode={self.output_mode}")
        if isinstance(vocabulary, (str, os.PathLike)):
            if not os.path.exists(vocabulary):
                raise ValueError(f"Vocabulary file {vocabulary} does not exist.")
            if self.output_mode == "tf_idf":
                raise ValueError("output_mode 'tf_idf' does not support loading a vocabulary "
                                 "from file.")
            vocabulary = self._read_vocabulary_file(vocabulary)
        vocabulary = [self._norm(t) for t in np.asarray(vocabulary, dtype=object).reshape(-1)]
        if not vocabulary:
            raise ValueError(f"Cannot set an empty vocabulary. Received: vocabulary={vocabulary}")
        start = self._token_start()
        specials = [self._norm(t) for t in self._special_tokens()]
        found_specials = vocabulary[:start] == specials
        tokens = vocabulary[start:] if found_specials else vocabulary
        repeated = [t for t, n in collections.Counter(tokens).items() if n > 1]
        if repeated:
            raise ValueError("The passed vocabulary has at least one repeated term. Please "
                             f"uniquify your dataset. The repeated terms are: "
                             f"{[self._show(t) for t in repeated]}")
        if self.mask_token is not None and self._norm(self.mask_token) in tokens:
            raise ValueError(f"Found reserved mask token {self.mask_token!r} at an unexpected "
                             "location in `vocabulary`. Remove the mask and OOV tokens, or put "
                             f"them only at the start, in this order: {self._special_tokens()}")
        if (self.oov_token is not None and self.invert
                and self._norm(self.oov_token) in tokens):
            raise ValueError(f"Found reserved OOV token {self.oov_token!r} at an unexpected "
                             "location in `vocabulary`. Remove the mask and OOV tokens, or put "
                             f"them only at the start, in this order: {self._special_tokens()}")
        if self.max_tokens is not None and start + len(tokens) > self.max_tokens:
            raise ValueError("Attempted to set a vocabulary larger than the maximum vocab size. "
                             f"Received vocabulary size is {start + len(tokens)}; "
                             f"`max_tokens` is {self.max_tokens}.")
        if self.output_mode == "tf_idf":
            weights = np.asarray(idf_weights, dtype=np.float64)
            if weights.ndim != 1:
                raise ValueError("TF-IDF data must be a 1-index array.")
            if len(weights) != len(vocabulary):
                raise ValueError("`idf_weights` must be the same length as vocabulary. "
                                 f"len(idf_weights) is {len(weights)}; len(vocabulary) is "
                                 f"{len(vocabulary)}")
            front = 0 if found_specials else start
            back = 0
            if self.pad_to_max_tokens and self.max_tokens is not None:
                back = self.max_tokens - front - len(weights)
            weights = np.pad(weights, (front, back), constant_values=(
                np.average(weights) if front else 0, 0))
            self._idf = weights.astype(np.float32)
        self._set_tokens(tokens)

    def _set_tokens(self, tokens):
        self._tokens = list(tokens)
        start = self._token_start()
        table = {}
        if self._strings:
            for i, token in enumerate(self._tokens, start):
                table[token] = i
                try:
                    table[token.decode("utf-8")] = i
                except UnicodeDecodeError:
                    pass
            if self.mask_token is not None and not self.invert:
                mask_value = 0 if self.output_mode == "int" else _DROPPED
                mask = self._norm(self.mask_token)
                table[mask] = mask_value
                table[mask.decode("utf-8", "replace")] = mask_value
            self._table = table
        else:
            keys = np.asarray(self._tokens, dtype=np.int64)
            order = np.argsort(keys, kind="stable")
            self._sorted_keys = keys[order]
            self._sorted_values = order.astype(np.int64) + start
        # the inverse table: index -> token (OOV token for special and unknown indices)
        specials = [self.oov_token] * start
        if self.mask_token is not None and self.output_mode == "int":
            specials[0] = self.mask_token
        if self._strings:
            self._inverse = np.array([self._norm(t) for t in specials] + self._tokens,
                                     dtype=object)
        else:
            self._inverse = np.array(specials + self._tokens, dtype=np.int64)
