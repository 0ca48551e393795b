"""Checks for exercise notebook 04, protocol_buffers (ids `ex-04-1` to `ex-04-4`).

The reference bytes come from real protobuf messages: classes built from small `.proto` texts
by feedline's own reader (`feedline.train._proto`) in a private descriptor pool, and
`feedline.train.Example`. Each check draws fresh numbers, names and field numbers, and when an
answer differs it re-encodes the input with the usual mistakes (big-endian groups, a missing
continuation bit, the length in characters, ...) to say which one was made.
"""

import struct

from google.protobuf import descriptor_pool

from .. import train
from ..train._proto import message_classes, parse_proto
from ._common import call_answer, check, fail, normalised_answer, passed, rng

WIRE_TYPES = {0: ("uint64", 1, b"\x01"), 1: ("fixed64", 1, struct.pack("<Q", 1)),
              2: ("bytes", b"x", b"\x01x"), 5: ("fixed32", 1, struct.pack("<I", 1))}


def _classes(text, name):
    """{name: message class} for the messages of `text`, in a pool of their own."""
    return message_classes(parse_proto(text, name), pool=descriptor_pool.DescriptorPool())


def _plain_varint(number):
    """The reference varint (protobuf's rule, written out to build the wrong variants)."""
    out = bytearray()
    while number >= 0x80:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    out.append(number)
    return bytes(out)


def _groups(number):
    """`number` cut into 7-bit groups, lowest first (at least one group)."""
    groups = [number & 0x7F]
    while number >= 0x80:
        number >>= 7
        groups.append(number & 0x7F)
    return groups


def _with_bits(groups, last_bit):
    return bytes(g | 0x80 for g in groups[:-1]) + bytes([groups[-1] | last_bit])


