"""Merging layers (Add, Subtract, Multiply, Average, Maximum, Minimum, Dot) and their
functional spellings: values as Keras 3 documents them
(https://keras.io/api/layers/merging_layers/), gradients to every input, errors."""

import numpy as np
import pytest

import feedline as fl
from feedline import layers
from gradcheck import assert_gradients_match

A = np.array([[1.0, -2.0], [3.0, 0.5]])
B = np.array([[4.0, 1.0], [-1.0, 2.0]])


@pytest.mark.parametrize("layer_class, function, expected", [
    (layers.Add, layers.add, A + B),
    (layers.Subtract, layers.subtract, A - B),
    (layers.Multiply, layers.multiply, A * B),
    (layers.Average, layers.average, (A + B) / 2),
    (layers.Maximum, layers.maximum, np.maximum(A, B)),
    (layers.Minimum, layers.minimum, np.minimum(A, B)),
])
def test_each_merge_combines_its_inputs_value_by_value(layer_class, function, expected):
    by_layer = layer_class()([A, B])
    by_function = function([A, B])
    assert by_layer.dtype == np.float32  # Keras casts to the layer's float32
    np.testing.assert_allclose(by_layer.numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(by_function.numpy(), expected, rtol=1e-6)


def test_add_of_three_inputs_sums_them_all():
    out = layers.Add()([A, B, np.ones_like(A)])
    np.testing.assert_allclose(out.numpy(), A + B + 1)


@pytest.mark.parametrize("layer_class", [layers.Add, layers.Subtract, layers.Multiply,
                                         layers.Average, layers.Maximum, layers.Minimum])
def test_add_of_two_inputs_sums_them_and_passes_gradients_to_both(layer_class):
    layer = layer_class(dtype="float64")
    assert_gradients_match(lambda a, b: layer([a, b]), A + 0.01, B)


def test_dot_of_vectors_gives_one_value_per_sample():
    out = layers.Dot(axes=1)([A, B])
    np.testing.assert_allclose(out.numpy(), (A * B).sum(axis=1, keepdims=True))
    assert tuple(out.shape) == (2, 1)


def test_dot_with_normalize_is_the_cosine_similarity():
    out = layers.dot([A, B], axes=1, normalize=True).numpy()[:, 0]
    cosine = (A * B).sum(1) / np.linalg.norm(A, axis=1) / np.linalg.norm(B, axis=1)
    np.testing.assert_allclose(out, cosine, rtol=1e-6)


def test_dot_of_sequences_contracts_the_chosen_axes():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4))
    out = layers.Dot(axes=(2, 2))([x, y]).numpy()
    np.testing.assert_allclose(out, np.einsum("bik,bjk->bij", x, y), rtol=1e-5)
    layer = layers.Dot(axes=(2, 2), dtype="float64")
    assert_gradients_match(lambda a, b: layer([a, b]), x, y)


def test_subtract_refuses_three_inputs_and_merges_refuse_a_single_array():
    with pytest.raises(ValueError, match="exactly 2 inputs"):
        layers.Subtract()([A, B, A])
    with pytest.raises(ValueError, match="list of at least 2"):
        layers.Add()(A)
    with pytest.raises(ValueError, match="shapes"):
        layers.Add()([np.ones((2, 3)), np.ones((2, 4))])


def test_dot_refuses_axes_of_different_sizes_and_bad_axes():
    with pytest.raises(ValueError, match="equal sizes"):
        layers.Dot(axes=1)([np.ones((2, 3)), np.ones((2, 4))])
    with pytest.raises(ValueError, match="axes must be"):
        layers.Dot(axes="last")


def test_merge_layers_build_a_functional_model_that_trains():
    fl.random.set_seed(0)
    left, right = fl.keras.Input(shape=(2,)), fl.keras.Input(shape=(2,))
    joined = layers.add([layers.Dense(4)(left), layers.Dense(4)(right)])
    model = fl.keras.Model(inputs=[left, right], outputs=layers.Dense(1)(joined))
    model.compile(loss="mse", optimizer=fl.keras.optimizers.SGD(0.05))
    x1, x2 = np.random.default_rng(1).normal(size=(2, 64, 2)).astype(np.float32)
    y = (x1.sum(1) - x2.sum(1))[:, None]
    history = model.fit([x1, x2], y, epochs=20, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0] / 5
    fl.random.set_seed(None)


def test_dot_config_round_trips():
    layer = layers.Dot(axes=(1, 2), normalize=True, name="d")
    again = layers.Dot.from_config(layer.get_config())
    assert (again.axes, again.normalize, again.name) == ((1, 2), True, "d")


def test_dot_of_inputs_of_other_ranks_follows_batch_dot():
    """keras.ops.batch_dot / Dot: the result keeps the first input's other axes, then the
    second's; word2vec's Dot(axes=(3, 2)) of (batch, c, 1, e) and (batch, e, 1)."""
    rng = np.random.default_rng(1)
    context, word = rng.normal(size=(2, 5, 1, 4)), rng.normal(size=(2, 4, 1))
    out = layers.Dot(axes=(3, 1))([context, word]).numpy()
    np.testing.assert_allclose(out, np.einsum("bcie,bej->bcij", context, word), rtol=1e-5, atol=1e-6)
    x, y = rng.normal(size=(2, 3, 4, 5)), rng.normal(size=(2, 4, 6))
    out = layers.Dot(axes=(2, 1))([x, y]).numpy()
    np.testing.assert_allclose(out, np.einsum("bike,bkj->biej", x, y), rtol=1e-5, atol=1e-6)
    layer = layers.Dot(axes=(2, 1), dtype="float64")
    assert_gradients_match(lambda a, b: layer([a, b]), x, y)


def test_elementwise_merges_refuse_different_batch_sizes_as_keras_3():
    """Keras 3's merge layers broadcast feature axes but raise ValueError ("Cannot merge
    tensors with different batch sizes") for inputs whose first axes differ."""
    with pytest.raises(ValueError, match="batch sizes"):
        layers.Multiply()([np.ones((2, 3), np.float32), np.ones((1, 3), np.float32)])
    out = layers.Average()([np.ones((2, 3), np.float32), np.zeros((2, 1), np.float32)])
    assert out.numpy().tolist() == [[0.5] * 3] * 2
