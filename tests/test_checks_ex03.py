"""The ex-03 checks accept the reference answers and reject plausible wrong ones."""

import os

import numpy as np
import pytest

import feedline as fl
from feedline.checks import ex03
from feedline.data import AUTOTUNE, Dataset, FixedLengthRecordDataset, TextLineDataset
from feedline.errors import InvalidArgumentError
from checkkit import assert_same_verdict_when_replayed, blank


# -- ex-03-1: record_defaults -----------------------------------------------------------------

def weather_defaults():
    return [fl.string, fl.int64, np.float32(np.nan), 0.0, ""]


def with_entry(position, entry):
    """The right defaults with one entry replaced: a learner's slip in one column."""
    def answer():
        defaults = weather_defaults()
        defaults[position] = entry
        return defaults
    return answer


@pytest.mark.parametrize("answer", [
    weather_defaults,
    lambda: [np.array([], object), np.array([], np.int64), [np.float32(np.nan)], [0.0], [""]],
    lambda: (fl.string, fl.int64, np.float32("nan"), np.float32(0), b""),
])
def test_weather_defaults_accepts_dtypes_or_empty_arrays_for_required_columns(answer, capsys):
    ex03.check_weather_defaults(answer)
    assert capsys.readouterr().out == (
        "ex-03-1 passed: types, defaults and required columns as the schema says, on 40 "
        "fresh lines\n")


@pytest.mark.parametrize("wrong, match", [
    (with_entry(0, ""), "has no station, but decode_csv accepted it.*make station required"),
    (with_entry(1, np.int64(0)), "has no day, but decode_csv accepted it.*make day required"),
    (with_entry(1, [0]), "not a valid int32.*day numbers go beyond int32"),
    (with_entry(1, fl.int32), "day numbers go beyond int32"),
    (with_entry(2, 0.0), "temperature came out as .*0.0.*must be NaN"),
    (with_entry(3, np.float32(np.nan)), "rain_mm came out as .*nan.*no rain"),
    (with_entry(3, fl.float32), "only station and day are required"),
    (with_entry(0, 0.0), "not a valid float.*station is text"),
    (lambda: [fl.string, fl.int64, 0.0, ""], "a list of 5 entries"),
    (lambda: "string,int64,float,float,string", "a list of 5 entries"),
    (blank, "NotImplementedError"),
])
def test_weather_defaults_rejects(wrong, match):
    with pytest.raises(AssertionError, match=f"(?s){match}"):
        ex03.check_weather_defaults(wrong)


# -- ex-03-2: csv_reader_dataset ---------------------------------------------------------------

def reader(skip="per file", scale="right", target_shape="column", drop_remainder=False,
           repeat=False, cycle_length=None, shuffle=True, seeded=True, prefetch=True,
           shuffle_first=True):
    """A csv_reader_dataset with one slip chosen by the arguments."""
    def csv_reader_dataset(filepaths, mean, std, batch_size=32, seed=42, n_readers=3):
        def parse(line):
            fields = fl.io.decode_csv(line, [fl.float32] * 4)
            inputs = np.stack(fields[:3])
            inputs = {"right": (inputs - mean) / std, "none": inputs,
                      "swapped": inputs / std - mean}[scale]
            target = np.stack(fields[3:]) if target_shape == "column" else fields[3]
            return inputs.astype(np.float32), target

        seed = seed if seeded is True else seeded  # None, or a constant that ignores it
        files = Dataset.list_files(filepaths, seed=seed)
        cycle = n_readers if cycle_length is None else cycle_length
        if skip == "per file":
            lines = files.interleave(lambda path: TextLineDataset(path).skip(1),
                                     cycle_length=cycle, num_parallel_calls=AUTOTUNE)
        elif skip == "once":
            lines = TextLineDataset(filepaths).skip(1)
        else:
            lines = files.interleave(TextLineDataset, cycle_length=cycle)
        if shuffle and shuffle_first:
            lines = lines.shuffle(1000, seed=seed)
        lines = lines.map(parse)
        if shuffle and not shuffle_first:
            lines = lines.shuffle(200, seed=seed)
        batches = lines.batch(batch_size, drop_remainder=drop_remainder)
        batches = batches.repeat() if repeat else batches
        return batches.prefetch(1) if prefetch else batches
    return csv_reader_dataset


def eagerly_read_boxes(filepaths, mean, std, batch_size=32, seed=42, n_readers=3):
    """Loads every file with NumPy first: nothing reads n_readers files at a time."""
    table = np.concatenate([np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
                            for path in filepaths]).astype(np.float32)
    inputs = ((table[:, :3] - mean) / std).astype(np.float32)
    return (Dataset.from_tensor_slices((inputs, table[:, 3:])).shuffle(1000, seed=seed)
            .batch(batch_size).prefetch(1))


