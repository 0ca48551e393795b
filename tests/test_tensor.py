"""Elements handed to a loop are `feedline.Tensor`s: NumPy values with TensorFlow's `.numpy()`
and printed form, so that `for x in ds: print(x.numpy())` runs as written for TensorFlow."""

import collections
import os

import numpy as np
import pytest

import feedline as fl
from feedline.data import Dataset
from feedline.tensor import StringTensor, Tensor


def test_a_loop_gets_tensors_whose_numpy_is_the_plain_value():
    for element, plain in zip(Dataset.range(3), Dataset.range(3).as_numpy_iterator()):
        assert isinstance(element, Tensor) and isinstance(element, np.ndarray)
        assert type(element.numpy()) is np.int64 and element.numpy() == plain
        assert type(plain) is np.int64


def test_tensors_print_as_tensorflow_prints_them():
    scalar = next(iter(Dataset.from_tensors(np.int64(3))))
    vector = next(iter(Dataset.from_tensors(np.array([1.5, 2.0], np.float32))))
    string = next(iter(Dataset.from_tensors("hé")))
    assert str(scalar) == "tf.Tensor(3, shape=(), dtype=int64)"
    assert repr(scalar) == "<tf.Tensor: shape=(), dtype=int64, numpy=3>"
    assert str(vector) == "tf.Tensor([1.5 2. ], shape=(2,), dtype=float32)"
    assert repr(vector) == ("<tf.Tensor: shape=(2,), dtype=float32, "
                            "numpy=array([1.5, 2. ], dtype=float32)>")
    assert str(string) == "tf.Tensor(b'h\\xc3\\xa9', shape=(), dtype=string)"


def test_a_scalar_string_is_bytes_whose_buffer_is_its_data():
    record = next(iter(Dataset.from_tensors(b"\x01\x02\x03")))
    assert isinstance(record, StringTensor) and isinstance(record, bytes)
    assert type(record.numpy()) is bytes and record.numpy() == b"\x01\x02\x03"
    assert np.frombuffer(record, np.uint8).tolist() == [1, 2, 3]  # not a pointer's bytes
    assert len(record) == 3 and record[:2] == b"\x01\x02" and bytes(record) == record
    assert record[fl.newaxis].shape == (1,) and record[fl.newaxis].numpy().tolist() == [
        b"\x01\x02\x03"]


def test_structures_keep_their_types_with_every_leaf_a_tensor():
    Point = collections.namedtuple("Point", "x y")
    element = {"p": Point(np.int32(1), np.float32(2)), "s": b"a",
               "o": collections.OrderedDict(a=np.arange(2))}
    got = next(iter(Dataset.from_tensors(element)))
    assert type(got["p"]) is Point and type(got["o"]) is collections.OrderedDict
    assert [type(leaf) for leaf in (got["p"].x, got["p"].y, got["o"]["a"])] == [Tensor] * 3
    assert type(got["s"]) is StringTensor


def test_reduce_get_single_element_and_get_next_give_tensors():
    dataset = Dataset.range(5)
    total = dataset.reduce(np.int64(0), lambda state, x: state + x)
    assert isinstance(total, Tensor) and total.numpy() == 10
    assert dataset.take(1).get_single_element().numpy() == 0
    iterator = iter(dataset)
    assert iterator.get_next().numpy() == 0
    assert next(iterator).numpy() == 1
    assert iterator.get_next_as_optional().get_value().numpy() == 2


def test_map_functions_receive_tensors_and_the_pipeline_keeps_plain_values():
    seen = []
    ds = Dataset.range(2).map(lambda x: seen.append(type(x)) or x)
    assert [type(x) for x in ds.as_numpy_iterator()] == [np.int64, np.int64]
    assert seen[-2:] == [Tensor, Tensor]


