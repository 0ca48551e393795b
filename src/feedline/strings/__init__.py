"""`feedline.strings`: the string operations of `tf.strings` that input pipelines use.

Strings are `bytes`; arrays of them are NumPy arrays of dtype object holding bytes; Python
`str` inputs are UTF-8 encoded. Results are handed out as `feedline.Tensor`s (a scalar string
as a `StringTensor`, a `bytes` with `.numpy()`), as TensorFlow's eager ops give them. Results keep the input's shape (`split`, `unicode_split`,
`unicode_decode` and `bytes_split` of an array give a `RaggedTensor`). Lengths are int32,
`to_number` gives float32 by default and hash buckets are int64, as in TensorFlow.

>>> import feedline as fl
>>> line = b" The Cat sat "
>>> fl.strings.split(fl.strings.lower(fl.strings.strip(line))).tolist()
[b'the', b'cat', b'sat']
"""

from .basic import length, lower, strip, substr, upper
from .formatting import as_string, format
from .hashing import to_hash_bucket, to_hash_bucket_fast, to_hash_bucket_strong
from .join import join, reduce_join
from .ngrams import ngrams
from .numbers import to_number
from .regex import regex_full_match, regex_replace
from .offsets import unicode_decode_with_offsets, unicode_split, unicode_split_with_offsets
from .script import unicode_script
from .segment_join import unsorted_segment_join
from .split import split
from .unicode import bytes_split, unicode_decode, unicode_encode, unicode_transcode

__all__ = ["as_string", "bytes_split", "format", "join", "length", "lower", "ngrams",
           "reduce_join", "regex_full_match", "regex_replace", "split", "strip", "substr",
           "to_hash_bucket", "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number", "unicode_decode",
           "unicode_decode_with_offsets", "unicode_encode", "unicode_script", "unicode_split",
           "unicode_split_with_offsets", "unicode_transcode", "unsorted_segment_join", "upper"]
