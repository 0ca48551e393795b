"""The tf.strings functions beyond the basics: unicode_decode / unicode_transcode / bytes_split
(https://www.tensorflow.org/api_docs/python/tf/strings/unicode_decode, ...), as_string,
format, the hash buckets, regex_full_match and ngrams, with TensorFlow's dtypes, shapes and
errors."""

import numpy as np
import pytest

import feedline as fl
from feedline.errors import InvalidArgumentError

S = fl.strings


def objects(*items):
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


# -- unicode ----------------------------------------------------------------------------------

def test_unicode_decode_of_a_string_is_int32_code_points():
    points = S.unicode_decode("Gödel", "UTF-8")
    assert points.dtype == np.int32 and points.tolist() == [71, 246, 100, 101, 108]


def test_unicode_decode_of_a_batch_is_ragged_as_the_docs_show():
    """tf.strings.unicode_decode's page: [u'G\\xf6\\xf6dnight', u'\\U0001f60a'] gives
    [[71, 246, 246, 100, 110, 105, 103, 104, 116], [128522]]."""
    decoded = S.unicode_decode(["G\xf6\xf6dnight", "\U0001f60a"], "UTF-8")
    assert decoded.to_list() == [[71, 246, 246, 100, 110, 105, 103, 104, 116], [128522]]
    assert decoded.flat_values.dtype == np.int32


def test_unicode_decode_of_a_matrix_nests_the_rows():
    decoded = S.unicode_decode(np.array([["ab", "c"], ["", "d"]], dtype=object), "UTF-8")
    assert decoded.to_list() == [[[97, 98], [99]], [[], [100]]]


def test_unicode_decode_errors_follow_the_errors_argument():
    assert S.unicode_decode(b"a\xffb", "UTF-8").tolist() == [97, 65533, 98]
    assert S.unicode_decode(b"a\xffb", "UTF-8", replacement_char=63).tolist() == [97, 63, 98]
    assert S.unicode_decode(b"a\xffb", "UTF-8", errors="ignore").tolist() == [97, 98]
    with pytest.raises(InvalidArgumentError, match="not valid UTF-8"):
        S.unicode_decode(b"a\xff", "UTF-8", errors="strict")
    assert S.unicode_decode(b"a\x01", "UTF-8", replace_control_characters=True).tolist() == [
        97, 65533]


def test_unicode_decode_names_a_bad_encoding():
    with pytest.raises(ValueError, match="input_encoding"):
        S.unicode_decode(b"a", "klingon-8")


def test_input_encodings_are_icu_names_that_ignore_case_and_dashes():
    """TensorFlow reads input_encoding through ICU, so 'UTF8' (the unicode tutorial's
    spelling), 'utf-8' and 'UTF_16BE' all name converters; Latin-1 is one too."""
    assert S.unicode_decode(b"ab", "UTF8").numpy().tolist() == [97, 98]
    assert S.unicode_decode(b"\x00a", "utf_16be").numpy().tolist() == [97]
    assert S.unicode_decode(b"\xe9", "ISO-8859-1").numpy().tolist() == [233]
    assert S.unicode_transcode("é", "UTF8", "UTF-16-BE").numpy() == b"\x00\xe9"


def test_unicode_transcode_keeps_the_shape_and_changes_the_bytes():
    out = S.unicode_transcode(objects("é", b"a"), "UTF-8", "UTF-16-BE")
    assert out.shape == (2,) and out.tolist() == [b"\x00\xe9", b"\x00a"]
    assert S.unicode_transcode(b"\x00\xe9", "UTF-16-BE", "UTF-8") == "é".encode()
    with pytest.raises(ValueError, match="output_encoding"):
        S.unicode_transcode(b"a", "UTF-8", "ASCII")


def test_bytes_split_gives_single_bytes():
    assert S.bytes_split("hé").tolist() == [b"h", b"\xc3", b"\xa9"]
    assert S.bytes_split(objects(b"ab", b"")).to_list() == [[b"a", b"b"], []]


