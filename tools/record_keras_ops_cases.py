"""Record what real Keras 3 gives for a set of `keras.ops` calls, for feedline's parity tests.

It writes `tests/keras3_files/keras_ops_cases.json`: for each case, the family, the function,
its arguments (small seeded arrays, written out with their dtype) and what Keras returned
(dtype, shape and values of every output) or the kind of error it raised. The tests
(`tests/test_keras_ops_parity.py`) read only that JSON and never import Keras.

It needs a throwaway virtual environment with `keras` and `jax` installed, outside the
project (the project never installs or imports either), and runs Keras on the JAX backend:

    KERAS_BACKEND=jax /path/to/throwaway-venv/bin/python tools/record_keras_ops_cases.py

Feedline follows Keras' *TensorFlow* backend. Where that backend's source
(keras/src/backend/tensorflow/*.py) behaves differently from JAX's, the case carries
`tf_backend`: the error TensorFlow raises, with the reason; the test expects that instead.
It is never run by the tests.
"""

import json
import os
import pathlib
import sys

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests/keras3_files/keras_ops_cases.json"
rng = np.random.default_rng(15)
cases = []

# TensorFlow's ops refuse integer/bool inputs that JAX computes in floats (op type lists of
# Sigmoid, Softplus, Softsign, Elu, Selu, Softmax, LogSoftmax, AvgPool; tf.nn.gelu's check).
TF_REFUSES_INTS = {"sigmoid", "softplus", "softsign", "silu", "log_sigmoid", "elu", "selu",
                   "softmax", "log_softmax", "glu", "average_pool", "adaptive_average_pool"}
TF_VALUE_ERROR = {"gelu"}


def arr(dtype, shape, low=-3.0, high=3.0):
    value = rng.uniform(low, high, shape)
    if dtype == "bool":
        return {"array": (value > 0).tolist(), "dtype": dtype}
    if "int" in dtype:
        value = np.round(value)
    return {"array": value.astype(dtype).tolist(), "dtype": dtype}


def case(family, name, *args, namespace="ops", **kwargs):
    entry = {"family": family, "name": name, "namespace": namespace, "args": list(args),
             "kwargs": kwargs}
    dtypes = [a["dtype"] for a in args if isinstance(a, dict)]
    if dtypes and dtypes[0] in ("int32", "bool") and (name in TF_REFUSES_INTS or
                                                      name in TF_VALUE_ERROR):
        entry["tf_backend"] = {"error": "ValueError" if name in TF_VALUE_ERROR
                               else "InvalidArgumentError",
                               "why": "Keras' TensorFlow backend passes the input uncast "
                                      "to a TensorFlow op that takes floats only"}
    if name == "max_pool" and dtypes and dtypes[0] == "int32":
        entry["tf_backend"] = {"same_as_input": True,
                               "why": "TensorFlow's MaxPool takes integers and keeps them"}
    if name == "relu6" and dtypes and dtypes[0] == "int32":
        entry["tf_backend"] = {"dtype": "int32",
                               "why": "tf.nn.relu6 takes integers and keeps their dtype"}
    if name == "map_coordinates" and args[3:4] in (("mirror",), ("reflect",)) or (
            name == "affine_transform" and len(args) == 2):
        entry["tf_backend"] = {"unverified": True,
                               "why": "Keras' TensorFlow code (integer mirror/reflect folding; "
                                      "ImageProjectiveTransformV3's projective divide) could "
                                      "not be checked against JAX's: values not compared"}
    if name == "lu_factor":
        entry["tf_backend"] = {"permutation": "invert_permutation",
                               "why": "TF's backend returns tf.math.invert_permutation(p)"}
    cases.append(entry)


