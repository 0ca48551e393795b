"""Specifications of the sequential Dataset core beyond what the TensorFlow fixtures cover."""

import collections

import numpy as np
import pytest

import feedline as fl
from feedline.errors import InvalidArgumentError

Dataset = fl.data.Dataset
Point = collections.namedtuple("Point", "x y")


def values(dataset):
    return [np.asarray(element).tolist() for element in dataset]


# -- sources ---------------------------------------------------------------------------------

def test_range_follows_python_range_semantics():
    for args in [(5,), (2, 9), (9, 2, -3), (0,), (5, 5), (1, 10, 4)]:
        assert values(Dataset.range(*args)) == list(range(*args))
        assert len(Dataset.range(*args)) == len(range(*args))


def test_from_tensor_slices_converts_python_values_like_tensorflow():
    element = next(Dataset.from_tensor_slices(([1, 2], [0.5, 1.5], ["a", "b"])).as_numpy_iterator())
    assert [type(component) for component in element] == [np.int32, np.float32, bytes]


def test_from_tensor_slices_rejects_components_of_different_lengths():
    with pytest.raises(InvalidArgumentError, match=r"'b' has 2"):
        Dataset.from_tensor_slices({"a": np.zeros(3), "b": np.zeros(2)})


def test_from_tensor_slices_rejects_scalars():
    with pytest.raises(InvalidArgumentError, match="scalar"):
        Dataset.from_tensor_slices(np.int64(3))


def test_from_tensors_gives_one_element_holding_everything():
    dataset = Dataset.from_tensors({"image": np.zeros((2, 2)), "label": 1})
    (element,) = list(dataset)
    assert element["image"].shape == (2, 2) and element["label"] == 1
    assert dataset.cardinality() == 1


def test_from_generator_calls_the_generator_afresh_for_every_iterator():
    calls = []

    def numbers():
        calls.append(1)
        yield from range(3)

    dataset = Dataset.from_generator(numbers, output_signature=fl.data.TensorSpec((), fl.int64))
    assert values(dataset) == values(dataset) == [0, 1, 2]
    assert len(calls) == 2
    assert all(type(x) is np.int64 for x in dataset.as_numpy_iterator())


def test_from_generator_checks_shapes_against_the_signature_and_names_the_element():
    def rows():
        yield [1, 2]
        yield [1, 2, 3, 4]

    dataset = Dataset.from_generator(rows, output_signature=fl.data.TensorSpec([2], fl.int64))
    iterator = iter(dataset)
    assert next(iterator).tolist() == [1, 2]
    with pytest.raises(InvalidArgumentError, match="element 1.*shape"):
        next(iterator)


def test_from_generator_accepts_unknown_dimensions_and_structures():
    signature = (fl.data.TensorSpec([None], fl.float32), fl.data.TensorSpec((), fl.string))
    dataset = Dataset.from_generator(lambda: iter([([1.0], "a"), ([1.0, 2.0], "bc")]),
                                     output_signature=signature)
    assert [(x.dtype, len(x), s) for x, s in dataset] == [(np.float32, 1, b"a"),
                                                          (np.float32, 2, b"bc")]
    assert dataset.element_spec == signature


def test_zip_of_a_dict_of_datasets_gives_dicts():
    dataset = Dataset.zip({"a": Dataset.range(3), "b": Dataset.range(10, 20)})
    assert [{k: int(v) for k, v in e.items()} for e in dataset] == [
        {"a": 0, "b": 10}, {"a": 1, "b": 11}, {"a": 2, "b": 12}]
    assert dataset.cardinality() == 3


# -- element-wise ----------------------------------------------------------------------------

def test_map_unpacks_tuples_but_passes_dicts_and_namedtuples_whole():
    pairs = Dataset.from_tensor_slices(([1, 2], [10, 20]))
    assert values(pairs.map(lambda x, y: x + y)) == [11, 22]
    dicts = Dataset.from_tensor_slices({"x": [1, 2], "y": [10, 20]})
    assert values(dicts.map(lambda d: d["x"] * d["y"])) == [10, 40]
    points = Dataset.from_tensors(Point(np.int64(1), np.int64(2)))
    assert values(points.map(lambda p: p.x + p.y)) == [3]


def test_map_converts_python_results_to_tensorflow_dtypes():
    (element,) = list(Dataset.range(1).map(lambda x: (1, 2.0, "s", [1, 2])).as_numpy_iterator())
    assert [type(c) for c in element[:3]] == [np.int32, np.float32, bytes]
    assert element[3].dtype == np.int32


