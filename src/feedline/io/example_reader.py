"""Decode the features of one serialized `Example`, fast.

`read_features(record, names, index)` returns `{name: (kind, values)}` for the wanted
feature names present in the record, where kind is "bytes_list", "float_list" or
"int64_list". Values stay in a cheap form until a whole batch is gathered:

- float_list: the packed little-endian float32 bytes, exactly as stored;
- int64_list: the packed varint bytes, exactly as stored;
- bytes_list: a list of `bytes`;

or a NumPy array / list when the record took the general path. `count` and `concatenate`
understand all of these, so a batch becomes one `np.frombuffer` or one varint decode.

The usual layout (what TensorFlow, feedline and every mainstream writer produce) is walked
directly: Example.features -> map entries (key, then value) -> one list -> packed values.
Anything else (unknown fields, unpacked numbers, repeated `features` fields, a value before
its key) goes through the protobuf classes, so the answer never depends on the path. As in
TensorFlow, a later entry with the same key wins, and a feature with no list set is missing.

The helpers for the cheap forms (`count`, `counts`, `decode`, `encode`, `concatenate`) and the
varint coders (`decode_varints`, `encode_varints`) are in `_example_values`, re-exported here.
This module reads the records: `read_features` and `read_all`.

>>> from feedline.train import Example, Features, Feature, Int64List
>>> data = Example(features=Features(feature={
...     "n": Feature(int64_list=Int64List(value=[1, 300]))})).SerializeToString()
>>> kind, values = read_features(data, {b"n"}, 0)[b"n"]
>>> kind, decode(values, "int64_list").tolist()
('int64_list', [1, 300])
"""

import numpy as np

from ..errors import InvalidArgumentError
from ._example_values import (_CONTINUATION_BYTES, concatenate, count,  # noqa: F401
                              counts, decode, decode_varints, encode,  # re-exported
                              encode_varints)

_KINDS = {0x0A: "bytes_list", 0x12: "float_list", 0x1A: "int64_list"}
_EMPTY = object()


def _varint(data, position):
    """Read the varint starting at `position`: (value, position after it)."""
    result = shift = 0
    while True:
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        if byte < 128:
            return result, position
        shift += 7
        if shift > 63:
            raise IndexError("varint too long")


def _walk(data, names):
    """The fast path: `{name: (kind, values)}`, or None when the layout is not the usual.

    Lengths below 16384 (one or two varint bytes) are decoded inline: this loop runs once per
    feature per record, and a function call would double its cost.
    """
    end = len(data)
    found = {}
    if not end:
        return found
    if data[0] != 0x0A:
        return None
    size = data[1]
    position = 2
    if size > 127:
        byte = data[2]
        if byte > 127:
            size, position = _varint(data, 1)
        else:
            size, position = (size & 0x7F) | (byte << 7), 3
    if position + size != end:
        return None
    while position < end:
        # map entry: tag, length
        if data[position] != 0x0A:
            return None
        size = data[position + 1]
        position += 2
        if size > 127:
            byte = data[position]
            if byte > 127:
                size, position = _varint(data, position - 1)
            else:
                size, position = (size & 0x7F) | (byte << 7), position + 1
        entry_end = position + size
        # key: tag, length (short), bytes
        if data[position] != 0x0A:
            return None
        size = data[position + 1]
        if size > 127:
            size, position = _varint(data, position + 1)
        else:
            position += 2
        key = data[position:position + size]
        position += size
        if position == entry_end or key not in names:
            position = entry_end
            continue
        # value: a Feature
        if data[position] != 0x12:
            return None
        size = data[position + 1]
        position += 2
        if size > 127:
            byte = data[position]
            if byte > 127:
                size, position = _varint(data, position - 1)
            else:
                size, position = (size & 0x7F) | (byte << 7), position + 1
        if position + size != entry_end:
            return None
        if position == entry_end:       # a Feature with no list: missing, as in TensorFlow
            continue
        kind = _KINDS.get(data[position])
        if kind is None:
            return None
        size = data[position + 1]
        position += 2
        if size > 127:
            byte = data[position]
            if byte > 127:
                size, position = _varint(data, position - 1)
            else:
                size, position = (size & 0x7F) | (byte << 7), position + 1
        if position + size != entry_end:
            return None
        if kind == "bytes_list":
            values = []
            while position < entry_end:
                if data[position] != 0x0A:
                    return None
                size = data[position + 1]
                position += 2
                if size > 127:
                    byte = data[position]
                    if byte > 127:
                        size, position = _varint(data, position - 1)
                    else:
                        size, position = (size & 0x7F) | (byte << 7), position + 1
                values.append(data[position:position + size])
                position += size
            if position != entry_end:
                return None
        elif position == entry_end:
            values = b""
        else:
            if data[position] != 0x0A:  # not packed
                return None
            size = data[position + 1]
            if size > 127:
                size, position = _varint(data, position + 1)
            else:
                position += 2
            if position + size != entry_end:
                return None
            values = data[position:entry_end]
            if kind == "float_list" and size % 4:
                return None
        found[key] = (kind, values)
        position = entry_end
    return found


def _general(data, names, index):
    """The protobuf path, for any valid encoding."""
    from google.protobuf.message import DecodeError

    from ..train import Example

    try:
        example = Example.FromString(data)
    except DecodeError:
        preview = data[:40]
        raise InvalidArgumentError(f"Could not parse example input, value: '{preview!r}"
                                   f"{'...' if len(data) > 40 else ''}' (record {index}: "
                                   "not a serialized Example)") from None
    feature_map = example.features.feature
    found = {}
    for name in names:
        feature = feature_map.get(name.decode("utf-8"))
        if feature is None:
            continue
        kind = feature.WhichOneof("kind")
        if kind is None:
            continue
        values = getattr(feature, kind).value
        if kind == "float_list":
            values = np.array(values, dtype=np.float32)
        elif kind == "int64_list":
            values = np.array(values, dtype=np.int64)
        else:
            values = list(values)
        found[name] = (kind, values)
    return found


def read_features(data, names, index):
    """`{name: (kind, values)}` for the names in `names` (a set of bytes) found in `data`."""
    try:
        found = _walk(data, names)
    except IndexError:  # ran off the end: let the general path judge (and word the error)
        found = None
    return found if found is not None else _general(data, names, index)


def read_all(records, names):
    """`read_features` over a list of records."""
    walk, found_all = _walk, []
    for index, data in enumerate(records):
        try:
            found = walk(data, names)
        except IndexError:
            found = None
        found_all.append(found if found is not None else _general(data, names, index))
    return found_all

