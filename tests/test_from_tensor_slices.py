"""`Dataset.from_tensor_slices` slices every kind of component along its first axis, sparse
ones included (tensorflow.org/api_docs/python/tf/data/Dataset#from_tensor_slices: a
SparseTensor gives SparseTensors of one dimension less)."""

import numpy as np
import pytest

import feedline as fl

Dataset = fl.data.Dataset


def test_from_tensor_slices_of_a_sparse_tensor_gives_its_sparse_rows():
    sparse = fl.sparse.from_dense(np.array([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]]))
    ds = Dataset.from_tensor_slices(sparse)
    assert ds.element_spec == fl.SparseTensorSpec([2], fl.float64)
    assert int(ds.cardinality()) == 3
    assert [fl.sparse.to_dense(row).numpy().tolist() for row in ds] == [
        [1.0, 0.0], [0.0, 2.0], [0.0, 0.0]]


def test_from_tensor_slices_of_a_sparse_and_a_dense_component_pairs_their_rows():
    sparse = fl.sparse.from_dense(np.eye(2, dtype=np.int64))
    ds = Dataset.from_tensor_slices((sparse, np.array([10, 20])))
    assert [(fl.sparse.to_dense(s).numpy().tolist(), int(d)) for s, d in ds] == [
        ([1, 0], 10), ([0, 1], 20)]


def test_rows_of_different_lengths_are_refused_with_tensorflows_words_and_the_ragged_way():
    with pytest.raises(ValueError, match="non-rectangular.*fl.ragged.constant"):
        Dataset.from_tensor_slices([[1, 2], [3]])