def add_cases():
    for name in ("sin", "sqrt", "exp", "abs", "negative", "sign", "signbit", "isnan", "round",
                 "floor", "square", "trunc", "logical_not"):
        for dtype in ("bool", "uint8", "int8", "int32", "float16", "float32"):
            low = 0.5 if name == "sqrt" else -3
            case("numpy_unary", name, arr(dtype, (2, 3), low if dtype != "uint8" else 0, 4))
    for name in ("add", "multiply", "divide", "power", "maximum", "floor_divide", "equal"):
        for a, b in (("int8", "uint8"), ("int32", "float16"), ("float32", "int32")):
            case("numpy_binary", name, arr(a, (2, 3), 1, 4), arr(b, (2, 3), 1, 4))
        case("numpy_binary", name, arr("int8", (3,), 1, 4), 2)
        case("numpy_binary", name, arr("float16", (3,), 1, 4), 1.5)
    for name in ("sum", "mean", "max", "argmax", "std", "cumsum", "logsumexp"):
        for dtype in ("bool", "int8", "int32", "float32"):
            case("numpy_reduce", name, arr(dtype, (3, 4), 1, 3), axis=1)
    for name in ("relu", "relu6", "sigmoid", "softplus", "softsign", "silu", "log_sigmoid",
                 "leaky_relu", "elu", "selu", "gelu", "celu", "hard_sigmoid", "softmax",
                 "log_softmax", "glu", "hard_tanh"):
        for dtype in ("int32", "float16", "float32"):
            case("nn_activation", name, arr(dtype, (2, 4)))
    case("nn_activation", "sparsemax", {"array": [[3.0, 0.0, -1.0], [0.0, 5.0, 1.0]],
                                        "dtype": "float32"})
    # strides given: Keras 3.15's JAX max_pool fails when strides is None
    case("nn_pool", "max_pool", arr("float32", (1, 4, 4, 2)), 2, 2)
    case("nn_pool", "max_pool", arr("int32", (1, 4, 4, 1)), 2, 2)
    case("nn_pool", "average_pool", arr("float32", (1, 5, 5, 1)), 2, 1, "same")
    case("nn_pool", "adaptive_average_pool", arr("float32", (1, 5, 7, 2)), (2, 3))
    case("nn_pool", "adaptive_max_pool", arr("float32", (2, 7, 3)), 3)
    case("nn_pool", "adaptive_max_pool", arr("float32", (1, 6, 5, 1)), (4, 2))
    case("nn_conv", "conv", arr("float32", (1, 5, 5, 2)), arr("float32", (3, 3, 2, 3)),
         strides=2, padding="same")
    case("nn_conv", "depthwise_conv", arr("float32", (1, 5, 5, 2)), arr("float32", (3, 3, 2, 2)))
    case("nn_conv", "separable_conv", arr("float32", (1, 5, 5, 2)),
         arr("float32", (3, 3, 2, 2)), arr("float32", (1, 1, 4, 3)))
    case("nn_conv", "separable_conv", arr("float32", (2, 7, 2)), arr("float32", (3, 2, 1)),
         arr("float32", (1, 2, 3)), padding="same")
    for strides, padding, extra in ((1, "valid", None), (2, "same", None), (2, "valid", None),
                                    (2, "same", 1), (3, "valid", 1)):
        case("nn_conv", "conv_transpose", arr("float32", (1, 3, 4, 2)),
             arr("float32", (3, 3, 4, 2)), strides, padding, extra)
    case("nn_conv", "conv_transpose", arr("float32", (2, 4, 2)), arr("float32", (3, 3, 2)), 2)
    case("nn_conv", "depth_to_space", arr("float32", (1, 2, 3, 8)), 2)
    case("nn_conv", "space_to_depth", arr("float32", (1, 4, 6, 2)), 2)
    case("nn_conv", "depth_to_space", arr("int32", (1, 2, 2, 12)), 2)
    case("nn_norm", "layer_normalization", arr("float32", (2, 5)))
    case("nn_norm", "layer_normalization", arr("float32", (2, 3, 4)), arr("float32", (4,)),
         arr("float32", (4,)), epsilon=1e-3)
    case("nn_norm", "layer_normalization", arr("float16", (2, 4)), axis=-1)
    case("nn_norm", "layer_normalization", arr("float32", (2, 3, 4)), axis=(1, 2))
    case("nn_norm", "rms_normalization", arr("float32", (2, 5)))
    case("nn_norm", "rms_normalization", arr("float32", (2, 5)), arr("float32", (5,)),
         epsilon=1e-5)
    case("nn_norm", "rms_normalization", arr("float16", (3, 4)))
    q, k = arr("float32", (2, 3, 2, 4)), arr("float32", (2, 5, 2, 4))
    case("nn_attention", "dot_product_attention", q, k, arr("float32", (2, 5, 2, 4)))
    case("nn_attention", "dot_product_attention", q, k, arr("float32", (2, 5, 2, 4)),
         is_causal=True)
    case("nn_attention", "dot_product_attention", q, k, arr("float32", (2, 5, 2, 4)),
         bias=arr("float32", (2, 2, 3, 5)), scale=0.3)
    case("nn_attention", "dot_product_attention", q, k, arr("float32", (2, 5, 2, 4)),
         mask=arr("bool", (2, 2, 3, 5)))
    case("nn_attention", "dot_product_attention", arr("float32", (1, 3, 4, 2)),
         arr("float32", (1, 3, 2, 2)), arr("float32", (1, 3, 2, 2)))
    case("nn_attention", "polar", arr("float32", (4,), 0, 2), arr("float32", (4,)))
    logits = arr("float32", (2, 6, 4))
    case("nn_ctc", "ctc_loss", {"array": [[1, 2, 2], [3, 1, 0]], "dtype": "int32"}, logits,
         {"array": [3, 2], "dtype": "int32"}, {"array": [6, 5], "dtype": "int32"})
    probs = arr("float32", (3, 6, 4), 0, 1)
    case("nn_ctc", "ctc_decode", probs, {"array": [6, 4, 6], "dtype": "int32"})
    case("nn_ctc", "ctc_decode", probs, {"array": [6, 6, 3], "dtype": "int32"},
         merge_repeated=False, mask_index=3)
    case("image", "rgb_to_grayscale", arr("uint8", (2, 2, 3), 0, 255), namespace="image")
    case("image", "rgb_to_grayscale", arr("float32", (2, 2, 3), 0, 1), namespace="image")
    case("image", "extract_patches", arr("float32", (1, 4, 6, 2)), 2, namespace="image")
    case("image", "extract_patches", arr("float32", (5, 5, 1)), 3, strides=1, namespace="image")
    for mode in ("constant", "nearest", "wrap", "reflect"):
        for interpolation in ("nearest", "bilinear"):
            case("image", "affine_transform", arr("float32", (5, 6, 1), 0, 1),
                 {"array": [0.9, 0.2, 0.7, -0.1, 1.1, -0.6, 0.0, 0.0], "dtype": "float32"},
                 interpolation, mode, namespace="image")
    case("image", "affine_transform", arr("float32", (2, 4, 4, 1)),
         {"array": [[1.0, 0.1, 0.5, 0.0, 1.0, 0.3, 0.01, 0.02],
                    [0.8, 0.0, 0.0, 0.2, 1.0, -0.5, 0.0, 0.05]], "dtype": "float32"},
         namespace="image")
    for order in (0, 1):
        for mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
            case("image", "map_coordinates", arr("float32", (4, 5)),
                 arr("float32", (2, 3, 3), -2, 6), order, mode, namespace="image")
    case("image", "map_coordinates", arr("int32", (6,), 0, 9), arr("float32", (1, 4), 0, 5),
         1, namespace="image")
    signal = arr("float32", (2, 40))
    case("signal", "stft", signal, 8, 4, 8)
    case("signal", "stft", signal, 6, 3, 8, window="hamming", center=False)
    case("signal", "stft", signal, 8, 4, 8, window=None)
    case("counting", "histogram", arr("float32", (20,)), 5)
    case("counting", "histogram", arr("float32", (20,)), 4, (-1.0, 2.0))
    case("counting", "bincount", {"array": [0, 3, 3, 1, 5], "dtype": "int32"})
    case("counting", "bincount", {"array": [0, 3, 3, 1], "dtype": "int32"},
         arr("float32", (4,)), 6)
    case("distances", "cdist", arr("float32", (3, 2)), arr("float32", (4, 2)))
    case("distances", "cdist", arr("float32", (2, 3, 2)), arr("float32", (2, 2, 2)))
    spd = rng.uniform(0, 1, (3, 3))
    case("linalg", "lu_factor", {"array": (spd @ spd.T + np.eye(3)).astype("float32").tolist(),
                                  "dtype": "float32"}, namespace="linalg")


