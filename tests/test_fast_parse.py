"""The fast paths give exactly what the general paths give: parsing and reading.

- `parse_example` on a batch of one layout (sliced as a 2-D array, `io.fixed_layout`) against
  the same call with the fast path switched off, over random Examples and random breakages;
- `TFRecordDataset(...).batch(n)` (read a batch at a time, `data.ops.tfrecord_batch`) against
  the per-record pipeline, for every batch size, `drop_remainder`, damage and compression.
"""

import numpy as np
import pytest

import feedline as fl
from feedline.data import Dataset, TFRecordDataset
from feedline.data.ops import tfrecord_batch
from feedline.data.state import protocol
from feedline.errors import DataLossError
from feedline.io import TFRecordWriter, parsing
from feedline.io.features import FixedLenFeature, VarLenFeature
from feedline.io.sparse import SparseTensor
from feedline.train import BytesList, Example, Feature, Features, FloatList, Int64List

KINDS = ("int64", "float32", "string")


# -- helpers ---------------------------------------------------------------------------------

def example(features):
    """A serialized Example from {name: (kind, values)}."""
    made = {}
    for name, (kind, values) in features.items():
        if kind == "int64":
            made[name] = Feature(int64_list=Int64List(value=values))
        elif kind == "float32":
            made[name] = Feature(float_list=FloatList(value=values))
        else:
            made[name] = Feature(bytes_list=BytesList(value=values))
    return Example(features=Features(feature=made)).SerializeToString()


def outcome(records, spec, fast):
    """What parse_example gives (or raises) with the fast path on or off."""
    saved = parsing.FAST_PATH
    parsing.FAST_PATH = fast
    try:
        return ("ok", parsing.parse_example(records, spec))
    except Exception as error:  # noqa: BLE001 - compared below, type and words
        return ("error", type(error), str(error))
    finally:
        parsing.FAST_PATH = saved


def assert_same_value(fast, general, where):
    assert type(fast) is type(general), where
    if isinstance(general, SparseTensor):
        for part in ("indices", "values", "dense_shape"):
            assert_same_value(np.asarray(getattr(fast, part)),
                              np.asarray(getattr(general, part)), (where, part))
        return
    assert fast.dtype == general.dtype and fast.shape == general.shape, where
    if general.dtype == object:
        assert all(type(item) is bytes for item in fast.reshape(-1).tolist()), where
        assert fast.tolist() == general.tolist(), where
    else:
        assert np.array_equal(fast, general, equal_nan=True), where


def assert_paths_agree(records, spec):
    fast, general = outcome(records, spec, True), outcome(records, spec, False)
    assert fast[0] == general[0], (fast, general)
    if general[0] == "error":
        assert fast[1:] == general[1:]
        return
    assert list(fast[1]) == list(general[1])
    for key in general[1]:
        assert_same_value(fast[1][key], general[1][key], key)


def random_layout(rng):
    """Feature name -> (kind, count, byte length of each string value)."""
    layout = {}
    for index in range(rng.integers(1, 5)):
        name = "f" + "".join(rng.choice(list("abcxyz"), size=rng.integers(1, 6))) + str(index)
        layout[name] = (KINDS[rng.integers(3)], int(rng.integers(0, 5)),
                        int(rng.integers(0, 4)))
    return layout


def random_values(rng, kind, count, width):
    if kind == "int64":
        # small numbers: one varint byte each, so records keep one length
        return rng.integers(0, 128, size=count).tolist()
    if kind == "float32":
        return rng.normal(size=count).astype(np.float32).tolist()
    return [rng.integers(0, 256, size=width, dtype=np.uint8).tobytes() for _ in range(count)]


