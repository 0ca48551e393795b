"""`Dataset.map`'s element_spec for functions that parse, decode or call Python, found without
reading: each rule follows the op's shape function in TensorFlow's source (cited per test).
"""

import numpy as np
import pytest

import feedline as fl
from feedline.data.composite_spec import RaggedTensorSpec, SparseTensorSpec
from feedline.data.spec import TensorSpec

# Inputs no parser accepts: a trace that parsed them would raise.
GARBAGE = fl.data.Dataset.from_tensor_slices([b"a", b"b"])
EMPTY = GARBAGE.take(0)
FEATURES = {"x": fl.io.FixedLenFeature([2], fl.float32), "v": fl.io.VarLenFeature(fl.int64)}


def _spec(dataset, function):
    return dataset.map(function).element_spec


@pytest.mark.parametrize("source", [GARBAGE, EMPTY], ids=["garbage", "empty"])
def test_parse_single_example_spec_comes_from_the_features(source):
    """`ParseExampleV2`'s shape function (core/ops/parsing_ops.cc): dense features have their
    declared shape; a VarLenFeature's dense shape is a computed tensor, so `[None]`.
    The issue's example: TensorFlow prints {'v': SparseTensorSpec([None]), 'x': (2,)}."""
    spec = _spec(source, lambda record: fl.io.parse_single_example(record, FEATURES))
    assert spec == {"v": SparseTensorSpec((None,), "int64"), "x": TensorSpec((2,), "float32")}
    assert list(spec) == ["v", "x"]  # sparse first, as TensorFlow orders the result


def test_fixed_len_sequence_and_ragged_features_have_an_unknown_length():
    """parsing_ops.cc: a FixedLenSequenceFeature adds an unknown size before its shape; a
    RaggedFeature of one record is its 1-D values tensor (parsing_ops.py,
    `_build_ragged_tensors` on a scalar input)."""
    features = {"s": fl.io.FixedLenSequenceFeature([3], fl.string, allow_missing=True),
                "r": fl.io.RaggedFeature(fl.int64)}
    spec = _spec(GARBAGE, lambda record: fl.io.parse_single_example(record, features))
    assert spec == {"s": TensorSpec((None, 3), "string"), "r": TensorSpec((None,), "int64")}


def test_parse_example_has_the_batch_size_only_when_it_is_static():
    """ParseExampleV2: dense outputs are the input's shape plus the feature's; the ragged row
    splits have `batch + 1` entries (`AddRaggedOutputShapes`); a sparse dense shape is a
    computed tensor, so every size of it is unknown."""
    features = dict(FEATURES, r=fl.io.RaggedFeature(fl.int64, row_splits_dtype=fl.int64))

    def parse(records):
        return fl.io.parse_example(records, features)

    assert _spec(GARBAGE.batch(4), parse) == {
        "v": SparseTensorSpec((None, None), "int64"), "x": TensorSpec((None, 2), "float32"),
        "r": RaggedTensorSpec((None, None), "int64", 1, "int64")}
    assert _spec(GARBAGE.batch(4, drop_remainder=True), parse) == {
        "v": SparseTensorSpec((None, None), "int64"), "x": TensorSpec((4, 2), "float32"),
        "r": RaggedTensorSpec((4, None), "int64", 1, "int64")}


def test_sparse_feature_has_its_declared_size():
    """`sparse_merge_impl` (python/ops/sparse_ops.py) builds the dense shape from the leading
    sizes of the index list, unknown, and the declared `size`, known."""
    features = {"s": fl.io.SparseFeature("ix", "val", fl.float32, 10)}
    assert _spec(GARBAGE, lambda r: fl.io.parse_single_example(r, features)) == {
        "s": SparseTensorSpec((10,), "float32")}
    assert _spec(GARBAGE.batch(2), lambda r: fl.io.parse_example(r, features)) == {
        "s": SparseTensorSpec((None, 10), "float32")}


def test_what_the_map_does_after_parsing_is_traced_as_usual():
    """Indexing, casting, reshaping and one-hot encoding run on the parsed placeholders."""
    features = {"image": fl.io.FixedLenFeature([784], fl.float32),
                "label": fl.io.FixedLenFeature([], fl.int64)}

    def preprocess(record):
        parsed = fl.io.parse_single_example(record, features)
        image = fl.reshape(parsed["image"], [28, 28, 1]) * 2
        return image, fl.one_hot(fl.cast(parsed["label"], fl.int32), 10)

    assert _spec(EMPTY, preprocess) == (TensorSpec((28, 28, 1), "float32"),
                                        TensorSpec((10,), "float32"))


