"""Check for exercise `ex-04-4`: decode the fields of a message, nested ones included.

The reference bytes come from real protobuf messages: classes built from small `.proto` texts by
feedline's own reader (`feedline.train._proto`) in a private descriptor pool, and
`feedline.train.Example`. When an answer differs, the check decodes the input with the usual
mistakes to say which one was made.
"""

from ... import train
from .._common import call_answer, check, fail, normalised_answer, passed, rng
from ._shared import NAMES, _classes


PROBE_PROTO = """\
syntax = "proto3";
package ex04.probe;

message Inner {
  sint64 delta = 1;
  string note = 2;
}

message Probe {
  int64 count = 1;
  double score = 2;
  fixed32 code = 3;
  Inner inner = 4;
  repeated Inner more = 5;
  bytes blob = 21;
  uint64 big = 300;
}
"""
#: Which fields of an Example hold messages: features > map entry > Feature > each list.
EXAMPLE_MESSAGES = {1: {1: {2: {1: {}, 2: {}, 3: {}}}}}
PROBE_MESSAGES = {4: {}, 5: {}}


def _read_varint(data, position):
    value, shift = 0, 0
    while True:
        byte = data[position]
        value |= (byte & 0x7F) << shift
        position, shift = position + 1, shift + 7
        if byte < 0x80:
            return value, position


def _decode(data, messages, big_endian=False, single_byte_key=False, flat=False):
    """The reference decoder; the flags switch on one usual mistake each."""
    fields, position = [], 0
    while position < len(data):
        if single_byte_key:
            key, position = data[position], position + 1
        else:
            key, position = _read_varint(data, position)
        number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            value, position = _read_varint(data, position)
        elif wire_type in (1, 5):
            size = 8 if wire_type == 1 else 4
            value = int.from_bytes(data[position:position + size],
                                   "big" if big_endian else "little")
            position += size
        elif wire_type == 2:
            length, position = _read_varint(data, position)
            value, position = bytes(data[position:position + length]), position + length
            if number in messages and not flat:
                value = _decode(value, messages[number], big_endian, single_byte_key)
        else:
            raise ValueError(f"wire type {wire_type}")
        fields.append((number, wire_type, value))
    return fields


def _normal(value):
    """Triples as tuples all the way down (a list of lists is accepted as well), payloads as
    bytes (slices of a bytearray or a memoryview of `data` are the same bytes)."""
    if isinstance(value, (list, tuple)) and len(value) == 3 and isinstance(value[0], int) \
            and not isinstance(value[0], bool):
        return (value[0], value[1], _normal(value[2]) if isinstance(value[2], (list, tuple))
                else _bytes_if_buffer(value[2]))
    if isinstance(value, (list, tuple)):
        return [_normal(item) for item in value]
    return _bytes_if_buffer(value)


def _bytes_if_buffer(value):
    return bytes(value) if isinstance(value, (bytearray, memoryview)) else value


def _probe_messages(generator):
    """Four Probe messages, each adding one feature: varints and strings, fixed-width values,
    field numbers above 15, nested messages."""
    probe_classes = _classes(PROBE_PROTO, "ex04/probe.proto")
    probe, inner = probe_classes["Probe"], probe_classes["Inner"]
    count, code = int(generator.integers(-10**6, 10**6)), int(generator.integers(1, 2**32))
    note = str(generator.choice(NAMES))
    return [
        ("varints and a string", probe(count=count, big=0), {}),
        ("fixed-width values (wire types 1 and 5)",
         probe(count=count, score=float(generator.uniform(-100, 100)), code=code), {}),
        ("field numbers above 15 (keys of 2 bytes)",
         probe(code=code, blob=bytes(generator.integers(0, 256, 5).tolist()),
               big=int(generator.integers(1, 2**40))), {}),
        ("nested messages", probe(count=count, inner=inner(delta=int(generator.integers(-99, 99)),
                                                           note=note),
                                  more=[inner(note=str(generator.choice(NAMES))), inner(delta=-3)]),
         PROBE_MESSAGES),
    ]


