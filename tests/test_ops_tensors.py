"""Eager ops hand out `feedline.Tensor`s: what published TensorFlow code does with an op's result
at the top level (`tf.io.encode_jpeg(img).numpy()`, `tf.reduce_sum(x).numpy()`,
`tf.strings.split(path, os.sep)[-2].numpy()`) runs as written, and `.numpy()` gives exactly the
plain value the op computed. Inside a pipeline, elements stay plain NumPy.

TensorFlow's eager ops return `EagerTensor`s (https://www.tensorflow.org/guide/tensor: "you can
convert a tensor to a NumPy array ... using the `Tensor.numpy` method").
"""

import os

import numpy as np
import pytest

import feedline as fl
from feedline.data import Dataset
from feedline.tensor import StringTensor, Tensor

IMAGE = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
SPARSE = fl.SparseTensor(indices=[[0, 1]], values=[7], dense_shape=[2, 3])


def _png():
    return fl.io.encode_png(IMAGE).numpy()


# (call, its arguments): one or more public ops of each family.
CALLS = {
    "constant int": (fl.constant, (3,)),
    "constant string": (fl.constant, ("a",)),
    "reduce_sum": (fl.reduce_sum, ([[1, 2], [3, 4]],)),
    "reduce_mean axis": (fl.reduce_mean, ([[1.0, 2.0], [3.0, 5.0]], 1)),
    "argmax": (fl.argmax, ([3, 9, 4],)),
    "concat": (fl.concat, ([[1, 2], [3]], 0)),
    "cast": (fl.cast, ([1.7, -2.2], fl.int32)),
    "one_hot": (fl.one_hot, ([0, 2], 3)),
    "shape": (fl.shape, (np.zeros((2, 5)),)),
    "math.log": (fl.math.log, (1.0,)),
    "math.floormod": (fl.math.floormod, (-7, 3)),
    "strings.split": (fl.strings.split, (b"/a/roses/x.jpg", "/")),
    "strings.length": (fl.strings.length, (b"abc",)),
    "strings.join": (fl.strings.join, ([b"a", b"b"], "-")),
    "strings.as_string": (fl.strings.as_string, (np.float32(3.5),)),
    "strings.to_number": (fl.strings.to_number, (b"7",)),
    "io.encode_png": (fl.io.encode_png, (IMAGE,)),
    "io.encode_jpeg": (fl.io.encode_jpeg, (IMAGE,)),
    "io.decode_png": (fl.io.decode_png, (_png(),)),
    "io.serialize_tensor": (fl.io.serialize_tensor, (np.array([1.0], np.float32),)),
    "io.parse_tensor": (fl.io.parse_tensor,
                        (fl.io.serialize_tensor(np.float32(2.5)).numpy(), fl.float32)),
    "io.serialize_sparse": (fl.io.serialize_sparse, (SPARSE,)),
    "io.decode_raw": (fl.io.decode_raw, (b"\x01\x00\x02\x00", np.uint16)),
    "image.resize": (fl.image.resize, (IMAGE, [4, 6])),
    "image.convert_image_dtype": (fl.image.convert_image_dtype, (IMAGE, fl.float32)),
    "image.flip_left_right": (fl.image.flip_left_right, (IMAGE,)),
    "random.stateless_uniform": (fl.random.stateless_uniform, ([2], [1, 2])),
    "random.stateless_normal": (fl.random.stateless_normal, ([], [3, 4])),
}


def _same_plain_value(got, plain):
    if isinstance(plain, np.ndarray) and plain.ndim == 0:
        plain = plain[()]  # parse_tensor of a scalar: `.numpy()` of rank 0 is a NumPy scalar
    assert type(got) is type(plain)
    if isinstance(plain, np.ndarray):
        assert got.dtype == plain.dtype and got.shape == plain.shape
        assert got.tolist() == plain.tolist()
    else:
        assert got == plain


