"""Tensor operators with TensorFlow's eager dtype rules: no promotion between tensors, other
operands converted to the tensor's dtype (https://www.tensorflow.org/guide/tensor#basic_math
"TensorFlow does not promote"; https://www.tensorflow.org/api_docs/python/tf/math/truediv)."""

import numpy as np
import pytest

import feedline as fl

KERNELS = [("+", "AddV2"), ("-", "Sub"), ("*", "Mul"), ("//", "FloorDiv"), ("%", "FloorMod"),
           ("**", "Pow"), ("<", "Less"), ("<=", "LessEqual"), (">", "Greater"),
           (">=", "GreaterEqual"), ("==", "Equal"), ("!=", "NotEqual")]


@pytest.mark.parametrize("symbol, kernel", KERNELS)
def test_two_tensors_of_different_dtypes_are_refused_with_tensorflows_message(symbol, kernel):
    """TensorFlow's eager executor: "cannot compute AddV2 as input #1(zero-based) was
    expected to be a int32 tensor but is a float tensor [Op:AddV2]"."""
    left, right = fl.constant([1, 2]), fl.constant([1.0, 2.0])
    message = (f"cannot compute {kernel} as input #1\\(zero-based\\) was expected to be a int32 "
               f"tensor but is a float tensor \\[Op:{kernel}\\]")
    with pytest.raises(fl.errors.InvalidArgumentError, match=message):
        eval(f"left {symbol} right")


def test_the_message_uses_tensorflows_kernel_names_of_dtypes():
    with pytest.raises(fl.errors.InvalidArgumentError,
                       match="expected to be a double tensor but is a float tensor"):
        fl.constant([1.0], fl.float64) + fl.constant([1.0])


def test_bitwise_and_logical_operators_name_their_kernels():
    with pytest.raises(fl.errors.InvalidArgumentError, match=r"\[Op:BitwiseAnd\]"):
        fl.constant([1]) & fl.constant([1], fl.int64)
    with pytest.raises(fl.errors.InvalidArgumentError, match=r"\[Op:LogicalOr\]"):
        fl.constant([True]) | fl.constant([1])
    assert (fl.constant([6]) & fl.constant([3])).numpy().tolist() == [2]
    assert (fl.constant([True, False]) | fl.constant([False, False])).numpy().tolist() == \
        [True, False]


def test_true_division_of_mixed_dtypes_is_a_type_error():
    """tf.math.truediv: "x and y must have the same dtype" (a TypeError raised in Python)."""
    with pytest.raises(TypeError, match="`x` and `y` must have the same dtype, got tf.int32 "
                                        "!= tf.float32"):
        fl.constant([1]) / fl.constant([2.0])


def test_dividing_integers_gives_tensorflows_float_dtypes():
    """truediv: int8/int16/uint8/uint16 give float32, int32/int64 float64."""
    assert (fl.constant([1, 2]) / fl.constant([2, 2])).dtype is fl.float64
    assert (fl.constant([1], fl.uint8) / 2).dtype is fl.float32


def test_python_numbers_take_the_tensors_dtype_or_are_refused():
    """TensorFlow converts the Python operand to the tensor's dtype: 2 fits float32, 2.5 does
    not fit int32 ("Cannot convert 2.5 to EagerTensor of dtype int32")."""
    assert (fl.constant([1.0]) * 2).dtype is fl.float32 and (2 * fl.constant([1.0])).dtype \
        is fl.float32
    assert (fl.constant([1, 2]) * 3).numpy().tolist() == [3, 6]
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        fl.constant([1, 2]) * 2.5
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        2.5 - fl.constant([1, 2])
    with pytest.raises(TypeError, match="Cannot convert True to EagerTensor of dtype int32"):
        fl.constant([1]) + True


def test_numpy_operands_are_cast_when_their_kind_converts():
    """TensorFlow's conversion casts a NumPy value of a compatible kind (integers to an
    integer tensor, integers and floats to a float tensor) and refuses the rest."""
    assert (fl.constant([1, 2]) + np.int64(3)).dtype is fl.int32
    assert (fl.constant([1.0]) + np.array([0.5])).dtype is fl.float32
    with pytest.raises(TypeError, match="to EagerTensor of dtype int32"):
        fl.constant([1, 2]) + np.array([0.5, 1.5])


def test_operators_agree_with_the_public_ops():
    left, right = fl.constant([7, -7]), fl.constant([2, 2])
    assert (left // right).numpy().tolist() == fl.math.floordiv(left, right).numpy().tolist()
    assert (left % right).numpy().tolist() == fl.math.floormod(left, right).numpy().tolist()
    with pytest.raises(fl.errors.InvalidArgumentError, match="division by zero"):
        left // fl.constant([0, 1])


def test_equality_with_none_is_false_and_incompatible_shapes_compare_unequal():
    """Tensor.__eq__: `x == None` is False; shapes that do not broadcast give a scalar False
    (Equal with incompatible_shape_error=False)."""
    x = fl.constant([1, 2])
    assert (x == None) is False and (x != None) is True  # noqa: E711
    assert (x == fl.constant([1, 2, 3])).numpy() == np.False_
    assert (x != fl.constant([1, 2, 3])).numpy() == np.True_


def test_strings_compare_and_join_with_python_text():
    words = fl.constant([b"cat", b"dog"])
    assert (words == "cat").numpy().tolist() == [True, False]
    assert (words + "s").numpy().tolist() == [b"cats", b"dogs"]


def test_numpys_own_helpers_keep_numpys_promotion_on_tensors():
    x = fl.constant([1, 2])
    assert np.allclose(x, [1.0, 2.0]) and float(np.var(x)) == 0.25
    np.testing.assert_array_equal(x, np.array([1.0, 2.0]))
    assert float(np.percentile(fl.constant([1.0, 2.0]), 50)) == 1.5


def test_inside_a_traced_function_a_mismatch_is_a_type_error_as_in_graph_mode():
    """Graph construction refuses: "Input 'y' of 'Mul' Op has type float32 that does not
    match type int32 of argument 'x'"."""
    weight = fl.Variable(2.0)
    scale = fl.function(lambda x: x * weight)
    with pytest.raises(TypeError, match="Input 'y' of 'Mul' Op has type float32 that does "
                                        "not match type int32 of argument 'x'"):
        scale.get_concrete_function(fl.TensorSpec([None], fl.int32))


def test_a_gradient_tape_still_follows_the_operators():
    x = fl.Variable(3.0)
    with fl.GradientTape() as tape:
        y = x * x + 2.0 * x
    assert float(tape.gradient(y, x)) == 8.0