def test_csv_reader_dataset_accepts_the_reader(capsys):
    ex03.check_csv_reader_dataset(reader())
    ex03.check_csv_reader_dataset(reader(shuffle_first=False))  # shuffle parsed lines
    assert capsys.readouterr().out.splitlines() == [
        "ex-03-2 passed: every line once, headers skipped, inputs scaled, batches of the "
        "right shapes"] * 2


@pytest.mark.parametrize("wrong, match", [
    (reader(skip="once"), "a header line reached decode_csv.*skips only the first file"),
    (reader(skip="never"), "a header line reached decode_csv"),
    (reader(scale="none"), "not scaled.*\\(inputs - mean\\) / std"),
    (reader(scale="swapped"), "subtract the mean first"),
    (reader(target_shape="scalar"), "target of shape \\(batch, 1\\)"),
    (reader(drop_remainder=True), "one epoch gave \\d+ lines.*keeps the last, smaller batch"),
    (reader(repeat=True), "one epoch: it should end.*do not repeat"),
    (reader(cycle_length=1, shuffle=False), "lines of only one file"),
    (reader(cycle_length=3), "n_readers=[24].*reads 3 files at a time.*cycle_length=n_readers"),
    (reader(shuffle=False), "interleaved but the lines are not shuffled"),
    (reader(seeded=None), "same seed gave the lines in different orders.*seed=seed"),
    (reader(seeded=42), "gave the lines in the same order: the seed argument is not used"),
    (reader(prefetch=False), "no prefetch.*prefetch\\(1\\)"),
    (eagerly_read_boxes, "without an interleave"),
    (lambda filepaths, mean, std, batch_size, seed, n_readers: filepaths,
     "should return a Dataset"),
    (blank, "NotImplementedError"),
])
def test_csv_reader_dataset_rejects(wrong, match):
    with pytest.raises(AssertionError, match=f"(?s){match}"):
        ex03.check_csv_reader_dataset(wrong)


def test_csv_reader_dataset_leaves_no_file_behind(tmp_path, monkeypatch):
    monkeypatch.setattr(ex03.csv_reader.tempfile, "tempdir", str(tmp_path))
    ex03.check_csv_reader_dataset(reader())
    assert os.listdir(tmp_path) == []


# -- ex-03-3: fixed-length records -------------------------------------------------------------

def readings(record_bytes=14, header_bytes=6, little_endian=False, values_dtype=fl.float32,
             keys=("sensor", "values"), sensor_dtype=np.uint16, scalar=True):
    def read_readings(path):
        def decode(record):
            sensor = fl.io.decode_raw(record[:2], sensor_dtype, little_endian=little_endian)
            sensor = sensor[0] if scalar else sensor
            values = fl.io.decode_raw(record[2:], values_dtype, little_endian=little_endian)
            return dict(zip(keys, (sensor, values)))
        return FixedLengthRecordDataset(path, record_bytes=record_bytes,
                                        header_bytes=header_bytes).map(decode)
    return read_readings


def loads_the_file_with_numpy(path):
    """Right values, but the whole file is read before the pipeline starts."""
    table = np.fromfile(path, dtype=[("sensor", ">u2"), ("values", ">f4", 3)], offset=6)
    return Dataset.from_tensor_slices({"sensor": table["sensor"].astype(np.uint16),
                                       "values": table["values"].astype(np.float32)})


def test_read_readings_accepts_the_reader(capsys):
    ex03.check_read_readings(readings())
    assert capsys.readouterr().out == (
        "ex-03-3 passed: every record read, sensor ids and big-endian readings decoded\n")


@pytest.mark.parametrize("wrong, match", [
    (readings(little_endian=True), "sensor \\d+, expected \\d+.*big-endian"),
    (readings(header_bytes=0), "not an exact multiple of the record length"),
    (readings(record_bytes=12), "not an exact multiple of the record length"),
    (readings(values_dtype=fl.float64), "not a multiple of 8"),
    (readings(keys=("id", "values")), "keys 'sensor' and 'values'"),
    (readings(scalar=False), "shape \\(1,\\); expected a scalar.*element \\[0\\]"),
    (readings(sensor_dtype=np.int16), "sensor -\\d+, expected \\d+.*np.uint16"),
    (loads_the_file_with_numpy, "does not read the file.*FixedLengthRecordDataset"),
    (lambda path: [path], "should return a Dataset"),
    (blank, "NotImplementedError"),
])
def test_read_readings_rejects(wrong, match):
    with pytest.raises(AssertionError, match=f"(?s){match}"):
        ex03.check_read_readings(wrong)


