"""`Dataset.batch` and its siblings refuse a batch size below one with TensorFlow's error kind:
the kernel raises InvalidArgumentError ("Batch size must be greater than zero"), see
tensorflow/core/kernels/data/batch_dataset_op.cc."""

import pytest

import feedline as fl

Dataset = fl.data.Dataset


@pytest.mark.parametrize("make", [
    lambda ds: ds.batch(0), lambda ds: ds.padded_batch(0), lambda ds: ds.ragged_batch(-1)])
def test_a_batch_size_below_one_is_an_invalid_argument(make):
    with pytest.raises(fl.errors.InvalidArgumentError, match="batch_size must be greater"):
        make(Dataset.range(3))
