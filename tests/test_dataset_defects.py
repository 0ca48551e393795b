"""Dataset behaviours that used to differ from TensorFlow's documented ones."""

import numpy as np
import pytest

from feedline.data import Dataset
from feedline.data.spec import DatasetSpec, TensorSpec


def test_padded_batch_of_scalar_strings_is_a_vector_of_bytes():
    batch = next(Dataset.from_tensor_slices(["a", "bc", "d"]).padded_batch(2).as_numpy_iterator())
    assert batch.dtype == object and batch.shape == (2,)
    assert [type(item) for item in batch] == [bytes, bytes]
    assert batch.tolist() == [b"a", b"bc"]


def test_padded_batch_of_string_vectors_pads_with_empty_bytes():
    ds = Dataset.from_tensor_slices([["a", "b"], ["c", "d"]]).map(lambda x: x[:1]).concatenate(
        Dataset.from_tensors(np.array([b"x", b"y"], dtype=object))).padded_batch(3)
    batch = next(iter(ds))
    assert batch.tolist() == [[b"a", b""], [b"c", b""], [b"x", b"y"]]


def test_zip_keeps_a_nested_tuple_of_datasets_nested():
    ds = Dataset.zip(((Dataset.range(2), Dataset.range(10, 12)), Dataset.range(20, 22)))
    assert [((int(x), int(y)), int(z)) for (x, y), z in ds] == [((0, 10), 20), ((1, 11), 21)]


def test_zip_of_a_nested_tuple_has_a_nested_element_spec():
    ds = Dataset.zip(((Dataset.range(2), Dataset.range(2)), Dataset.range(2)))
    scalar = TensorSpec((), "int64")
    assert ds.element_spec == ((scalar, scalar), scalar)


def test_zip_of_a_dict_inside_a_tuple_keeps_the_dict():
    ds = Dataset.zip(({"a": Dataset.range(2)}, Dataset.range(2)))
    assert [(d["a"].item(), z.item()) for d, z in ds] == [(0, 0), (1, 1)]


def test_rebatch_with_a_zero_size_gives_an_empty_batch_in_its_turn():
    ds = Dataset.range(8).batch(4, drop_remainder=True).rebatch([1, 1, 1, 1, 0])
    assert [batch.tolist() for batch in ds] == [[0], [1], [2], [3], [], [4], [5], [6], [7], []]


def test_rebatch_empty_batch_keeps_the_row_shape():
    ds = Dataset.from_tensors(np.ones((2, 3), np.float32)).rebatch([0, 2])
    shapes = [batch.shape for batch in ds]
    assert shapes == [(0, 3), (2, 3), (0, 3)]


def test_rebatch_with_only_zero_sizes_is_refused():
    with pytest.raises(ValueError, match="positive batch size"):
        Dataset.range(4).batch(2).rebatch([0, 0])


def test_rebatch_element_spec_knows_the_size_only_when_it_never_varies():
    batches = Dataset.range(8).batch(4)
    assert batches.rebatch(2, drop_remainder=True).element_spec.shape == (2,)
    assert batches.rebatch(2).element_spec.shape == (None,)
    assert batches.rebatch([1, 2], drop_remainder=True).element_spec.shape == (None,)


def test_unbatch_cardinality_is_known_for_a_static_batch_size():
    assert Dataset.range(10).batch(2, drop_remainder=True).unbatch().cardinality() == 10


def test_unbatch_cardinality_of_slices_multiplies_the_row_count():
    ds = Dataset.from_tensor_slices(np.zeros((3, 4, 2))).unbatch()
    assert ds.cardinality() == 12 and len(list(ds)) == 12


def test_unbatch_cardinality_is_unknown_when_batches_may_be_short():
    assert Dataset.range(10).batch(3).unbatch().cardinality() == -2


def test_unbatch_cardinality_stays_infinite_for_an_infinite_input():
    assert Dataset.range(4).batch(2, drop_remainder=True).repeat().unbatch().cardinality() == -1


