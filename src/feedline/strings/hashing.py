"""`to_hash_bucket`, `to_hash_bucket_fast` and `to_hash_bucket_strong`: strings hashed into
`num_buckets` ids.

`to_hash_bucket` (the op TensorFlow keeps for old graphs) is TensorFlow's own 64-bit
multiply-and-shift hash (the MurmurHash64A scheme with the fixed seed 0xDECAFCAFFE) modulo
`num_buckets`; `to_hash_bucket_fast` is FarmHash's Fingerprint64 of the string modulo `num_buckets`;
`to_hash_bucket_strong` is SipHash-2-4 keyed by the two numbers of `key` (little-endian
uint64s), modulo `num_buckets`: the hashes TensorFlow's kernels use, so the ids are
TensorFlow's (they are the ones `fl.layers.Hashing` and `fl.lookup` already use).

>>> to_hash_bucket_fast([b"seoul", b"paris"], 8).tolist()
[5, 5]
"""

import struct

import numpy as np

from ..errors import InvalidArgumentError
from ..io import ragged_ops
from ..io.ragged import RaggedTensor
from ..layers._hashing import fingerprint_buckets, siphash_buckets
from ._elementwise import as_strings
from ..ops._eager import returns_tensors


def _buckets(num_buckets, what):
    count = int(num_buckets)
    if count < 1:
        raise InvalidArgumentError(f"{what}: num_buckets must be at least 1, got {count}")
    return count


_MULTIPLIER = 0xC6A4A7935BD1E995
_SHIFT = 47
_SEED = 0xDECAFCAFFE
_WORD = (1 << 64) - 1


def legacy_hash64(data):
    """TensorFlow's legacy 64-bit string hash of `data` (bytes), as an unsigned int.

    Eight-byte little-endian words are each scrambled by a multiply, a shift-xor and a
    multiply, then folded into the running value; the last 1 to 7 bytes are folded in as one
    little-endian number; a final shift-xor, multiply, shift-xor spreads the high bits down.

    >>> [legacy_hash64(text) % 3 for text in (b"Hello", b"TensorFlow", b"2.x")]
    [2, 0, 1]
    """
    value = (_SEED ^ (len(data) * _MULTIPLIER)) & _WORD
    whole = len(data) - len(data) % 8
    for (word,) in struct.iter_unpack("<Q", data[:whole]):
        word = (word * _MULTIPLIER) & _WORD
        word = ((word ^ (word >> _SHIFT)) * _MULTIPLIER) & _WORD
        value = ((value ^ word) * _MULTIPLIER) & _WORD
    if whole < len(data):
        value = ((value ^ int.from_bytes(data[whole:], "little")) * _MULTIPLIER) & _WORD
    value ^= value >> _SHIFT
    value = (value * _MULTIPLIER) & _WORD
    return value ^ (value >> _SHIFT)


def _shaped(strings, ids):
    return np.int64(ids.reshape(())) if isinstance(strings, bytes) else ids


@returns_tensors
def to_hash_bucket(input, num_buckets, name=None):  # noqa: A002 - TensorFlow's name
    """TensorFlow's legacy 64-bit hash of each string modulo `num_buckets`, int64, same shape.

    TensorFlow keeps this op for old code and recommends `to_hash_bucket_fast` (FarmHash) for
    new code; the ids differ between the two.

    >>> to_hash_bucket(["Hello", "TensorFlow", "2.x"], 3).numpy()
    array([2, 0, 1])
    """
    if isinstance(input, RaggedTensor):
        return ragged_ops.map_flat(to_hash_bucket, input, num_buckets)
    count = _buckets(num_buckets, "to_hash_bucket")
    strings = as_strings(input)
    flat = np.array([strings], dtype=object) if isinstance(strings, bytes) else strings
    ids = np.fromiter((legacy_hash64(item) % count for item in flat.reshape(-1).tolist()),
                      dtype=np.int64, count=flat.size)
    return _shaped(strings, ids.reshape(flat.shape))


@returns_tensors
def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 - TensorFlow's name
    """`Fingerprint64(string) % num_buckets` for each string, int64, same shape.

    >>> to_hash_bucket_fast("hello", 10)
    <tf.Tensor: shape=(), dtype=int64, numpy=6>
    """
    if isinstance(input, RaggedTensor):  # the same rows, each string hashed
        return ragged_ops.map_flat(to_hash_bucket_fast, input, num_buckets)
    count = _buckets(num_buckets, "to_hash_bucket_fast")
    strings = as_strings(input)
    flat = np.array([strings], dtype=object) if isinstance(strings, bytes) else strings
    return _shaped(strings, fingerprint_buckets(flat, count))


@returns_tensors
def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """`SipHash-2-4(key, string) % num_buckets` for each string, int64, same shape.

    Raises:
        InvalidArgumentError: when `key` is not two integers.

    >>> to_hash_bucket_strong(["a", "b"], 10, key=[1, 2]).dtype
    tf.int64
    """
    if isinstance(input, RaggedTensor):
        return ragged_ops.map_flat(to_hash_bucket_strong, input, num_buckets, key)
    count = _buckets(num_buckets, "to_hash_bucket_strong")
    pair = list(np.asarray(key).reshape(-1).tolist()) if not isinstance(key, int) else [key]
    if len(pair) != 2 or not all(isinstance(part, int) for part in pair):
        raise InvalidArgumentError(f"to_hash_bucket_strong: key must be two integers, got "
                                   f"{key!r}; write key=[1, 2]")
    strings = as_strings(input)
    flat = np.array([strings], dtype=object) if isinstance(strings, bytes) else strings
    return _shaped(strings, siphash_buckets(flat, count, tuple(pair)))
