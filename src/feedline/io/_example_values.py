"""The values of an `Example` feature in `example_reader`'s cheap form, and varints.

Until a batch is gathered, a feature's values stay as the record stored them: packed
little-endian float32 bytes for a float_list, packed varint bytes for an int64_list, a list of
`bytes` for a bytes_list (or a NumPy array / list from the protobuf path). These helpers work
on any of those forms: `count` and `counts` tell how many values there are, `decode` and
`concatenate` make NumPy arrays (a whole batch at once), `encode` makes the cheap form of a
default value. `decode_varints` and `encode_varints` convert int64 values to and from packed
protobuf varints. `example_reader` re-exports them all.
"""

import itertools

import numpy as np

from ..errors import InvalidArgumentError

_CONTINUATION_BYTES = bytes(range(128, 256))


def counts(parts, kind):
    """The number of values in each of `parts` (an int64 array)."""
    types = set(map(type, parts))
    if kind == "bytes_list" and types <= {list}:
        return np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
    if kind == "bytes_list" or not types <= {bytes}:
        return np.fromiter((count(part, kind) for part in parts), dtype=np.int64,
                           count=len(parts))
    sizes = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
    if kind == "float_list":
        return sizes >> 2
    ends = np.cumsum(sizes)
    if not len(ends) or not ends[-1]:
        return sizes
    last = np.concatenate(([0], np.cumsum(np.frombuffer(b"".join(parts), np.uint8) < 128)))
    return last[ends] - last[ends - sizes]


def count(values, kind):
    """How many values `values` (in any of the forms above) holds."""
    if isinstance(values, bytes):
        if kind == "float_list":
            return len(values) >> 2
        return len(values.translate(None, _CONTINUATION_BYTES))
    return len(values)


def decode(values, kind):
    """`values` as a NumPy array (float32, int64 or object)."""
    if isinstance(values, bytes):
        if kind == "float_list":
            return np.frombuffer(values, dtype="<f4").astype(np.float32, copy=False)
        return decode_varints(values)
    if kind == "bytes_list":
        array = np.empty(len(values), dtype=object)
        array[:] = list(values)
        return array
    return np.asarray(values)


def encode(array, kind):
    """The cheap form of a NumPy array of values (used for default values)."""
    if kind == "float_list":
        return np.asarray(array, dtype="<f4").tobytes()
    if kind == "int64_list":
        return encode_varints(array)
    return [bytes(value) for value in np.asarray(array, dtype=object).reshape(-1)]


def concatenate(parts, kind):
    """One NumPy array of all `parts`' values, in order."""
    if kind == "bytes_list":
        flat = list(itertools.chain.from_iterable(parts))
        array = np.empty(len(flat), dtype=object)
        array[:] = flat
        return array
    if all(isinstance(part, bytes) for part in parts):
        return decode(b"".join(parts), kind)
    dtype = np.float32 if kind == "float_list" else np.int64
    if not parts:
        return np.empty(0, dtype=dtype)
    return np.concatenate([decode(part, kind) for part in parts]).astype(dtype, copy=False)


def decode_varints(data):
    """Decode concatenated protobuf varints (int64 two's complement) all at once.

    >>> decode_varints(encode_varints([0, 1, 127, 128, 300, -1, 2**63 - 1])).tolist()
    [0, 1, 127, 128, 300, -1, 9223372036854775807]
    """
    raw = np.frombuffer(data, dtype=np.uint8)
    if not len(raw):
        return np.empty(0, dtype=np.int64)
    last = raw < 128
    if last.all():
        return raw.astype(np.int64)
    ends = np.flatnonzero(last)
    if not len(ends) or ends[-1] != len(raw) - 1:
        raise InvalidArgumentError("Can't parse serialized Example: an int64_list ends inside "
                                   "a varint")
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    lengths = ends - starts + 1
    if lengths.max() > 10:
        raise InvalidArgumentError("Can't parse serialized Example: a varint is longer than "
                                   "10 bytes")
    shifts = (np.arange(len(raw)) - np.repeat(starts, lengths)).astype(np.uint64) * np.uint64(7)
    pieces = (raw & 0x7F).astype(np.uint64) << shifts
    return np.bitwise_or.reduceat(pieces, starts).view(np.int64)


def encode_varints(values):
    """Protobuf varints of int64 `values`, concatenated (negative numbers take 10 bytes)."""
    out = bytearray()
    for value in np.asarray(values, dtype=np.int64).reshape(-1).tolist():
        value &= 0xFFFFFFFFFFFFFFFF
        while value >= 128:
            out.append((value & 0x7F) | 0x80)
            value >>= 7
        out.append(value)
    return bytes(out)
