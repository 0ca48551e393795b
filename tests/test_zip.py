"""`Dataset.zip` takes its datasets as TensorFlow 2.21 does
(tensorflow.org/api_docs/python/tf/data/Dataset#zip: `zip(*args, datasets=None, name=None)`):
several arguments make a tuple, one argument is used as the structure itself."""

import pytest

import feedline as fl

Dataset = fl.data.Dataset


def test_zip_of_a_single_dataset_passes_its_elements_through():
    ds = Dataset.zip(Dataset.range(3))
    assert ds.element_spec == fl.TensorSpec((), fl.int64)
    assert [int(x) for x in ds] == [0, 1, 2]
    assert int(ds.cardinality()) == 3


def test_zip_takes_the_structure_as_datasets_keyword_and_a_name():
    ds = Dataset.zip(datasets=(Dataset.range(2), {"y": Dataset.range(5)}), name="pairs")
    assert [(int(x), int(d["y"])) for x, d in ds] == [(0, 0), (1, 1)]


def test_zip_without_datasets_or_of_a_list_is_a_type_error():
    with pytest.raises(TypeError, match="needs datasets"):
        Dataset.zip()
    with pytest.raises(TypeError, match="not a list"):
        Dataset.zip([Dataset.range(2), Dataset.range(2)])
    with pytest.raises(TypeError, match="not both"):
        Dataset.zip(Dataset.range(2), datasets=(Dataset.range(2),))