def test_py_function_has_unknown_shape_and_the_dtype_of_tout():
    """`EagerPyFunc` is registered with `shape_inference::UnknownShape`
    (core/ops/script_ops.cc): TensorFlow prints `TensorSpec(shape=<unknown>, ...)`."""
    calls = []

    def python(value):
        calls.append(value)
        return 1 / 0

    spec = _spec(GARBAGE, lambda r: fl.py_function(python, [r], fl.float32))
    assert spec == TensorSpec(None, "float32")
    assert repr(spec) == "TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)"
    assert calls == []  # the user's function never ran to find the spec


def test_py_function_with_a_list_of_dtypes_gives_a_tuple_of_unknown_shapes():
    """A list `Tout` gives one output per dtype (script_ops.py); a map returning a list
    gives a tuple element, as in TensorFlow."""
    spec = _spec(GARBAGE, lambda r: fl.py_function(len, [r], [fl.int64, fl.string]))
    assert spec == (TensorSpec(None, "int64"), TensorSpec(None, "string"))


def test_numpy_function_has_unknown_shape_too():
    """`PyFunc` and `PyFuncStateless` also use `UnknownShape` (core/ops/script_ops.cc)."""
    spec = _spec(GARBAGE, lambda r: fl.numpy_function(len, [r], fl.int32))
    assert spec == TensorSpec(None, "int32")


def test_reshape_after_py_function_gives_the_reshaped_spec():
    """The TFRecord tutorial's pattern: `tf.reshape(tf.py_function(...), ())` is a scalar."""
    spec = _spec(GARBAGE, lambda r: fl.reshape(fl.py_function(len, [r], fl.string), ()))
    assert spec == TensorSpec((), "string")


def test_unknown_rank_survives_an_elementwise_map():
    """A value of unknown rank stays of unknown rank through arithmetic."""
    spec = _spec(GARBAGE, lambda r: fl.py_function(len, [r], fl.float32) * 2.0)
    assert spec == TensorSpec(None, "float32")


def test_decode_raw_appends_an_unknown_size():
    """`DecodeRaw`'s shape function: the input's shape plus one unknown dimension;
    `DecodePaddedRaw` (fixed_length) knows it: fixed_length / itemsize."""
    assert _spec(GARBAGE, lambda r: fl.io.decode_raw(r, fl.uint8)) == TensorSpec((None,),
                                                                                  "uint8")
    assert _spec(GARBAGE.batch(2, drop_remainder=True),
                 lambda r: fl.io.decode_raw(r, fl.int16)) == TensorSpec((2, None), "int16")
    assert _spec(GARBAGE, lambda r: fl.io.decode_raw(r, fl.float32, fixed_length=8)) == \
        TensorSpec((2,), "float32")


def test_decode_csv_gives_one_column_of_the_records_shape_per_default():
    """`DecodeCSV`'s shape function: every output has the shape of `records`; the dtype is
    the default's (a Python int is int32, a float float32)."""
    defaults = [0, 0.0, "", np.array([], np.int64)]
    assert _spec(EMPTY, lambda line: fl.io.decode_csv(line, defaults)) == (
        TensorSpec((), "int32"), TensorSpec((), "float32"), TensorSpec((), "string"),
        TensorSpec((), "int64"))
    assert _spec(GARBAGE.batch(5), lambda lines: fl.io.decode_csv(lines, [0.0])) == (
        TensorSpec((None,), "float32"),)


def test_parse_tensor_has_unknown_shape():
    """`ParseTensor` uses `shape_inference::UnknownShape` (core/ops/parsing_ops.cc)."""
    assert _spec(GARBAGE, lambda r: fl.io.parse_tensor(r, fl.float32)) == TensorSpec(
        None, "float32")


def test_image_decoders_know_only_the_channels():
    """`DecodeImageShapeFn` (core/ops/image_ops.cc): `[None, None, channels]`, channels
    unknown when 0. `DecodeImageV2ShapeFn`: unknown shape when expand_animations is True."""
    assert _spec(GARBAGE, lambda r: fl.io.decode_jpeg(r, channels=3)) == TensorSpec(
        (None, None, 3), "uint8")
    assert _spec(GARBAGE, lambda r: fl.io.decode_png(r)) == TensorSpec((None, None, None),
                                                                       "uint8")
    assert _spec(GARBAGE, lambda r: fl.io.decode_png(r, dtype=np.uint16)) == TensorSpec(
        (None, None, None), "uint16")
    assert _spec(GARBAGE, lambda r: fl.io.decode_image(r)) == TensorSpec(None, "uint8")
    assert _spec(GARBAGE, lambda r: fl.io.decode_image(
        r, channels=1, dtype=fl.float32, expand_animations=False)) == TensorSpec(
        (None, None, 1), "float32")


