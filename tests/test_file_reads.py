"""A file smaller than the read buffer is read with one `read` call of its known size, and
gives the same records, lines and errors as a file read in chunks; a file of exactly the
buffer's size still ends where it should."""

import io
import os

import pytest

import feedline as fl
from feedline.data.ops import text_line
from feedline.io import record_stream
from feedline.io.tfrecord_reader import read_records


class CountingFile(io.BufferedReader):
    reads = 0

    def read(self, size=-1):
        CountingFile.reads += 1
        return super().read(size)


@pytest.fixture
def counted(monkeypatch):
    """Counts the reads of buffered files (the chunked path) and of plain descriptors."""
    CountingFile.reads = 0
    reads = {"descriptor": 0}
    plain_read = os.read

    def open_counting(path):
        return CountingFile(io.FileIO(path, "rb"))

    def read_counting(descriptor, size):
        reads["descriptor"] += 1
        return plain_read(descriptor, size)

    monkeypatch.setattr(record_stream, "open_binary", open_counting)
    monkeypatch.setattr(text_line, "open_binary", open_counting)
    monkeypatch.setattr(os, "read", read_counting)
    CountingFile.descriptor_reads = reads
    return CountingFile


def test_a_small_tfrecord_file_takes_one_read(tmp_path, counted):
    path = str(tmp_path / "small.tfrecord")
    with fl.io.TFRecordWriter(path) as writer:
        for index in range(40):
            writer.write(b"record %d" % index)
    assert list(read_records(path)) == [b"record %d" % index for index in range(40)]
    assert (counted.reads, counted.descriptor_reads["descriptor"]) == (0, 1)


def test_a_small_text_file_takes_one_read(tmp_path, counted):
    path = tmp_path / "small.csv"
    path.write_bytes(b"a,b\n1,2\n3,4")
    assert list(text_line.read_lines(str(path))) == [b"a,b", b"1,2", b"3,4"]
    assert (counted.reads, counted.descriptor_reads["descriptor"]) == (0, 1)


def test_a_file_larger_than_the_buffer_is_read_in_chunks(tmp_path, counted):
    path = tmp_path / "large.csv"
    path.write_bytes(b"".join(b"line %d\n" % index for index in range(100)))
    lines = list(text_line.read_lines(str(path), buffer_size=64))
    assert lines == [b"line %d" % index for index in range(100)]
    assert counted.reads > 1 and counted.descriptor_reads["descriptor"] == 0


def _every_record_then_the_error(path, buffer_size=None):
    records, reader = [], read_records(path, buffer_size=buffer_size)
    with pytest.raises(fl.errors.DataLossError) as raised:
        for record in reader:
            records.append(record)
    with pytest.raises(StopIteration):  # the reader has ended after its error
        next(reader)
    return records, str(raised.value)


@pytest.mark.parametrize("damage", ["data CRC", "length CRC", "truncated"])
def test_a_damaged_small_file_fails_as_a_file_read_in_chunks_does(tmp_path, damage):
    path = tmp_path / "damaged.tfrecord"
    with fl.io.TFRecordWriter(str(path)) as writer:
        for index in range(6):
            writer.write(b"record %d" % index)
    data = bytearray(path.read_bytes())
    record_size = len(data) // 6
    if damage == "data CRC":
        data[3 * record_size + 14] ^= 1
    elif damage == "length CRC":
        data[3 * record_size + 9] ^= 1
    else:
        data = data[:-5]
    path.write_bytes(bytes(data))
    whole = _every_record_then_the_error(str(path))
    chunked = _every_record_then_the_error(str(path), buffer_size=record_size)
    assert whole == chunked
    assert whole[0] == [b"record %d" % index for index in range(3 if damage != "truncated"
                                                                else 5)]
    assert str(path) in whole[1]


def test_a_directory_given_as_a_file_is_named_in_the_error(tmp_path):
    for reader in (read_records, text_line.read_lines):
        with pytest.raises(fl.errors.NotFoundError, match="is a directory"):
            next(reader(str(tmp_path)))


@pytest.mark.parametrize("size", [8, 12, 16])
def test_files_that_fill_the_buffer_exactly_still_end_where_they_should(tmp_path, size):
    path = tmp_path / "exact.txt"
    text = b"x" * (size - 1) + b"\n" + b"tail\n"
    path.write_bytes(text)
    assert list(text_line.read_lines(str(path), buffer_size=size)) == [b"x" * (size - 1),
                                                                      b"tail"]
    records = str(tmp_path / "exact.tfrecord")
    with fl.io.TFRecordWriter(records) as writer:
        writer.write(b"y" * size)
        writer.write(b"z")
    framed = (tmp_path / "exact.tfrecord").stat().st_size
    for buffer_size in (framed, framed - 17, 16 + size):  # ends at, inside, after a record
        assert list(read_records(records, buffer_size=buffer_size)) == [b"y" * size, b"z"]


@pytest.mark.parametrize("reader", [read_records, text_line.read_lines])
def test_a_missing_file_raises_once_then_the_reader_ends(tmp_path, reader):
    records = reader(str(tmp_path / "missing"))
    with pytest.raises(fl.errors.NotFoundError, match="missing"):
        next(records)
    with pytest.raises(StopIteration):
        next(records)
