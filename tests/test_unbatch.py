"""`Dataset.unbatch`'s cardinality follows TensorFlow's kernel (unbatch_dataset_op.cc): the
input's size times the static first size of the first component that has one; unknown when
that size is unknown or 0 (tensorflow.org/api_docs/python/tf/data/Dataset#cardinality)."""

import numpy as np

import feedline as fl

Dataset = fl.data.Dataset


def test_unbatch_cardinality_uses_the_first_component_with_a_known_batch_size():
    """(known 2, unknown) components: the 2 decides, as in TensorFlow's kernel."""
    known = Dataset.range(6).batch(2, drop_remainder=True)
    unknown = Dataset.range(6).batch(2)
    ds = Dataset.zip((unknown, known)).unbatch()
    assert int(ds.cardinality()) == 6
    assert len(list(ds)) == 6


def test_unbatch_of_an_empty_input_with_an_unknown_batch_size_has_unknown_cardinality():
    """TensorFlow answers -2 (unknown), not 0, when no batch size is known statically."""
    ds = Dataset.range(0).batch(3).unbatch()
    assert int(ds.cardinality()) == fl.data.UNKNOWN_CARDINALITY
    assert list(ds) == []


def test_unbatch_of_batches_of_known_zero_rows_has_unknown_cardinality():
    """A static first size of 0 is no help either (the kernel multiplies only by a positive
    size)."""
    ds = Dataset.from_tensors(np.zeros((0, 2), np.float32)).repeat(3).unbatch()
    assert int(ds.cardinality()) == fl.data.UNKNOWN_CARDINALITY
    assert list(ds) == []


def test_unbatch_of_scalar_components_is_refused_when_the_dataset_is_built():
    """unbatch_op.py raises ValueError("Cannot unbatch an input with scalar components")
    in the constructor, before any element is read."""
    import pytest

    with pytest.raises(ValueError, match="scalar"):
        Dataset.range(3).unbatch()


def test_unbatch_of_components_with_different_static_batch_sizes_is_refused():
    """unbatch_op.py merges the components' static first sizes: 2 and 3 do not merge."""
    import pytest

    pairs = Dataset.zip((Dataset.range(4).batch(2, drop_remainder=True),
                         Dataset.range(6).batch(3, drop_remainder=True)))
    with pytest.raises(ValueError, match="first sizes differ"):
        pairs.unbatch()
