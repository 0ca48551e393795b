"""TFRecord files: byte-compatible with TensorFlow's, damage reported where it is."""

import gzip
import struct
import warnings
import zlib

import crc32c
import numpy as np
import pytest

from conftest import fixture_path, load_fixture
from feedline.data import Dataset, TFRecordDataset
from feedline.errors import DataLossError, NotFoundError
from feedline.io import TFRecordOptions, TFRecordWriter
from feedline.io.framing import masked_crc, unmask

COMPRESSED = {"": "examples.tfrecord", "GZIP": "examples.tfrecord.gz",
              "ZLIB": "examples.tfrecord.zlib"}


def records_of(name, compression_type=None):
    return list(TFRecordDataset(str(fixture_path(name)), compression_type).as_numpy_iterator())


def test_masked_crc_follows_the_rotate_and_add_rule():
    crc = crc32c.crc32c(b"feedline")
    rotated = ((crc >> 15) | (crc << 17)) & 0xFFFFFFFF
    assert masked_crc(b"feedline") == (rotated + 0xA282EAD8) & 0xFFFFFFFF
    assert unmask(masked_crc(b"feedline")) == crc


@pytest.mark.parametrize("compression_type", sorted(COMPRESSED))
def test_reads_every_fixture_record_with_each_compression(compression_type):
    records = records_of(COMPRESSED[compression_type], compression_type)
    assert len(records) == 12
    assert all(type(record) is bytes for record in records)
    assert records == records_of("examples.tfrecord")


@pytest.mark.parametrize("compression_type", sorted(COMPRESSED))
def test_writing_the_fixture_records_gives_tensorflows_bytes(tmp_path, compression_type):
    records = records_of("examples.tfrecord")
    path = tmp_path / "out.tfrecord"
    with TFRecordWriter(str(path), compression_type or None) as writer:
        for record in records:
            writer.write(record)
    raw = path.read_bytes()
    if compression_type == "GZIP":
        assert raw[:2] == b"\x1f\x8b"
        raw = gzip.decompress(raw)
    elif compression_type == "ZLIB":
        raw = zlib.decompress(raw)
    assert raw == fixture_path("examples.tfrecord").read_bytes()


@pytest.mark.parametrize("options", [None, "", "GZIP", "ZLIB", TFRecordOptions("GZIP", 9)])
def test_round_trip_for_every_compression(tmp_path, options):
    compression = TFRecordOptions.get_compression_type_string(options)
    path = tmp_path / "round.tfrecord"
    data = [b"", b"x", bytes(range(256)) * 40, "text".encode()]
    with TFRecordWriter(path, options) as writer:
        for record in data:
            writer.write(record)
        writer.flush()
    assert list(TFRecordDataset([path], compression_type=compression)) == data


def test_hand_framed_record_bytes():
    path_bytes = b"abc"
    length = struct.pack("<Q", 3)
    expected = (length + struct.pack("<I", masked_crc(length)) + path_bytes
                + struct.pack("<I", masked_crc(path_bytes)))
    from feedline.io.framing import frame
    assert frame(b"abc") == expected and len(expected) == 19


@pytest.mark.parametrize("name", ["corrupt_data_crc.tfrecord", "corrupt_length_crc.tfrecord",
                                  "truncated.tfrecord"])
def test_damaged_file_raises_after_yielding_good_records(name):
    expected = load_fixture("corruption_expected.json")[name]
    good = records_of("examples.tfrecord")
    iterator = iter(TFRecordDataset(str(fixture_path(name))))
    yielded = []
    with pytest.raises(DataLossError) as info:
        for record in iterator:
            yielded.append(record)
    assert yielded == good[:expected["records_before_error"]]
    assert expected["error"] == "DataLossError"
    message = str(info.value)
    tf_words = expected["message"].split("'")[0]  # e.g. "corrupted record at 434"
    assert tf_words in message
    assert str(fixture_path(name)) in message


def test_corrupt_data_crc_raises_after_yielding_good_records():
    expected = load_fixture("corruption_expected.json")["corrupt_data_crc.tfrecord"]
    count = 0
    with pytest.raises(DataLossError, match=expected["message"]):
        for _ in TFRecordDataset(str(fixture_path("corrupt_data_crc.tfrecord"))):
            count += 1
    assert count == expected["records_before_error"]


def test_ignore_errors_skips_the_damaged_file_rest_counts_it_and_goes_on():
    files = [str(fixture_path("corrupt_data_crc.tfrecord")), str(fixture_path("examples.tfrecord"))]
    dataset = TFRecordDataset(files).ignore_errors()
    with pytest.warns(UserWarning, match="skipped 1 element"):
        records = list(dataset)
    assert len(records) == 3 + 12
    assert dataset.error_count == 1


def test_filenames_may_be_a_dataset_of_paths():
    path = str(fixture_path("examples.tfrecord"))
    assert len(list(TFRecordDataset(Dataset.from_tensor_slices([path, path])))) == 24


def test_num_parallel_reads_interleaves_files_record_by_record(tmp_path):
    paths = []
    for name in "ab":
        path = tmp_path / f"{name}.tfrecord"
        with TFRecordWriter(path) as writer:
            for i in range(3):
                writer.write(f"{name}{i}")
        paths.append(str(path))
    records = list(TFRecordDataset(paths, num_parallel_reads=2))
    assert records == [b"a0", b"b0", b"a1", b"b1", b"a2", b"b2"]


def test_element_spec_is_a_string_scalar_and_cardinality_unknown():
    dataset = TFRecordDataset(str(fixture_path("examples.tfrecord")))
    assert dataset.element_spec.shape == () and dataset.element_spec.dtype == object
    assert dataset.cardinality() == -2


def test_missing_file_names_the_path(tmp_path):
    with pytest.raises(NotFoundError, match="nope.tfrecord"):
        list(TFRecordDataset(str(tmp_path / "nope.tfrecord")))


def test_record_spanning_many_read_chunks(tmp_path, monkeypatch):
    import feedline.io.tfrecord_reader as reader
    monkeypatch.setattr(reader, "CHUNK_SIZE", 64)
    path = tmp_path / "big.tfrecord"
    data = [bytes([i]) * (i * 50) for i in range(12)]
    with TFRecordWriter(path, "GZIP") as writer:
        for record in data:
            writer.write(record)
    assert list(reader.read_records(path, "GZIP", buffer_size=1)) == data


def test_truncated_gzip_stream_is_data_loss(tmp_path):
    path = tmp_path / "cut.tfrecord.gz"
    with TFRecordWriter(path, "GZIP") as writer:
        writer.write(np.arange(1000).tobytes())
    path.write_bytes(path.read_bytes()[:-30])
    with pytest.raises(DataLossError, match="cut.tfrecord.gz"):
        with warnings.catch_warnings():
            list(TFRecordDataset(str(path), "GZIP"))


def test_writer_rejects_writes_after_close(tmp_path):
    writer = TFRecordWriter(tmp_path / "w.tfrecord")
    writer.close()
    writer.close()
    with pytest.raises(ValueError, match="closed"):
        writer.write(b"late")
