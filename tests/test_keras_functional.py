"""Keras' functional API (keras.io/guides/functional_api): Input, layers called on symbolic
tensors, Model(inputs=..., outputs=...), and fitting on tuples or dicts keyed by input name."""

import numpy as np
import pytest

import feedline as fl


@pytest.fixture(autouse=True)
def forget_the_global_seed():
    """Tests here set `fl.random.set_seed`; later tests must not inherit it."""
    yield
    fl.random.set_seed(None)

CITIES = ["<1H OCEAN", "INLAND", "NEAR OCEAN", "NEAR BAY", "ISLAND"]


def two_input_model():
    fl.random.set_seed(4)
    lookup = fl.keras.layers.StringLookup()
    lookup.adapt(CITIES)
    embed = fl.keras.Sequential([lookup, fl.keras.layers.Embedding(
        input_dim=lookup.vocabulary_size(), output_dim=2)])
    num = fl.keras.layers.Input(shape=[3], name="num")
    cat = fl.keras.layers.Input(shape=[], dtype=fl.string, name="cat")
    joined = fl.keras.layers.concatenate([num, embed(cat)])
    out = fl.keras.layers.Dense(1)(joined)
    model = fl.keras.Model(inputs=[num, cat], outputs=[out])
    model.compile(loss="mse", optimizer=fl.keras.optimizers.SGD(learning_rate=0.05))
    return model, embed


def data(rows=200):
    rng = np.random.default_rng(0)
    x_num = rng.normal(size=(rows, 3)).astype(np.float32)
    x_cat = rng.choice(CITIES, size=rows)
    offsets = {city: float(i) for i, city in enumerate(CITIES)}
    y = (x_num.sum(axis=1) + np.array([offsets[c] for c in x_cat]))[:, None]
    return x_num, x_cat, y.astype(np.float32)


def test_layers_called_on_inputs_give_symbolic_tensors_with_shapes():
    x = fl.keras.Input(shape=[4], name="x")
    y = fl.keras.layers.Dense(3, activation="relu")(x)
    assert x.shape == (None, 4) and y.shape == (None, 3) and y.dtype == np.float32


def test_two_inputs_through_concatenate_train_and_the_embedding_learns():
    model, embed = two_input_model()
    x_num, x_cat, y = data()
    before = embed.layers[1].get_weights()[0].copy()
    history = model.fit((x_num, x_cat), y, epochs=10, verbose=0,
                        validation_data=((x_num, x_cat), y))
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert not np.array_equal(before, embed.layers[1].get_weights()[0])


def test_a_dataset_of_dicts_feeds_inputs_by_name():
    model, _ = two_input_model()
    x_num, x_cat, y = data(64)
    dataset = fl.data.Dataset.from_tensor_slices(({"cat": x_cat, "num": x_num}, y)).batch(16)
    history = model.fit(dataset, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    by_dict = model.predict({"num": x_num, "cat": x_cat}, verbose=0)
    by_tuple = model.predict((x_num, x_cat), verbose=0)
    np.testing.assert_array_equal(by_dict, by_tuple)
    assert by_dict.shape == (64, 1)


def test_a_missing_input_name_is_refused_with_the_names():
    model, _ = two_input_model()
    with pytest.raises(ValueError, match=r"no values for inputs \['cat'\]"):
        model({"num": np.zeros((1, 3), np.float32)})


def test_model_layers_and_weights_follow_the_graph():
    model, _ = two_input_model()
    names = [type(layer).__name__ for layer in model.layers]
    assert names[:2] == ["InputLayer", "InputLayer"] and names[-1] == "Dense"
    assert len(model.trainable_variables) == 3  # embedding table, kernel, bias


def test_an_output_not_reached_from_the_inputs_is_refused():
    a, b = fl.keras.Input(shape=[1]), fl.keras.Input(shape=[1])
    with pytest.raises(ValueError, match="not one of the model's inputs"):
        fl.keras.Model(inputs=a, outputs=fl.keras.layers.Dense(1)(b))


def test_a_lambda_layer_in_a_sequential_passes_gradients():
    fl.random.set_seed(0)
    model = fl.keras.Sequential([
        fl.keras.layers.Embedding(10, 4, mask_zero=True),
        fl.keras.layers.Lambda(lambda x: fl.reduce_sum(x, axis=1)),
        fl.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(loss="binary_crossentropy", optimizer="nadam", metrics=["accuracy"])
    ids = np.array([[1, 2, 0], [3, 0, 0], [4, 5, 6], [7, 0, 0]] * 8)
    labels = np.array([1, 0, 1, 0] * 8)
    model.build((None, 3))
    before = model.layers[0].get_weights()[0].copy()
    history = model.fit(ids, labels, epochs=30, verbose=0)
    # Gradients reached the embedding through the Lambda, and training learned the task (the
    # exact last accuracy depends on the random start: a threshold keeps the test honest).
    assert not np.allclose(model.layers[0].get_weights()[0], before)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert history.history["accuracy"][-1] >= 0.75


def test_unknown_sizes_of_a_functional_input_stay_unknown_through_conv_layers():
    """A text of any length through Embedding and Conv1D: Keras shows (None, None, 8); the
    placeholder run uses lengths long enough for the kernel."""
    tokens = fl.keras.Input(shape=(None,), dtype="int64")
    embedded = fl.keras.layers.Embedding(50, 16)(tokens)
    convolved = fl.keras.layers.Conv1D(8, 5)(embedded)
    pooled = fl.keras.layers.GlobalMaxPooling1D()(convolved)
    assert (embedded.shape, convolved.shape, pooled.shape) == \
        ((None, None, 16), (None, None, 8), (None, 8))
    model = fl.keras.Model(tokens, fl.keras.layers.Dense(1)(pooled))
    assert model(np.random.default_rng(0).integers(0, 50, (3, 9))).shape == (3, 1)


def test_automatic_layer_names_are_spelled_as_keras_spells_them():
    fl.keras.backend.clear_session()
    names = [fl.keras.layers.Conv2D(1, 1).name, fl.keras.layers.MaxPooling2D().name,
             fl.keras.layers.StringLookup().name, fl.keras.layers.Conv2D(1, 1).name]
    assert names == ["conv2d", "max_pooling2d", "string_lookup", "conv2d_1"]


def test_a_text_input_through_text_vectorization_has_an_unknown_length():
    """Keras shows (None, None) for TextVectorization on a string Input: the token count
    depends on the text, so the placeholder texts of two lengths tell it apart."""
    vectorizer = fl.keras.layers.TextVectorization(output_mode="int")
    vectorizer.adapt(["the brain is wider", "than the sky"])
    text = fl.keras.Input(shape=(1,), dtype="string")
    tokens = vectorizer(text)
    assert tokens.shape == (None, None)
    model = fl.keras.Model(text, fl.keras.layers.GRU(2)(
        fl.keras.layers.Embedding(vectorizer.vocabulary_size(), 4)(tokens)))
    assert model(np.array([["the sky is wider"]], dtype=object)).shape == (1, 2)


def test_input_layer_takes_keras_2s_input_shape_with_a_warning():
    with pytest.warns(UserWarning, match="`input_shape` is deprecated; use `shape`"):
        layer = fl.keras.layers.InputLayer(input_shape=[], dtype=fl.string)
    assert layer.output.shape == (None,) and layer.output.dtype == fl.string
