"""`fl.DType`: TensorFlow's dtype objects (https://www.tensorflow.org/api_docs/python/tf/dtypes/DType),
which NumPy also takes as dtypes."""

import copy
import pickle

import numpy as np
import pytest

import feedline as fl


def test_tensor_dtype_is_the_interned_dtype_object_with_tensorflows_printed_forms():
    """The DType page: `tf.constant(1.0).dtype` is `tf.float32`; `str` gives <dtype: '...'>."""
    x = fl.constant([1.0, 2.0])
    assert x.dtype is fl.float32 and fl.float32 is fl.as_dtype("float32")
    assert repr(x.dtype) == "tf.float32" and str(x.dtype) == "<dtype: 'float32'>"
    assert isinstance(x.dtype, fl.DType) and fl.dtypes.DType is fl.DType


def test_the_string_dtype_is_named_string_and_stands_for_object_arrays_of_bytes():
    assert fl.string.name == "string" and repr(fl.string) == "tf.string"
    assert fl.constant([b"a"]).dtype is fl.string and fl.constant(b"a").dtype is fl.string
    assert fl.string == np.dtype(object) and np.dtype(object) == fl.string
    assert fl.string.as_numpy_dtype is np.object_


def test_the_questions_tensorflow_code_asks_of_a_dtype():
    """tf.dtypes.DType properties: is_floating, is_integer, is_bool, is_complex,
    is_unsigned, is_quantized, is_numpy_compatible, as_numpy_dtype, base_dtype, real_dtype."""
    assert fl.float16.is_floating and not fl.complex64.is_floating
    assert fl.uint8.is_integer and fl.uint8.is_unsigned and not fl.int8.is_unsigned
    assert not fl.bool.is_integer and fl.bool.is_bool and fl.complex128.is_complex
    assert not fl.int32.is_quantized and fl.int32.is_numpy_compatible
    assert fl.float32.as_numpy_dtype is np.float32 and fl.int64.base_dtype is fl.int64
    assert fl.complex64.real_dtype is fl.float32 and fl.complex128.real_dtype is fl.float64
    assert fl.float64.real_dtype is fl.float64


def test_datatype_numbers_and_sizes_are_tensorflows():
    """types.proto numbers (DT_FLOAT = 1, DT_STRING = 7, DT_INT64 = 9, DT_BOOL = 10); `size`
    is DataTypeSize, 0 for string."""
    assert [fl.float32.as_datatype_enum, fl.string.as_datatype_enum, fl.int64.as_datatype_enum,
            fl.bool.as_datatype_enum, fl.float16.as_datatype_enum] == [1, 7, 9, 10, 19]
    assert (fl.int64.size, fl.float16.size, fl.bool.size, fl.string.size) == (8, 2, 1, 0)


def test_min_max_and_limits_follow_tensorflow():
    """`min`/`max` raise TypeError for bool, string and complex; `limits` clips the
    minimum to 0 and gives floats the intensity range (TensorFlow's dtype_range)."""
    assert (fl.int8.min, fl.int8.max, fl.uint16.max) == (-128, 127, 65535)
    assert fl.float32.max == np.finfo(np.float32).max and fl.float32.min.dtype == np.float32
    assert fl.uint8.limits == (0, 255) and fl.float32.limits == (0, 1)
    assert fl.int16.limits == (0, 32767)
    for dtype in (fl.bool, fl.string, fl.complex64):
        with pytest.raises(TypeError, match="Cannot find minimum value"):
            dtype.min
        with pytest.raises(TypeError, match="Cannot find maximum value"):
            dtype.max


def test_is_compatible_with_is_true_for_the_same_dtype_only():
    assert fl.int32.is_compatible_with("int32") and fl.int32.is_compatible_with(np.int32)
    assert not fl.int32.is_compatible_with(fl.int64)


def test_dtypes_equal_numpy_dtypes_scalar_types_and_names_both_ways_and_hash_alike():
    assert np.dtype("float32") == fl.float32 and fl.float32 == np.float32
    assert fl.float32 == "float32" and fl.float32 != "int32" and fl.float32 != fl.float64
    assert hash(fl.float32) == hash(np.dtype("float32"))
    assert {np.dtype("float32"): "a"}[fl.float32] == "a"
    assert {fl.int64: "b"}[np.dtype("int64")] == "b"
    assert not (fl.float32 == None) and fl.float32 != None  # noqa: E711 - TensorFlow's rule
    assert fl.float32 != "no such dtype"


def test_as_dtype_follows_tensorflows_names_and_python_types():
    """as_dtype: "float" and `float` are float32, "double" float64, "half" float16; bytes,
    str and object are string."""
    assert fl.as_dtype("float") is fl.float32 and fl.as_dtype(float) is fl.float32
    assert fl.as_dtype("double") is fl.float64 and fl.as_dtype("half") is fl.float16
    assert fl.as_dtype(bool) is fl.bool and fl.as_dtype(np.bool_) is fl.bool
    assert all(fl.as_dtype(kind) is fl.string for kind in (bytes, str, object, "string"))
    assert fl.as_dtype(np.dtype("<U3")) is fl.string
    assert fl.as_dtype(np.zeros(2, np.uint8)) is fl.uint8  # a value with a .dtype
    with pytest.raises(TypeError, match="Cannot convert value 'floaty' to a DType"):
        fl.as_dtype("floaty")


def test_numpy_takes_dtypes_wherever_it_takes_a_dtype():
    assert np.zeros(3, fl.float32).dtype == np.float32
    assert np.asarray(fl.constant([1, 2]), dtype=fl.int64).dtype == np.int64
    assert np.arange(3).astype(fl.float32).dtype == np.float32
    assert np.issubdtype(fl.float32, np.floating) and not np.issubdtype(fl.int32, np.floating)
    assert np.dtype(fl.string) == np.dtype(object)


def test_numpys_own_attributes_are_forwarded_for_code_written_against_numpy():
    assert (fl.float32.kind, fl.float32.itemsize, fl.float32.type, fl.float32.char) == \
        ("f", 4, np.float32, "f")
    assert fl.constant([1, 2]).dtype.kind == "i"


def test_dtypes_pickle_and_copy_as_the_same_object():
    for dtype in (fl.float32, fl.string, fl.bool):
        assert pickle.loads(pickle.dumps(dtype)) is dtype
        assert copy.copy(dtype) is dtype and copy.deepcopy(dtype) is dtype


def test_specs_variables_and_tensor_arrays_hand_out_dtype_objects():
    assert fl.TensorSpec([2], "int64").dtype is fl.int64
    assert fl.Variable(1.0).dtype is fl.float32
    assert fl.RaggedTensorSpec([None, None], fl.int32).dtype is fl.int32
    assert fl.ragged.constant([[1], []]).dtype is fl.int32
    assert fl.TensorArray(fl.float32, size=1).dtype is fl.float32


def test_elements_from_as_numpy_iterator_keep_numpys_dtypes():
    """as_numpy_iterator gives NumPy values, whose dtype is NumPy's (as in TensorFlow)."""
    [element] = fl.data.Dataset.from_tensors([1, 2]).as_numpy_iterator()
    assert type(element) is np.ndarray and type(element.dtype) is not fl.DType
    [loop_element] = fl.data.Dataset.from_tensors([1, 2])
    assert loop_element.dtype is fl.int32


def test_a_tensor_of_numpy_text_keeps_numpys_dtype_but_answers_as_string():
    text = np.array(["ab"]).view(fl.Tensor)
    assert text.dtype == fl.string and text.dtype.name == "string" and text.dtype.kind == "U"