def random_spec(rng, layout):
    spec = {}
    for name, (kind, count, _) in layout.items():
        choice = rng.integers(6)
        if choice == 0:
            continue  # a feature in the records that nobody asked for
        shape = [count] if rng.integers(2) or count != 1 else []
        if choice == 1:
            shape = [count + 1]  # the wrong count: both paths must raise the same error
        if choice == 2:
            spec[name] = VarLenFeature(kind)
        else:
            spec[name] = FixedLenFeature(shape, kind)
    if rng.integers(2):  # a feature no record has, with a default or without
        kind = KINDS[rng.integers(3)]
        default = None if rng.integers(3) == 0 else (
            [b"dflt", b"x"] if kind == "string" else [7, 8])
        spec["absent"] = FixedLenFeature([2], kind, default_value=default)
    return spec


def break_record(rng, layout, values):
    """One record's features changed so that the batch no longer has one layout."""
    broken = dict(values)
    name = rng.choice(sorted(layout))
    kind, count, width = layout[name]
    how = rng.integers(4)
    if how == 0:
        broken[name] = (kind, random_values(rng, kind, count + 1, width))
    elif how == 1:
        del broken[name]
    elif how == 2:
        other = KINDS[(KINDS.index(kind) + 1) % 3]
        broken[name] = (other, random_values(rng, other, count, width))
    else:
        broken["zz_extra"] = ("int64", [1])
    return broken


# -- parse_example: fast path == general path ------------------------------------------------

@pytest.mark.parametrize("seed", range(60))
def test_fixed_layout_parse_equals_general_parse_on_random_examples(seed):
    rng = np.random.default_rng(seed)
    layout = random_layout(rng)
    batch = [{name: (kind, random_values(rng, kind, count, width))
              for name, (kind, count, width) in layout.items()}
             for _ in range(rng.integers(1, 9))]
    if rng.integers(2):
        position = int(rng.integers(len(batch)))
        batch[position] = break_record(rng, layout, batch[position])
    records = [example(features) for features in batch]
    assert_paths_agree(records, random_spec(rng, layout))


def test_fixed_layout_is_taken_for_mnist_like_records_and_gives_bytes_and_int64():
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(5, 784), dtype=np.uint8)
    records = [example({"image": ("string", [image.tobytes()]), "label": ("int64", [label])})
               for label, image in enumerate(images)]
    spec = {"image": FixedLenFeature([], "string"), "label": FixedLenFeature([], "int64")}
    from feedline.io import fixed_layout
    fast = fixed_layout.parse(records, parsing._Plan(spec, batched=True).entries)
    assert fast is not None
    assert fast["image"].dtype == object and fast["image"][3] == images[3].tobytes()
    assert fast["label"].tolist() == [0, 1, 2, 3, 4] and fast["label"].dtype == np.int64
    assert_paths_agree(np.array(records, dtype=object), spec)


def test_int64_regions_of_equal_byte_length_but_different_counts_raise_the_count_error():
    # [300] and [1, 2] both take two varint bytes: one layout on the outside
    records = [example({"n": ("int64", [300])}), example({"n": ("int64", [1, 2])})]
    assert len(records[0]) == len(records[1])
    spec = {"n": FixedLenFeature([1], "int64")}
    fast, general = outcome(records, spec, True), outcome(records, spec, False)
    assert fast == general and fast[0] == "error" and "Index: 1" in fast[2]


def test_multi_byte_varints_of_one_count_are_parsed_per_row():
    records = [example({"n": ("int64", [300, 1])}), example({"n": ("int64", [2, 70000])}),
               example({"n": ("int64", [-1, 5])})]
    spec = {"n": FixedLenFeature([2], "int64")}
    assert_paths_agree(records, spec)
    assert parsing.parse_example(records, spec)["n"].tolist() == [[300, 1], [2, 70000], [-1, 5]]


def test_unrequested_features_may_differ_when_their_lengths_match():
    records = [example({"a": ("float32", [1.0, 2.0]), "skip": ("string", [b"xyz"])}),
               example({"a": ("float32", [3.0, 4.0]), "skip": ("string", [b"abc"])})]
    spec = {"a": FixedLenFeature([2], "float32")}
    assert_paths_agree(records, spec)
    assert parsing.parse_example(records, spec)["a"].tolist() == [[1, 2], [3, 4]]