# -- as_string ----------------------------------------------------------------------------------

def test_as_string_writes_floats_with_six_decimals_by_default():
    assert S.as_string(np.float32(3.5)) == b"3.500000"
    assert S.as_string([1.25, -2.0]).tolist() == [b"1.250000", b"-2.000000"]


@pytest.mark.parametrize("kwargs, expected", [
    (dict(precision=2), b"3.14"),
    (dict(scientific=True), b"3.141593e+00"),
    (dict(shortest=True), b"3.14159"),
    (dict(precision=1, width=6), b"   3.1"),
    (dict(precision=1, width=6, fill="0"), b"0003.1"),
    (dict(precision=1, width=6, fill="-"), b"3.1   "),
    (dict(precision=0, fill="+"), b"+3"),
])
def test_as_string_builds_a_printf_format(kwargs, expected):
    assert S.as_string(np.float64(3.14159265), **kwargs) == expected


def test_as_string_of_integers_and_booleans():
    assert S.as_string(np.int64(-42), width=5) == b"  -42"
    assert S.as_string([7], width=3, fill="0").tolist() == [b"007"]
    assert S.as_string(np.array([True, False])).tolist() == [b"true", b"false"]
    assert S.as_string(np.zeros((2, 3), np.int32)).shape == (2, 3)


def test_as_string_refuses_what_tensorflow_refuses():
    with pytest.raises(InvalidArgumentError, match="both scientific and shortest"):
        S.as_string(1.0, scientific=True, shortest=True)
    with pytest.raises(InvalidArgumentError, match="fill"):
        S.as_string(1.0, fill="x")
    with pytest.raises(InvalidArgumentError, match="precision"):
        S.as_string(1, precision=2)


# -- format -------------------------------------------------------------------------------------

def test_format_summarizes_long_tensors_as_the_docs_show():
    """tf.strings.format's page: range(10) with summarize=3 prints [0 1 2 ... 7 8 9]."""
    assert S.format("tensor: {}, suffix", np.arange(10, dtype=np.int32)) == \
        b"tensor: [0 1 2 ... 7 8 9], suffix"
    assert S.format("{}", [np.arange(5)]) == b"[0 1 2 3 4]"
    assert S.format("{}", [np.arange(10)], summarize=-1) == b"[0 1 2 3 4 5 6 7 8 9]"


def test_format_prints_matrices_strings_booleans_and_floats_like_tf_print():
    assert S.format("{}", [np.array([[1, 2], [3, 4]])]) == b"[[1 2]\n [3 4]]"
    assert S.format("{} {}", ["a\n", np.array([True, False])]) == b'"a\\n" [1 0]'
    assert S.format("{} {}", [np.float32(0.1), np.float32(1) / 3]) == b"0.1 0.333333343"
    assert S.format("{}", [2.5]) == b"2.5"


def test_format_needs_one_input_per_placeholder():
    with pytest.raises(ValueError, match="placeholders"):
        S.format("{} {}", [1])
    assert S.format("<>", [3], placeholder="<>") == b"3"


# -- hash buckets -------------------------------------------------------------------------------

def test_to_hash_bucket_fast_is_fingerprint64_modulo_as_the_docs_show():
    """tf.strings.to_hash_bucket_fast's page: ['Hello', 'TensorFlow', '2.x'], 3 -> [0, 2, 2]."""
    ids = S.to_hash_bucket_fast(["Hello", "TensorFlow", "2.x"], 3)
    assert ids.dtype == np.int64 and ids.tolist() == [0, 2, 2]
    assert isinstance(S.to_hash_bucket_fast(b"Hello", 3).numpy(), np.int64)


