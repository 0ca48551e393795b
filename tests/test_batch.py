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


def test_map_then_batch_batches_what_the_map_returns_not_what_it_read():
    """Rows of a RaggedTensor reach a map as dense tensors, so the map's output spec is a
    TensorSpec, and the (fused) map-then-batch must stack them as that spec says, even when
    the input's spec was ragged."""
    rows = Dataset.from_tensor_slices(fl.ragged.constant([[1, 2], [3]])).enumerate()
    ds = rows.map(lambda i, x: (i, x)).batch(1)
    assert ds.element_spec[1] == fl.TensorSpec((None, None), fl.int32)
    assert [type(x).__name__ for _, x in ds] == ["Tensor", "Tensor"]


def test_batch_of_zipped_ragged_rows_gives_ragged_batches_as_its_spec_says():
    """zip computes its spec from its inputs' without calling a function, so the batch
    after it knows which components are ragged (a RaggedTensorSpec of ragged_rank 0)."""
    rows = Dataset.from_tensor_slices(fl.ragged.constant([[1, 2], [3], []]))
    ds = Dataset.zip((rows, Dataset.range(3))).batch(2)
    assert ds.element_spec[0] == fl.RaggedTensorSpec((None, None), fl.int32, 1)
    assert [x.to_list() for x, _ in ds] == [[[1, 2], [3]], [[]]]


def test_batch_after_sample_from_datasets_sees_its_ragged_rows():
    """sample_from_datasets/choose_from_datasets make their spec from the inputs' (no user
    function), so a batch after them batches ragged rows as ragged, as TensorFlow does."""
    rows = Dataset.from_tensor_slices(fl.ragged.constant([[1, 2], [3], []]))
    for mixed in (Dataset.sample_from_datasets([rows, rows], seed=1),
                  Dataset.choose_from_datasets([rows, rows], Dataset.range(2).repeat(3))):
        ds = mixed.batch(3)
        # Iterated before anyone asks for the spec: batch must find it out by itself.
        batches = [batch.to_list() for batch in ds]
        assert sorted(sum(batches, [])) == sorted([[1, 2], [3], []] * 2)
        assert ds.element_spec == fl.RaggedTensorSpec((None, None), fl.int32, 1)