def test_map_functions_follow_tensorflows_operator_rules():
    images = Dataset.from_tensor_slices(np.zeros((2, 3), np.uint8))
    assert images.map(lambda x: x / 255).element_spec == fl.TensorSpec((3,), fl.float32)
    assert next(images.map(lambda x: x / 255).as_numpy_iterator()).dtype == np.float32
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int64"):
        list(Dataset.range(2).map(lambda x: x + 1.5))
    pairs = Dataset.from_tensor_slices((np.arange(2), np.arange(2, dtype=np.int32)))
    with pytest.raises(fl.errors.InvalidArgumentError, match="expected to be a int64 tensor"):
        list(pairs.map(lambda a, b: a + b))
    assert list(Dataset.range(4).filter(lambda x: x % 2 == 0).as_numpy_iterator()) == [0, 2]


def test_tensors_fed_back_in_convert_to_the_same_plain_values():
    batch = next(iter(Dataset.from_tensor_slices(["a", "bc"]).batch(2)))
    scalar = next(iter(Dataset.range(1)))
    again = list(Dataset.from_tensor_slices(batch).as_numpy_iterator())
    assert again == [b"a", b"bc"] and all(type(item) is bytes for item in again)
    assert type(next(Dataset.from_tensors(scalar).as_numpy_iterator())) is np.int64
    assert type(fl.data.Dataset.from_tensors(batch).element_spec) is fl.TensorSpec


def test_indexing_and_iterating_a_tensor_give_tensors():
    batch = next(iter(Dataset.range(4).batch(4)))
    assert isinstance(batch[0], Tensor) and batch[0].numpy() == 0
    assert [row.numpy() for row in batch] == [0, 1, 2, 3]
    assert isinstance(batch[1:3], Tensor) and batch[1:3].numpy().tolist() == [1, 2]
    strings = next(iter(Dataset.from_tensor_slices([b"x", b"y"]).batch(2)))
    assert [type(item) for item in strings] == [StringTensor, StringTensor]


def test_tensors_are_unhashable_as_in_tensorflow_but_have_refs():
    first, second = list(Dataset.range(2))
    with pytest.raises(TypeError):
        hash(first)
    table = {first.ref(): "a", second.ref(): "b"}
    assert table[first.ref()] == "a" and first.ref().deref() is first


def test_py_function_receives_tensors_and_none_with_an_empty_tout_gives_an_empty_list():
    assert fl.py_function(lambda x: x.numpy() * 2, [3], fl.int32) == 6
    assert fl.py_function(lambda: None, [], []) == []
    with pytest.raises(fl.errors.InvalidArgumentError, match="returned 1 values"):
        fl.py_function(lambda: 1, [], [])


def test_a_batch_from_a_loop_still_parses_from_the_read_buffer(tmp_path):
    from feedline.io import record_views
    path = os.fspath(tmp_path / "r.tfrecord")
    with fl.io.TFRecordWriter(path) as writer:
        for value in range(8):
            writer.write(fl.train.Example(features=fl.train.Features(feature={
                "v": fl.train.Feature(int64_list=fl.train.Int64List(value=[value]))}))
                .SerializeToString())
    batch = next(iter(fl.data.TFRecordDataset(path).batch(8)))
    assert isinstance(batch, Tensor)
    assert record_views.rows_of(batch, batch.tolist()) is not None
    parsed = fl.io.parse_example(batch, {"v": fl.io.FixedLenFeature([], fl.int64)})
    assert parsed["v"].tolist() == list(range(8))


def test_numpy_operands_take_a_float_tensors_dtype_as_in_tensorflow():
    x = next(iter(Dataset.from_tensors(np.array([1.0, 2.0], np.float32))))
    mean = np.array([0.5, 0.5])  # float64, as NumPy and scikit-learn statistics are
    assert (x - mean).dtype == np.float32 and (mean - x).dtype == np.float32
    assert ((x - mean) / np.float64(2)).numpy().tolist() == [0.25, 0.75]
    assert (x * 3).dtype == np.float32 and (x == np.array([1.0, 3.0])).tolist() == [True, False]


