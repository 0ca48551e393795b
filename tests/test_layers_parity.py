"""Every entry of layers_expected.json (Keras 3.15 / TensorFlow 2.21) against feedline.layers."""

import numpy as np
import pytest

from conftest import decode, load_fixture
from feedline import layers
from feedline.lookup import StaticVocabularyTable

COLORS = ["red", "green", "blue"]


@pytest.fixture(scope="module")
def fx():
    return load_fixture("layers_expected.json")


def assert_same(actual, expected, exact=True):
    """Same dtype, shape and values (floats to float32 precision unless exact)."""
    expected = decode(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if exact:
        np.testing.assert_array_equal(actual, expected)
    else:
        np.testing.assert_allclose(actual, expected, rtol=2e-6, atol=1e-6)


def test_every_fixture_entry_is_covered(fx):
    covered = {"input_2d", "probe"} | set(CASES)
    assert set(fx) == covered


def normalization_adapt(fx):
    entry = fx["Normalization(axis=-1).adapt(input_2d)"]
    layer = layers.Normalization(axis=-1)
    layer.adapt(np.array(fx["input_2d"], dtype=np.float32))
    assert_same(layer.mean, entry["mean"], exact=False)
    assert_same(layer.variance, entry["variance"], exact=False)
    assert_same(layer(np.array(fx["probe"], np.float32)), entry["probe_out"], exact=False)


def normalization_invert(fx):
    probe_out = decode(fx["Normalization(axis=-1).adapt(input_2d)"]["probe_out"])
    layer = layers.Normalization(axis=-1, invert=True)
    layer.adapt(np.array(fx["input_2d"], dtype=np.float32))
    assert_same(layer(probe_out), fx["Normalization(axis=-1, invert=True).adapt(input_2d)"
                                     "(probe_out)"], exact=False)


def discretization(fx):
    layer = layers.Discretization(bin_boundaries=[-1.0, 0.0, 2.5])
    out = layer(np.array([-3, -1, -0.5, 0, 1, 2.5, 9]))
    assert_same(out, fx["Discretization(bin_boundaries=[-1.0, 0.0, 2.5])"
                        "([-3,-1,-0.5,0,1,2.5,9])"])


def category_encoding(mode, inputs):
    def check(fx):
        out = layers.CategoryEncoding(num_tokens=5, output_mode=mode)(inputs)
        assert_same(out, fx[f"CategoryEncoding(num_tokens=5, output_mode='{mode}')"])
    return check


def hashing(key, **kwargs):
    def check(fx):
        entry = fx[key]
        inputs = entry["inputs"]
        if isinstance(inputs[0], int):
            inputs = np.array(inputs, dtype=np.int64)
        assert_same(layers.Hashing(**kwargs)(inputs), entry["outputs"])
        if not isinstance(inputs, np.ndarray):  # bytes give the same buckets as str
            encoded = np.array([s.encode() for s in inputs], dtype=object)
            assert_same(layers.Hashing(**kwargs)(encoded), entry["outputs"])
    return check


def string_lookup_adapt(fx):
    entry = fx["StringLookup().adapt(corpus_words)"]
    layer = layers.StringLookup()
    layer.adapt(entry["corpus_words"])
    assert layer.get_vocabulary() == entry["vocabulary"]
    assert_same(layer(entry["query"]), entry["outputs"])


def string_lookup(key, query_key="query", **kwargs):
    def check(fx):
        entry = fx[key]
        layer = layers.StringLookup(vocabulary=COLORS, **kwargs)
        assert_same(layer(entry[query_key]), entry["outputs"])
        bytes_query = np.vectorize(str.encode, otypes=[object])(np.array(entry[query_key]))
        assert_same(layer(bytes_query), entry["outputs"])
    return check


def string_lookup_invert(fx):
    layer = layers.StringLookup(vocabulary=COLORS, invert=True)
    out = layer(np.array([0, 1, 2, 3]))
    assert out.dtype == object
    assert out.tolist() == decode(fx["StringLookup(vocabulary=['red','green','blue'], "
                                     "invert=True)([0,1,2,3])"])


def integer_lookup(fx):
    layer = layers.IntegerLookup(vocabulary=[12, 36, 1138, 42])
    assert_same(layer(np.array([12, 1138, 42, 7, 0])),
                fx["IntegerLookup(vocabulary=[12, 36, 1138, 42])([12, 1138, 42, 7, 0])"])


def text_vectorization(key, exact=True, **kwargs):
    def check(fx):
        entry = fx[key]
        corpus = fx["TextVectorization(output_mode='int', output_sequence_length=6)"
                    ".adapt(corpus)"]["corpus"]
        layer = layers.TextVectorization(**kwargs)
        layer.adapt(corpus)
        assert layer.get_vocabulary() == entry["vocabulary"]
        assert_same(layer(entry["queries"]), entry["outputs"], exact=exact)
    return check


def static_vocabulary_table(fx):
    entry = fx["StaticVocabularyTable(['red','green','blue'] -> 0..2, num_oov_buckets=4)"
               ".lookup(query)"]
    table = StaticVocabularyTable(COLORS, num_oov_buckets=4)
    assert_same(table.lookup(entry["query"]), entry["outputs"])


CASES = {
    "Normalization(axis=-1).adapt(input_2d)": normalization_adapt,
    "Normalization(axis=-1, invert=True).adapt(input_2d)(probe_out)": normalization_invert,
    "Discretization(bin_boundaries=[-1.0, 0.0, 2.5])([-3,-1,-0.5,0,1,2.5,9])": discretization,
    "CategoryEncoding(num_tokens=5, output_mode='one_hot')":
        category_encoding("one_hot", [0, 3, 4, 1]),
    "CategoryEncoding(num_tokens=5, output_mode='multi_hot')":
        category_encoding("multi_hot", [[0, 1], [4, 3]]),
    "CategoryEncoding(num_tokens=5, output_mode='count')":
        category_encoding("count", [[0, 1, 1], [3, 3, 4]]),
    "Hashing(num_bins=8) on strings": hashing("Hashing(num_bins=8) on strings", num_bins=8),
    "Hashing(num_bins=8, salt=133) on strings":
        hashing("Hashing(num_bins=8, salt=133) on strings", num_bins=8, salt=133),
    "Hashing(num_bins=5) on int64": hashing("Hashing(num_bins=5) on int64", num_bins=5),
    "StringLookup().adapt(corpus_words)": string_lookup_adapt,
    "StringLookup(vocabulary=['red','green','blue'], num_oov_indices=3)": string_lookup(
        "StringLookup(vocabulary=['red','green','blue'], num_oov_indices=3)",
        num_oov_indices=3),
    "StringLookup(vocabulary=['red','green','blue'], mask_token='')": string_lookup(
        "StringLookup(vocabulary=['red','green','blue'], mask_token='')", mask_token=""),
    "StringLookup(vocabulary=['red','green','blue'], invert=True)([0,1,2,3])":
        string_lookup_invert,
    "StringLookup(vocabulary=['red','green','blue'], output_mode='one_hot')": string_lookup(
        "StringLookup(vocabulary=['red','green','blue'], output_mode='one_hot')",
        output_mode="one_hot"),
    "StringLookup(vocabulary=['red','green','blue'], output_mode='multi_hot')": string_lookup(
        "StringLookup(vocabulary=['red','green','blue'], output_mode='multi_hot')",
        output_mode="multi_hot"),
    "StringLookup(vocabulary=['red','green','blue'], output_mode='count')": string_lookup(
        "StringLookup(vocabulary=['red','green','blue'], output_mode='count')",
        output_mode="count"),
    "IntegerLookup(vocabulary=[12, 36, 1138, 42])([12, 1138, 42, 7, 0])": integer_lookup,
    "TextVectorization(output_mode='int', output_sequence_length=6).adapt(corpus)":
        text_vectorization("TextVectorization(output_mode='int', output_sequence_length=6)"
                           ".adapt(corpus)", output_mode="int", output_sequence_length=6),
    "TextVectorization(output_mode='multi_hot', max_tokens=8).adapt(corpus)":
        text_vectorization("TextVectorization(output_mode='multi_hot', max_tokens=8)"
                           ".adapt(corpus)", output_mode="multi_hot", max_tokens=8),
    "TextVectorization(output_mode='count', max_tokens=8).adapt(corpus)":
        text_vectorization("TextVectorization(output_mode='count', max_tokens=8).adapt(corpus)",
                           output_mode="count", max_tokens=8),
    "TextVectorization(output_mode='tf_idf', max_tokens=8).adapt(corpus)":
        text_vectorization("TextVectorization(output_mode='tf_idf', max_tokens=8)"
                           ".adapt(corpus)", exact=False, output_mode="tf_idf", max_tokens=8),
    "TextVectorization(output_mode='int', ngrams=2).adapt(corpus)":
        text_vectorization("TextVectorization(output_mode='int', ngrams=2).adapt(corpus)",
                           output_mode="int", ngrams=2),
    "StaticVocabularyTable(['red','green','blue'] -> 0..2, num_oov_buckets=4).lookup(query)":
        static_vocabulary_table,
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_parity(fx, key):
    CASES[key](fx)
