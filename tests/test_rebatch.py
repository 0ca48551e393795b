"""`Dataset.rebatch`'s static batch size (rebatch_op.py, tensorflow.org/api_docs/python/tf/
data/Dataset#rebatch): known when the new size is one constant and no batch can come out
short: with drop_remainder, or when the input's known batch size is a multiple of it."""

import numpy as np

import feedline as fl

Dataset = fl.data.Dataset


def test_rebatch_to_a_divisor_of_a_known_batch_size_has_a_known_batch_size():
    ds = Dataset.range(8).batch(4, drop_remainder=True).rebatch(2)
    assert ds.element_spec == fl.TensorSpec((2,), fl.int64)
    assert [b.tolist() for b in ds] == [[0, 1], [2, 3], [4, 5], [6, 7]]


def test_rebatch_to_a_non_divisor_or_of_unknown_batches_keeps_the_size_unknown():
    known = Dataset.range(8).batch(4, drop_remainder=True)
    assert known.rebatch(3).element_spec == fl.TensorSpec((None,), fl.int64)
    assert Dataset.range(8).batch(4).rebatch(2).element_spec == \
        fl.TensorSpec((None,), fl.int64)


def test_rebatch_with_a_list_of_equal_sizes_counts_as_that_size():
    ds = Dataset.from_tensor_slices(np.zeros((4, 2, 3))).rebatch([1, 1])
    assert ds.element_spec == fl.TensorSpec((1, 3), fl.float64)
