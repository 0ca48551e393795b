"""`Dataset.padded_batch` checks its shapes when the dataset is built, as TensorFlow's
padded_batch_op.py does (tensorflow.org/api_docs/python/tf/data/Dataset#padded_batch), and
batches scalar strings into flat string arrays."""

import numpy as np
import pytest

import feedline as fl

Dataset = fl.data.Dataset


def _unknown_rank():
    return Dataset.from_generator(lambda: iter([np.zeros(2)]),
                                  output_signature=fl.TensorSpec(None, fl.float64))


def test_padded_batch_of_unknown_rank_without_padded_shapes_is_refused():
    """"You must provide `padded_shapes` argument because component 0 has unknown rank."""
    with pytest.raises(ValueError, match="unknown rank"):
        _unknown_rank().padded_batch(2)


def test_padded_batch_of_unknown_rank_with_padded_shapes_pads_to_them():
    ds = _unknown_rank().padded_batch(2, padded_shapes=[3])
    assert ds.element_spec == fl.TensorSpec((None, 3), fl.float64)
    assert [b.shape for b in ds] == [(1, 3)]


def test_padded_shape_smaller_than_a_known_size_is_refused_when_built():
    with pytest.raises(ValueError, match="does not fit"):
        Dataset.from_tensors(np.zeros(3)).padded_batch(2, padded_shapes=[2])


def test_padded_shape_of_another_rank_is_refused_when_built():
    with pytest.raises(ValueError, match="one size per axis"):
        Dataset.from_tensors(np.zeros(3)).padded_batch(2, padded_shapes=[4, 4])


def test_padded_batch_of_scalar_strings_gives_flat_string_arrays():
    ds = Dataset.from_tensor_slices(["a", "bb", "c"]).padded_batch(2)
    assert ds.element_spec == fl.TensorSpec((None,), fl.string)
    assert [b.tolist() for b in ds.as_numpy_iterator()] == [[b"a", b"bb"], [b"c"]]