def test_read_readings_names_the_byte_order_when_only_the_values_are_swapped():
    def sensor_right_values_swapped(path):
        def decode(record):
            return {"sensor": fl.io.decode_raw(record[:2], np.uint16, little_endian=False)[0],
                    "values": fl.io.decode_raw(record[2:], fl.float32)}
        return FixedLengthRecordDataset(path, 14, header_bytes=6).map(decode)

    with pytest.raises(AssertionError, match="(?s)values .* expected .*little_endian=False"):
        ex03.check_read_readings(sensor_right_values_swapped)


# -- ex-03-4: find the bad lines ---------------------------------------------------------------

def finder(first_line=2, stop_at_first=False, numbering="per file", schema=None,
           unsorted=False):
    def bad_lines(filepaths, record_defaults):
        record_defaults = record_defaults if schema is None else schema  # hard-coded?
        found = []
        if numbering == "joined":  # all files as one stream: numbers run on across files
            lines = TextLineDataset(filepaths).enumerate(start=1)
            name = os.path.basename(filepaths[0])
            for number, line in lines:
                if not line.startswith(b"id,"):
                    try:
                        fl.io.decode_csv(line, record_defaults)
                    except InvalidArgumentError:
                        found.append((name, int(number)))
            return sorted(found)
        for path in filepaths:
            lines = TextLineDataset(path).skip(1).enumerate(start=first_line)
            for number, line in lines:
                try:
                    fl.io.decode_csv(line, record_defaults)
                except InvalidArgumentError:
                    found.append((os.path.basename(path), int(number)))
                    if stop_at_first:
                        return found
        return found[::-1] if unsorted else sorted(found)
    return bad_lines


def only_bad_numbers(filepaths, record_defaults):
    """Tries float() on the score: misses missing fields and wrong field counts."""
    found = []
    for path in filepaths:
        with open(path) as handle:
            for number, line in enumerate(handle.read().splitlines()[1:], start=2):
                try:
                    float(line.split(",")[1])
                except ValueError:
                    found.append((os.path.basename(path), number))
    return sorted(found)


def test_bad_lines_accepts_the_finder(capsys):
    ex03.check_bad_lines(finder())
    ex03.check_bad_lines(  # full paths and bytes names are fine too
        lambda paths, defaults: [(os.fsencode(p), n) for p, n in finder()(paths, defaults)])
    assert capsys.readouterr().out.splitlines() == [
        "ex-03-4 passed: every refused line found, named by file and line number"] * 2


@pytest.mark.parametrize("wrong, match", [
    (finder(first_line=1), "off by one.*the first data line is line 2"),
    (finder(first_line=3), "off by one"),
    (finder(stop_at_first=True), "found 1 of the \\d+ bad lines.*catch the error of each line"),
    (only_bad_numbers, "found \\d+ of the \\d+ bad lines.*wrong number of fields"),
    (finder(numbering="joined"), "past the end of their file.*number the lines of each file"),
    (lambda paths, defaults: "log-00.csv:3", "pairs"),
    (finder(schema=[fl.int64, fl.float32, ""]), "score optional, label required.*the "
                                                "record_defaults argument"),
    (finder(unsorted=True), "not sorted"),
    (blank, "NotImplementedError"),
])
def test_bad_lines_rejects(wrong, match):
    with pytest.raises(AssertionError, match=f"(?s){match}"):
        ex03.check_bad_lines(wrong)


# -- the grader judges every check again outside the kernel -----------------------------------

def as_paths(bad_lines):
    """`bad_lines` giving each file name as a pathlib.Path."""
    import pathlib

    return lambda paths, defaults: [(pathlib.Path(name), line)
                                    for name, line in bad_lines(paths, defaults)]


@pytest.mark.parametrize("check, right, wrong", [
    (ex03.check_weather_defaults, weather_defaults, with_entry(2, 0.0)),
    (ex03.check_csv_reader_dataset, reader(), reader(skip="once")),
    (ex03.check_read_readings, readings(), readings(little_endian=True)),
    (ex03.check_bad_lines, finder(), finder(first_line=1)),
    # Right answers in shapes that are not plain data: the grader judges what the kernel did.
    (ex03.check_weather_defaults,
     lambda: [fl.string, fl.int64, fl.constant(np.nan, dtype=fl.float32), fl.constant(0.0), ""],
     lambda: [fl.string, fl.int64, fl.constant(0.0), fl.constant(0.0), ""]),
    (ex03.check_bad_lines, lambda paths, defaults: iter(finder()(paths, defaults)),
     lambda paths, defaults: iter(finder(first_line=1)(paths, defaults))),
    (ex03.check_bad_lines, as_paths(finder()), as_paths(finder(first_line=1))),
])
def test_reading_checks_give_the_same_verdict_when_replayed(monkeypatch, check, right, wrong):
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)
