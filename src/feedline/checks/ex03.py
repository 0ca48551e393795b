"""Checks for exercise notebook 03, reading files (ids `ex-03-1` to `ex-03-4`).

Every check writes fresh files (CSV shards, a binary file) with seeded random contents to a
temporary folder, hands their paths to the learner's answer, and compares what comes back with
what it wrote. The folder is deleted afterwards.
"""

import os
import pathlib
import shutil
import tempfile

import numpy as np

from .. import io as fl_io
from ..dtypes import DType
from ..errors import InvalidArgumentError
from ._common import (call_answer, check, describe, fail, listed_if_iterator, normalised_answer,
                      observe, passed, pipeline_nodes, read_elements, rng)

# -- ex-03-1: record_defaults for a weather table ----------------------------------------------

WEATHER_COLUMNS = ("station", "day", "temperature", "rain_mm", "note")


def _weather_value(generator, column):
    if column == "station":
        return "".join(generator.choice(list("ABCDEFGHKLMNPRSTVWZ"), size=4))
    if column == "day":
        return str(int(generator.integers(1, 2 ** 40)))  # beyond int32: the column is int64
    if column == "temperature":
        return f"{generator.uniform(-30, 45):.1f}"
    if column == "rain_mm":
        return f"{generator.uniform(0, 80):.2f}"
    return str(generator.choice(["calm", "windy", "fog", "hail", "dry spell"]))


def _expected_weather(fields):
    """What the schema says each field of a line becomes (None where an error is due)."""
    station, day, temperature, rain, note = fields
    if station == "" or day == "":
        return None
    return (station.encode(), np.int64(int(day)),
            np.float32(np.nan) if temperature == "" else np.float32(float(temperature)),
            np.float32(0.0) if rain == "" else np.float32(float(rain)),
            note.encode())


def _plain_defaults(answer):
    """("list", entries with dtypes as empty arrays) or ("other", a description)."""
    if not isinstance(answer, (list, tuple)):
        return "other", repr(answer)
    entries = []
    for entry in answer:
        if isinstance(entry, (type, np.dtype, DType)):
            entry = np.array([], dtype=entry)
        elif isinstance(entry, np.ndarray) and type(entry) is not np.ndarray:
            # A tensor default (fl.constant(np.nan, fl.float32)) is one TensorFlow takes; it
            # reaches the grader as a plain array, so the kernel judges the plain array too.
            entry = entry.view(np.ndarray)
        entries.append(entry)
    return "list", entries


def _same(got, want):
    if isinstance(want, bytes):
        return isinstance(got, (bytes, np.bytes_)) and bytes(got) == want
    got = np.asarray(got)
    return got.dtype == want.dtype and (bool(np.isnan(got)) if np.isnan(want)
                                        else bool(got == want))


@check("ex-03-1", hint="one entry per column: station fl.string and day fl.int64 (required), "
                        "temperature np.float32(np.nan), rain_mm 0.0, note \"\"",
       replayable=True)
