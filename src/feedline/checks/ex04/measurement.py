"""Check for exercise `ex-04-3`: encode a whole message by hand.

The reference bytes come from real protobuf messages: classes built from small `.proto` texts by
feedline's own reader (`feedline.train._proto`) in a private descriptor pool. When an answer
differs, the check re-encodes the input with the usual mistakes to say which one was made.
"""

from .._common import call_answer, check, fail, passed, rng
from ._shared import NAMES, _as_bytes, _classes, _hexed, _plain_varint


MEASUREMENT_PROTO = """\
syntax = "proto3";
package ex04.measurement;

message Measurement {
  int64 station = 1;
  string name = 2;
  repeated int64 values = 3;
}
"""


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
