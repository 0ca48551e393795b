"""Check for exercise `ex-04-2`: the key bytes of a field (number and wire type).

The reference bytes come from real protobuf messages: classes built from small `.proto` texts by
feedline's own reader (`feedline.train._proto`) in a private descriptor pool. When an answer
differs, the check re-encodes the input with the usual mistakes to say which one was made.
"""

import struct

from .._common import call_answer, check, fail, passed, rng
from ._shared import _as_bytes, _classes, _hexed, _name_varint_mistake, _plain_varint


WIRE_TYPES = {0: ("uint64", 1, b"\x01"), 1: ("fixed64", 1, struct.pack("<Q", 1)),
              2: ("bytes", b"x", b"\x01x"), 5: ("fixed32", 1, struct.pack("<I", 1))}


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