def test_integer_tensors_refuse_a_float_operand_but_numpy_helpers_still_work_on_them():
    """TensorFlow converts `1.5` to the tensor's int64 and fails ("Cannot convert 1.5 to
    EagerTensor of dtype int64"); NumPy's own helpers keep NumPy's promotion."""
    count = next(iter(Dataset.range(3)))
    assert (count + 1).dtype == np.int64
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int64"):
        count + 1.5
    assert np.allclose(count, 0.0) and np.array_equal(count, 0)
    np.testing.assert_allclose(count, 0.0)


def test_py_function_results_are_tensors_whose_set_shape_checks_compatibility():
    [image] = fl.py_function(lambda x: x.numpy() * 2, [np.ones((2, 3), np.float32)],
                             [fl.float32])
    assert isinstance(image, Tensor)
    image.set_shape((2, 3))
    image.set_shape((None, 3))
    with pytest.raises(ValueError, match=r"\(2, 3\) is not compatible with supplied shape "
                                         r"\(3, 3\)"):
        image.set_shape((3, 3))
    with pytest.raises(ValueError):
        image.set_shape((2, 3, 1))


def test_map_functions_receive_strings_as_string_tensors_that_index_like_tensorflow():
    seen = []
    dataset = Dataset.from_tensor_slices(([b"ab", b"c"], [1, 2])).map(
        lambda text, number: seen.append(type(text)) or (text[fl.newaxis], number))
    assert [(list(text), int(n)) for text, n in dataset.as_numpy_iterator()] == [
        ([b"ab"], 1), ([b"c"], 2)]
    assert set(seen) == {StringTensor}
    assert dataset.element_spec[0].shape == (1,)
    kept = Dataset.from_tensor_slices([b"ab", b"c"]).filter(lambda text: len(text) == 2)
    assert list(kept.as_numpy_iterator()) == [b"ab"]


def test_a_multi_line_value_starts_on_its_own_line_in_the_repr():
    long = next(iter(Dataset.from_tensors(np.arange(30, dtype=np.int32))))
    assert repr(long).startswith("<tf.Tensor: shape=(30,), dtype=int32, numpy=\narray([ 0,")
    short = next(iter(Dataset.from_tensors(np.arange(3, dtype=np.int32))))
    assert repr(short) == ("<tf.Tensor: shape=(3,), dtype=int32, "
                           "numpy=array([0, 1, 2], dtype=int32)>")


def test_sparse_to_dense_hands_out_a_tensor():
    dense = fl.sparse.to_dense(fl.SparseTensor([[1]], [b"x"], [2]), default_value=b"")
    assert isinstance(dense, Tensor) and dense.numpy().tolist() == [b"", b"x"]


def test_a_float64_scalar_prints_in_full_as_tensorflow_prints_it():
    value = next(iter(Dataset.from_tensor_slices(np.array([1.6612158727645874]))))
    assert str(value) == "tf.Tensor(1.6612158727645874, shape=(), dtype=float64)"


def test_a_tensors_shape_is_a_tensorshape_as_in_tensorflow():
    """`x.shape.as_list()`, `.rank` and slices of shapes, as TensorFlow's eager tensors give
    (tensorflow.org/api_docs/python/tf/TensorShape); it still compares equal to the tuple."""
    x = fl.constant([[1, 2, 3], [4, 5, 6]])
    assert x.shape.as_list() == [2, 3] and x.shape.rank == 2 and x.shape[0] == 2
    assert x.shape[1:].as_list() == [3] and x.shape == (2, 3)
    assert repr(x.shape) == "TensorShape([2, 3])" and str(x.shape) == "(2, 3)"
    batch = next(iter(fl.data.Dataset.range(6).batch(3)))
    assert batch.shape.as_list() == [3] and batch.shape.num_elements() == 3