def test_missing_feature_takes_its_default_on_both_paths_and_without_one_both_raise():
    records = [example({"a": ("int64", [1])}), example({"a": ("int64", [2])})]
    assert_paths_agree(records, {"b": FixedLenFeature([2], "string", default_value=[b"q", b"r"])})
    assert_paths_agree(records, {"b": FixedLenFeature([], "float32", default_value=0.5)})
    fast = outcome(records, {"b": FixedLenFeature([], "int64")}, True)
    assert fast[0] == "error" and "Feature: b" in fast[2]
    assert_paths_agree(records, {"b": FixedLenFeature([], "int64")})


def test_a_batch_of_empty_records_and_an_empty_batch_agree():
    assert_paths_agree([b"", b""], {"x": FixedLenFeature([], "int64", default_value=3)})
    assert_paths_agree([], {"x": FixedLenFeature([], "int64", default_value=3)})


def test_a_record_that_is_not_an_example_gives_the_same_error_on_both_paths():
    good = example({"a": ("int64", [1])})
    assert_paths_agree([good, b"\xff" * len(good)], {"a": FixedLenFeature([], "int64")})


# -- the batched reader == the per-record reader ---------------------------------------------

def write_records(path, records, compression=None):
    with TFRecordWriter(str(path), compression) as writer:
        for record in records:
            writer.write(record)
    return str(path)


def random_records(rng, count, fixed):
    if fixed:
        return [rng.integers(0, 256, size=40, dtype=np.uint8).tobytes() for _ in range(count)]
    return [rng.integers(0, 256, size=rng.integers(0, 90), dtype=np.uint8).tobytes()
            for _ in range(count)]


def batches_of(dataset):
    """All batches as lists, then the error that ended the iteration (or None)."""
    out, iterator = [], iter(dataset)
    try:
        for batch in iterator:
            assert batch.dtype == object
            out.append(batch.tolist())
    except DataLossError as error:
        return out, str(error)
    return out, None


def per_record(dataset_builder):
    """The same pipeline with the batched reader switched off."""
    original = tfrecord_batch.applies
    tfrecord_batch.applies = lambda batch_dataset: False
    try:
        return batches_of(dataset_builder())
    finally:
        tfrecord_batch.applies = original


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(5)
    return [write_records(tmp_path / "fixed.tfrecord", random_records(rng, 37, True)),
            write_records(tmp_path / "mixed.tfrecord", random_records(rng, 23, False)),
            write_records(tmp_path / "empty.tfrecord", []),
            write_records(tmp_path / "fixed2.tfrecord", random_records(rng, 300, True)),
            # runs of one length broken by a few others: the vectorised walk stops and resumes
            write_records(tmp_path / "runs.tfrecord",
                          [bytes([n % 251]) * (40 if n % 9 < 6 else n % 5) for n in range(200)])]


@pytest.mark.parametrize("batch_size", [1, 2, 3, 7, 16, 64, 1000])
@pytest.mark.parametrize("drop_remainder", [False, True])
def test_batched_reader_gives_the_batches_of_the_per_record_reader(files, batch_size,
                                                                   drop_remainder):
    def build():
        return TFRecordDataset(files, buffer_size=512).batch(batch_size, drop_remainder)
    assert tfrecord_batch.applies(build())
    assert batches_of(build()) == per_record(build)


@pytest.mark.parametrize("buffer_size", [1, 13, 100, 4096, None])
def test_batched_reader_agrees_for_every_buffer_size(files, buffer_size):
    def build():
        return TFRecordDataset(files, buffer_size=buffer_size).batch(5)
    assert batches_of(build()) == per_record(build)


