"""`fl.keras.ops`: Keras 3's ops with Keras' result dtypes, checked against real Keras output.

Expected values come from Keras' docs (keras.io/api/ops/) and its dtype rules
(`keras/src/backend/common/dtypes.py`, keras.io/api/ops/core "result_type"), or from running
Keras 3.15.1 (JAX backend, whose result dtypes Keras keeps backend-neutral) on the same input.
"""

import numpy as np
import pytest

import feedline as fl
from feedline.keras.ops import _dtypes

ops = fl.keras.ops


@pytest.mark.parametrize("dtypes, expected", [
    (("int8", "uint8"), "int16"), (("int32", "float32"), "float32"), (("int32", float), "float32"),
    (("float16", int), "float16"), (("uint8", int), "uint8"), ((bool, int), "int32"),
    (("int64", "int64"), "int64"), (("uint64", "uint64"), "uint32"), ((), "float32"),
    (("int64", "uint64"), "float32"), (("bool", "bool"), "bool")])
def test_result_type_walks_keras_lattice_with_weak_python_scalars(dtypes, expected):
    """keras.backend.result_type (keras.io/api/utils/config_utils): a lattice adapted from JAX;
    TensorFlow's backend keeps int64 and turns uint64 into uint32 (BIT64_TO_BIT32_DTYPE)."""
    assert _dtypes.result_type(*dtypes) == expected


def test_result_type_refuses_a_name_that_is_no_dtype():
    with pytest.raises(ValueError, match="Invalid dtype"):
        _dtypes.result_type("int33")


def test_float_functions_compute_integers_in_floatx_and_keep_float16():
    """keras.ops.sqrt/sin ...: int inputs give floatx() (Keras 3.15.1 output)."""
    assert ops.sqrt(np.array([4, 9], np.int16)).numpy().tolist() == [2.0, 3.0]
    assert ops.sin(np.array([1], np.int8)).dtype == fl.float32
    assert ops.exp(np.array([1], np.float16)).dtype == fl.float16


def test_python_scalars_are_weak_in_arithmetic():
    """keras.ops.add(int8 tensor, 1) stays int8; int8 * 2.5 becomes float32 (Keras output)."""
    x = np.array([1, 2], np.int8)
    assert ops.add(x, 1).dtype == fl.int8
    assert ops.multiply(x, 2.5).dtype == fl.float32
    assert ops.add(np.array([1], np.uint8), np.array([1], np.int8)).dtype == fl.int16


def test_divide_of_integers_gives_float32():
    """keras.ops.true_divide: ints divide as floatx() (Keras output: float32)."""
    result = ops.divide(np.array([1, 3], np.int32), np.array([2, 2], np.int32))
    assert result.dtype == fl.float32 and result.numpy().tolist() == [0.5, 1.5]


def test_reductions_widen_small_integers_and_mean_gives_float32():
    """sum of bool/int8 is int32, uint8 is uint32; mean of ints is float32 (Keras output)."""
    assert ops.sum(np.array([True, True])).dtype == fl.int32
    assert ops.sum(np.array([200, 100], np.uint8)).numpy() == 300
    assert ops.mean(np.array([1, 2], np.int32)).numpy() == 1.5
    assert ops.argmax(np.array([[1, 5], [7, 0]]), axis=1).dtype == fl.int32


def test_comparisons_promote_then_give_bool():
    assert ops.greater(1.5, np.array([1, 2], np.int32)).numpy().tolist() == [True, False]


def test_bool_arithmetic_works_as_keras_does():
    """Keras adds bools as logical or and raises them to a power as int32 (Keras output)."""
    b = np.array([True, False])
    assert ops.add(b, b).dtype == fl.bool
    assert ops.power(b, b).dtype == fl.int32


def test_results_are_feedline_tensors_and_shape_is_a_tuple():
    """keras.ops.shape returns a tuple of ints (keras.io/api/ops/core/#shape-function)."""
    result = ops.transpose(np.zeros((2, 3)))
    assert isinstance(result, fl.Tensor) and ops.shape(result) == (3, 2)
    assert ops.dtype([1, 2]) == "int32"


def test_concatenate_promotes_its_inputs():
    result = ops.concatenate([np.array([1], np.int8), np.array([2.5], np.float32)])
    assert result.dtype == fl.float32 and result.numpy().tolist() == [1.0, 2.5]


def test_one_hot_defaults_to_float32_and_zeros_out_of_range():
    """keras.ops.one_hot: dtype floatx by default (keras.io/api/ops/nn/#onehot-function)."""
    result = ops.one_hot(np.array([1, 4]), 3)
    assert result.dtype == fl.float32
    assert result.numpy().tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]


def test_arange_takes_the_dtype_of_its_arguments():
    assert ops.arange(3).dtype == fl.int32
    assert ops.arange(0, 1, 0.25).numpy().tolist() == [0.0, 0.25, 0.5, 0.75]


def test_resize_gives_integer_images_back_in_their_dtype():
    """keras.ops.image.resize of a uint8 image is uint8 (Keras 3.15.1 output)."""
    result = ops.image.resize(np.full((4, 4, 3), 200, np.uint8), (2, 2))
    assert result.dtype == fl.uint8 and result.shape == (2, 2, 3)


def test_namespaces_hold_the_same_functions():
    assert ops.nn.relu is ops.relu and ops.numpy.add is ops.add
    assert ops.linalg.inv is ops.inv and ops.image.resize is not None


def test_gradient_tape_records_keras_ops_math():
    """keras.ops math on feedline runs feedline's own ops, so GradientTape differentiates it."""
    x = fl.Variable([1.0, 2.0])
    with fl.GradientTape() as tape:
        y = ops.sum(ops.multiply(ops.sin(x), 2.0))
    assert np.allclose(tape.gradient(y, x).numpy(), 2 * np.cos([1.0, 2.0]))


def test_control_flow_runs_eagerly():
    assert int(ops.fori_loop(0, 4, lambda i, total: total + i, 0)) == 6
    assert ops.while_loop(lambda i: i < 3, lambda i: i + 1, 0) == 3
    assert ops.cond(True, lambda: 1, lambda: 2) == 1


def test_scatter_adds_repeated_indices():
    """keras.ops.scatter: values at repeated indices add up (keras.io/api/ops/core)."""
    result = ops.scatter([[0], [2], [0]], [1.0, 2.0, 3.0], [4])
    assert result.numpy().tolist() == [4.0, 0.0, 2.0, 0.0]


def test_pad_refuses_constant_values_with_another_mode():
    with pytest.raises(ValueError, match="constant_values"):
        ops.pad(np.zeros(3), [[1, 1]], mode="reflect", constant_values=1)