def test_map_keeps_namedtuple_structures():
    dataset = Dataset.range(2).map(lambda x: Point(x, x * 2))
    assert [type(p).__name__ for p in dataset] == ["Point", "Point"]
    assert values(dataset.batch(2).map(lambda p: p.y)) == [[0, 2]]


def test_filter_predicate_must_return_a_scalar_boolean():
    with pytest.raises(InvalidArgumentError, match="scalar boolean"):
        list(Dataset.range(3).filter(lambda x: np.array([True, False])))


def test_flat_map_requires_the_function_to_return_a_dataset():
    with pytest.raises(TypeError, match="must return a Dataset"):
        list(Dataset.range(2).flat_map(lambda x: [x]))


def test_interleave_block_length_cuts_short_when_input_ends():
    # Each input x gives x copies of x; with block_length 3 a short input ends its turn early.
    dataset = Dataset.from_tensor_slices(np.array([1, 4], dtype=np.int64)).interleave(
        lambda x: Dataset.from_tensors(x).repeat(x), cycle_length=2, block_length=3)
    assert values(dataset) == [1, 4, 4, 4, 4]


def test_interleave_with_cycle_length_one_is_flat_map():
    def make(x):
        return Dataset.range(x)
    assert values(Dataset.range(5).interleave(make, cycle_length=1)) == values(
        Dataset.range(5).flat_map(make))


def test_interleave_fills_a_freed_slot_from_the_next_input():
    dataset = Dataset.range(3).interleave(lambda x: Dataset.from_tensors(x).repeat(2 - x % 2),
                                          cycle_length=2)
    assert values(dataset) == [0, 1, 0, 2, 2]


def test_scan_carries_state_and_keeps_cardinality():
    dataset = Dataset.range(5).scan(np.int64(1), lambda state, x: (state * 2, state + x))
    assert values(dataset) == [1, 3, 6, 11, 20]
    assert dataset.cardinality() == 5


def test_reduce_folds_every_element():
    assert Dataset.range(1, 5).reduce(np.int64(1), lambda acc, x: acc * x) == 24


def test_apply_passes_the_dataset_to_a_function():
    assert values(Dataset.range(4).apply(lambda ds: ds.skip(1).take(2))) == [1, 2]


def test_unique_keeps_first_occurrences_of_ints_and_strings():
    assert values(Dataset.from_tensor_slices([3, 1, 3, 2, 1]).unique()) == [3, 1, 2]
    assert list(Dataset.from_tensor_slices(["b", "a", "b"]).unique()) == [b"b", b"a"]
    with pytest.raises(InvalidArgumentError, match="element 0"):
        list(Dataset.from_tensor_slices(np.zeros((2, 2))).unique())


def test_take_while_stops_at_the_first_false():
    assert values(Dataset.range(10).take_while(lambda x: x < 4)) == [0, 1, 2, 3]


def test_ignore_errors_skips_failing_elements_counts_them_and_warns():
    def invert(x):
        if x % 3 == 0:
            raise ZeroDivisionError(f"bad {x}")
        return x

    dataset = Dataset.range(7).map(invert).ignore_errors()
    with pytest.warns(UserWarning, match="skipped 3 element"):
        assert values(dataset) == [1, 2, 4, 5]
    assert dataset.error_count == 3


