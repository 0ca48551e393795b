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