@pytest.mark.parametrize("compression", ["GZIP", "ZLIB"])
def test_batched_reader_reads_compressed_files_like_the_per_record_reader(tmp_path,
                                                                          compression):
    rng = np.random.default_rng(2)
    path = write_records(tmp_path / "c.tfrecord", random_records(rng, 50, True), compression)

    def build():
        return TFRecordDataset([path, path], compression, buffer_size=64).batch(8)
    got = batches_of(build())
    assert got == per_record(build) and sum(map(len, got[0])) == 100


def flip_byte(path, offset):
    data = bytearray(open(path, "rb").read())
    data[offset] ^= 0x40
    open(path, "wb").write(bytes(data))


@pytest.mark.parametrize("offset", [0, 9, 12, 20, 55, 56 * 5 + 3, 56 * 9 + 53, 56 * 30 + 13])
def test_a_flipped_byte_raises_the_same_data_loss_error_naming_file_record_and_offset(
        tmp_path, offset):
    rng = np.random.default_rng(3)
    path = write_records(tmp_path / "bad.tfrecord", random_records(rng, 37, True))  # 56 B each
    good = write_records(tmp_path / "good.tfrecord", random_records(rng, 5, True))
    flip_byte(path, offset)

    def build():
        return TFRecordDataset([path, good]).batch(4)
    batched, error = batches_of(build())
    assert (batched, error) == per_record(build)
    assert error is not None and path in error
    index = offset // 56
    assert f"(record {index} of the file)" in error
    start = index * 56
    assert f"corrupted record at {start if offset % 56 < 12 else start + 12}" in error
    # the next batch continues with the next file, as the per-record pipeline does
    iterator = iter(build())
    with pytest.raises(DataLossError):
        for _ in iterator:
            pass
    assert sum(len(batch) for batch in iterator) == 5


@pytest.mark.parametrize("cut", [1, 5, 12, 30])
def test_a_truncated_file_raises_the_same_error_on_both_readers(tmp_path, cut):
    rng = np.random.default_rng(4)
    path = write_records(tmp_path / "cut.tfrecord", random_records(rng, 10, True))
    data = open(path, "rb").read()
    open(path, "wb").write(data[:-cut])

    def build():
        return TFRecordDataset(path).batch(3)
    got = batches_of(build())
    assert got == per_record(build)
    assert got[1].startswith("truncated record at 504") and "(record 9 of the file)" in got[1]


def test_batched_reader_saves_and_restores_its_position_across_files(files):
    dataset = TFRecordDataset(files, buffer_size=300).batch(6)
    everything = [batch.tolist() for batch in dataset]
    for stop in (0, 1, 5, 9, len(everything)):
        iterator = dataset._iterator()
        for _ in range(stop):
            next(iterator)
        state = protocol.save(iterator, dataset)
        rest = [batch.tolist() for batch in protocol.restore(dataset, state)]
        assert rest == everything[stop:]
        # a state saved by the batched reader restores into the per-record pipeline too
        original = tfrecord_batch.applies
        tfrecord_batch.applies = lambda batch_dataset: False
        try:
            assert [b.tolist() for b in protocol.restore(dataset, state)] == everything[stop:]
        finally:
            tfrecord_batch.applies = original


def test_batched_reader_is_not_used_with_parallel_reads_or_a_parallel_batch(files):
    assert not tfrecord_batch.applies(TFRecordDataset(files, num_parallel_reads=2).batch(4))
    assert not tfrecord_batch.applies(TFRecordDataset(files).batch(4, num_parallel_calls=2))
    assert not tfrecord_batch.applies(Dataset.range(3).batch(2))