def _example(generator):
    feature = train.Feature
    return train.Example(features=train.Features(feature={
        "label": feature(int64_list=train.Int64List(value=[int(generator.integers(0, 10))])),
        "scores": feature(float_list=train.FloatList(value=generator.uniform(0, 1, 3).tolist())),
        "city": feature(bytes_list=train.BytesList(value=[str(generator.choice(NAMES))
                                                          .encode("utf-8")])),
    }))


@check("ex-04-4", hint="loop: read the key as a varint, number = key >> 3, wire type = key & 7; "
                        "then a varint (0), 8 or 4 little-endian bytes (1, 5), or a varint "
                        "length and that many bytes (2), which you decode again with "
                        "messages[number] when number is in messages",
       replayable=True)
def check_decode_fields(decode_fields):
    """ex-04-4: `decode_fields(data, messages)` gives the (number, wire type, value) triples.

    >>> def decode_fields(data, messages):
    ...     fields, position = [], 0
    ...     def varint():
    ...         nonlocal position
    ...         value, shift = 0, 0
    ...         while True:
    ...             byte = data[position]
    ...             position += 1
    ...             value |= (byte & 0x7F) << shift
    ...             shift += 7
    ...             if byte < 0x80:
    ...                 return value
    ...     while position < len(data):
    ...         key = varint()
    ...         number, wire_type = key >> 3, key & 7
    ...         if wire_type == 0:
    ...             value = varint()
    ...         elif wire_type in (1, 5):
    ...             size = 8 if wire_type == 1 else 4
    ...             value = int.from_bytes(data[position:position + size], "little")
    ...             position += size
    ...         else:
    ...             length = varint()
    ...             value = data[position:position + length]
    ...             position += length
    ...             if number in messages:
    ...                 value = decode_fields(value, messages[number])
    ...         fields.append((number, wire_type, value))
    ...     return fields
    >>> check_decode_fields(decode_fields)
    ex-04-4 passed: 4 Probe messages and an Example decoded, nested fields included
    """
    check_id = "ex-04-4"
    generator = rng(check_id)
    cases = _probe_messages(generator)
    cases.append(("a feedline.train.Example (messages 4 levels deep)", _example(generator),
                  EXAMPLE_MESSAGES))
    for what, message, messages in cases:
        data = message.SerializeToString()
        want = _decode(data, messages)
        # Normalised inside the call: a memoryview is not plain data, so the record holds the
        # triples as the kernel judged them (see normalised_answer).
        got = call_answer(check_id, normalised_answer(decode_fields, _normal), data, messages,
                          want_dataset=False)
        if got == want:
            continue
        said = (f"on a message with {what}, {data.hex(' ')}, with messages={messages}: "
                f"expected {want}, got {got}")
        fail(check_id, said, hint=_decode_mistake(data, messages, got, what))
    passed(check_id, "4 Probe messages and an Example decoded, nested fields included")


def _decode_mistake(data, messages, got, what):
    """The hint for a wrong decoding: the mistake it matches, or the feature the case adds."""
    if not isinstance(got, list):
        return "return a list of (field number, wire type, value) tuples"
    known = [({"big_endian": True}, "fixed-width values are little-endian: "
                                    "int.from_bytes(..., 'little')"),
             ({"flat": True}, "a length-delimited field whose number is in `messages` holds a "
                              "message: decode its bytes again, with messages[number]")]
    for flags, why in known:
        try:
            if got == _decode(data, messages, **flags):
                return why
        except (IndexError, ValueError):
            pass
    if any(isinstance(value, (bytes, bytearray)) for _, wire_type, value in
           (t for t in got if isinstance(t, tuple)) if wire_type in (1, 5)):
        return "give a fixed-width value (wire types 1 and 5) as the unsigned integer its " \
               "little-endian bytes hold, not as bytes"
    if "above 15" in what:
        return "a key is a varint too: field 21's key takes 2 bytes, field 300's takes 2"
    return None