# The mistakes a hand-written varint encoder makes, and what to say about each.
_VARINT_MISTAKES = [
    (lambda n: _with_bits(_groups(n)[::-1], 0),
     "the 7-bit groups are in the wrong order: the first byte holds the lowest 7 bits"),
    (lambda n: bytes(_groups(n)),
     "the bytes lack the continuation bit: every byte but the last needs its top bit (0x80) set"),
    (lambda n: bytes(g | 0x80 for g in _groups(n)),
     "the last byte has its top bit set too: only bytes that more bytes follow get 0x80"),
    (lambda n: b"" if n == 0 else _plain_varint(n),
     "0 is written as one byte, 00, not as nothing"),
    (lambda n: n.to_bytes(max(1, -(-n.bit_length() // 8)), "little"),
     "those are 8-bit bytes: a varint carries 7 bits of the number per byte"),
]


def _name_varint_mistake(number, got):
    for variant, why in _VARINT_MISTAKES:
        if got == variant(number):
            return why
    return None


def _as_bytes(check_id, value, what):
    if isinstance(value, bytearray):
        value = bytes(value)
    if not isinstance(value, bytes):
        fail(check_id, f"{what} should return bytes, got {type(value).__name__}",
             hint="build a bytearray, append one int (0 to 255) per byte, return bytes(it)")
    return value


def _hexed(data):
    return data.hex(" ") or "(no bytes)"


# -- ex-04-1 ------------------------------------------------------------------------------------

@check("ex-04-1", hint="take the lowest 7 bits (number & 0x7F); if anything is left "
                        "(number >> 7), set 0x80 on that byte and repeat with the rest",
       replayable=True)
def check_encode_varint(encode_varint):
    """ex-04-1: `encode_varint(number)` gives protobuf's varint bytes for any uint64.

    >>> def encode_varint(number):
    ...     out = bytearray()
    ...     while number >= 0x80:
    ...         out.append(number & 0x7F | 0x80)
    ...         number >>= 7
    ...     out.append(number)
    ...     return bytes(out)
    >>> check_encode_varint(encode_varint)
    ex-04-1 passed: the varints of 21 numbers from 0 to 2**64 - 1 match protobuf's
    """
    check_id = "ex-04-1"
    generator = rng(check_id)
    numbers = [0, 1, 127, 128, 300, 16383, 16384, 2**63, 2**64 - 1]
    numbers += [int(generator.integers(0, 2**int(bits))) for bits in generator.integers(8, 64,
                                                                                          12)]
    probe = _classes("syntax = 'proto3'; package ex04.varint; "
                     "message Probe { repeated uint64 value = 1; }".replace("'", '"'),
                     "ex04/varint.proto")["Probe"]
    for number in numbers:
        # A one-number packed list: key 0a, a one-byte length, then the varint itself.
        want = probe(value=[number]).SerializeToString()[2:]
        got = _as_bytes(check_id, call_answer(check_id, encode_varint, number,
                                              want_dataset=False), "encode_varint")
        if got != want:
            message = (f"encode_varint({number}) gave {_hexed(got)}, protobuf writes "
                       f"{_hexed(want)}")
            why = _name_varint_mistake(number, got)
            fail(check_id, message + (f": {why}" if why else ""))
    passed(check_id, f"the varints of {len(numbers)} numbers from 0 to 2**64 - 1 match "
                     "protobuf's")


# -- ex-04-2 ------------------------------------------------------------------------------------

def _field_numbers(generator):
    numbers = [1, 15, 16, 2047, 2048, 2**29 - 1]
    for top in (16, 2048, 2**18, 2**29):
        number = int(generator.integers(top // 8 + 1, top))
        # protobuf reserves 19000-19999 for itself: a schema may not use them.
        numbers.append(number if not 19000 <= number <= 19999 else 20000)
    return numbers


def _reference_tags(cases):
    """{(field number, wire type): the key bytes protobuf writes}, one message per case."""
    text = ['syntax = "proto3"; package ex04.tags;']
    for index, (number, wire_type) in enumerate(cases):
        text.append(f"message M{index} {{ {WIRE_TYPES[wire_type][0]} f = {number}; }}")
    classes = _classes("\n".join(text), "ex04/tags.proto")
    tags = {}
    for index, (number, wire_type) in enumerate(cases):
        _, value, written = WIRE_TYPES[wire_type]
        data = classes[f"M{index}"](f=value).SerializeToString()
        tags[number, wire_type] = data[:-len(written)]
    return tags


def _name_tag_mistake(number, wire_type, got):
    key = number << 3 | wire_type
    if got == _plain_varint(wire_type << 3 | number) or got == bytes(
            [(wire_type << 5 | number) & 0xFF]) or got == _plain_varint(wire_type << 29 | number):
        return "the wire type goes in the low 3 bits and the field number above them, " \
               "number << 3 | wire_type"
    for shift in (1, 2, 4, 5, 8):
        if got == _plain_varint(number << shift | wire_type):
            return f"the field number is shifted by {shift} bits, not 3"
    if got == bytes([key & 0xFF]):
        return (f"a key is a varint: for field {number} it does not fit in one byte "
                f"({key} > 127)")
    if got == _plain_varint(number + wire_type) or got == _plain_varint(number * 8 + 0):
        return "the key is number << 3 | wire_type: both parts are in it"
    return _name_varint_mistake(key, got)


@check("ex-04-2", hint="the key is the number (field_number << 3) | wire_type, written as a "
                        "varint, so fields 16 and above take two bytes or more",
       replayable=True)
def check_tag_bytes(tag_bytes):
    """ex-04-2: `tag_bytes(field_number, wire_type)` gives the key bytes protobuf writes.

    >>> def tag_bytes(field_number, wire_type):
    ...     key, out = field_number << 3 | wire_type, bytearray()
    ...     while key >= 0x80:
    ...         out.append(key & 0x7F | 0x80)
    ...         key >>= 7
    ...     return bytes(out + bytes([key]))
    >>> check_tag_bytes(tag_bytes)
    ex-04-2 passed: the keys of 10 fields, numbers 1 to 536870911, all four wire types, match protobuf's
    """
    check_id = "ex-04-2"
    generator = rng(check_id)
    numbers = _field_numbers(generator)
    wire_types = [0, 2, 2, 0, 5, 1] + [int(w) for w in generator.choice([0, 1, 2, 5],
                                                                        len(numbers) - 6)]
    cases = list(zip(numbers, wire_types))
    want = _reference_tags(cases)
    for number, wire_type in cases:
        got = _as_bytes(check_id, call_answer(check_id, tag_bytes, number, wire_type,
                                              want_dataset=False), "tag_bytes")
        if got != want[number, wire_type]:
            message = (f"tag_bytes({number}, {wire_type}) gave {_hexed(got)}, protobuf writes "
                       f"{_hexed(want[number, wire_type])}")
            why = _name_tag_mistake(number, wire_type, got)
            fail(check_id, message + (f": {why}" if why else ""))
    passed(check_id, f"the keys of {len(cases)} fields, numbers 1 to {2**29 - 1}, all four "
                     "wire types, match protobuf's")


# -- ex-04-3 ------------------------------------------------------------------------------------

MEASUREMENT_PROTO = """\
syntax = "proto3";
package ex04.measurement;

message Measurement {
  int64 station = 1;
  string name = 2;
  repeated int64 values = 3;
}
"""
NAMES = ["Zürich", "Kraków", "東京", "Ōsaka", "Reykjavík", "Oslo", "Lima", "São Paulo", "Köln"]


def _encode_measurement(station, name, values, char_length=False, int32=False, unpacked=False,
                        defaults=False, count_values=False):
    """Measurement bytes by hand; the flags switch on one usual mistake each."""
    def number(n):
        return _plain_varint(n % 2**32 if int32 and n < 0 else n % 2**64)

    out = bytearray()
    if station or defaults:
        out += b"\x08" + number(station)
    text = name.encode("utf-8")
    if text or defaults:
        out += b"\x12" + _plain_varint(len(name) if char_length else len(text)) + text
    if unpacked:
        for value in values:
            out += b"\x18" + number(value)
    elif values or defaults:
        payload = b"".join(number(value) for value in values)
        out += b"\x1a" + _plain_varint(len(values) if count_values else len(payload)) + payload
    return bytes(out)


_MEASUREMENT_MISTAKES = [
    ({"char_length": True}, "the length of name counts characters; it must count the bytes "
                            "of its UTF-8 encoding (len(name.encode('utf-8')))"),
    ({"int32": True}, "a negative int64 is written as the varint of number + 2**64, 10 bytes; "
                      "you wrapped it at 2**32 (5 bytes)"),
    ({"unpacked": True}, "in proto3 a repeated number field is packed: one key (1a), the "
                         "payload's length in bytes, then the varints back to back"),
    ({"defaults": True}, "fields holding their default (0, an empty name, no values) are not "
                         "written at all"),
    ({"count_values": True}, "the length of a packed list is its payload's size in bytes, not "
                             "the number of values"),
]


def _measurement_cases(generator):
    cases = []
    for index in range(10):
        station = int(generator.integers(-2**40, 2**40)) if index % 3 else int(
            generator.integers(0, 200))
        name = str(generator.choice(NAMES))
        count = int(generator.integers(1, 6))
        values = [int(v) for v in generator.integers(-5000, 300_000, count)]
        cases.append((station, name, values))
    cases.insert(2, (0, str(generator.choice(NAMES)), []))  # defaults, then negatives below
    cases.insert(4, (-int(generator.integers(1, 100)), "", [-1, int(generator.integers(1, 99))]))
    return cases


@check("ex-04-3", hint="three fields in order: key 08 and the varint of station (+ 2**64 when "
                        "negative); key 12, the UTF-8 byte length, the bytes; key 1a, the byte "
                        "length of the packed varints, the varints; skip fields at their default",
       replayable=True)
def check_encode_measurement(encode_measurement):
    """ex-04-3: `encode_measurement(station, name, values)` equals protobuf's bytes.

    >>> def varint(n):
    ...     n %= 2**64
    ...     out = bytearray()
    ...     while n >= 0x80:
    ...         out.append(n & 0x7F | 0x80)
    ...         n >>= 7
    ...     return bytes(out + bytes([n]))
    >>> def encode_measurement(station, name, values):
    ...     text, packed = name.encode("utf-8"), b"".join(varint(v) for v in values)
    ...     return ((b"\\x08" + varint(station) if station else b"")
    ...             + (b"\\x12" + varint(len(text)) + text if text else b"")
    ...             + (b"\\x1a" + varint(len(packed)) + packed if values else b""))
    >>> check_encode_measurement(encode_measurement)
    ex-04-3 passed: 12 measurements, with negatives, non-ASCII names and defaults, match SerializeToString
    """
    check_id = "ex-04-3"
    generator = rng(check_id)
    measurement = _classes(MEASUREMENT_PROTO, "ex04/measurement.proto")["Measurement"]
    for station, name, values in _measurement_cases(generator):
        want = measurement(station=station, name=name, values=values).SerializeToString()
        got = _as_bytes(check_id, call_answer(check_id, encode_measurement, station, name,
                                              list(values), want_dataset=False),
                        "encode_measurement")
        if got == want:
            continue
        message = (f"encode_measurement({station}, {name!r}, {values}) gave {_hexed(got)}, "
                   f"SerializeToString gives {_hexed(want)}")
        for flags, why in _MEASUREMENT_MISTAKES:
            if got == _encode_measurement(station, name, values, **flags):
                fail(check_id, message, hint=why)
        fail(check_id, message)
    passed(check_id, "12 measurements, with negatives, non-ASCII names and defaults, match "
                     "SerializeToString")


# -- ex-04-4 ------------------------------------------------------------------------------------

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
