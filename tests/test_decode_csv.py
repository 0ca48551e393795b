"""decode_csv against TensorFlow's results and errors."""

import numpy as np
import pytest

from conftest import decode, load_fixture
import feedline as fl
from feedline.errors import InvalidArgumentError
from feedline.io import decode_csv

CASES = load_fixture("text_expected.json")[
    "decode_csv(record_defaults=[0.0, -1.0, required int64])"]
DEFAULTS = [0.0, -1.0, fl.int64]


def call_for(case):
    """The decode_csv call each fixture key describes."""
    if case.startswith("too many fields"):
        return decode_csv(b"1,2,3,4", DEFAULTS)
    if case.startswith("na_value"):
        return decode_csv(b"NA,2,1", DEFAULTS, na_value="NA")
    if case.startswith("field_delim"):
        return decode_csv(b"1;2;3", DEFAULTS, field_delim=";")
    if case.startswith("string fields"):
        return decode_csv(b'a,"b,c","d""e"', ["", "", ""])
    return decode_csv(case.encode(), DEFAULTS)


@pytest.mark.parametrize("case", sorted(CASES))
def test_decode_csv_matches_tensorflow(case):
    expected = CASES[case]
    if "error" in expected:
        assert expected["error"] == "InvalidArgumentError"
        with pytest.raises(InvalidArgumentError) as info:
            call_for(case)
        assert str(info.value) == expected["message"]
        return
    got = call_for(case)
    want = decode(expected["values"])
    assert [value.item() if isinstance(value, np.generic) else value for value in got] == want
    if not case.startswith("string"):
        assert [np.asarray(value).dtype for value in got] == [np.float32, np.float32, np.int64]


def test_batches_keep_the_records_shape_and_name_the_bad_record():
    cols = decode_csv(np.array([b"1,2,3", b"4,5,6"]), DEFAULTS)
    assert cols[2].dtype == np.int64 and cols[2].tolist() == [3, 6]
    with pytest.raises(InvalidArgumentError, match="Field 2 is required but missing in record 1"):
        decode_csv([b"1,2,3", b"4,5,"], DEFAULTS)


def test_bad_numbers_name_field_and_record():
    with pytest.raises(InvalidArgumentError, match="Field 0 in record 1 is not a valid float: x"):
        decode_csv([b"1,2,3", b"x,5,6"], DEFAULTS)
    with pytest.raises(InvalidArgumentError, match="Field 2 in record 0 is not a valid int64"):
        decode_csv(b"1,2,3.5", DEFAULTS)
    with pytest.raises(InvalidArgumentError, match="not a valid int32"):
        decode_csv(b"99999999999", [0])


def test_python_ints_default_to_int32_and_strings_to_bytes():
    number, text = decode_csv(b",", [7, "none"])
    assert number.dtype == np.int32 and number == 7 and text == b"none"


def test_select_cols_picks_columns():
    assert [v.item() for v in decode_csv(b"a,1,b,2", [0, 0], select_cols=[1, 3])] == [1, 2]


def test_quotes_must_be_closed_and_escaped():
    with pytest.raises(InvalidArgumentError, match="record 0"):
        decode_csv(b'"abc,1', ["", 0])
    with pytest.raises(InvalidArgumentError, match="escaped"):
        decode_csv(b'"a"b,1', ["", 0])
    assert decode_csv(b'"a"b,1', ["", 0], use_quote_delim=False)[0] == b'"a"b'


def test_quoted_empty_field_takes_the_default():
    assert decode_csv(b'"",2', [5.0, 0])[0] == 5.0


def test_tensor_defaults_are_taken_as_tensorflow_takes_them():
    fields = decode_csv("1,", [fl.constant(0.0), fl.constant(np.nan, dtype=fl.float32)])
    assert [float(fields[0])] == [1.0] and np.isnan(fields[1])
    fields = decode_csv("7,2", [fl.constant([0], dtype=fl.int64), fl.constant([], fl.float32)])
    assert fields[0].dtype == np.int64 and int(fields[0]) == 7 and float(fields[1]) == 2.0