@pytest.mark.parametrize("label", CALLS)
def test_each_ops_result_has_numpy_giving_the_plain_value_the_op_computed(label):
    """`.numpy()` gives what the op gave before it handed out tensors: same type, dtype, value
    (the plain op is the decorated function's `__wrapped__`)."""
    op, args = CALLS[label]
    result = op(*args)
    assert isinstance(result, (Tensor, StringTensor))
    _same_plain_value(result.numpy(), op.__wrapped__(*args))


def test_rank_0_results_follow_tensorflows_numpy_types():
    assert type(fl.constant(3).numpy()) is np.int32 and fl.constant(3).numpy() == 3
    assert type(fl.constant("a").numpy()) is bytes and fl.constant("a").numpy() == b"a"
    assert type(fl.reduce_sum([1.5, 2.0]).numpy()) is np.float32
    assert type(fl.argmax([3, 9, 4]).numpy()) is np.int64  # tf.argmax defaults to int64


def test_scalar_string_results_are_string_tensors_that_are_still_bytes():
    label = fl.strings.split(os.sep.join(["", "data", "roses", "x.jpg"]), os.sep)[-2]
    assert isinstance(label, StringTensor) and label.numpy().decode("utf-8") == "roses"
    jpeg = fl.io.encode_jpeg(IMAGE)
    assert isinstance(jpeg, StringTensor) and jpeg.numpy()[:2] == b"\xff\xd8"
    assert np.frombuffer(jpeg, np.uint8)[:2].tolist() == [0xFF, 0xD8]  # reads the bytes
    assert fl.io.decode_jpeg(jpeg).shape == (2, 3, 3)


def test_results_print_as_tensorflow_prints_eager_tensors():
    assert str(fl.reduce_sum([1, 2])) == "tf.Tensor(3, shape=(), dtype=int32)"
    assert repr(fl.constant([1.5, 2.0])) == (
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 2. ], dtype=float32)>")
    assert repr(fl.strings.join([b"a", b"b"])) == (
        "<tf.Tensor: shape=(), dtype=string, numpy=b'ab'>")


def test_a_boolean_mask_on_a_concat_result_gives_a_tensor_with_numpy():
    """The tf.data performance guide's timeline plot: `tf.concat(...)[mask].numpy()`."""
    steps = fl.concat([[[1, 0], [0, 0]], [[2, 1]]], axis=0)
    picked = steps[steps[:, 0] > 0]
    assert isinstance(picked, Tensor) and picked.numpy().tolist() == [[1, 0], [2, 1]]


def test_ops_on_tensors_give_tensors_with_tensorflows_dtypes():
    total = fl.add(fl.constant(1), fl.reduce_sum(fl.constant([2, 3])))
    assert isinstance(total, Tensor) and total.numpy() == 6 and total.dtype == np.int32
    rows = fl.unstack(fl.constant([[1, 2], [3, 4]]))
    assert type(rows) is list and all(isinstance(row, Tensor) for row in rows)
    assert rows[1].numpy().tolist() == [3, 4]
    parsed = fl.io.parse_tensor(fl.io.serialize_tensor(fl.constant([1.0, 2.0])), fl.float32)
    assert isinstance(parsed, Tensor) and parsed.numpy().tolist() == [1.0, 2.0]


def test_serialize_sparse_gives_a_string_vector_of_three():
    """tf.io.serialize_sparse: a string tensor of shape [3] (indices, values, dense_shape)."""
    serialized = fl.io.serialize_sparse(SPARSE)
    assert serialized.shape == (3,) and serialized.numpy().dtype == object
    assert all(type(part) is StringTensor for part in serialized)


def test_random_ops_and_generator_methods_give_tensors():
    assert isinstance(fl.random.uniform([2], seed=1), Tensor)
    generator = fl.random.Generator.from_seed(1)
    assert isinstance(generator.normal([2]), Tensor)
    assert isinstance(generator.make_seeds(2), Tensor)
    assert generator.make_seeds(2).numpy().shape == (2, 2)


