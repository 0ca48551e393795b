"""`fl.keras.ops` against real Keras 3.15.1: one test per family of functions.

`keras3_files/keras_ops_cases.json` holds each call's arguments and what Keras returned
(dtype, shape, values) or the error it raised, recorded by `tools/record_keras_ops_cases.py`
with Keras' JAX backend (keras.io/api/ops/ documents the functions). Where Keras' TensorFlow
backend (keras/src/backend/tensorflow/*.py), which feedline follows, differs from JAX's, the
case carries `tf_backend` with the error TensorFlow raises instead; the test expects that.
"""

import json
import pathlib

import numpy as np
import pytest

import feedline as fl

CASES = json.loads((pathlib.Path(__file__).parent / "keras3_files/keras_ops_cases.json")
                   .read_text())["cases"]
ERRORS = {"InvalidArgumentError": fl.errors.InvalidArgumentError, "ValueError": ValueError}


def _build(value):
    if isinstance(value, dict) and "array" in value:
        return np.asarray(value["array"], value["dtype"])
    if isinstance(value, list):
        return [_build(v) for v in value]
    return value


def _leaves(result):
    if isinstance(result, (tuple, list)):
        return [leaf for item in result for leaf in _leaves(item)]
    return [result]


def _expected_value(recorded):
    value = recorded["value"]
    if isinstance(value, dict):
        return np.asarray(value["real"]) + 1j * np.asarray(value["imag"])
    return np.asarray(value, dtype=float if recorded["dtype"] != "bool" else bool)


def _mismatch(case):
    """Why feedline's answer differs from the recorded one, or None when they agree."""
    space = fl.keras.ops if case["namespace"] == "ops" else getattr(fl.keras.ops,
                                                                    case["namespace"])
    function = getattr(space, case["name"])
    args = _build(case["args"])
    if case["name"] == "histogram" and len(args) > 2:
        args[2] = tuple(args[2])  # Keras takes the range as a tuple; JSON keeps lists
    kwargs = {key: _build(value) for key, value in case["kwargs"].items()}
    expected_error = case.get("tf_backend", {}).get("error") or \
        (case["keras"].get("error") and "any" if isinstance(case["keras"], dict) else None)
    try:
        result = function(*args, **kwargs)
    except Exception as error:  # compared with what Keras did below
        if expected_error == "any" or (expected_error and
                                       isinstance(error, ERRORS[expected_error])):
            return None
        return f"raised {type(error).__name__}: {error}"
    if expected_error:
        return f"returned a result where Keras raises {expected_error}"
    if case.get("tf_backend", {}).get("unverified"):
        return None  # ran without error; see the recorder's note on why values are not compared
    leaves = _leaves(result)
    if len(leaves) != len(case["keras"]):
        return f"{len(leaves)} outputs, Keras {len(case['keras'])}"
    for leaf, recorded in zip(leaves, case["keras"]):
        dtype, shape = np.dtype(leaf.dtype.name if hasattr(leaf.dtype, "name") else
                                leaf.dtype).name, list(np.shape(leaf))
        expected_dtype = case.get("tf_backend", {}).get("dtype", recorded["dtype"])
        if dtype != expected_dtype or shape != recorded["shape"]:
            return f"{dtype}{shape}, Keras {expected_dtype}{recorded['shape']}"
        tolerance = 2e-2 if dtype == "float16" else 1e-4
        actual = np.asarray(leaf)
        actual = actual if actual.dtype.kind in "cb" else actual.astype(float)
        if not np.allclose(actual, _expected_value(recorded), rtol=tolerance, atol=tolerance,
                           equal_nan=True):
            return f"values differ: {actual.ravel()[:6]} vs " \
                   f"{_expected_value(recorded).ravel()[:6]}"
    return None


def _check_family(family):
    cases = [case for case in CASES if case["family"] == family]
    assert cases, f"no recorded cases for {family}"
    failures = [f"{case['name']}({[a.get('dtype') if isinstance(a, dict) else a for a in case['args']]}"
                f"): {why}" for case in cases if (why := _mismatch(case))]
    assert not failures, "\n".join(failures)


def test_unary_math_matches_keras_dtypes_values_and_errors():
    """keras.io/api/ops/numpy: sin, sqrt, abs, signbit, isnan, round ... over six dtypes."""
    _check_family("numpy_unary")


def test_binary_math_promotes_like_keras():
    """keras.io/api/ops/numpy: add, divide, power ... with mixed dtypes and Python scalars."""
    _check_family("numpy_binary")


def test_reductions_match_keras():
    """keras.io/api/ops/numpy: sum, mean, max, argmax, std, cumsum, logsumexp."""
    _check_family("numpy_reduce")


def test_activations_match_keras_tensorflow_backend():
    """keras.io/api/ops/nn: activations; integers raise where TensorFlow's ops take floats."""
    _check_family("nn_activation")


def test_pooling_matches_keras():
    """keras.io/api/ops/nn: max_pool, average_pool, adaptive_average_pool/adaptive_max_pool."""
    _check_family("nn_pool")


def test_convolutions_match_keras():
    """keras.io/api/ops/nn: conv, depthwise_conv, separable_conv, conv_transpose,
    depth_to_space, space_to_depth."""
    _check_family("nn_conv")


def test_normalizations_match_keras():
    """keras.io/api/ops/nn: layer_normalization and rms_normalization."""
    _check_family("nn_norm")


def test_attention_and_polar_match_keras():
    """keras.io/api/ops/nn: dot_product_attention (mask, causal, bias, grouped heads), polar."""
    _check_family("nn_attention")


def test_ctc_matches_keras():
    """keras.io/api/ops/nn: ctc_loss and greedy ctc_decode."""
    _check_family("nn_ctc")


def test_image_ops_match_keras():
    """keras.io/api/ops/image: rgb_to_grayscale, extract_patches, affine_transform,
    map_coordinates."""
    _check_family("image")


def test_stft_matches_keras():
    """keras.io/api/ops/math: stft with hann, hamming and no window, centred or not."""
    _check_family("signal")


def test_histogram_and_bincount_match_keras():
    """keras.io/api/ops/numpy: histogram and bincount."""
    _check_family("counting")


def test_cdist_matches_keras():
    """keras.ops.cdist: Euclidean distances between rows."""
    _check_family("distances")


def test_lu_factor_matches_keras():
    """keras.io/api/ops/linalg: lu_factor of a square matrix."""
    _check_family("linalg")