def test_batched_then_parsed_equals_per_record_then_parsed(tmp_path):
    rng = np.random.default_rng(9)
    records = [example({"image": ("string", [rng.bytes(30)]), "label": ("int64", [i % 10])})
               for i in range(70)]
    path = write_records(tmp_path / "m.tfrecord", records)
    spec = {"image": FixedLenFeature([], "string"), "label": FixedLenFeature([], "int64")}

    def build():
        return TFRecordDataset(path).batch(16).map(lambda b: parsing.parse_example(b, spec))
    fast = [(b["image"].tolist(), b["label"].tolist()) for b in build()]
    original = tfrecord_batch.applies
    tfrecord_batch.applies = lambda batch_dataset: False
    try:
        slow = [(b["image"].tolist(), b["label"].tolist()) for b in build()]
    finally:
        tfrecord_batch.applies = original
    assert fast == slow and fast[-1][1] == [i % 10 for i in range(64, 70)]


@pytest.mark.parametrize("seed", range(20))
def test_random_batches_of_one_layout_take_the_fast_path_and_agree(seed):
    from feedline.io import fixed_layout
    rng = np.random.default_rng(1000 + seed)
    layout = random_layout(rng)
    records = [example({name: (kind, random_values(rng, kind, count, width))
                        for name, (kind, count, width) in layout.items()})
               for _ in range(rng.integers(1, 9))]
    spec = {name: FixedLenFeature([count], kind) for name, (kind, count, _) in layout.items()}
    assert fixed_layout.parse(records, parsing._Plan(spec, batched=True).entries) is not None
    assert_paths_agree(records, spec)


# -- the zero-copy hand-off and the bounded buffer ---------------------------------------------

def test_batches_of_fixed_length_records_hand_parse_example_a_view_of_the_read_buffer(tmp_path):
    from feedline.io import record_views
    rng = np.random.default_rng(11)
    records = [example({"x": ("float32", rng.normal(size=4).tolist()), "y": ("int64", [i % 7])})
               for i in range(100)]
    path = write_records(tmp_path / "v.tfrecord", records)
    spec = {"x": FixedLenFeature([4], "float32"), "y": FixedLenFeature([], "int64")}
    batches = list(TFRecordDataset(path, buffer_size=2000).batch(10))
    viewed = [batch for batch in batches
              if record_views.rows_of(batch, batch.tolist()) is not None]
    assert len(viewed) >= len(batches) // 2
    for batch in viewed:
        rows = record_views.rows_of(batch, batch.tolist())
        assert rows.tobytes() == b"".join(batch.tolist())
        assert_paths_agree(batch, spec)
    changed = viewed[-1]
    changed[0] = records[0]  # the array no longer holds what the view shows: the view is unused
    assert record_views.rows_of(changed, changed.tolist()) is None
    assert_paths_agree(changed, spec)


@pytest.mark.parametrize("buffer_size", [64, 1000, 5000])
def test_buffer_size_bounds_each_read_except_for_one_larger_record(tmp_path, buffer_size):
    from feedline.io.record_stream import RecordStream
    sizes = [10] * 50 + [3000] + [10] * 50
    path = write_records(tmp_path / "s.tfrecord", [bytes(size) for size in sizes])
    for batched in (False, True):
        stream, largest, taken = RecordStream(path, buffer_size=buffer_size,
                                              batched=batched), 0, []
        while stream.take(7, taken):
            largest = max(largest, len(stream._buffer))
        assert [len(record) for record in taken] == sizes
        assert largest <= max(buffer_size, 3000 + 16)


# -- decode_raw reads a fast-parsed column through its 2-D view ----------------------------------

def _image_records(count, length, seed):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(count, length), dtype=np.uint8)
    Example, Features, Feature = fl.train.Example, fl.train.Features, fl.train.Feature
    records = [Example(features=Features(feature={
        "image": Feature(bytes_list=fl.train.BytesList(value=[image.tobytes()])),
        "label": Feature(int64_list=fl.train.Int64List(value=[3]))})).SerializeToString()
        for image in images]
    return np.array(records, dtype=object), images


@pytest.mark.parametrize("dtype, little_endian", [
    (np.uint8, True), (np.int16, True), (np.int16, False), (np.float32, True),
    (np.float64, False)])
