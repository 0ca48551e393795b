"""`decode_csv`: split CSV records into typed columns, with TensorFlow's rules and errors.

- Quotes follow RFC 4180 (when `use_quote_delim`): a field may be wrapped in double quotes,
  inside which the delimiter is literal and `""` stands for one quote.
- `record_defaults` has one entry per output column and fixes its dtype: a value (its default;
  Python floats are float32, ints int32, strings bytes), or a dtype / an empty array for a
  required column of that dtype.
- An empty field, or one equal to `na_value`, takes the default; a required column errs.
  An empty record has no fields at all (so even a one-column record errs). A CR or LF is
  skipped where a field starts and refused inside an unquoted field, as in TensorFlow.
- Numbers are read like TensorFlow (absl's SimpleAtoi / SimpleAtof): ASCII whitespace around
  them and a leading `+` are allowed, digits must be ASCII, and floats also accept
  `0x` hexadecimal (`0x1p3` is 8.0), `inf`, `infinity` and `nan` in any case.
- The number of fields must equal the number of defaults (or exceed the largest of
  `select_cols`, which picks and orders nothing else: columns must be increasing).

Errors are `InvalidArgumentError`s naming the field and the record index.

Cutting a record into fields is in `_csv_fields` (`split_fields`, `record_fields`), reading a
number from a field in `_csv_numbers` (`parse_integer`, `parse_float`); both are re-exported
here. This module holds `decode_csv` itself: the `record_defaults` it takes and how it fills
each column, by the fast path of `csv_fast` when the records allow it.

>>> cols = decode_csv([b'1.5,"a,b",7', b',c,8'], [0.0, "", np.array([], np.int64)])
>>> cols[0], cols[1].tolist(), cols[2]
(array([1.5, 0. ], dtype=float32), [b'a,b', b'c'], array([7, 8]))
"""

import numpy as np

from .. import dtypes
from ..data import tracing
from ..data.spec import TensorSpec
from ..errors import InvalidArgumentError
from . import csv_fast, static_specs
from ._csv_fields import record_fields, split_fields  # noqa: F401 - split_fields re-exported
from ._csv_numbers import parse_float, parse_integer
from ._csv_numbers import (_ASCII_SPACE, _DECIMAL, _HEXADECIMAL, _INTEGER,  # noqa: F401
                           _SPECIAL)  # re-exported

_NUMERIC = {np.dtype(np.float32): "float", np.dtype(np.float64): "double",
            np.dtype(np.int32): "int32", np.dtype(np.int64): "int64"}
_FLOAT32, _INT32 = np.dtype(np.float32), np.dtype(np.int32)
_INT_LIMITS = {np.dtype(np.int32): (-(2**31), 2**31 - 1),
               np.dtype(np.int64): (-(2**63), 2**63 - 1)}


def _default(entry, column):
    """(dtype, default value or None when required) for one `record_defaults` entry."""
    kind = type(entry)  # the usual entries first: this runs for every column of every call
    if kind is float:
        return _FLOAT32, np.float32(entry)
    if kind is int:
        return _INT32, np.int32(entry)
    if kind is str:
        return dtypes.string, entry.encode("utf-8")
    if isinstance(entry, (type, np.dtype, dtypes.DType)) or (isinstance(entry, str) and entry in (
            "int32", "int64", "float32", "float64", "string")):
        return _check(dtypes.as_dtype(entry), column), None
    if isinstance(entry, (list, tuple)):
        if len(entry) > 1:
            raise ValueError(f"record_defaults[{column}] must hold at most one value")
        if not entry:
            raise ValueError(f"record_defaults[{column}] is an empty list; give a dtype (for "
                             "example fl.int64) or an empty array of that dtype for a "
                             "required column")
        entry = entry[0]
    if isinstance(entry, np.ndarray):
        entry = entry.view(np.ndarray)  # a tensor default (fl.constant(0.0)), as TF takes
        if entry.size == 0:
            return _check(dtypes.as_dtype(entry.dtype), column), None
        if entry.size > 1:
            raise ValueError(f"record_defaults[{column}] must hold at most one value")
        # a NumPy scalar keeps the array's dtype: np.array([0], np.int64) is an int64 column
        entry = entry.reshape(-1)[0]
    if isinstance(entry, (bytes, str, np.bytes_, np.str_)):
        value = entry.encode("utf-8") if isinstance(entry, str) else bytes(entry)
        return dtypes.string, value
    if isinstance(entry, np.generic):
        dtype = _check(np.dtype(entry.dtype), column)
        return dtype, entry
    if isinstance(entry, bool):
        raise ValueError(f"record_defaults[{column}]: bool columns are not supported")
    if isinstance(entry, int):
        return np.dtype(np.int32), np.int32(entry)
    if isinstance(entry, float):
        return np.dtype(np.float32), np.float32(entry)
    raise TypeError(f"record_defaults[{column}]: cannot use {entry!r} as a default")


def _check(dtype, column):
    if dtype != dtypes.string and dtype not in _NUMERIC:
        raise ValueError(f"record_defaults[{column}]: dtype {dtype} is not supported; use "
                         "float32, float64, int32, int64 or string")
    return dtype