def test_numpy_code_still_sees_a_plain_shape_on_tensors():
    x = fl.constant([[1.0, 2.0], [3.0, 4.0]])
    assert np.concatenate([x, x]).shape == (4, 2) and x.reshape(4).shape == (4,)
    assert np.atleast_3d(x).shape == (2, 2, 1) and float(np.mean(x)) == 2.5
    y = x.copy()
    y.shape = (4,)  # NumPy's in-place reshape
    assert y.shape == (4,)


def test_every_dataset_function_receives_its_elements_as_tensors():
    seen = collections.defaultdict(set)

    def note(name, *values):
        seen[name].update(type(value) for value in values)
        return values[-1]

    ds = Dataset.range(4)
    ds.reduce(np.int64(0), lambda state, x: state + note("reduce", x))
    list(ds.scan(np.int64(0), lambda state, x: (state + note("scan", x), x)))
    list(ds.group_by_window(lambda x: note("key", x) % 2,
                            lambda key, window: note("window key", key) is not None and window,
                            window_size=2))
    list(ds.take_while(lambda x: note("take_while", x) < 3))
    list(ds.flat_map(lambda x: Dataset.from_tensors(note("flat_map", x))))
    list(ds.map(lambda x: note("parallel map", x), num_parallel_calls=2))
    assert dict(seen) == {name: {Tensor} for name in (
        "reduce", "scan", "key", "window key", "take_while", "flat_map", "parallel map")}


def test_scan_keeps_a_python_int_state_working_with_int64_elements():
    ds = Dataset.range(5).scan(0, lambda s, x: (s + x, s * 10 + x))
    assert [int(v) for v in ds] == [0, 1, 12, 33, 64]


def test_an_unknown_rank_spec_has_tensorflows_unknown_shape():
    spec = fl.TensorSpec(None, fl.float32)
    assert spec.shape.rank is None and repr(spec.shape) == "TensorShape(None)"
    assert not spec.shape and spec == fl.TensorSpec(None, fl.float32)
    with pytest.raises(ValueError, match="unknown"):
        spec.shape.as_list()
    generated = Dataset.from_generator(lambda: iter([1, 2]), output_types=fl.int64)
    assert generated.element_spec.shape.rank is None
    assert fl.TensorSpec([2, None]).shape.as_list() == [2, None]


def test_sparse_and_ragged_specs_give_tensorshapes():
    assert fl.SparseTensorSpec(None, fl.int64).shape.rank is None
    assert fl.SparseTensorSpec([3], fl.int64).shape.as_list() == [3]
    assert fl.RaggedTensorSpec([None, None], fl.int64).shape.as_list() == [None, None]
    assert fl.SparseTensorSpec(fl.TensorShape(None)) == fl.SparseTensorSpec(None)


def test_fused_stages_hand_their_functions_tensors_too():
    options = fl.data.Options()
    for name in ("map_fusion", "filter_fusion", "map_and_filter_fusion", "map_and_batch_fusion"):
        setattr(options.experimental_optimization, name, True)
    images = Dataset.from_tensor_slices(np.zeros((4, 3), np.uint8))
    fused = images.map(lambda x: x + 1).map(lambda x: x / 255).with_options(options)
    assert next(fused.as_numpy_iterator()).dtype == np.float32
    seen = set()
    pipeline = (Dataset.range(8).map(lambda x: seen.add(type(x)) or x)
                .filter(lambda x: seen.add(type(x)) is None and x % 2 == 0)
                .filter(lambda x: seen.add(type(x)) is None).map(lambda x: seen.add(type(x)) or x)
                .batch(2).with_options(options))
    assert [b.tolist() for b in pipeline.as_numpy_iterator()] == [[0, 2], [4, 6]]
    assert seen == {Tensor}
    with pytest.raises(TypeError, match="Cannot convert 1.5"):
        list(Dataset.range(3).map(lambda x: x).map(lambda x: x + 1.5).with_options(options))
