"""Names that published TensorFlow code uses exist in feedline with TensorFlow's signatures
and behaviour: py_function, numpy_function, function, top-level TensorSpec / SparseTensor /
RaggedTensor, io.decode_raw and io.read_file. decode_raw parity reads
wave2_expected.json["legacy"] in place."""

import inspect

import numpy as np
import pytest

import feedline as fl
from conftest import decode, load_fixture
from feedline.errors import InvalidArgumentError, NotFoundError

LEGACY = load_fixture("wave2_expected.json")["legacy"]


# -- the names exist where TensorFlow code looks for them ----------------------------------------

@pytest.mark.parametrize("path", [
    "TensorSpec", "SparseTensor", "RaggedTensor", "py_function", "numpy_function", "function",
    "strings.split", "strings.substr", "strings.length", "strings.lower", "strings.upper",
    "strings.regex_replace", "strings.to_number", "strings.join", "strings.reduce_join",
    "strings.unicode_split", "strings.strip", "io.decode_raw", "io.read_file",
    "data.experimental.AUTOTUNE", "data.experimental.Counter",
    "data.experimental.sample_from_datasets", "data.experimental.choose_from_datasets",
    "data.experimental.assert_cardinality", "data.experimental.cardinality",
    "data.experimental.INFINITE_CARDINALITY", "data.experimental.UNKNOWN_CARDINALITY",
    "data.experimental.prefetch_to_device", "data.experimental.CsvDataset",
    "data.experimental.make_csv_dataset", "data.Dataset.counter",
    "data.Dataset.sample_from_datasets", "data.Dataset.choose_from_datasets",
    "data.Dataset.random", "data.Dataset.fingerprint", "data.Dataset.rejection_resample",
    "data.Dataset.ragged_batch", "data.Dataset.sparse_batch", "data.Dataset.get_single_element",
    "data.experimental.rejection_resample", "data.experimental.map_and_batch",
    "data.experimental.parallel_interleave", "data.experimental.shuffle_and_repeat",
    "data.experimental.OptimizationOptions", "data.experimental.AutotuneOptions",
    "data.ThreadingOptions", "io.serialize_tensor", "io.parse_tensor", "io.serialize_sparse",
    "sparse.to_dense", "errors.FailedPreconditionError", "errors.UnimplementedError",
    "errors.AlreadyExistsError", "errors.PermissionDeniedError", "errors.OutOfRangeError",
    # tensor ops, in map functions
    "range", "reduce_sum", "reduce_mean", "reduce_max", "argmax", "one_hot", "where", "equal",
    "logical_and", "maximum", "sqrt", "exp", "expand_dims", "squeeze", "transpose", "tile",
    "gather", "unstack", "size", "rank", "clip_by_value", "identity", "print", "ensure_shape",
    "convert_to_tensor", "is_tensor", "TensorShape", "math.log", "math.reduce_mean",
    # images, files, randomness, tables and strings
    "image.decode_jpeg", "image.convert_image_dtype", "image.resize", "image.flip_left_right",
    "image.random_flip_left_right", "image.per_image_standardization", "layers.Rescaling",
    "layers.Resizing", "layers.CenterCrop", "layers.RandomFlip", "layers.RandomCrop",
    "io.gfile.GFile", "io.gfile.glob", "io.write_file", "io.matching_files",
    "random.uniform", "random.normal", "random.Generator", "random.stateless_uniform",
    "lookup.StaticHashTable", "lookup.TextFileInitializer", "strings.unicode_decode",
    "strings.format", "strings.as_string", "strings.ngrams", "strings.to_hash_bucket_fast",
    "strings.regex_full_match",
    # iterators and options
    "data.DatasetSpec", "data.experimental.Optional", "data.experimental.AutoShardPolicy",
    "data.experimental.make_batched_features_dataset", "data.experimental.unbatch",
    "io.SparseFeature", "io.decode_compressed", "random.stateless_categorical",
    "io.parse_sequence_example", "layers.Embedding", "keras.layers.Normalization",
    "keras.layers.StringLookup", "keras.Sequential", "layers.RandomRotation",
])
def test_tensorflow_name_is_available(path):
    value = fl
    for part in path.split("."):
        value = getattr(value, part)
    assert value is not None


def test_top_level_classes_are_the_ones_the_namespaces_use():
    assert fl.TensorSpec is fl.data.TensorSpec
    assert fl.SparseTensor is fl.io.SparseTensor
    assert fl.RaggedTensor is fl.io.RaggedTensor


@pytest.mark.parametrize("function, parameters", [
    (fl.py_function, ["func", "inp", "Tout", "name"]),
    (fl.numpy_function, ["func", "inp", "Tout", "stateful", "name"]),
    (fl.io.decode_raw, ["input_bytes", "out_type", "little_endian", "fixed_length", "name"]),
    (fl.data.experimental.Counter, ["start", "step", "dtype"]),
    (fl.data.experimental.sample_from_datasets,
     ["datasets", "weights", "seed", "stop_on_empty_dataset", "rerandomize_each_iteration"]),
    (fl.data.experimental.choose_from_datasets,
     ["datasets", "choice_dataset", "stop_on_empty_dataset"]),
    (fl.data.Dataset.from_generator,
     ["generator", "output_types", "output_shapes", "args", "output_signature"]),
    (fl.data.experimental.make_csv_dataset,
     ["file_pattern", "batch_size", "column_names", "column_defaults", "label_name",
      "select_columns", "field_delim", "use_quote_delim", "na_value", "header", "num_epochs",
      "shuffle", "shuffle_buffer_size", "shuffle_seed", "prefetch_buffer_size",
      "num_parallel_reads", "sloppy", "num_rows_for_inference", "compression_type",
      "ignore_errors"]),
])
def test_signatures_take_tensorflows_arguments_in_order(function, parameters):
    assert list(inspect.signature(function).parameters)[:len(parameters)] == parameters