def test_a_file_read_and_decoded_then_resized_has_the_resized_spec():
    """`ReadFile` gives a scalar string (io_ops.cc), decode_jpeg `[None, None, 3]`, and
    resize sets height and width: the tf.data guide's image pipeline."""
    def load(path):
        image = fl.io.decode_jpeg(fl.io.read_file(path), channels=3)
        return fl.image.resize(image, [32, 32])

    assert _spec(fl.data.Dataset.from_tensor_slices(["no/such/file.jpg"]), load) == \
        TensorSpec((32, 32, 3), "float32")


def test_a_map_the_trace_cannot_follow_still_reads_the_first_element():
    """Reshaping decode_raw's unknown length to a fixed shape fails on the placeholder; the
    spec then comes from the first element, as documented in `Dataset.map`."""
    records = fl.data.Dataset.from_tensor_slices([bytes(range(6))])
    spec = _spec(records, lambda r: fl.reshape(fl.io.decode_raw(r, fl.uint8), [2, 3]))
    assert spec == TensorSpec((2, 3), "uint8")


def test_parsing_outside_a_trace_still_parses():
    example = fl.train.Example(features=fl.train.Features(feature={
        "x": fl.train.Feature(float_list=fl.train.FloatList(value=[1.0, 2.0]))}))
    parsed = fl.io.parse_single_example(example.SerializeToString(),
                                        {"x": fl.io.FixedLenFeature([2], fl.float32)})
    assert parsed["x"].tolist() == [1.0, 2.0]
    with pytest.raises(fl.errors.InvalidArgumentError):
        fl.io.parse_single_example(b"a", FEATURES)


@pytest.mark.parametrize("raised, expected", [
    (ValueError("bad value"), fl.errors.InvalidArgumentError),
    (TypeError("bad type"), fl.errors.InvalidArgumentError),
    (StopIteration(), fl.errors.OutOfRangeError),
    (MemoryError(), fl.errors.ResourceExhaustedError),
    (NotImplementedError("later"), fl.errors.UnimplementedError),
    (ZeroDivisionError("division by zero"), fl.errors.UnknownError),
])
def test_an_exception_in_py_function_reaches_the_loop_as_tensorflow_files_it(raised, expected):
    """`DoCallPyFunc` (python/lib/core/py_func.cc) maps ValueError/TypeError to
    InvalidArgument, StopIteration to OutOfRange, MemoryError to ResourceExhausted,
    NotImplementedError to Unimplemented, anything else to Unknown; the message is
    "<ExceptionName>: <text>" (`PyExceptionFetch`, python/lib/core/py_util.cc)."""
    def python(value):
        raise raised

    dataset = fl.data.Dataset.range(2).map(lambda x: fl.py_function(python, [x], fl.int64))
    with pytest.raises(expected) as caught:
        list(dataset)
    assert str(caught.value).startswith(f"{type(raised).__name__}: {raised}")
    assert caught.value.__cause__ is raised


def test_numpy_function_errors_are_wrapped_the_same_way():
    def python(value):
        raise ValueError("not a number")

    with pytest.raises(fl.errors.InvalidArgumentError, match="^ValueError: not a number"):
        fl.numpy_function(python, [1], fl.int64)


def test_a_function_of_a_window_is_traced_on_a_placeholder_dataset():
    """`window` gives datasets; the trace hands the function a dataset of placeholder
    elements with the window's element spec, so flat_map knows its spec on an empty input."""
    windows = fl.data.Dataset.range(0).window(3, shift=1)
    flat = windows.flat_map(lambda window: window.batch(3, drop_remainder=True))
    assert flat.element_spec == fl.TensorSpec((3,), fl.int64)


def test_an_unknown_rank_stays_unknown_through_an_identity_map():
    source = fl.data.Dataset.from_generator(lambda: iter([1.0, [2.0, 3.0]]),
                                            output_signature=fl.TensorSpec(None, fl.float32))
    assert source.map(lambda x: x).element_spec == fl.TensorSpec(None, fl.float32)