def build(value):
    if isinstance(value, dict) and "array" in value:
        return np.asarray(value["array"], value["dtype"])
    if isinstance(value, list):
        return [build(v) for v in value]
    if isinstance(value, tuple):
        return tuple(build(v) for v in value)
    return value


def leaves(result):
    if isinstance(result, (tuple, list)):
        return [leaf for item in result for leaf in leaves(item)]
    return [result]


def record(ops):
    import keras
    for entry in cases:
        space = ops if entry["namespace"] == "ops" else getattr(ops, entry["namespace"])
        function = getattr(space, entry["name"])
        try:
            result = function(*build(entry["args"]),
                              **{key: build(v) for key, v in entry["kwargs"].items()})
            entry["keras"] = [{"dtype": keras.backend.standardize_dtype(leaf.dtype),
                               "shape": list(np.shape(leaf)),
                               "value": _plain(np.asarray(leaf))} for leaf in leaves(result)]
        except Exception as error:  # recorded: the test checks feedline raises too
            entry["keras"] = {"error": type(error).__name__}


def _plain(value):
    if value.dtype.kind == "c":
        return {"real": value.real.tolist(), "imag": value.imag.tolist()}
    if value.dtype.kind == "f":
        return np.round(value.astype("float64"), 6).tolist()
    return value.tolist()


if __name__ == "__main__":
    os.environ.setdefault("KERAS_BACKEND", "jax")
    from keras import ops
    add_cases()
    record(ops)
    OUT.write_text(json.dumps({"keras": __import__("keras").__version__, "backend": "jax",
                               "cases": cases}, separators=(",", ":")))
    print(f"{len(cases)} cases -> {OUT} ({OUT.stat().st_size} bytes)", file=sys.stderr)