def test_csv_dataset_takes_tensorflows_arguments_in_order():
    parameters = list(inspect.signature(fl.data.experimental.CsvDataset).parameters)
    assert parameters[:10] == ["filenames", "record_defaults", "compression_type",
                               "buffer_size", "header", "field_delim", "use_quote_delim",
                               "na_value", "select_cols", "exclude_cols"]


# -- py_function, numpy_function, function -------------------------------------------------------

def test_py_function_calls_func_with_inp_and_converts_to_tout():
    result = fl.py_function(lambda a, b: a + b, [np.int64(2), np.int64(3)], fl.float32)
    assert result == 5.0 and isinstance(result.numpy(), np.float32)  # a tensor, as in TF


def test_py_function_with_a_list_tout_returns_a_list_even_for_one_result():
    def rotate(image):
        return np.rot90(image)

    [image] = fl.py_function(rotate, [np.arange(4).reshape(2, 2)], [fl.float32])
    assert image.dtype == np.float32 and image.tolist() == [[1, 3], [0, 2]]


def test_py_function_inside_map_gives_the_declared_dtypes():
    # (TensorFlow's map also turns a returned list into a tuple; feedline's map does not yet.)
    ds = fl.data.Dataset.from_tensor_slices([b"3", b"4"]).map(lambda s: tuple(
        fl.py_function(lambda t: (int(t), t + b"!"), [s], [fl.int64, fl.string])))
    assert [(int(n), t) for n, t in ds] == [(3, b"3!"), (4, b"4!")]


def test_py_function_refuses_results_that_do_not_fit_tout():
    with pytest.raises(InvalidArgumentError, match="does not convert to int32"):
        fl.py_function(lambda: 1.5, [], fl.int32)
    with pytest.raises(InvalidArgumentError, match="returned 1 values but Tout lists 2"):
        fl.py_function(lambda: 1, [], [fl.int32, fl.int32])
    with pytest.raises(InvalidArgumentError, match="not a string"):
        fl.py_function(lambda: 1, [], fl.string)


def test_py_function_needs_a_list_of_inputs():
    with pytest.raises(TypeError, match="inp must be a list"):
        fl.py_function(lambda x: x, 3, fl.int32)


def test_py_function_with_tout_none_returns_none_after_calling():
    calls = []
    assert fl.py_function(calls.append, [1], None) is None
    assert calls == [1]


def test_numpy_function_behaves_like_py_function():
    result = fl.numpy_function(np.cumsum, [np.array([1, 2, 3])], fl.int32)
    assert result.dtype == np.int32 and result.tolist() == [1, 3, 6]


def test_function_wraps_the_function_with_or_without_arguments():
    """tf.function returns a Function object that calls the Python function (its
    `python_function`); see tests/test_function.py for the rest."""
    def double(x):
        return x * 2

    assert fl.function(double).python_function is double
    wrapped = fl.function(input_signature=[fl.TensorSpec((), fl.int32)], reduce_retracing=True)
    assert int(wrapped(double)(3)) == 6


def test_function_refuses_a_misspelt_option():
    with pytest.raises(TypeError, match="jit_compil"):
        fl.function(jit_compil=True)


# -- io.decode_raw and io.read_file --------------------------------------------------------------

DECODE_RAW = {
    "decode_raw(b'\\x01\\x02\\x03\\x04', tf.int16)":
        lambda: fl.io.decode_raw(b"\x01\x02\x03\x04", fl.int16),
    "decode_raw([b'\\x01\\x00', b'\\x02\\x00'], tf.uint8)":
        lambda: fl.io.decode_raw([b"\x01\x00", b"\x02\x00"], fl.uint8),
}


@pytest.mark.parametrize("key", sorted(DECODE_RAW))
def test_decode_raw_gives_tensorflows_values(key):
    want = decode(LEGACY[key])
    ours = DECODE_RAW[key]()
    assert ours.dtype == want.dtype and ours.shape == want.shape
    assert ours.tolist() == want.tolist()


def test_decode_raw_reads_big_endian_and_fixed_lengths():
    assert fl.io.decode_raw(b"\x01\x02", fl.int16, little_endian=False).tolist() == [258]
    padded = fl.io.decode_raw([b"\x01", b"\x02\x03\x04"], fl.uint8, fixed_length=2)
    assert padded.tolist() == [[1, 0], [2, 3]]


def test_decode_raw_explains_lengths_that_do_not_fit():
    with pytest.raises(InvalidArgumentError, match="3 bytes is not a multiple of 2"):
        fl.io.decode_raw(b"\x01\x02\x03", fl.int16)
    with pytest.raises(InvalidArgumentError, match="element 1 has 1 bytes.*fixed_length"):
        fl.io.decode_raw([b"\x01\x02", b"\x03"], fl.uint8)
    with pytest.raises(TypeError, match="numeric"):
        fl.io.decode_raw(b"ab", fl.string)


def test_read_file_returns_the_bytes_and_names_a_missing_file(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"\x00abc")
    assert fl.io.read_file(str(path)) == b"\x00abc"
    assert fl.io.read_file(str(path).encode()) == b"\x00abc"
    with pytest.raises(NotFoundError, match="missing.bin"):
        fl.io.read_file(str(tmp_path / "missing.bin"))


def test_read_file_works_in_a_pipeline_of_file_names(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.txt").write_bytes(name.encode() * 2)
    ds = fl.data.Dataset.list_files(str(tmp_path / "*.txt"), shuffle=False).map(fl.io.read_file)
    assert list(ds) == [b"aa", b"bb"]
