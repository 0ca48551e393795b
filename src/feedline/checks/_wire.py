"""Plain data that can leave a student's kernel: JSON with tagged arrays, bytes and tuples.

Only data crosses: numbers (exact `Fraction` and `Decimal` ones too), strings, bytes, lists,
tuples, dicts and NumPy arrays (numeric, bool, or of str/bytes objects). Nothing is pickled,
so decoding runs no code.

>>> import numpy as np
>>> value = (np.arange(3, dtype=np.int64), {"label": b"cat"}, [1.5, None, "x"])
>>> back = decode(json.loads(json.dumps(encode(value))))
>>> back[0].dtype, back[0].tolist(), back[1], back[2]
(dtype('int64'), [0, 1, 2], {'label': b'cat'}, [1.5, None, 'x'])
>>> decode(json.loads(json.dumps(encode(np.float32(2.5)))))
np.float32(2.5)
>>> decode(json.loads(json.dumps(encode(bytearray(b"ab")))))
bytearray(b'ab')
>>> decode(json.loads(json.dumps(encode([Fraction(7, 3), Decimal("0.125")]))))
[Fraction(7, 3), Decimal('0.125')]
"""

import base64
import json
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np


class Unsendable(TypeError):
    """A value that is not plain data (a function, a dataset, an open file, ...)."""


def encode(value):
    """`value` as JSON-ready plain data; raises `Unsendable` for anything else."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    # A learner may compute seconds exactly; float() of it is what the checks then judge, so
    # it must reach the grader as the same number, not as an opaque stand-in.
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    if isinstance(value, Decimal):
        return {"decimal": str(value)}
    if isinstance(value, bytes):
        return {"bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, bytearray):  # kept apart: a check may accept it, or ask for bytes
        return {"bytearray": base64.b64encode(value).decode("ascii")}
    if isinstance(value, tuple):
        return {"tuple": [encode(item) for item in value]}
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {"dict": [[encode(key), encode(item)] for key, item in value.items()]}
    if isinstance(value, np.generic):  # a NumPy scalar comes back a scalar, not a 0-d array
        return dict(_encode_array(np.asarray(value)), scalar=True)
    if isinstance(value, np.ndarray):
        return _encode_array(value)
    raise Unsendable(f"{type(value).__name__} is not plain data")


def _encode_array(array):
    if array.dtype.kind in "biufc":
        return {"array": array.dtype.str, "shape": list(array.shape),
                "data": base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")}
    if array.dtype.kind in "OSU":
        return {"objects": array.dtype.str, "shape": list(array.shape),
                "items": [encode(item) for item in array.ravel().tolist()]}
    raise Unsendable(f"an array of dtype {array.dtype} is not plain data")


def decode(data):
    """The value `encode` described."""
    if isinstance(data, list):
        return [decode(item) for item in data]
    if not isinstance(data, dict):
        return data
    if "float" in data:
        return float(data["float"])
    if "fraction" in data:
        numerator, denominator = data["fraction"]
        if not (type(numerator) is int and type(denominator) is int) or denominator == 0:
            raise Unsendable("a fraction is two integers, the second not 0")
        return Fraction(numerator, denominator)
    if "decimal" in data:
        try:
            return Decimal(str(data["decimal"]))
        except ArithmeticError:  # decimal.InvalidOperation: not a number's text
            raise Unsendable("a decimal is a number's text") from None
    if "bytes" in data:
        return base64.b64decode(data["bytes"])
    if "bytearray" in data:
        return bytearray(base64.b64decode(data["bytearray"]))
    if "tuple" in data:
        return tuple(decode(item) for item in data["tuple"])
    if "dict" in data:
        return {decode(key): decode(item) for key, item in data["dict"]}
    if "array" in data:
        dtype = _dtype(data["array"])
        if dtype.kind not in "biufc":
            raise Unsendable(f"array dtype {dtype} is not allowed")
        flat = np.frombuffer(base64.b64decode(data["data"]), dtype=dtype)
        array = flat.reshape(data["shape"]).copy()
        return array[()] if data.get("scalar") else array
    if "objects" in data:
        items = [decode(item) for item in data["items"]]
        dtype = _dtype(data["objects"])
        if dtype.kind not in "OSU":
            raise Unsendable(f"array dtype {dtype} is not allowed")
        _refuse_padding(dtype, items)
        array = np.empty(len(items), dtype=object if dtype.kind == "O" else dtype)
        array[:] = items
        array = array.reshape(data["shape"])
        return array[()] if data.get("scalar") else array
    raise Unsendable(f"unknown plain-data tag in {sorted(data)}")


MAX_PADDED_BYTES = 64 * 2**20


def _dtype(text):
    """The dtype a record names: only the plain `dtype.str` that `encode` writes (a structured
    or sub-array dtype, given as a list or dict, is never one)."""
    if not isinstance(text, str):
        raise Unsendable("an array's dtype is a dtype string")
    try:
        return np.dtype(text)
    except (TypeError, ValueError):
        raise Unsendable(f"{text!r} is not a dtype") from None


def _refuse_padding(dtype, items):
    """A record is decoded in the grader, and a string dtype reserves its whole width for every
    item: five one-letter items recorded as `<U50000000` would take a gigabyte there (and a
    forged record can say anything). A width no wider than the longest item is what NumPy
    makes; a wider one is accepted only while the array stays small."""
    if dtype.kind == "O":
        return
    width = dtype.itemsize // (4 if dtype.kind == "U" else 1)
    longest = max((len(item) for item in items if isinstance(item, (str, bytes))), default=0)
    if width > max(longest, 1) and len(items) * dtype.itemsize > MAX_PADDED_BYTES:
        raise Unsendable(f"{len(items)} items of dtype {dtype} are too large for the record")


def digest(values):
    """A short fingerprint of plain data (or of the types of values that are not)."""
    import hashlib

    def plain(value):
        try:
            return encode(value)
        except Unsendable:
            return {"type": type(value).__name__}

    text = json.dumps([plain(value) for value in values], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
