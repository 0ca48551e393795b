"""parse_tensor reads string tensors in both layouts TensorFlow has written."""

import pytest

import feedline as fl
from feedline.errors import InvalidArgumentError

# Field 1 dtype 7 (string), field 2 shape [2], then the strings.
_HEADER = b"\x08\x07\x12\x04\x12\x02\x08\x02"


def test_parse_tensor_reads_strings_packed_in_tensor_content():
    # Older TensorFlow: field 4 holds the varint lengths, then the bytes back to back.
    packed = _HEADER + b"\x22\x10\x07\x07a@b.comc@d.com"
    assert fl.io.parse_tensor(packed, fl.string).numpy().tolist() == [b"a@b.com", b"c@d.com"]


def test_parse_tensor_reads_strings_as_string_val_entries():
    listed = _HEADER + b"\x42\x01a\x42\x02bc"
    assert fl.io.parse_tensor(listed, fl.string).numpy().tolist() == [b"a", b"bc"]


@pytest.mark.parametrize("content, match", [
    (b"\x22\x02\x07\x07", "take 16 bytes, but tensor_content holds 2"),
    (b"\x22\x01\x80", "ends inside the lengths of its 2 strings"),
    (b"\x22\x03\x01\x01a", "take 4 bytes, but tensor_content holds 3"),
])
def test_parse_tensor_names_a_damaged_string_content(content, match):
    with pytest.raises(InvalidArgumentError, match=match):
        fl.io.parse_tensor(_HEADER + content, fl.string)