def test_to_hash_bucket_is_the_legacy_hash_modulo_as_the_docs_show():
    """tf.strings.to_hash_bucket's page: ['Hello', 'TensorFlow', '2.x'], 3 -> [2, 0, 1]
    (strings of 5, 10 and 3 bytes: whole 8-byte words and tails both take part)."""
    ids = S.to_hash_bucket(["Hello", "TensorFlow", "2.x"], 3)
    assert ids.numpy().tolist() == [2, 0, 1] and ids.dtype == np.int64
    assert S.to_hash_bucket(b"Hello", 3).numpy() == 2
    assert S.to_hash_bucket([["Hello"], ["2.x"]], 3).numpy().tolist() == [[2], [1]]
    assert S.to_hash_bucket(fl.ragged.constant([["Hello", "2.x"], []]), 3).to_list() == [[2, 1], []]
    with pytest.raises(fl.errors.InvalidArgumentError, match="num_buckets"):
        S.to_hash_bucket(b"a", 0)


def test_to_hash_bucket_strong_is_keyed_siphash_as_the_docs_show():
    """tf.strings.to_hash_bucket_strong's page: ['Hello', 'TF'], 3, key [1, 2] -> [2, 0]."""
    ids = S.to_hash_bucket_strong(["Hello", "TF"], 3, [1, 2])
    assert ids.dtype == np.int64 and ids.tolist() == [2, 0]


def test_hash_buckets_check_their_arguments():
    with pytest.raises(InvalidArgumentError, match="num_buckets"):
        S.to_hash_bucket_fast(b"a", 0)
    with pytest.raises(InvalidArgumentError, match="key"):
        S.to_hash_bucket_strong(b"a", 3, [1])
    with pytest.raises(TypeError, match="input"):
        S.to_hash_bucket_fast([1, 2], 3)


# -- regex_full_match ---------------------------------------------------------------------------

def test_regex_full_match_matches_whole_strings_only():
    out = S.regex_full_match(np.array([[b"abc", b"ab"], [b"xabc", b""]], dtype=object), "a.c")
    assert out.dtype == np.bool_ and out.tolist() == [[True, False], [False, False]]
    assert S.regex_full_match(b"TF", "[A-Z]+").numpy() is np.True_


def test_regex_full_match_names_a_bad_pattern():
    with pytest.raises(InvalidArgumentError, match="pattern"):
        S.regex_full_match(b"a", "(")


# -- ngrams -------------------------------------------------------------------------------------

def test_ngrams_as_the_docs_show():
    """tf.strings.ngrams's page: ['A', 'B', 'C', 'D'], 2 -> ['A B', 'B C', 'C D']."""
    assert S.ngrams(["A", "B", "C", "D"], 2).tolist() == [b"A B", b"B C", b"C D"]
    assert S.ngrams(["A", "B", "C", "D"], (1, 2)).tolist() == [
        b"A", b"B", b"C", b"D", b"A B", b"B C", b"C D"]


def test_ngrams_of_rows_and_ragged_rows():
    dense = S.ngrams(np.array([[b"a", b"b", b"c"], [b"d", b"e", b"f"]], dtype=object), 2,
                     separator="_")
    assert dense.shape == (2, 2) and dense.tolist() == [[b"a_b", b"b_c"], [b"d_e", b"e_f"]]
    ragged = fl.RaggedTensor.from_row_splits(objects(b"a", b"b", b"c"), [0, 2, 3])
    assert S.ngrams(ragged, 2).to_list() == [[b"a b"], []]


def test_ngrams_padding_and_short_sequences():
    # one pad each side: 1 + 2 - 3 + 1 = 1 trigram; no 4-gram unless short ones are kept
    assert S.ngrams(["a"], 3, pad_values=("<", ">"), padding_width=1).tolist() == [b"< a >"]
    assert S.ngrams(["a"], 4, pad_values=("<", ">"), padding_width=1).tolist() == []
    assert S.ngrams(["a"], 4, pad_values=("<", ">"), padding_width=1,
                    preserve_short_sequences=True).tolist() == [b"< a >"]
    assert S.ngrams(["a", "b"], 5, preserve_short_sequences=True).tolist() == [b"a b"]
    with pytest.raises(ValueError, match="pad_values"):
        S.ngrams(["a"], 2, padding_width=1)
    with pytest.raises(ValueError, match="ngram_width"):
        S.ngrams(["a"], 0)
