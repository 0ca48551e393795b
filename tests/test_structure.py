"""`feedline.data.structure`: converting values to element leaves. A scalar string is `bytes`
whatever container it came in, as TensorFlow makes every string a `tf.string` tensor
(tensorflow.org/api_docs/python/tf/data/Dataset#from_tensors)."""

import numpy as np

import feedline as fl
from feedline.data import structure


def test_a_zero_d_object_array_of_bytes_becomes_a_bytes_leaf():
    assert structure.to_leaf(np.array(b"c", dtype=object)) == b"c"
    assert type(structure.to_leaf(np.array(b"c", dtype=object))) is bytes


def test_from_tensors_of_a_zero_d_string_array_then_unique_keeps_working():
    """unique() needs scalar strings as bytes: a 0-d object array used to reach it as an
    ndarray and be refused."""
    words = fl.data.Dataset.from_tensor_slices([b"a", b"b"]).concatenate(
        fl.data.Dataset.from_tensors(np.array(b"a", dtype=object)))
    assert list(words.unique().as_numpy_iterator()) == [b"a", b"b"]