def test_decode_raw_of_a_fast_parsed_column_equals_decoding_its_strings(dtype, little_endian):
    batch, _ = _image_records(33, 48, seed=int(np.dtype(dtype).itemsize))
    image = fl.io.parse_example(batch, {"image": fl.io.FixedLenFeature([], fl.string)})["image"]
    plain = np.array(image.tolist(), dtype=object)  # the same strings, no view behind them
    got = fl.io.decode_raw(image, dtype, little_endian=little_endian)
    want = fl.io.decode_raw(plain, dtype, little_endian=little_endian)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True) and got.flags.writeable


def test_decode_raw_of_a_changed_column_decodes_the_new_strings():
    batch, images = _image_records(8, 16, seed=1)
    image = fl.io.parse_example(batch, {"image": fl.io.FixedLenFeature([], fl.string)})["image"]
    image[2] = bytes(16)
    decoded = fl.io.decode_raw(image, np.uint8)
    assert not decoded[2].any() and np.array_equal(decoded[3], images[3])


def test_decode_raw_of_a_fast_parsed_column_of_odd_length_refuses_int16_as_the_plain_path():
    batch, _ = _image_records(4, 5, seed=2)
    image = fl.io.parse_example(batch, {"image": fl.io.FixedLenFeature([], fl.string)})["image"]
    with pytest.raises(fl.errors.InvalidArgumentError, match="not a multiple of 2"):
        fl.io.decode_raw(image, np.int16)


# -- the parse plan, built once per spec -------------------------------------------------------

def test_a_changed_spec_under_the_same_key_is_parsed_by_the_new_spec():
    records = [example({"x": ("float32", [1.0, 2.0]), "y": ("int64", [3])})] * 4
    spec = {"x": FixedLenFeature([2], "float32")}
    assert fl.io.parse_example(records, spec)["x"].shape == (4, 2)
    spec["x"] = FixedLenFeature([1, 2], "float32")
    assert fl.io.parse_example(records, spec)["x"].shape == (4, 1, 2)
    spec["x"] = FixedLenFeature([2], "float32")
    spec["y"] = FixedLenFeature([], "int64", default_value=0)
    assert fl.io.parse_example(records, spec)["y"].tolist() == [3, 3, 3, 3]


def test_an_unhashable_default_and_an_invalid_spec_are_handled_on_every_call():
    records = [example({"y": ("int64", [3])})] * 2
    spec = {"x": FixedLenFeature([2], "float32", default_value=[5.0, 6.0])}
    for _ in range(2):
        assert fl.io.parse_example(records, spec)["x"].tolist() == [[5, 6], [5, 6]]
    wrong = {"x": FixedLenFeature([2], "float32", default_value=7.0)}  # TensorFlow rejects it
    for _ in range(2):
        with pytest.raises(ValueError):
            fl.io.parse_example(records, wrong)


def test_decode_raw_reads_the_view_of_an_image_column_that_a_pipeline_handed_out(tmp_path):
    # The column reaches the loop as a `Tensor` view of a reshape of the parsed array: its
    # `.base` is the reshape, not the array that owns the memory, and the view must be found.
    from feedline.io import record_views
    images = np.arange(40 * 6, dtype=np.uint8).reshape(40, 6)
    records = [example({"image": ("bytes", [image.tobytes()]), "label": ("int64", [i % 3])})
               for i, image in enumerate(images)]
    path = write_records(tmp_path / "images.tfrecord", records)
    spec = {"image": FixedLenFeature([], "string"), "label": FixedLenFeature([], "int64")}
    dataset = TFRecordDataset(path).batch(8).map(lambda batch: fl.io.parse_example(batch, spec))
    seen = []
    for parsed in dataset:
        column = parsed["image"]
        assert record_views.rows_of(column, column.tolist()) is not None
        seen.append(fl.io.decode_raw(column, fl.uint8).numpy())
    assert np.array_equal(np.concatenate(seen), images)
