"""`Dataset.group_by_window` hands `reduce_func` a key and ONE dataset of whole elements
(tensorflow.org/api_docs/python/tf/data/Dataset#group_by_window: "a dataset of up to
window_size consecutive elements matching that key"), also when elements are tuples or dicts.
"""

import feedline as fl

Dataset = fl.data.Dataset


def test_group_by_window_hands_reduce_func_one_dataset_of_whole_tuple_elements():
    pairs = Dataset.range(6).map(lambda x: (x, x * 10))
    ds = pairs.group_by_window(lambda x, y: x % 2, lambda key, window: window.batch(3),
                               window_size=3)
    assert ds.element_spec == (fl.TensorSpec((None,), fl.int64),
                               fl.TensorSpec((None,), fl.int64))
    got = [(x.tolist(), y.tolist()) for x, y in ds]
    assert got == [([0, 2, 4], [0, 20, 40]), ([1, 3, 5], [10, 30, 50])]


def test_group_by_window_of_dict_elements_gives_a_dataset_of_dicts():
    rows = Dataset.range(4).map(lambda x: {"id": x, "double": 2 * x})
    ds = rows.group_by_window(lambda d: d["id"] % 2, lambda key, window: window.batch(2),
                              window_size=2)
    assert [b["double"].tolist() for b in ds] == [[0, 4], [2, 6]]


def _lengths():
    return Dataset.range(1, 5).map(lambda x: fl.fill([x], x))


def test_bucket_by_sequence_length_has_an_unknown_batch_size_even_with_drop_remainder():
    """TensorFlow looks each bucket's batch size up at run time (a tensor), so the static
    batch dimension is None even when every bucket has the same size."""
    ds = _lengths().bucket_by_sequence_length(lambda x: fl.shape(x)[0], [3], [2, 2],
                                              drop_remainder=True)
    assert ds.element_spec == fl.TensorSpec((None, None), fl.int64)


def test_bucket_padding_to_the_boundary_leaves_the_padded_size_unknown():
    """The boundary a bucket pads to is looked up at run time too: the spec says None and
    the batches have each bucket's own width."""
    ds = _lengths().bucket_by_sequence_length(lambda x: fl.shape(x)[0], [3, 5], [2, 2, 2],
                                              pad_to_bucket_boundary=True)
    assert ds.element_spec == fl.TensorSpec((None, None), fl.int64)
    assert [tuple(b.shape) for b in ds] == [(2, 2), (2, 4)]


def test_bucket_padded_shapes_given_stay_known():
    ds = _lengths().bucket_by_sequence_length(lambda x: fl.shape(x)[0], [3], [2, 2],
                                              padded_shapes=[6])
    assert ds.element_spec == fl.TensorSpec((None, 6), fl.int64)
