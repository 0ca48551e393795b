"""How `decode_csv` cuts one record into its fields, before any field is converted.

`split_fields` applies the quote rules of RFC 4180 (when `use_quote_delim`): a quoted field
keeps the delimiter literally and reads `""` as one quote, and a stray quote is an error.
`record_fields` adds what TensorFlow's DecodeCSV kernel does besides: an empty record has no
fields, and a line break (CR or LF) is skipped where a field starts but refused inside an
unquoted one. `CsvDataset` and `make_csv_dataset`'s column inference call `split_fields`
directly (they import it from `feedline.io.csv`, which re-exports both).
"""

from ..errors import InvalidArgumentError


def split_fields(line, delimiter, use_quote_delim, record):
    """The fields of one record, quotes removed."""
    if not use_quote_delim or '"' not in line:
        return line.split(delimiter)
    fields, position, end = [], 0, len(line)
    while True:
        if position < end and line[position] == '"':
            parts, position = [], position + 1
            while True:
                close = line.find('"', position)
                if close < 0:
                    raise InvalidArgumentError(
                        f"Quoted field has to end with quote followed by delim or end in "
                        f"record {record}: {line!r}")
                parts.append(line[position:close])
                if close + 1 < end and line[close + 1] == '"':
                    parts.append('"')
                    position = close + 2
                    continue
                position = close + 1
                break
            if position < end and line[position] != delimiter:
                raise InvalidArgumentError(
                    f"Quote inside a string has to be escaped by another quote in record "
                    f"{record} (field {len(fields)}): {line!r}")
            fields.append("".join(parts))
        else:
            stop = line.find(delimiter, position)
            stop = end if stop < 0 else stop
            field = line[position:stop]
            if '"' in field:
                raise InvalidArgumentError(
                    f"Unquoted fields cannot have quotes/CRLFs inside (field {len(fields)} in "
                    f"record {record}): {line!r}")
            fields.append(field)
            position = stop
        if position >= end:
            return fields
        position += 1  # past the delimiter
        if position == end:
            fields.append("")
            return fields


def record_fields(line, delimiter, use_quote_delim, record):
    """The fields of one `decode_csv` record, by the rules of TensorFlow's DecodeCSV kernel.

    Beyond `split_fields`: an empty record has no field, a line break (CR or LF) where a
    field would start is skipped, and one inside an unquoted field is an error.

    >>> record_fields("1,\\r2", ",", True, 0), record_fields("", ",", True, 0)
    (['1', '2'], [])
    """
    if "\r" not in line and "\n" not in line:
        return split_fields(line, delimiter, use_quote_delim, record) if line else []
    fields, position, end = [], 0, len(line)
    while position < end:
        if line[position] in "\r\n":
            position += 1
            continue
        if use_quote_delim and line[position] == '"':
            # a quoted field holds no line break that needs care: reuse the quote rules on it
            stop = position + 1
            while True:
                close = line.find('"', stop)
                if close < 0 or close + 1 >= end or line[close + 1] == delimiter:
                    break
                stop = close + 2
            piece = line[position:end if close < 0 else close + 1]
            fields.extend(split_fields(piece, delimiter, True, record))
            position += len(piece) + 1
            continue
        stop = line.find(delimiter, position)
        stop = end if stop < 0 else stop
        field = line[position:stop]
        if "\r" in field or "\n" in field or (use_quote_delim and '"' in field):
            raise InvalidArgumentError(
                f"Unquoted fields cannot have quotes/CRLFs inside (field {len(fields)} in "
                f"record {record}): {line!r}")
        fields.append(field)
        position = stop + 1
    if line[-1] == delimiter:
        fields.append("")
    return fields
