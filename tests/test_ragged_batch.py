"""`Dataset.ragged_batch`: which components become ragged is decided by the static spec.

TensorFlow's rule (tensorflow.org/api_docs/python/tf/data/Dataset#ragged_batch, and
ragged_batch_op.py): a component whose static shape is fully defined is batched as `batch`
does; one with an unknown size becomes a RaggedTensor ragged up to its last unknown axis.
"""

import numpy as np

import feedline as fl

Dataset = fl.data.Dataset


def test_ragged_batch_of_fully_known_shapes_batches_densely():
    """A (3,)-shaped component is stacked: a dense Tensor of shape (batch, 3), not ragged."""
    ds = Dataset.from_tensor_slices(np.arange(12).reshape(4, 3)).ragged_batch(2)
    assert ds.element_spec == fl.TensorSpec((None, 3), fl.int64)
    first = next(iter(ds))
    assert not isinstance(first, fl.RaggedTensor)
    assert first.shape == (2, 3) and first.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_ragged_batch_keeps_known_components_dense_beside_ragged_ones():
    """In a (known, unknown) pair only the component of unknown length becomes ragged."""
    ds = Dataset.range(3).map(lambda x: (fl.fill([2], x), fl.range(x))).ragged_batch(3)
    dense, ragged = ds.element_spec
    assert dense == fl.TensorSpec((None, 2), fl.int64)
    assert ragged == fl.RaggedTensorSpec((None, None), fl.int64, 1)
    ((pairs, rows),) = list(ds)
    assert pairs.tolist() == [[0, 0], [1, 1], [2, 2]] and rows.to_list() == [[], [0], [0, 1]]


def test_ragged_batch_is_ragged_up_to_the_last_unknown_axis():
    """A (2, None) component is ragged in its second axis: ragged_rank 2 after batching."""
    ds = Dataset.range(1, 3).map(lambda x: fl.fill([2, x], x)).ragged_batch(2)
    assert ds.element_spec == fl.RaggedTensorSpec((None, 2, None), fl.int64, 2)
    (batch,) = list(ds)
    assert batch.ragged_rank == 2
    assert batch.to_list() == [[[1], [1]], [[2, 2], [2, 2]]]
