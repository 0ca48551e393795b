"""Check for exercise `ex-03-1`: `record_defaults` for a weather table.

The check decodes fresh weather lines, drawn from the seed, with the learner's defaults and
compares the columns with what it wrote.
"""

import numpy as np

from ... import io as fl_io
from ...dtypes import DType
from ...errors import InvalidArgumentError
from .._common import call_answer, check, fail, observe, passed, rng


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
