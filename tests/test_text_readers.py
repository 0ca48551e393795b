"""TextLineDataset and FixedLengthRecordDataset against TensorFlow's results."""

import gzip
import zlib

import pytest

from conftest import decode, fixture_path, load_fixture
from feedline.data import FixedLengthRecordDataset, TextLineDataset
from feedline.errors import InvalidArgumentError

EXPECTED = load_fixture("text_expected.json")


def test_text_lines_drop_carriage_returns_and_keep_the_last_line():
    lines = list(TextLineDataset(str(fixture_path("lines_crlf.csv"))).skip(1))
    assert lines == decode(EXPECTED["TextLineDataset('lines_crlf.csv').skip(1)"])


@pytest.mark.parametrize("compression, pack", [("GZIP", gzip.compress), ("ZLIB", zlib.compress)])
def test_text_lines_from_compressed_files(tmp_path, compression, pack):
    path = tmp_path / "lines.txt"
    path.write_bytes(pack(fixture_path("lines_crlf.csv").read_bytes()))
    plain = list(TextLineDataset(str(fixture_path("lines_crlf.csv"))))
    assert list(TextLineDataset(str(path), compression_type=compression)) == plain


def test_text_lines_keep_empty_lines_but_add_none_at_the_end(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"a\n\nb\r\n")
    assert list(TextLineDataset([str(path), str(path)])) == [b"a", b"", b"b"] * 2


def test_text_lines_across_read_chunks(tmp_path, monkeypatch):
    import feedline.data.ops.text_line as text_line
    monkeypatch.setattr(text_line, "CHUNK_SIZE", 3)
    path = tmp_path / "t.txt"
    path.write_bytes(b"first line\r\nsecond\nthird")
    assert list(text_line.read_lines(str(path))) == [b"first line", b"second", b"third"]


def test_fixed_length_records_skip_header_and_footer():
    key = ("FixedLengthRecordDataset('fixed.bin' = bytes(range(40)), record_bytes=6, "
           "header_bytes=3, footer_bytes=1)")
    got = list(FixedLengthRecordDataset(str(fixture_path("fixed.bin")), 6, 3, 1))
    assert got == decode(EXPECTED[key])


def test_fixed_length_body_not_a_multiple_is_an_error_naming_the_file():
    key = ("FixedLengthRecordDataset('fixed.bin', record_bytes=6, header_bytes=3, "
           "footer_bytes=4) (body not a multiple)")
    path = str(fixture_path("fixed.bin"))
    with pytest.raises(InvalidArgumentError) as info:
        list(FixedLengthRecordDataset(path, 6, header_bytes=3, footer_bytes=4))
    tensorflow_words = EXPECTED[key]["message"].split('"')
    assert str(info.value) == tensorflow_words[0] + f'"{path}"' + tensorflow_words[2]


def test_fixed_length_compressed(tmp_path):
    path = tmp_path / "f.bin.gz"
    path.write_bytes(gzip.compress(bytes(range(12))))
    got = list(FixedLengthRecordDataset(str(path), 4, compression_type="GZIP"))
    assert got == [bytes(range(0, 4)), bytes(range(4, 8)), bytes(range(8, 12))]
