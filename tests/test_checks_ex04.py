"""The ex-04 checks accept the reference answers and reject plausible wrong ones."""

import copy

import pytest

from feedline.checks import _replay, ex04
from checkkit import blank, check_rejects, graded


# -- ex-04-1: a varint by hand ----------------------------------------------------------------

def encode_varint(number):
    out = bytearray()
    while number >= 0x80:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    out.append(number)
    return bytes(out)


def groups(number):
    found = [number & 0x7F]
    while number >= 0x80:
        number >>= 7
        found.append(number & 0x7F)
    return found


def big_endian_groups(number):
    cut = groups(number)[::-1]
    return bytes(g | 0x80 for g in cut[:-1]) + bytes([cut[-1]])


def no_continuation_bit(number):
    return bytes(groups(number))


def continuation_bit_on_every_byte(number):
    return bytes(g | 0x80 for g in groups(number))


def zero_as_nothing(number):
    return b"" if number == 0 else encode_varint(number)


def eight_bits_per_byte(number):
    return number.to_bytes(max(1, -(-number.bit_length() // 8)), "little")


def test_encode_varint_accepts_the_reference(capsys):
    ex04.check_encode_varint(encode_varint)
    ex04.check_encode_varint(lambda number: bytearray(encode_varint(number)))
    assert capsys.readouterr().out.splitlines() == [
        "ex-04-1 passed: the varints of 21 numbers from 0 to 2**64 - 1 match protobuf's"] * 2


@pytest.mark.parametrize("wrong, match", [
    (big_endian_groups, "wrong order: the first byte holds the lowest 7 bits"),
    (no_continuation_bit, "lack the continuation bit"),
    (continuation_bit_on_every_byte, "the last byte has its top bit set too"),
    (zero_as_nothing, "0 is written as one byte"),
    (eight_bits_per_byte, "7 bits of the number per byte"),
    (lambda number: list(encode_varint(number)), "should return bytes, got list"),
    (lambda number: encode_varint(number).hex(), "should return bytes, got str"),
    (blank, "NotImplementedError"),
])
def test_encode_varint_rejects(wrong, match):
    check_rejects(ex04.check_encode_varint, wrong, match)


def test_encode_varint_rejects_an_answer_that_is_wrong_only_for_the_largest_number():
    with pytest.raises(AssertionError, match="encode_varint\\(18446744073709551615\\)"):
        ex04.check_encode_varint(lambda n: encode_varint(min(n, 2**63)))


# -- ex-04-2: the key of a field --------------------------------------------------------------

def tag_bytes(field_number, wire_type):
    return encode_varint(field_number << 3 | wire_type)


def test_tag_bytes_accepts_the_reference(capsys):
    ex04.check_tag_bytes(tag_bytes)
    assert capsys.readouterr().out.startswith("ex-04-2 passed: the keys of 10 fields")


@pytest.mark.parametrize("wrong, match", [
    (lambda number, wire_type: encode_varint(wire_type << 3 | number),
     "wire type goes in the low 3 bits"),
    (lambda number, wire_type: bytes([(number << 3 | wire_type) & 0xFF]),
     "a key is a varint"),
    (lambda number, wire_type: encode_varint(number << 2 | wire_type), "shifted by 2 bits"),
    (lambda number, wire_type: big_endian_groups(number << 3 | wire_type), "wrong order"),
    (lambda number, wire_type: no_continuation_bit(number << 3 | wire_type),
     "continuation bit"),
    (blank, "NotImplementedError"),
])
def test_tag_bytes_rejects(wrong, match):
    check_rejects(ex04.check_tag_bytes, wrong, match)


# -- ex-04-3: a whole message by hand ---------------------------------------------------------

def encode_measurement(station, name, values):
    out = bytearray()
    if station:
        out += b"\x08" + encode_varint(station % 2**64)
    text = name.encode("utf-8")
    if text:
        out += b"\x12" + encode_varint(len(text)) + text
    if values:
        payload = b"".join(encode_varint(value % 2**64) for value in values)
        out += b"\x1a" + encode_varint(len(payload)) + payload
    return bytes(out)


def length_in_characters(station, name, values):
    right = encode_measurement(station, name, values)
    text = name.encode("utf-8")
    if not text:
        return right
    start = right.index(b"\x12" + encode_varint(len(text)) + text)
    return right[:start + 1] + encode_varint(len(name)) + right[start + 1 + 1:]


def negatives_as_int32(station, name, values):
    wrap = lambda n: n % 2**32 if n < 0 else n  # noqa: E731
    return encode_measurement(wrap(station), name, [wrap(v) for v in values])


def unpacked_values(station, name, values):
    return encode_measurement(station, name, []) + b"".join(
        b"\x18" + encode_varint(v % 2**64) for v in values)


def writes_defaults(station, name, values):
    text, payload = name.encode("utf-8"), b"".join(encode_varint(v % 2**64) for v in values)
    return (b"\x08" + encode_varint(station % 2**64) + b"\x12" + encode_varint(len(text)) + text
            + b"\x1a" + encode_varint(len(payload)) + payload)


def length_is_the_count(station, name, values):
    right = encode_measurement(station, name, [])
    if not values:
        return right
    payload = b"".join(encode_varint(v % 2**64) for v in values)
    return right + b"\x1a" + encode_varint(len(values)) + payload


def test_encode_measurement_accepts_the_reference(capsys):
    ex04.check_encode_measurement(encode_measurement)
    assert capsys.readouterr().out.startswith("ex-04-3 passed: 12 measurements")


@pytest.mark.parametrize("wrong, match", [
    (length_in_characters, "counts characters"),
    (negatives_as_int32, "wrapped it at 2\\*\\*32"),
    (unpacked_values, "is packed"),
    (writes_defaults, "are not written at all"),
    (length_is_the_count, "not the number of values"),
    (lambda *args: encode_measurement(*args).hex(), "should return bytes"),
    (blank, "NotImplementedError"),
])
def test_encode_measurement_rejects(wrong, match):
    check_rejects(ex04.check_encode_measurement, wrong, match)


# -- ex-04-4: read any message ----------------------------------------------------------------

def decode_fields(data, messages, order="little", recurse=True, key_as_byte=False,
                  fixed_as_bytes=False):
    fields, position = [], 0

    def read_varint():
        nonlocal position
        value, shift = 0, 0
        while True:
            byte = data[position]
            position += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    while position < len(data):
        if key_as_byte:
            key, position = data[position], position + 1
        else:
            key = read_varint()
        number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            value = read_varint()
        elif wire_type in (1, 5):
            size = 8 if wire_type == 1 else 4
            value = data[position:position + size]
            value = value if fixed_as_bytes else int.from_bytes(value, order)
            position += size
        else:
            length = read_varint()
            value = bytes(data[position:position + length])
            position += length
            if recurse and number in messages:
                value = decode_fields(value, messages[number], order, recurse, key_as_byte,
                                      fixed_as_bytes)
        fields.append((number, wire_type, value))
    return fields


def test_decode_fields_accepts_the_reference_and_lists_for_tuples(capsys):
    ex04.check_decode_fields(decode_fields)
    ex04.check_decode_fields(lambda data, messages: [list(t) for t in decode_fields(
        data, messages)])
    assert capsys.readouterr().out.splitlines() == [
        "ex-04-4 passed: 4 Probe messages and an Example decoded, nested fields included"] * 2


@pytest.mark.parametrize("wrong, match", [
    (lambda data, messages: decode_fields(data, messages, recurse=False),
     "decode its bytes again"),
    (lambda data, messages: decode_fields(data, messages, order="big"), "little-endian"),
    (lambda data, messages: decode_fields(data, messages, fixed_as_bytes=True),
     "unsigned integer its little-endian bytes hold"),
    (lambda data, messages: decode_fields(data, messages, key_as_byte=True),
     "a key is a varint too"),
    (lambda data, messages: decode_fields(data, {}), "decode its bytes again"),
    (lambda data, messages: dict((n, v) for n, _, v in decode_fields(data, messages)),
     "return a list of"),
    (blank, "NotImplementedError"),
])
def test_decode_fields_rejects(wrong, match):
    check_rejects(ex04.check_decode_fields, wrong, match)


def test_decode_fields_reports_a_decoder_that_crashes_on_wire_type_1():
    def four_bytes_for_wire_type_1(data, messages):
        fields, position = [], 0
        while position < len(data):
            key = data[position]
            position += 1
            size = 4 if key & 7 in (1, 5) else 1
            fields.append((key >> 3, key & 7, data[position]))
            position += size
        return fields

    with pytest.raises(AssertionError, match="ex-04-4"):
        ex04.check_decode_fields(four_bytes_for_wire_type_1)


# -- the grader gives the same verdicts -------------------------------------------------------

def memoryview_payloads(decode):
    """`decode` giving each payload as a memoryview (slices of memoryview(data) are)."""
    def viewed(fields):
        return [(number, wire_type, memoryview(value) if isinstance(value, bytes)
                 else viewed(value) if isinstance(value, list) else value)
                for number, wire_type, value in fields]

    return lambda data, messages: viewed(decode(data, messages))


CASES = [
    (ex04.check_encode_varint, encode_varint, big_endian_groups),
    (ex04.check_tag_bytes, tag_bytes, lambda n, w: encode_varint(w << 3 | n)),
    # A bytearray is accepted in the kernel, so the grader's replay must see one too.
    (ex04.check_tag_bytes, lambda n, w: bytearray(tag_bytes(n, w)),
     lambda n, w: bytearray(encode_varint(w << 3 | n))),
    (ex04.check_encode_measurement, encode_measurement, length_in_characters),
    (ex04.check_decode_fields, decode_fields,
     lambda data, messages: decode_fields(data, messages, recurse=False)),
    # Payloads sliced from a memoryview are the right bytes in the kernel, and in the grader.
    (ex04.check_decode_fields, memoryview_payloads(decode_fields),
     memoryview_payloads(lambda data, messages: decode_fields(data, messages, recurse=False))),
]


@pytest.mark.parametrize("check, right, wrong", CASES, ids=[c[0].check_id for c in CASES])
def test_ex04_checks_give_the_same_verdict_when_replayed(monkeypatch, check, right, wrong):
    verdict, observation = graded(monkeypatch, check, right)
    assert verdict == "passed"
    assert _replay.judge(check.check_id, observation, "5eed") == ("passed", "")
    verdict, observation = graded(monkeypatch, check, wrong)
    assert verdict == "failed"
    assert _replay.judge(check.check_id, observation, "5eed")[0] == "failed"


@pytest.mark.parametrize("check, right, wrong", CASES, ids=[c[0].check_id for c in CASES])
def test_ex04_checks_refuse_a_record_whose_results_were_forged(monkeypatch, check, right, wrong):
    _, observation = graded(monkeypatch, check, wrong)
    forged = copy.deepcopy(observation)
    forged["verdict"] = "passed"
    assert _replay.judge(check.check_id, forged, "5eed")[0] == "failed"
    # A right record replayed under another grading seed does not match its inputs.
    _, right_record = graded(monkeypatch, check, right, seed="aaaa")
    assert _replay.judge(check.check_id, right_record, "bbbb")[0] == "failed"