def test_map_element_spec_of_an_empty_dataset_does_not_raise():
    assert Dataset.range(0).map(lambda x: (x, x / 2)).element_spec == (
        TensorSpec((), "int64"), TensorSpec((), "float64"))


def test_map_element_spec_marks_value_dependent_sizes_unknown():
    ds = Dataset.range(3).map(lambda x: np.arange(x))
    assert ds.element_spec == TensorSpec((None,), "int64")


def test_map_element_spec_keeps_sizes_fixed_by_the_function():
    ds = Dataset.range(0).batch(5).map(lambda x: np.zeros((2, 3), np.float32))
    assert ds.element_spec == TensorSpec((2, 3), "float32")


def test_map_that_cannot_run_on_placeholders_is_looked_at_on_a_real_element():
    ds = Dataset.from_tensor_slices(["7", "8"]).map(lambda s: np.int32(int(s) * 1 + 0)
                                                    if s in (b"7", b"8") else 1 / 0)
    assert ds.element_spec == TensorSpec((), "int32")


def test_window_element_spec_is_a_dataset_spec_of_the_input_spec():
    assert Dataset.range(0).window(3).element_spec == DatasetSpec(TensorSpec((), "int64"))


def test_window_of_a_tuple_is_a_tuple_of_dataset_specs():
    ds = Dataset.zip((Dataset.range(4), Dataset.range(4).batch(2))).window(2)
    assert ds.element_spec == (DatasetSpec(TensorSpec((), "int64")),
                               DatasetSpec(TensorSpec((None,), "int64")))


def test_each_window_has_the_input_spec_not_its_first_element_spec():
    window = next(iter(Dataset.range(5).batch(2).window(2)))
    assert window.element_spec == TensorSpec((None,), "int64")


def test_padded_batch_element_spec_uses_padded_shapes_where_given():
    ds = Dataset.range(0).map(lambda x: np.zeros((x, 3))).padded_batch(
        4, padded_shapes=[5, -1], drop_remainder=True)
    assert ds.element_spec == TensorSpec((4, 5, None), "float64")


def test_padded_batch_element_spec_keeps_known_sizes_without_padded_shapes():
    ds = Dataset.from_tensors(np.zeros(3, np.float32)).padded_batch(2)
    assert ds.element_spec == TensorSpec((None, 3), "float32")


def test_flat_map_element_spec_of_an_empty_input_comes_from_the_returned_datasets():
    ds = Dataset.range(0).flat_map(lambda x: Dataset.from_tensors(x).batch(2))
    assert ds.element_spec == TensorSpec((None,), "int64")


def test_interleave_of_an_empty_input_still_has_the_spec_of_its_datasets():
    empty = Dataset.range(0).interleave(lambda x: Dataset.range(x).batch(2), cycle_length=2)
    assert empty.element_spec == TensorSpec((None,), "int64")
    assert list(empty) == []


def test_rebatch_of_rows_with_different_shapes_is_an_invalid_argument_error():
    """Joining rows of different shapes into one batch is TensorFlow's InvalidArgumentError,
    not NumPy's ValueError (found by tests/test_static_spec_property.py)."""
    import feedline as fl

    rows = fl.data.Dataset.from_generator(lambda: iter([[1, 2], [3]]),
                                          output_signature=fl.TensorSpec((None,), fl.int32))
    with pytest.raises(fl.errors.InvalidArgumentError, match="rebatch.*different shapes"):
        list(rows.batch(1).rebatch(2))


def test_rebatch_of_a_sparse_component_says_what_to_do_instead():
    import feedline as fl

    sparse = fl.data.Dataset.from_tensors(fl.sparse.from_dense(np.eye(2))).repeat(3).batch(2)
    with pytest.raises(TypeError, match="rebatch: the element is a SparseTensor.*unbatch"):
        list(sparse.rebatch(1))
