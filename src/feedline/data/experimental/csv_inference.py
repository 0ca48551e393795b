"""How `make_csv_dataset` finds column names and dtypes from the CSV files themselves.

A column's dtype is the narrowest of int32, int64, float32, float64 and string that every
non-empty value seen so far fits, values being read from the first `num_rows_for_inference`
records of the files in order: `"7"` is int32, `"3000000000"` int64, `"2.5"` float32, `"1e300"`
float64, anything else string. A column with no values is a string column.

>>> infer_dtype("7", "", None), infer_dtype("2.5", "", np.dtype("int32"))
(tf.int32, tf.float32)
>>> infer_dtype("x", "", np.dtype("float64"))
tf.string
"""

import numpy as np

from ... import dtypes
from ...io.csv import split_fields
from ..ops.text_line import read_lines

_ORDER = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string]


def _fits(text, dtype):
    if dtype == dtypes.string:
        return True
    try:
        if dtype.kind == "i":
            value = int(text.strip(), 10)
            info = np.iinfo(dtype)
            return info.min <= value <= info.max
        with np.errstate(over="ignore"):
            value = dtype.type(text)
        return bool(np.abs(value) < np.finfo(dtype).max)
    except (ValueError, OverflowError):
        return False


def infer_dtype(text, na_value, previous):
    """The narrowest dtype that fits `text` and every value `previous` was inferred from."""
    if text in ("", na_value):
        return previous  # an empty field tells nothing about its column
    start = 0 if previous is None else _ORDER.index(previous)
    for dtype in _ORDER[start:]:
        if _fits(text, dtype):
            return dtype
    return dtypes.string


def csv_rows(filenames, field_delim, use_quote_delim, header, compression_type):
    """Yield `(filename, line number, fields)` for every record of the files, in order."""
    for filename in filenames:
        for number, line in enumerate(read_lines(filename, compression_type), start=1):
            if header and number == 1:
                continue
            text = line.decode("utf-8", "surrogateescape")
            yield filename, number, split_fields(text, field_delim, use_quote_delim, number)


def header_names(filenames, field_delim, use_quote_delim, compression_type):
    """The column names in the header line of the files (which must all agree)."""
    names = None
    for filename in filenames:
        first = next(iter(read_lines(filename, compression_type)), None)
        if first is None:
            raise ValueError(f"make_csv_dataset: {filename} is empty, so it has no header line"
                             " to take column names from; pass column_names=[...]")
        found = split_fields(first.decode("utf-8", "surrogateescape"), field_delim,
                             use_quote_delim, 0)
        if names is None:
            names, source = found, filename
        elif found != names:
            raise ValueError(f"make_csv_dataset: files have different column names in their "
                             f"header lines: {source} has {names}, {filename} has {found}")
    if len(set(names)) != len(names):
        raise ValueError(f"make_csv_dataset: the header of {source} repeats a column name: "
                         f"{names}")
    return names


def infer_defaults(filenames, column_count, select_cols, field_delim, use_quote_delim,
                   na_value, header, num_rows, compression_type):
    """Defaults (0 of the inferred dtype, or b"") for the selected columns."""
    inferred = [None] * len(select_cols)
    rows = csv_rows(filenames, field_delim, use_quote_delim, header, compression_type)
    for index, (filename, number, fields) in enumerate(rows):
        if num_rows is not None and index >= num_rows:
            break
        if len(fields) != column_count:
            raise ValueError(f"make_csv_dataset: {filename}:{number} has {len(fields)} fields "
                             f"where the column names promise {column_count}; inferring the "
                             "column types needs every record to have them all")
        for position, column in enumerate(select_cols):
            inferred[position] = infer_dtype(fields[column], na_value, inferred[position])
    # (`dtype in (None, ...)` would not do: NumPy reads None as float64 in comparisons.)
    return [b"" if dtype is None or dtype == dtypes.string else dtype.type(0)
            for dtype in inferred]
