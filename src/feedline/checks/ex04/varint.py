"""Check for exercise `ex-04-1`: encode a number as a varint.

The reference bytes come from real protobuf messages: classes built from small `.proto` texts by
feedline's own reader (`feedline.train._proto`) in a private descriptor pool. When an answer
differs, the check re-encodes the input with the usual mistakes to say which one was made.
"""

from .._common import call_answer, check, fail, passed, rng
from ._shared import _as_bytes, _classes, _hexed, _name_varint_mistake


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