def check_weather_defaults(weather_defaults):
    """ex-03-1: `weather_defaults()` gives record_defaults that follow the weather schema.

    >>> import feedline as fl
    >>> check_weather_defaults(lambda: [np.array([], object), np.array([], np.int64),
    ...                                 np.float32(np.nan), 0.0, ""])
    ex-03-1 passed: types, defaults and required columns as the schema says, on 40 fresh lines
    """
    check_id = "ex-03-1"
    answer = call_answer(check_id, weather_defaults, want_dataset=False)
    # A dtype entry (fl.int64) is not plain data; recorded as an empty array it means the same.
    kind, defaults = observe(check_id, "record_defaults", lambda: _plain_defaults(answer))
    if kind != "list" or len(defaults) != len(WEATHER_COLUMNS):
        fail(check_id, f"expected a list of {len(WEATHER_COLUMNS)} entries, one per column "
                       f"{list(WEATHER_COLUMNS)}, got {defaults}")
    generator = rng(check_id)
    lines = []
    for number in range(40):
        fields = [_weather_value(generator, column) for column in WEATHER_COLUMNS]
        if number % 2:  # half the lines miss one field
            fields[number // 2 % len(fields)] = ""
        lines.append(fields)
    for fields in lines:
        line = ",".join(fields)
        want = _expected_weather(fields)
        try:
            got = fl_io.decode_csv(line, list(defaults))
        except InvalidArgumentError as error:
            if want is None:
                continue
            fail(check_id, f"decode_csv({line!r}, your defaults) raised: {error}",
                 hint=_decode_error_hint(str(error)))
        except (TypeError, ValueError) as error:
            fail(check_id, f"decode_csv cannot use your record_defaults: {error}")
        if want is None:
            missing = "station" if fields[0] == "" else "day"
            fail(check_id, f"the line {line!r} has no {missing}, but decode_csv accepted it "
                           f"and gave {missing} = {got[WEATHER_COLUMNS.index(missing)]!r}",
                 hint=f"make {missing} required: give its dtype (fl.string / fl.int64) or an "
                      "empty array of that dtype instead of a default value")
        for column, value, expected in zip(WEATHER_COLUMNS, got, want):
            if not _same(value, expected):
                shown = (f"{type(value).__name__}" if isinstance(value, (bytes, np.bytes_))
                         else f"{value!r} of dtype {np.asarray(value).dtype}")
                wanted = (f"{expected!r}" if isinstance(expected, bytes)
                          else f"{expected!r} of dtype {expected.dtype}")
                fail(check_id, f"for the line {line!r}, {column} came out as {shown}, "
                               f"expected {wanted}",
                     hint=_weather_hint(column, value, expected))
    passed(check_id, "types, defaults and required columns as the schema says, on 40 fresh "
                     "lines")


def _decode_error_hint(message):
    if "required" in message:
        return "only station and day are required; give the other columns a default"
    if "valid int32" in message:
        return ("day numbers go beyond int32 (a default of 0 makes an int32 column); day is "
                "int64 and required: fl.int64")
    if "Field 0" in message and "valid" in message:
        return "station is text: a string column (required, so fl.string)"
    return None


def _weather_hint(column, value, expected):
    if column == "day" and np.asarray(value).dtype != np.int64:
        return ("a Python int default like [0] makes an int32 column, too small for these day "
                "numbers; day must be int64 and required: fl.int64")
    if column == "temperature" and not isinstance(expected, bytes) and np.isnan(expected):
        return "a missing temperature must be NaN (not 0): np.float32(np.nan)"
    if column == "rain_mm":
        return "a missing rain_mm means no rain: its default is 0.0"
    return None


# -- ex-03-2: csv_reader_dataset ---------------------------------------------------------------

FEATURES = ("width", "height", "depth")


def _write_shards(directory, generator, count):
    """`count` CSV shards with a header; returns (paths, rows as an array, file of each row)."""
    paths, rows, owners = [], [], []
    sizes = generator.integers(9, 25, size=count)
    # Every price differs, so that the check can tell each line by its price.
    prices = generator.choice(np.arange(10_000, 60_000), size=int(sizes.sum()), replace=False)
    for shard, size in enumerate(int(size) for size in sizes):
        table = np.round(generator.normal([50, 20, 5, 300], [10, 4, 1, 60], size=(size, 4)), 2)
        table[:, 3], prices = prices[:size] / 100, prices[size:]
        path = os.path.join(directory, f"part-{shard:02d}.csv")
        with open(path, "w") as handle:
            handle.write(",".join(FEATURES + ("price",)) + "\n")
            handle.writelines(",".join(repr(float(v)) for v in row) + "\n" for row in table)
        paths.append(path)
        rows.append(table.astype(np.float32))
        owners += [shard] * size
    return paths, np.concatenate(rows), np.array(owners)


@check("ex-03-2", hint="list_files(filepaths, seed=seed) → interleave(lambda p: "
                        "TextLineDataset(p).skip(1), cycle_length=n_readers) → shuffle → "
                        "map(parse: decode_csv, scale the 3 inputs) → batch(batch_size) → "
                        "prefetch(1)",
       replayable=True)
def check_csv_reader_dataset(csv_reader_dataset):
    """ex-03-2: `csv_reader_dataset(filepaths, mean, std, batch_size, seed)` reads every line once.

    >>> import feedline as fl
    >>> from feedline.data import Dataset, TextLineDataset
    >>> def csv_reader_dataset(filepaths, mean, std, batch_size=32, seed=42, n_readers=3):
    ...     def parse(line):
    ...         fields = fl.io.decode_csv(line, [fl.float32] * 4)
    ...         return (np.stack(fields[:3]) - mean) / std, np.stack(fields[3:])
    ...     files = Dataset.list_files(filepaths, seed=seed)
    ...     lines = files.interleave(lambda path: TextLineDataset(path).skip(1),
    ...                              cycle_length=n_readers)
    ...     return lines.shuffle(500, seed=seed).map(parse).batch(batch_size).prefetch(1)
    >>> check_csv_reader_dataset(csv_reader_dataset)
    ex-03-2 passed: every line once, headers skipped, inputs scaled, batches of the right shapes
    """
    check_id = "ex-03-2"
    generator = rng(check_id)
    directory = tempfile.mkdtemp(prefix="feedline-ex-03-2-")
    try:
        paths, rows, owners = _write_shards(directory, generator, int(generator.integers(4, 7)))
        mean = np.round(rows[:, :3].mean(axis=0), 1).astype(np.float32)
        std = np.round(rows[:, :3].std(axis=0), 1).astype(np.float32)
        batch_size = int(generator.integers(5, 11))
        seed = int(generator.integers(1000))
        n_readers = int(generator.choice([2, 4]))  # not the default 3: is it used?
        limit = len(rows) // batch_size * 2 + 3

        def prices(seed):
            dataset = call_answer(check_id, csv_reader_dataset, paths, mean, std, batch_size,
                                  seed, n_readers)
            batches = _read_batches(check_id, dataset, limit)
            return dataset, batches, [round(float(p), 2) for _, target in batches
                                      for p in np.asarray(target).reshape(-1)]

        dataset, batches, order = prices(seed)
        _check_batches(check_id, batches, rows, owners, mean, std, batch_size)
        _check_reader_stages(check_id, dataset, n_readers)
        _check_lines_shuffled(check_id, order, rows, owners)
        if prices(seed)[2] != order:
            fail(check_id, "two datasets made with the same seed gave the lines in different "
                           "orders", hint="pass seed=seed to list_files and to shuffle")
        if prices(seed + 1)[2] == order:
            fail(check_id, f"seed={seed} and seed={seed + 1} gave the lines in the same order: "
                           "the seed argument is not used",
                 hint="pass the function's own `seed` to list_files and shuffle, not a "
                      "constant")
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    passed(check_id, "every line once, headers skipped, inputs scaled, batches of the right "
                     "shapes")


def _read_batches(check_id, dataset, limit):
    """One epoch of batches; a header that reached decode_csv gets its own hint."""
    batches = []
    try:
        for element in read_elements(check_id, dataset):
            batches.append(element)
            if len(batches) > limit:
                fail(check_id, f"more than {limit} batches for one epoch: it should end",
                     hint="do not repeat(): the training loop runs the epochs")
    except AssertionError as failure:
        if f"valid float: {FEATURES[0]}" in str(failure):
            fail(check_id, "a header line reached decode_csv: "
                           + getattr(failure, "message", str(failure)).splitlines()[0],
                 hint="every file starts with a header: skip(1) on each file's "
                      "TextLineDataset, inside interleave (TextLineDataset(all files)"
                      ".skip(1) skips only the first file's header)")
        raise
    return batches


def _check_batches(check_id, batches, rows, owners, mean, std, batch_size):
    for number, batch in enumerate(batches):
        if not (isinstance(batch, tuple) and len(batch) == 2):
            fail(check_id, f"batch {number} is {describe(batch)}; expected a pair (inputs, "
                           "target)")
        inputs, target = (np.asarray(part) for part in batch)
        if inputs.ndim != 2 or inputs.shape[1] != 3 or target.ndim != 2 or target.shape[1] != 1:
            fail(check_id, f"batch {number} is {describe(batch)}; expected inputs of shape "
                           f"(batch, 3) and target of shape (batch, 1)",
                 hint="inputs: np.stack of the 3 input columns; target: np.stack of the last "
                      "column alone (a list of one), so that batching gives (batch, 1)")
        if inputs.dtype != np.float32 or target.dtype != np.float32:
            fail(check_id, f"batch {number} has dtypes {inputs.dtype} and {target.dtype}; "
                           "expected float32 for both")
    sizes = [len(np.asarray(batch[0])) for batch in batches]
    total = sum(sizes)
    if total != len(rows):
        fail(check_id, f"one epoch gave {total} lines, the files hold {len(rows)} (without "
                       "their headers)",
             hint="batch without drop_remainder keeps the last, smaller batch"
             if total < len(rows) and total % batch_size == 0 else None)
    if any(size != batch_size for size in sizes[:-1]):
        fail(check_id, f"batch sizes {sizes}; expected {batch_size} for all but the last")
    inputs = np.concatenate([np.asarray(batch[0]) for batch in batches])
    target = np.concatenate([np.asarray(batch[1]) for batch in batches])[:, 0]
    if np.allclose(np.sort(inputs[:, 0]), np.sort(rows[:, 0]), atol=1e-3):
        fail(check_id, "the inputs are not scaled: they are the raw values",
             hint="in the parse function return (inputs - mean) / std")
    found = {}
    for position, value in enumerate(target):
        found.setdefault(round(float(value), 2), []).append(position)
    order = []
    for index, row in enumerate(rows):
        positions = found.get(round(float(row[3]), 2))
        if not positions:
            fail(check_id, f"the line with price {row[3]:.2f} (file part-{owners[index]:02d}."
                           "csv) never came out")
        order.append(positions.pop(0))
    got = inputs[order]
    want = (rows[:, :3] - mean) / std
    if not np.allclose(got, want, rtol=1e-4, atol=1e-4):
        bad = int(np.argmax(np.abs(got - want).max(axis=1)))
        swapped = (rows[bad, :3] / std - mean)
        fail(check_id, f"the line {rows[bad].tolist()} gave inputs {got[bad].round(3).tolist()}, "
                       f"expected (inputs - mean) / std = {want[bad].round(3).tolist()}",
             hint="subtract the mean first, then divide by std"
             if np.allclose(got[bad], swapped, rtol=1e-4, atol=1e-4) else
             "scale every input column: (inputs - mean) / std")
    first = {int(owners[index]) for index, position in enumerate(order)
             if position < sizes[0]}
    if len(first) < 2:
        fail(check_id, "the first batch holds lines of only one file; expected lines from "
                       "several shards mixed",
             hint="interleave the files with cycle_length > 1, then shuffle")


def _check_reader_stages(check_id, dataset, n_readers):
    """Fail unless the pipeline reads n_readers files at a time and ends by prefetching."""
    stages = observe(check_id, "reader stages", lambda: [
        [node._stage, int(getattr(node, "_cycle_length", 0))]
        for node in pipeline_nodes(dataset)])
    cycles = [cycle for stage, cycle in stages if stage == "interleave"]
    if n_readers not in cycles:
        fail(check_id, f"called with n_readers={n_readers}, the pipeline reads "
                       + (f"{max(cycles)} files at a time" if cycles else
                          "the files without an interleave")
                       + f", not {n_readers}",
             hint="interleave(..., cycle_length=n_readers): use the argument, not a constant")
    if "prefetch" not in [stage for stage, _ in stages]:
        fail(check_id, "the pipeline has no prefetch, so nothing prepares the next batch "
                       "while the model trains on this one", hint="end with .prefetch(1)")


def _check_lines_shuffled(check_id, order, rows, owners):
    """Fail when every file's lines come out in the file's own order: nothing shuffled them."""
    prices = [round(float(p), 2) for p in rows[:, 3]]
    position = {price: index for index, price in enumerate(order)}
    for shard in set(owners.tolist()):
        seen = [position[price] for price, owner in zip(prices, owners) if owner == shard]
        if seen != sorted(seen):
            return
    fail(check_id, "the lines of every file came out in the file's own order: the files are "
                   "interleaved but the lines are not shuffled",
         hint="shuffle(buffer_size, seed=seed) after the interleave mixes the lines")


# -- ex-03-3: fixed-length records -------------------------------------------------------------

HEADER_BYTES = 6
RECORD_BYTES = 2 + 3 * 4  # a uint16 sensor id, then 3 float32 readings; big-endian


def _write_readings(path, generator):
    count = int(generator.integers(7, 15))
    sensors = generator.integers(0, 60_000, size=count).astype(np.uint16)
    sensors[count // 2] |= 0x8000  # an id above 32767 tells uint16 from a signed int16
    values = np.round(generator.uniform(-100, 100, size=(count, 3)), 3).astype(np.float32)
    with open(path, "wb") as handle:
        handle.write(b"SNSR" + np.array([count], dtype=">u2").tobytes())
        for sensor, row in zip(sensors, values):
            handle.write(np.array([sensor], dtype=">u2").tobytes() + row.astype(">f4").tobytes())
    return sensors, values


@check("ex-03-3", hint="FixedLengthRecordDataset(path, record_bytes=14, header_bytes=6), then "
                        "map: decode_raw(record[:2], np.uint16, little_endian=False) and "
                        "decode_raw(record[2:], fl.float32, little_endian=False)",
       replayable=True)
def check_read_readings(read_readings):
    """ex-03-3: `read_readings(path)` gives {"sensor", "values"} for every record of the file.

    >>> import feedline as fl
    >>> from feedline.data import FixedLengthRecordDataset
    >>> def read_readings(path):
    ...     def decode(record):
    ...         return {"sensor": fl.io.decode_raw(record[:2], np.uint16, little_endian=False)[0],
    ...                 "values": fl.io.decode_raw(record[2:], fl.float32, little_endian=False)}
    ...     return FixedLengthRecordDataset(path, 14, header_bytes=6).map(decode)
    >>> check_read_readings(read_readings)
    ex-03-3 passed: every record read, sensor ids and big-endian readings decoded
    """
    check_id = "ex-03-3"
    generator = rng(check_id)
    directory = tempfile.mkdtemp(prefix="feedline-ex-03-3-")
    try:
        path = os.path.join(directory, "readings.bin")
        sensors, values = _write_readings(path, generator)
        dataset = call_answer(check_id, read_readings, path)
        stages = observe(check_id, "stages", lambda: [node._stage
                                                      for node in pipeline_nodes(dataset)])
        if "fixed_length_record" not in stages:
            fail(check_id, f"the dataset does not read the file (its stages: {stages}): the "
                           "records were loaded before the pipeline, so a file larger than "
                           "memory would not fit",
                 hint="FixedLengthRecordDataset(path, record_bytes=14, header_bytes=6) reads "
                      "the records one by one as the pipeline runs")
        got = []
        for element in read_elements(check_id, dataset):
            got.append(element)
            if len(got) > 2 * len(sensors) + 2:
                break
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    if len(got) != len(sensors):
        fail(check_id, f"the file holds {len(sensors)} records after its 6-byte header; your "
                       f"dataset gave {len(got)}" + (" or more" if len(got) > len(sensors)
                                                    else ""))
    for number, (element, sensor, row) in enumerate(zip(got, sensors, values)):
        if not isinstance(element, dict) or set(element) != {"sensor", "values"}:
            fail(check_id, f"record {number} came out as {describe(element)}; expected a dict "
                           "with the keys 'sensor' and 'values'")
        got_sensor = np.asarray(element["sensor"])
        got_values = np.asarray(element["values"])
        if got_values.shape != (3,) or got_values.dtype != np.float32:
            fail(check_id, f"record {number}: values is {describe(got_values)}; expected 3 "
                           "float32 numbers")
        if got_sensor.size == 1 and got_sensor.shape != ():
            fail(check_id, f"record {number}: sensor is an array of shape {got_sensor.shape}; "
                           "expected a scalar",
                 hint="decode_raw gives an array: take its element [0]")
        if got_sensor.size != 1 or int(got_sensor.reshape(())) != int(sensor):
            swapped = int(sensor.byteswap())
            fail(check_id, f"record {number}: sensor {got_sensor.tolist()}, expected "
                           f"{int(sensor)}",
                 hint="the file is big-endian: little_endian=False"
                 if got_sensor.size == 1 and int(got_sensor.reshape(())) == swapped else
                 "the id is unsigned (up to 65535): np.uint16, not np.int16"
                 if got_sensor.size == 1 and int(got_sensor.reshape(())) == int(sensor) - 65536
                 else None)
        if not np.array_equal(got_values, row):
            hint = ("the file is big-endian: little_endian=False"
                    if np.array_equal(got_values, row.byteswap()) else None)
            fail(check_id, f"record {number}: values {got_values.tolist()}, expected "
                           f"{row.tolist()}", hint=hint)
    passed(check_id, "every record read, sensor ids and big-endian readings decoded")


# -- ex-03-4: find the bad lines ---------------------------------------------------------------

def _write_with_bad_lines(directory, generator):
    """Shards of `id,score,label` lines, some broken; returns (paths, [(file, number, line)])."""
    paths, numbered = [], []
    breakers = [lambda f: [f[0], "", f[2]], lambda f: [f[0], "oops", f[2]],
                lambda f: f[:2], lambda f: f + ["extra"], lambda f: ["", f[1], f[2]],
                lambda f: [f[0], f[1], ""]]
    for shard in range(int(generator.integers(3, 6))):
        name = f"log-{shard:02d}.csv"
        lines = ["id,score,label"]
        for row in range(int(generator.integers(8, 20))):
            fields = [str(int(generator.integers(1000))), f"{generator.uniform(0, 1):.3f}",
                      str(generator.choice(["cat", "dog", "eel"]))]
            if generator.uniform() < 0.25:
                fields = breakers[int(generator.integers(len(breakers)))](fields)
            lines.append(",".join(fields))
            numbered.append((name, len(lines), lines[-1]))
        path = os.path.join(directory, name)
        with open(path, "w") as handle:
            handle.write("\n".join(lines) + "\n")
        paths.append(path)
    return paths, numbered


def _refused(numbered, record_defaults):
    """The (file, line number) of every line decode_csv refuses with these defaults."""
    bad = []
    for name, number, line in numbered:
        try:
            fl_io.decode_csv(line, record_defaults)
        except InvalidArgumentError:
            bad.append((name, number))
    return sorted(bad)


# The notebook's schema, then another (score optional, label required): an answer that
# ignores `record_defaults` and decodes with the schema it saw finds the wrong lines.
BAD_LINE_DEFAULTS = [np.array([], np.int64), np.array([], np.float32), ""]
OTHER_DEFAULTS = [np.array([], np.int64), 0.0, np.array([], object)]


@check("ex-03-4", hint="read each file on its own with its line numbers (the header is line "
                        "1), try decode_csv on every data line, and collect (file name, line) "
                        "for each InvalidArgumentError instead of stopping at the first",
       replayable=True)
def check_bad_lines(bad_lines):
    """ex-03-4: `bad_lines(filepaths, record_defaults)` lists every (file name, line) refused.

    >>> import os
    >>> import feedline as fl
    >>> def bad_lines(filepaths, record_defaults):
    ...     found = []
    ...     for path in filepaths:
    ...         with open(path) as handle:
    ...             for number, line in enumerate(handle.read().splitlines()[1:], start=2):
    ...                 try:
    ...                     fl.io.decode_csv(line, record_defaults)
    ...                 except fl.errors.InvalidArgumentError:
    ...                     found.append((os.path.basename(path), number))
    ...     return sorted(found)
    >>> check_bad_lines(bad_lines)
    ex-03-4 passed: every refused line found, named by file and line number
    """
    check_id = "ex-03-4"
    generator = rng(check_id)
    directory = tempfile.mkdtemp(prefix="feedline-ex-03-4-")
    try:
        paths, numbered = _write_with_bad_lines(directory, generator)
        lengths = {os.path.basename(path): len(pathlib.Path(path).read_text().splitlines())
                   for path in paths}
        # A generator of pairs, or a Path as a name, is not plain data: normalised here, the
        # grader judges the same list the kernel does.
        bad_lines = normalised_answer(bad_lines, _plain_pairs)
        answers = [call_answer(check_id, bad_lines, paths, defaults, want_dataset=False)
                   for defaults in (BAD_LINE_DEFAULTS, OTHER_DEFAULTS)]
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    for got, defaults in zip(answers, (BAD_LINE_DEFAULTS, OTHER_DEFAULTS)):
        _judge_bad_lines(check_id, got, _refused(numbered, defaults), lengths,
                         defaults is OTHER_DEFAULTS)
    passed(check_id, "every refused line found, named by file and line number")


def _plain_pairs(value):
    """`value` listed if it is an iterator, a path-like name in a pair as its string."""
    value = listed_if_iterator(value)
    if not isinstance(value, (list, tuple)):
        return value
    def plain(item):
        if not isinstance(item, (list, tuple)):
            return item
        parts = [os.fspath(part) if isinstance(part, os.PathLike) else part for part in item]
        return tuple(parts) if isinstance(item, tuple) else parts

    return [plain(item) for item in value]


def _judge_bad_lines(check_id, got, want, lengths, other_schema):
    try:
        pairs = [(os.path.basename(os.fsdecode(name)), int(line)) for name, line in got]
    except (TypeError, ValueError):
        fail(check_id, f"expected a list of (file name, line number) pairs, got {got!r}")
    got = sorted(pairs)
    if got == want:
        if pairs != got:
            fail(check_id, "the right lines, but not sorted", hint="return sorted(found)")
        return
    if other_schema:
        fail(check_id, "with record_defaults=[fl.int64, 0.0, fl.string] (score optional, "
                       f"label required) you gave {got}, expected {want}",
             hint="call decode_csv with the record_defaults argument, not the notebook's "
                  "schema")
    if want in (sorted((name, line + 1) for name, line in got),
                sorted((name, line - 1) for name, line in got)):
        fail(check_id, f"the line numbers are off by one: you gave {got[:3]}..., expected "
                       f"{want[:3]}...",
             hint="count lines from 1 and count the header: the first data line is line 2")
    if got and set(got) < set(want):
        fail(check_id, f"found {len(got)} of the {len(want)} bad lines: {got}; missing "
                       f"{sorted(set(want) - set(got))}",
             hint="catch the error of each line and go on; a missing required field, text in "
                  "a number column and a wrong number of fields all count")
    if any(name not in lengths or line > lengths[name] for name, line in got):
        fail(check_id, f"you gave {got}, expected {want}: some of your lines are past the end "
                       "of their file",
             hint="number the lines of each file separately: TextLineDataset(all files) runs "
                  "the files together")
    fail(check_id, f"you gave {got}, expected {want}")
