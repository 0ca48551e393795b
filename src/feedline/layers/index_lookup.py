"""`IndexLookup`: the vocabulary machinery shared by `StringLookup` and `IntegerLookup`.

Index layout (Keras'): in "int" mode an optional mask token takes index 0, then come
`num_oov_indices` OOV indices, then the vocabulary. In the other modes the mask token has no
index and is dropped from the encodings. With several OOV indices an unknown string goes to
`Fingerprint64(token) % num_oov_indices` and an unknown integer to `token mod num_oov_indices`
(floor modulo). `adapt` orders tokens by count, high to low, ties by the token, high to low.

Strings are kept as bytes; lookups accept `str` or `bytes` for the same token.

The methods come in groups, one module each: setting the vocabulary
(`_index_lookup_vocabulary`), learning it with `adapt` (`_index_lookup_adapt`) and calling the
layer (`_index_lookup_call`). This module holds the constructor, the conventions for tokens and
indices, and the config.
"""

from ._base import Layer, check_choice
from ._hashing import as_bytes
from ._index_lookup_adapt import AdaptMixin
from ._index_lookup_call import _MISSING, LookupCallMixin  # noqa: F401 - _MISSING re-exported
from ._index_lookup_vocabulary import _DROPPED, VocabularyMixin  # noqa: F401 - re-exported

_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


class IndexLookup(VocabularyMixin, AdaptMixin, LookupCallMixin, Layer):
    """Base class; use `StringLookup` or `IntegerLookup`."""

    _strings = True
    _IGNORED_CONFIG_KEYS = ("vocabulary_size", "has_input_vocabulary")

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None,
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 sparse=False, pad_to_max_tokens=False, oov_method="floormod", name=None,
                 **kwargs):
        super().__init__(name, **kwargs)
        kind = type(self).__name__
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError("If set, `max_tokens` must be greater than 1. "
                             f"Received: max_tokens={max_tokens}")
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError("If pad_to_max_tokens is True, must set `max_tokens`. "
                             f"Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError("`num_oov_indices` must be greater than or equal to 0. "
                             f"Received: num_oov_indices={num_oov_indices}")
        check_choice(oov_method, ("floormod", "farmhash"), "oov_method", kind)
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        check_choice(output_mode, _MODES, "output_mode", kind)
        if invert and output_mode != "int":
            raise ValueError("`output_mode` must be `'int'` when `invert` is true. "
                             f"Received: output_mode={output_mode}")
        if sparse:
            raise ValueError("feedline layers return dense arrays; `sparse=True` is not supported")
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError("`idf_weights` should only be set if `output_mode` is 'tf_idf'. "
                             f"Received: output_mode={output_mode}")
        if output_mode == "tf_idf" and vocabulary is not None and idf_weights is None:
            raise ValueError("When specifying the `vocabulary` argument, in TF-IDF output mode, "
                             "the `idf_weights` argument must also be provided.")
        self.max_tokens = max_tokens
        self.num_oov_indices = int(num_oov_indices)
        self.mask_token = mask_token
        self.oov_token = oov_token
        self.invert = bool(invert)
        self.output_mode = output_mode
        self.sparse = False
        self.pad_to_max_tokens = bool(pad_to_max_tokens)
        self.oov_method = oov_method
        self._has_input_vocabulary = vocabulary is not None
        self._tokens = None       # learned or given tokens, specials excluded
        self._idf = None          # float32 weights, one per index (specials included)
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    # -- token conventions (overridden by IntegerLookup) --------------------------------------

    def _norm(self, token):
        return as_bytes(token)

    def _show(self, token):
        try:
            return token.decode("utf-8")
        except UnicodeDecodeError:
            return token

    def _read_vocabulary_file(self, path):
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        return lines

    # -- indices ----------------------------------------------------------------------------

    def _oov_start(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start(self):
        return self._oov_start() + self.num_oov_indices

    def _special_tokens(self):
        return ([self.mask_token] * self._oov_start()) + [self.oov_token] * self.num_oov_indices

    def vocabulary_size(self):
        """Number of indices: mask and OOV indices plus the vocabulary."""
        return self._token_start() + (0 if self._tokens is None else len(self._tokens))

    def get_vocabulary(self, include_special_tokens=True):
        """The token at each index (the mask and OOV tokens first, unless excluded)."""
        tokens = [] if self._tokens is None else [self._show(t) for t in self._tokens]
        if include_special_tokens:
            return list(self._special_tokens()) + tokens
        return tokens

    # -- config -----------------------------------------------------------------------------

    def _config(self):
        vocabulary = idf = None
        if self._tokens is not None:
            vocabulary = self.get_vocabulary(include_special_tokens=True)
            if self._idf is not None:
                idf = self._idf[:len(vocabulary)].tolist()
        # Keras' keys. Keras keeps an adapted vocabulary in an asset file and writes
        # `vocabulary=None`; feedline has no asset file, so the config carries it.
        return {"invert": self.invert, "max_tokens": self.max_tokens,
                "num_oov_indices": self.num_oov_indices, "oov_token": self.oov_token,
                "mask_token": self.mask_token, "output_mode": self.output_mode,
                "sparse": self.sparse, "pad_to_max_tokens": self.pad_to_max_tokens,
                "idf_weights": idf, "vocabulary": vocabulary,
                "vocabulary_size": None if vocabulary is None else self.vocabulary_size(),
                "oov_method": self.oov_method}

    @classmethod
    def from_config(cls, config):
        """Rebuild the layer, vocabulary and idf weights included.

        Of a Keras config, `vocabulary_size` and `has_input_vocabulary` are not read (the size
        follows from the vocabulary) and `salt` must be None (salted OOV hashing is not
        implemented).
        """
        config = dict(config)
        salt = config.pop("salt", None)
        if salt is not None:
            raise NotImplementedError(f"{cls.__name__}: salted OOV hashing (salt={salt!r}) is "
                                      "not implemented; use oov_method='floormod' and no salt")
        config = cls._config_arguments(config)
        vocabulary = config.pop("vocabulary", None)
        idf = config.pop("idf_weights", None)
        layer = cls(**config)
        if vocabulary is not None:
            layer.set_vocabulary(vocabulary, idf)
            layer._has_input_vocabulary = True
        return layer
