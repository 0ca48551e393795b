"""fl.constant, fill, zeros, ones, zeros_like, ones_like and range: TensorFlow's signatures,
dtypes and errors (https://www.tensorflow.org/api_docs/python/tf/range and the pages of the
other functions)."""

import inspect

import numpy as np
import pytest

import feedline as fl
from feedline.errors import InvalidArgumentError


def test_fill_takes_its_dtype_from_the_value():
    assert fl.fill([2], np.int64(3)).dtype == np.int64
    assert fl.fill([2, 1], 1.5).dtype == np.float32
    assert fl.fill([3], 7).tolist() == [7, 7, 7]


def test_fill_with_empty_dims_gives_a_scalar():
    assert fl.fill([], 4) == np.int32(4) and np.ndim(fl.fill([], 4)) == 0


def test_fill_of_a_string_gives_an_object_array_of_bytes():
    assert fl.fill([2], "ab").tolist() == [b"ab", b"ab"]


def test_fill_refuses_a_non_scalar_value():
    with pytest.raises(InvalidArgumentError, match="value must be a scalar"):
        fl.fill([2], [1, 2])


def test_fill_refuses_negative_dims():
    with pytest.raises(InvalidArgumentError, match="non-negative"):
        fl.fill([-1], 0)


def test_constant_gives_python_ints_int32_and_floats_float32():
    assert fl.constant([1, 2]).dtype == np.int32
    assert fl.constant(2.5).dtype == np.float32


def test_constant_converts_to_the_dtype_given():
    assert fl.constant([1, 2], dtype=fl.float64).dtype == np.float64


def test_constant_repeats_a_scalar_to_fill_the_shape():
    assert fl.constant(0, shape=[2, 2]).tolist() == [[0, 0], [0, 0]]


def test_constant_reshapes_values_that_fill_the_shape_exactly():
    assert fl.constant([1, 2, 3, 4], shape=[2, 2]).tolist() == [[1, 2], [3, 4]]


def test_constant_refuses_a_shape_its_values_cannot_fill():
    with pytest.raises(TypeError, match="cannot fill shape"):
        fl.constant([1, 2, 3], shape=[2, 2])


def test_zeros_and_ones_are_float32_by_default():
    assert fl.zeros([2, 3]).dtype == np.float32 and fl.zeros([2, 3]).shape == (2, 3)
    assert fl.ones([2]).tolist() == [1.0, 1.0] and fl.ones([2]).dtype == np.float32


def test_zeros_of_strings_are_empty_bytes():
    assert fl.zeros([2], dtype=fl.string).tolist() == [b"", b""]


def test_zeros_like_and_ones_like_keep_shape_and_dtype_unless_told():
    """tf.zeros_like / tf.ones_like: the input's dtype by default, `dtype` overrides it."""
    assert fl.zeros_like(np.ones((2, 1), np.int64)).dtype == np.int64
    assert fl.ones_like([[1.5], [2.5]]).tolist() == [[1.0], [1.0]]
    assert fl.ones_like([1, 2], dtype=fl.float64).dtype == np.float64
    assert fl.zeros_like(np.int64(7)) == 0 and np.ndim(fl.zeros_like(np.int64(7))) == 0


def test_ones_like_refuses_strings():
    with pytest.raises(TypeError, match="strings have no one"):
        fl.ones_like([b"a"])


def test_range_of_python_ints_is_int32_and_counts_from_zero():
    """tf.range(5) is [0 1 2 3 4] with dtype int32."""
    result = fl.range(5)
    assert result.dtype == np.int32 and result.tolist() == [0, 1, 2, 3, 4]


def test_range_takes_the_widest_dtype_of_its_arguments():
    """tf.range: the dtype is inferred from start, limit and delta (int32 < int64 < float32)."""
    assert fl.range(0, 1, 0.25).dtype == np.float32
    assert fl.range(np.int64(3)).dtype == np.int64
    assert fl.range(3, 18, 3).tolist() == [3, 6, 9, 12, 15]
    assert fl.range(3, 1, -0.5).tolist() == [3.0, 2.5, 2.0, 1.5]


def test_range_converts_to_the_dtype_given():
    assert fl.range(3, dtype=fl.float64).dtype == np.float64
    with pytest.raises(TypeError, match="limit=2.5"):
        fl.range(0, 2.5, dtype=fl.int32)


def test_range_refuses_a_zero_delta_or_one_pointing_away():
    """TensorFlow's Range kernel: "Requires delta != 0", "Requires start <= limit when
    delta > 0"."""
    with pytest.raises(InvalidArgumentError, match="delta != 0"):
        fl.range(0, 5, 0)
    with pytest.raises(InvalidArgumentError, match="start <= limit when delta > 0: 5/0"):
        fl.range(5, 0)
    with pytest.raises(InvalidArgumentError, match="start >= limit when delta < 0"):
        fl.range(0, 5, -1)


def test_range_with_start_equal_to_limit_is_empty():
    assert fl.range(2, 2).shape == (0,)


def test_range_takes_tensorflows_arguments():
    assert list(inspect.signature(fl.range).parameters) == ["start", "limit", "delta", "dtype",
                                                             "name"]


@pytest.mark.parametrize("dtype", ["string", "int64", "bool", "float64"])
def test_an_empty_list_is_an_empty_tensor_of_any_dtype(dtype):
    empty = fl.constant([], dtype=dtype)
    assert empty.shape == (0,) and empty.dtype == fl.as_dtype(dtype)
    assert fl.constant([[], []], dtype=dtype).shape == (2, 0)
