"""How `decode_csv` reads a number from a field's text, as TensorFlow does.

`parse_integer` and `parse_float` follow absl's SimpleAtoi and SimpleAtof rather than
Python's `int()` and `float()`: only ASCII digits and ASCII whitespace count, a leading `+`
is taken, and floats also accept 0x-hexadecimal, `inf`, `infinity` and `nan` in any case.
Each returns None for text it does not take: `decode_csv` words the error, and checks that
an integer fits its column's dtype.
"""

import re


# TensorFlow reads numbers with absl's SimpleAtoi / SimpleAtof: ASCII whitespace around the
# number, ASCII digits only, and (for floats) what absl::from_chars takes, hexadecimal with a
# 0x prefix included. Python's int() and float() would also take Unicode digits and spaces.
_ASCII_SPACE = " \t\n\v\f\r"
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_HEXADECIMAL = re.compile(r"-?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                          r"(?:[pP][+-]?[0-9]+)?", re.ASCII)
_SPECIAL = re.compile(r"(-?)(inf|infinity|nan(?:\([0-9a-z_]*\))?)", re.ASCII | re.IGNORECASE)


def parse_integer(text):
    """An int as absl::SimpleAtoi reads it, or None (range is checked by the caller).

    >>> parse_integer(" +42 "), parse_integer("\u0664\u0662")
    (42, None)
    """
    text = text.strip(_ASCII_SPACE)
    return int(text) if _INTEGER.fullmatch(text) else None


def parse_float(text):
    """A float as absl::SimpleAtof reads it (decimal, 0x-hexadecimal, inf, nan), or None.

    >>> parse_float("0x1p3"), parse_float("-Infinity"), parse_float("1_0")
    (8.0, -inf, None)
    """
    text = text.strip(_ASCII_SPACE)
    if text.startswith("+"):
        text = text[1:]
        if text.startswith("-"):
            return None
    if _DECIMAL.fullmatch(text):
        return float(text)
    if _HEXADECIMAL.fullmatch(text):
        return float.fromhex(text)
    special = _SPECIAL.fullmatch(text)
    if special:
        sign, word = special.groups()
        return float(sign + ("inf" if word.lower().startswith("inf") else "nan"))
    return None