def test_convert_to_tensor_hands_a_tensor_back_unchanged():
    """tf.convert_to_tensor returns an EagerTensor as it is."""
    tensor = fl.constant([1, 2])
    assert fl.convert_to_tensor(tensor) is tensor
    assert fl.convert_to_tensor(tensor, dtype=fl.int32) is tensor


def test_numpy_code_keeps_working_on_results():
    values = fl.constant([1.0, 2.0, 4.0])
    assert float(np.mean(values)) == pytest.approx(7 / 3)
    assert np.asarray(values).dtype == np.float32 and type(np.asarray(values)) is np.ndarray
    assert fl.strings.join([b"a", b"b"]).decode() == "ab"
    assert int(fl.reduce_sum([1, 2])) == 3 and float(fl.math.log(1.0)) == 0.0
    assert fl.constant([3, 1, 2]).tolist() == [3, 1, 2]


def _pipeline(ops):
    """A map that uses ops of each family; `ops` maps a name to the function to call."""
    def per_element(x):
        label = ops["cast"](x, fl.float32)
        code = ops["one_hot"](ops["cast"](x % 3, fl.int32), 3)
        text = ops["as_string"](x)
        parts = ops["split"](ops["join"]([text, b"a"], "/"), "/")
        return {"label": ops["multiply"](label, 2.0), "code": code, "text": text,
                "parts": parts, "total": ops["reduce_sum"](code)}
    return Dataset.range(4).map(per_element)


_OPS = {"cast": fl.cast, "one_hot": fl.one_hot, "as_string": fl.strings.as_string,
        "split": fl.strings.split, "join": fl.strings.join, "multiply": fl.multiply,
        "reduce_sum": fl.reduce_sum}


def _leaf_types(element):
    return {key: (type(value), getattr(value, "dtype", None)) for key, value in element.items()}


def test_as_numpy_iterator_gives_the_same_types_and_values_as_the_plain_ops():
    """The map's outputs turn back into plain leaves: the elements are what the same pipeline
    gave when the ops returned plain NumPy (their `__wrapped__` functions)."""
    plain_ops = {name: op.__wrapped__ for name, op in _OPS.items()}
    got = list(_pipeline(_OPS).as_numpy_iterator())
    expected = list(_pipeline(plain_ops).as_numpy_iterator())
    assert [_leaf_types(element) for element in got] == [
        _leaf_types(element) for element in expected]
    assert _leaf_types(got[0]) == {
        "label": (np.float32, np.float32), "code": (np.ndarray, np.float32),
        "text": (bytes, None), "parts": (np.ndarray, np.dtype(object)),
        "total": (np.float32, np.float32)}
    for element, plain in zip(got, expected):
        assert element["parts"].tolist() == plain["parts"].tolist()
        assert element["text"] == plain["text"] and element["label"] == plain["label"]


def test_pipeline_stages_pass_plain_values_and_functions_see_tensors():
    seen = []

    def record(element):
        seen.append(type(element["label"]))
        return element

    ds = _pipeline(_OPS).map(record).filter(lambda e: fl.greater(e["label"], 0.0))
    assert [type(e["label"]) for e in ds.as_numpy_iterator()] == [np.float32] * 3
    assert [int(e["label"]) for e in ds.as_numpy_iterator()] == [2, 4, 6]
    assert set(seen) == {fl.Tensor}


def test_a_batch_of_op_results_is_a_plain_array():
    ds = Dataset.range(4).map(lambda x: fl.one_hot(fl.cast(x, fl.int32), 4)).batch(2)
    batches = list(ds.as_numpy_iterator())
    assert [type(batch) for batch in batches] == [np.ndarray, np.ndarray]
    assert batches[1].tolist() == [[0, 0, 1, 0], [0, 0, 0, 1]]