def test_sequence_example_specs_come_from_the_features():
    """`ParseSequenceExampleV2`'s shape function (core/ops/parsing_ops.cc): context features
    as in parse_example; a sequence adds an unknown step count; a sequence VarLenFeature is a
    SparseTensor of one more unknown dimension; lengths have the batch's shape."""
    context = {"c": fl.io.VarLenFeature(fl.int64)}
    sequence = {"s": fl.io.FixedLenSequenceFeature([2], fl.float32),
                "r": fl.io.RaggedFeature(fl.int64), "v": fl.io.VarLenFeature(fl.string)}
    single = _spec(GARBAGE, lambda r: fl.io.parse_single_sequence_example(r, context, sequence))
    assert single == ({"c": SparseTensorSpec((None,), "int64")},
                      {"v": SparseTensorSpec((None, None), "string"),
                       "s": TensorSpec((None, 2), "float32"),
                       "r": RaggedTensorSpec((None, None), "int64", 1, "int32")})
    batched = _spec(GARBAGE.batch(3, drop_remainder=True),
                    lambda r: fl.io.parse_sequence_example(r, context, sequence))
    assert batched[1]["s"] == TensorSpec((3, None, 2), "float32")
    assert batched[1]["r"] == RaggedTensorSpec((3, None, None), "int64", 2, "int32")
    assert batched[2] == {"s": TensorSpec((3,), "int64")}


def test_decode_proto_gives_sizes_and_one_padded_vector_per_field():
    """`DecodeProtoV2`'s shape function (core/ops/decode_proto_ops.cc): sizes are int32 of
    the input's shape plus the field count; each field the input's shape plus one unknown."""
    def fields(record):
        sizes, values = fl.io.decode_proto(record, "google.protobuf.FieldDescriptorProto",
                                           ["name", "number"], [fl.string, fl.int32])
        return sizes, values[0], values[1]

    assert _spec(GARBAGE, fields) == (TensorSpec((2,), "int32"), TensorSpec((None,), "string"),
                                      TensorSpec((None,), "int32"))


def test_group_by_window_traces_its_reduce_function_on_a_placeholder_window():
    grouped = fl.data.Dataset.range(0).group_by_window(
        lambda x: x % 2, lambda key, window: window.batch(4), window_size=4)
    assert grouped.element_spec == TensorSpec((None,), "int64")
    buckets = fl.data.Dataset.from_generator(
        lambda: iter([[1, 2]]), output_signature=fl.TensorSpec([None], fl.int32)
    ).bucket_by_sequence_length(lambda x: fl.size(x), [3], [2, 2])
    assert buckets.element_spec == TensorSpec((None, None), "int32")
    assert [batch.tolist() for batch in buckets.as_numpy_iterator()] == [[[1, 2]]]


def test_set_shape_after_py_function_gives_the_spec_its_shape():
    """The tf.data guide's pattern: `[image] = tf.py_function(..., [tf.float32])` then
    `image.set_shape(shape)`; in a TensorFlow graph set_shape merges the unknown shape with
    the given one (`Tensor.set_shape`, python/framework/tensor.py)."""
    def rotate(image, label):
        shape = image.shape
        [image] = fl.py_function(lambda value: value, [image], [fl.float32])
        image.set_shape(shape)
        return image, label

    images = fl.data.Dataset.from_tensor_slices((np.zeros((2, 8, 8, 3), np.float32), [1, 2]))
    assert _spec(images.take(0), rotate) == (TensorSpec((8, 8, 3), "float32"),
                                              TensorSpec((), "int32"))

    def load(path):
        image = fl.py_function(lambda p: np.zeros((5, 4, 3), np.float32), [path], fl.float32)
        image.set_shape([None, None, 3])
        return fl.image.resize(image, [2, 2])

    paths = fl.data.Dataset.from_tensor_slices(["a.png"])
    assert _spec(paths, load) == TensorSpec((2, 2, 3), "float32")
    assert [image.shape for image in paths.map(load)] == [(2, 2, 3)]


def test_a_size_that_depends_on_the_values_is_unknown_even_when_uniform_inputs_agree():
    """A boolean mask keeps every entry of an all-ones and of an all-twos placeholder; the
    third pass on varied entries shows its length depends on the values, so it is None,
    as TensorFlow's `boolean_mask` reports it."""
    rows = fl.data.Dataset.from_tensor_slices(np.ones((4, 3), np.float32))
    assert _spec(rows, lambda x: x[x > 0]) == TensorSpec((None,), "float32")
    assert _spec(rows, lambda x: x * 2) == TensorSpec((3,), "float32")


def test_a_third_pass_that_raises_is_left_out_quietly():
    """Entries of 0 in the varied pass divide by zero (an error for integers, as in
    TensorFlow); the two uniform passes decide."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = _spec(fl.data.Dataset.range(3), lambda x: fl.ones([3]) * fl.cast(10 // x, fl.float32))
    assert spec == TensorSpec((3,), "float32")