def _convert(text, dtype, column, record):
    if dtype == dtypes.string:
        return text.encode("utf-8", "surrogateescape")
    if dtype.kind == "f":
        value = parse_float(text)
    else:
        value = parse_integer(text)
        low, high = _INT_LIMITS[dtype]
        if value is not None and not low <= value <= high:
            value = None
    if value is None:
        raise InvalidArgumentError(f"Field {column} in record {record} is not a valid "
                                   f"{_NUMERIC[dtype]}: {text}")
    return value


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None, name=None):
    """Decode `records` (one CSV line, or a list/array of lines) into a list of columns.

    Each column has the shape of `records` and the dtype its `record_defaults` entry gives;
    for a single line the columns are NumPy scalars (strings as `bytes`).
    """
    delimiter = field_delim.decode() if isinstance(field_delim, bytes) else str(field_delim)
    if len(delimiter) != 1:
        raise InvalidArgumentError(f"field_delim should be only 1 character, got "
                                   f"{field_delim!r}")
    na_text = na_value.decode() if isinstance(na_value, bytes) else str(na_value)
    specs = [_default(entry, column) for column, entry in enumerate(record_defaults)]
    if select_cols is not None:
        select_cols = [int(column) for column in select_cols]
        if len(select_cols) != len(specs):
            raise InvalidArgumentError(f"Expected {len(select_cols)} record defaults (one per "
                                       f"selected column), got {len(specs)}")
        if any(b <= a for a, b in zip(select_cols, select_cols[1:])) or (
                select_cols and select_cols[0] < 0):
            raise InvalidArgumentError("select_cols must be non-negative and strictly "
                                       f"increasing, got {select_cols}")
    if tracing.active():  # only the spec is wanted: each column has the records' shape
        shape = static_specs.shape_of(records)
        return list(tracing.stand_in(tuple(TensorSpec(shape, dtype) for dtype, _ in specs)))
    if type(records) is bytes and select_cols is None:
        values = csv_fast.plain_record(records, specs, delimiter,
                                       na_text.encode("utf-8", "surrogateescape"),
                                       use_quote_delim)
        if values is not None:
            return values
    scalar = isinstance(records, (bytes, str, np.bytes_, np.str_)) or (
        isinstance(records, np.ndarray) and records.ndim == 0)
    array = np.asarray(records, dtype=object)
    lines = array.reshape(-1).tolist()
    columns = None
    if select_cols is None:
        columns = _plain(lines, specs, delimiter, na_text, use_quote_delim)
    if columns is None:
        columns = _columns(lines, specs, delimiter, use_quote_delim, na_text, select_cols)
    result = []
    with np.errstate(over="ignore"):  # 1e39 is inf in float32, silently, as in TF
        for (dtype, _), values in zip(specs, columns):
            if scalar:  # one record: NumPy scalars (strings as bytes), no arrays to make
                result.append(values[0] if dtype == dtypes.string else dtype.type(values[0]))
                continue
            if dtype == dtypes.string:
                out = np.empty(len(values), dtype=object)
                out[:] = values
            else:
                out = np.array(values, dtype=dtype)
            out = out.reshape(array.shape)
            result.append(out[()] if scalar else out)
    return result


def _columns(lines, specs, delimiter, use_quote_delim, na_text, select_cols):
    """The columns' values by the general rules, record by record (errors name the first bad
    field in reading order)."""
    columns = [[] for _ in specs]
    for record, line in enumerate(lines):
        if isinstance(line, (bytes, np.bytes_)):
            line = bytes(line).decode("utf-8", "surrogateescape")
        fields = record_fields(line, delimiter, use_quote_delim, record)
        if select_cols is None:
            if len(fields) != len(specs):
                raise InvalidArgumentError(f"Expect {len(specs)} fields but have "
                                           f"{len(fields)} in record {record}")
            chosen = fields
        else:
            if len(fields) <= select_cols[-1]:
                raise InvalidArgumentError(
                    f"Expect at least {select_cols[-1] + 1} fields (select_cols reaches "
                    f"column {select_cols[-1]}) but have {len(fields)} in record {record}")
            chosen = [fields[column] for column in select_cols]
        for column, (text, (dtype, default)) in enumerate(zip(chosen, specs)):
            columns[column].append(_field(text, dtype, default, column, record, na_text))
    return columns


def _field(text, dtype, default, column, record, na_text):
    """One field's value: its default when empty or `na_value`, else converted."""
    if text == "" or text == na_text:
        if default is None:
            raise InvalidArgumentError(f"Field {column} is required but missing in "
                                       f"record {record}!")
        return default
    return _convert(text, dtype, column, record)


def _plain(lines, specs, delimiter, na_text, use_quote_delim):
    """The columns by `csv_fast` when the records are plain, else None. A column it left as
    raw fields is converted by the general rules; if one of those fails, the whole batch is
    read again by them, so that the error names the first bad field in reading order."""
    columns = csv_fast.plain_columns(lines, specs, delimiter,
                                     na_text.encode("utf-8", "surrogateescape"),
                                     use_quote_delim)
    if columns is None:
        return None
    try:
        for column, ((dtype, default), values) in enumerate(zip(specs, columns)):
            if type(values) is tuple:
                columns[column] = [
                    _field(raw.decode("utf-8", "surrogateescape"), dtype, default, column,
                           record, na_text) for record, raw in enumerate(values)]
    except InvalidArgumentError:
        return None
    return columns