def test_errors_in_user_code_reach_the_consumer_with_their_type():
    with pytest.raises(ZeroDivisionError):
        list(Dataset.range(3).map(lambda x: 1 // 0))


# -- reordering and slicing ------------------------------------------------------------------

def test_take_and_skip_accept_minus_one_for_everything():
    assert values(Dataset.range(4).take(-1)) == [0, 1, 2, 3]
    assert values(Dataset.range(4).skip(-1)) == []
    assert Dataset.range(4).skip(-1).cardinality() == 0


def test_repeat_forever_on_an_empty_dataset_ends():
    assert values(Dataset.range(0).repeat()) == []


def test_repeat_starts_a_fresh_epoch_of_its_input_each_time():
    dataset = Dataset.range(4).shuffle(4, seed=7).repeat(3)
    epochs = np.array(values(dataset)).reshape(3, 4)
    assert all(sorted(epoch) == [0, 1, 2, 3] for epoch in epochs.tolist())
    assert len({tuple(epoch) for epoch in epochs.tolist()}) > 1


def test_shard_rejects_an_index_outside_the_shards():
    with pytest.raises(ValueError, match="index"):
        Dataset.range(5).shard(2, 2)


def test_concatenate_of_different_dtypes_fails_when_made_as_in_tensorflow():
    with pytest.raises(TypeError, match="incompatible dataset elements.*int64.*float32.*cast"):
        Dataset.range(2).concatenate(Dataset.from_tensor_slices([0.5]))


def test_concatenate_of_different_structures_fails_when_made():
    with pytest.raises(TypeError, match="different structures"):
        Dataset.range(2).concatenate(Dataset.range(2).map(lambda x: (x, x)))


def test_concatenate_cardinality_is_the_sum_or_infinite():
    assert Dataset.range(3).concatenate(Dataset.range(4)).cardinality() == 7
    assert Dataset.range(3).concatenate(Dataset.range(1).repeat()).cardinality() == -1


# -- shuffle ---------------------------------------------------------------------------------

def test_shuffle_is_a_permutation():
    assert sorted(values(Dataset.range(1000).shuffle(64))) == list(range(1000))


def test_shuffle_with_a_seed_is_reproducible_across_dataset_objects():
    assert values(Dataset.range(100).shuffle(10, seed=3)) == values(
        Dataset.range(100).shuffle(10, seed=3))


def test_shuffle_reshuffles_each_epoch_unless_told_not_to():
    dataset = Dataset.range(50).shuffle(50, seed=1)
    assert values(dataset) != values(dataset)
    fixed = Dataset.range(50).shuffle(50, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)


def test_shuffle_with_buffer_size_one_is_the_identity():
    assert values(Dataset.range(20).shuffle(1, seed=5)) == list(range(20))


def test_shuffle_buffer_only_moves_elements_a_bounded_distance_ahead():
    # An element can come out no earlier than buffer_size - 1 places before its position.
    order = values(Dataset.range(500).shuffle(10, seed=2))
    assert all(position >= value - 9 for position, value in enumerate(order))


def test_shuffle_rejects_an_empty_buffer():
    with pytest.raises(ValueError, match="buffer_size"):
        Dataset.range(3).shuffle(0)


# -- batching --------------------------------------------------------------------------------

def test_batch_of_different_shapes_names_the_component_and_both_shapes():
    dataset = Dataset.range(1, 3).map(lambda x: {"tokens": np.zeros(x), "id": x}).batch(2)
    with pytest.raises(InvalidArgumentError,
                       match=r"'tokens'.*element 0 has shape \[1\].*element 1 has shape \[2\]"):
        list(dataset)


def test_batch_of_strings_is_an_object_array_of_bytes():
    (batch,) = list(Dataset.from_tensor_slices(["x", "yz"]).batch(2))
    assert batch.dtype == object and batch.tolist() == [b"x", b"yz"]


def test_batch_of_nested_structures_keeps_the_structure():
    dataset = Dataset.range(3).map(lambda x: (x, {"double": x * 2})).batch(2)
    first, second = list(dataset)
    assert first[0].tolist() == [0, 1] and first[1]["double"].tolist() == [0, 2]
    assert second[1]["double"].tolist() == [4]


def test_padded_batch_pads_strings_with_empty_bytes():
    dataset = Dataset.from_generator(
        lambda: iter([["a"], ["b", "c"]]),
        output_signature=fl.data.TensorSpec([None], fl.string)).padded_batch(2)
    (batch,) = list(dataset)
    assert batch.tolist() == [[b"a", b""], [b"b", b"c"]]


def test_padded_batch_rejects_elements_longer_than_the_padded_shape():
    dataset = Dataset.range(1, 4).map(lambda x: np.ones(x)).padded_batch(3, padded_shapes=[2])
    with pytest.raises(InvalidArgumentError, match="larger than the padded shape"):
        list(dataset)


def test_padded_batch_pads_each_component_of_a_tuple():
    dataset = Dataset.range(1, 3).map(lambda x: (np.ones(x), x)).padded_batch(
        2, padding_values=(np.float64(-1.0), np.int64(0)))
    (batch,) = list(dataset)
    assert batch[0].tolist() == [[1.0, -1.0], [1.0, 1.0]] and batch[1].tolist() == [1, 2]


def test_unbatch_splits_structures_row_by_row():
    dataset = Dataset.from_tensors({"a": np.arange(3), "b": np.array(["x", "y", "z"])}).unbatch()
    assert [(int(e["a"]), e["b"]) for e in dataset] == [(0, b"x"), (1, b"y"), (2, b"z")]


def test_rebatch_cycles_through_a_list_of_sizes():
    assert values(Dataset.range(10).batch(5).rebatch([1, 3])) == [
        [0], [1, 2, 3], [4], [5, 6, 7], [8], [9]]


def test_rebatch_can_drop_the_remainder():
    assert values(Dataset.range(10).batch(4).rebatch(3, drop_remainder=True)) == [
        [0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_window_of_a_tuple_dataset_is_a_tuple_of_datasets():
    windows = list(Dataset.zip(Dataset.range(4), Dataset.range(10, 14)).window(2))
    assert [(values(a), values(b)) for a, b in windows] == [([0, 1], [10, 11]),
                                                            ([2, 3], [12, 13])]


def test_window_cardinality_follows_size_shift_and_stride():
    for size, shift, stride, drop in [(3, 2, 1, False), (3, 2, 1, True), (2, 3, 2, False),
                                      (4, 1, 2, True), (5, 5, 1, True)]:
        dataset = Dataset.range(11).window(size, shift, stride, drop)
        assert dataset.cardinality() == len(list(dataset)), (size, shift, stride, drop)


def test_group_by_window_uses_window_size_func_per_key():
    dataset = Dataset.range(10).group_by_window(
        key_func=lambda x: x % 2, reduce_func=lambda key, w: w.batch(5),
        window_size_func=lambda key: key + 2)
    # Key 0 closes a window every 2 elements, key 1 every 3; leftovers flush in key order.
    assert values(dataset) == [[0, 2], [1, 3, 5], [4, 6], [8], [7, 9]]


def test_bucket_by_sequence_length_needs_one_batch_size_per_bucket():
    with pytest.raises(ValueError, match="bucket_batch_sizes"):
        Dataset.range(3).bucket_by_sequence_length(lambda x: 1, [3, 6], [2, 2])


# -- properties ------------------------------------------------------------------------------

def test_len_raises_type_error_for_infinite_and_unknown_datasets():
    with pytest.raises(TypeError, match="infinite"):
        len(Dataset.range(3).repeat())
    with pytest.raises(TypeError, match="unknown"):
        len(Dataset.range(3).filter(lambda x: True))


def test_element_spec_describes_batches_with_unknown_size_unless_dropping():
    assert Dataset.range(10).batch(3).element_spec == fl.data.TensorSpec([None], fl.int64)
    assert Dataset.range(10).batch(3, True).element_spec == fl.data.TensorSpec([3], fl.int64)
    spec = Dataset.from_tensor_slices({"a": np.zeros((4, 2), np.float32)}).element_spec
    assert spec == {"a": fl.data.TensorSpec([2], fl.float32)}


def test_empty_datasets_iterate_to_nothing_everywhere():
    empty = Dataset.range(0)
    for dataset in [empty.batch(2), empty.shuffle(3), empty.map(lambda x: x), empty.window(2),
                    empty.interleave(lambda x: Dataset.range(x)), empty.unique(),
                    empty.padded_batch(2), empty.repeat(3), empty.enumerate()]:
        assert list(dataset) == []


def test_options_merge_through_the_pipeline():
    options = fl.data.Options(deterministic=False)
    dataset = Dataset.range(3).with_options(options).map(lambda x: x)
    assert dataset.options().deterministic is False
    assert Dataset.range(3).options().deterministic is None


def test_as_numpy_iterator_and_iterator_protocols():
    iterator = Dataset.range(3).as_numpy_iterator()
    assert iterator.get_next() == 0 and next(iterator) == 1
    iterator.close()
    assert list(iterator) == []


def test_showing_a_dataset_gives_tensorflows_class_and_spec_without_running_it():
    started, seen = [], []

    def numbers():
        started.append(True)
        yield from range(10, 13)

    source = Dataset.from_generator(numbers, output_signature=fl.data.TensorSpec((), fl.int64))
    dataset = source.map(lambda x: seen.append(x) or x, num_parallel_calls=2)
    assert repr(dataset) == ("<_ParallelMapDataset element_spec=TensorSpec(shape=(), "
                             "dtype=tf.int64, name=None)>")
    assert repr(source.batch(2)) == ("<_BatchDataset element_spec=TensorSpec(shape=(None,), "
                                     "dtype=tf.int64, name=None)>")
    assert started == [] and not {10, 11, 12} & set(map(int, seen))  # traced, never run


def test_object_arrays_of_str_become_bytes():
    words = np.array(["été", "b"], dtype=object)
    assert list(Dataset.from_tensor_slices(words).batch(2))[0].tolist() == ["été".encode(), b"b"]


def test_file_readers_know_their_spec_without_reading_even_an_empty_file(tmp_path):
    empty = tmp_path / "empty.tfrecord"
    empty.write_bytes(b"")
    for reader in (fl.data.TFRecordDataset, fl.data.TextLineDataset):
        dataset = reader(str(empty))
        assert dataset.element_spec == fl.TensorSpec((), fl.string)
        assert repr(dataset).endswith("element_spec=TensorSpec(shape=(), dtype=tf.string, "
                                      "name=None)>")
