"""Keras' convolution, pooling and helper layers (keras.io/api/layers/convolution_layers,
keras.io/api/layers/pooling_layers, keras.io/api/layers/normalization_layers/batch_normalization):
Keras 3's arguments, defaults, names, output shapes and configs, and small CNN and text models
that train with `fit` in `Sequential` and the functional `Model`."""

import numpy as np
import pytest

import feedline as fl

layers = fl.keras.layers


@pytest.fixture(autouse=True)
def forget_the_global_seed():
    """Tests here set `fl.random.set_seed`; later tests must not inherit it."""
    yield
    fl.random.set_seed(None)


# -- shapes, weights, names ----------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, shape", [
    ({}, (2, 8, 6, 4)),
    ({"padding": "same"}, (2, 10, 8, 4)),
    ({"strides": 2}, (2, 4, 3, 4)),
    ({"strides": 2, "padding": "same"}, (2, 5, 4, 4)),
    ({"dilation_rate": 2}, (2, 6, 4, 4)),
    ({"kernel_size": (1, 3), "strides": (3, 1)}, (2, 4, 6, 4))])
def test_conv2d_output_shape_follows_keras_formula(kwargs, shape):
    layer = layers.Conv2D(4, **{"kernel_size": 3, **kwargs})
    out = layer(np.zeros((2, 10, 8, 3), np.float32))
    assert out.shape == shape and out.dtype == np.float32
    assert layer.compute_output_shape((None, 10, 8, 3)) == (None,) + shape[1:]


def test_conv2d_makes_a_kernel_and_bias_with_keras_defaults():
    layer = layers.Conv2D(32, 3)
    layer(np.zeros((1, 5, 5, 3), np.float32))
    assert tuple(layer.kernel.shape) == (3, 3, 3, 32) and tuple(layer.bias.shape) == (32,)
    limit = np.sqrt(6 / (3 * 3 * 3 + 3 * 3 * 32))  # glorot_uniform: fans times the window
    assert np.abs(layer.kernel.numpy()).max() <= limit and not layer.bias.numpy().any()
    assert layer.trainable_weights == [layer.kernel, layer.bias]
    assert layers.Conv2D(2, 1, use_bias=False)(np.zeros((1, 2, 2, 1))).shape == (1, 2, 2, 2)


def test_conv1d_on_embedding_output_gives_keras_shape():
    embed = layers.Embedding(50, 16)
    conv = layers.Conv1D(64, 5, padding="valid", activation="relu", strides=2)
    out = conv(embed(np.ones((3, 20), np.int32)))
    assert out.shape == (3, 8, 64) and float(np.min(out)) >= 0
    assert tuple(conv.kernel.shape) == (5, 16, 64)


def test_layers_get_keras_automatic_names():
    fl.keras.backend.clear_session()
    names = [layers.Conv2D(1, 1).name, layers.Conv2D(1, 1).name, layers.MaxPooling2D().name,
             layers.GlobalAveragePooling1D().name, layers.BatchNormalization().name]
    assert names == ["conv2d", "conv2d_1", "max_pooling2d", "global_average_pooling1d",
                     "batch_normalization"]


@pytest.mark.parametrize("make, match", [
    (lambda: layers.Conv2D(4, 3, data_format="channels_first"), "channels_first"),
    (lambda: layers.Conv2D(0, 3), "filters"),
    (lambda: layers.Conv2D(4, 0), "kernel_size"),
    (lambda: layers.Conv2D(4, 3, padding="full"), "padding"),
    (lambda: layers.Conv2D(4, 3, strides=2, dilation_rate=2), "dilation_rate"),
    (lambda: layers.Conv2D(4, 3, padding="causal"), "causal"),
    (lambda: layers.Conv2D(4, 3, groups=3), "groups"),
    (lambda: layers.MaxPooling2D(data_format="channels_first"), "channels_first"),
    (lambda: layers.GlobalMaxPooling1D(data_format="channels_first"), "channels_first")])
def test_unsupported_or_wrong_arguments_are_refused_by_name(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_conv_refuses_inputs_of_the_wrong_rank_or_too_small():
    with pytest.raises(ValueError, match="rank 4"):
        layers.Conv2D(2, 3)(np.zeros((2, 5, 3), np.float32))
    with pytest.raises(ValueError, match="smaller than the kernel"):
        layers.Conv2D(2, 5)(np.zeros((1, 3, 3, 1), np.float32))


@pytest.mark.parametrize("layer, shape", [
    (layers.MaxPooling2D(), (2, 4, 3, 3)),
    (layers.AveragePooling2D(3, strides=1, padding="same"), (2, 9, 7, 3)),
    (layers.MaxPooling2D((2, 3), strides=(1, 2)), (2, 8, 3, 3)),
    (layers.GlobalMaxPooling2D(), (2, 3)),
    (layers.GlobalAveragePooling2D(keepdims=True), (2, 1, 1, 3))])
def test_two_d_pooling_shapes(layer, shape):
    out = layer(np.zeros((2, 9, 7, 3), np.float32))
    assert out.shape == shape and layer.compute_output_shape((None, 9, 7, 3)) == (None,) + shape[1:]


@pytest.mark.parametrize("layer, shape", [
    (layers.MaxPooling1D(), (2, 4, 3)),
    (layers.AveragePooling1D(3, strides=2, padding="same"), (2, 5, 3)),
    (layers.GlobalMaxPooling1D(), (2, 3)),
    (layers.GlobalAveragePooling1D(keepdims=True), (2, 1, 3))])
def test_one_d_pooling_shapes(layer, shape):
    assert layer(np.zeros((2, 9, 3), np.float32)).shape == shape


def test_pooling_defaults_are_keras():
    pool = layers.MaxPooling2D()
    assert (pool.pool_size, pool.strides, pool.padding) == ((2, 2), (2, 2), "valid")
    assert layers.AveragePooling1D(3).strides == (3,)


def test_global_average_pooling_1d_leaves_masked_steps_out():
    x = np.array([[[1.0], [3.0], [100.0]]], np.float32)
    mask = np.array([[True, True, False]])
    assert layers.GlobalAveragePooling1D()(x, mask=mask).numpy().tolist() == [[2.0]]


def test_global_max_pooling_1d_takes_no_mask_as_keras_3():
    """Keras 3's GlobalMaxPooling1D.call has no mask argument (TypeError when given one),
    so in a model after Embedding(mask_zero=True) it pools padded steps too."""
    x = np.array([[[1.0], [3.0], [100.0]]], np.float32)
    with pytest.raises(TypeError, match="mask"):
        layers.GlobalMaxPooling1D()(x, mask=np.array([[True, True, False]]))
    ids = fl.keras.Input((3,))
    pooled = layers.GlobalMaxPooling1D()(layers.Embedding(4, 1, mask_zero=True)(ids))
    model = fl.keras.Model(ids, pooled)
    model.layers[1].set_weights([np.array([[100.0], [1.0], [3.0], [0.0]], np.float32)])
    assert model(np.array([[1, 2, 0]])).numpy().tolist() == [[100.0]]  # the padding's row


def test_activation_and_reshape_layers():
    assert layers.Activation("softmax")(np.zeros((1, 4))).numpy().tolist() == [[0.25] * 4]
    assert layers.Reshape((2, -1))(np.zeros((3, 8))).shape == (3, 2, 4)
    assert layers.Reshape((2, 3)).compute_output_shape((None, 6)) == (None, 2, 3)
    with pytest.raises(ValueError, match="cannot be reshaped"):
        layers.Reshape((5,))(np.zeros((3, 8)))


# -- configs ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("layer", [
    layers.Conv2D(8, (3, 5), strides=2, padding="same", activation="relu", use_bias=False),
    layers.Conv1D(4, 5, dilation_rate=2),
    layers.MaxPooling2D(3, strides=1, padding="same"), layers.AveragePooling1D(4),
    layers.GlobalMaxPooling2D(keepdims=True), layers.Activation("tanh"), layers.Reshape((2, 2)),
    layers.BatchNormalization(momentum=0.9, epsilon=0.01, center=False)])
def test_config_round_trips(layer):
    config = layer.get_config()
    again = type(layer).from_config(config)
    assert again.get_config() == config


def test_conv2d_config_holds_keras_keys():
    config = layers.Conv2D(16, 3, activation="relu").get_config()
    assert {key: config[key] for key in ("filters", "kernel_size", "strides", "padding",
                                         "data_format", "dilation_rate", "groups",
                                         "activation", "use_bias")} == {
        "filters": 16, "kernel_size": (3, 3), "strides": (1, 1), "padding": "valid",
        "data_format": "channels_last", "dilation_rate": (1, 1), "groups": 1,
        "activation": "relu", "use_bias": True}


# -- BatchNormalization --------------------------------------------------------------------------

def test_batch_normalization_uses_batch_statistics_while_training_and_moves_the_averages():
    layer = layers.BatchNormalization()
    x = np.random.default_rng(0).normal(3.0, 2.0, size=(64, 5)).astype(np.float32)
    out = layer(x, training=True).numpy()
    np.testing.assert_allclose(out.mean(axis=0), 0.0, atol=1e-5)
    np.testing.assert_allclose(out.var(axis=0), x.var(axis=0) / (x.var(axis=0) + 1e-3),
                               rtol=1e-4)
    np.testing.assert_allclose(layer.moving_mean.numpy(), 0.01 * x.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(layer.moving_variance.numpy(), 0.99 + 0.01 * x.var(axis=0),
                               rtol=1e-5)
    inference = layer(x).numpy()  # the moving averages, which barely moved
    expected = (x - layer.moving_mean.numpy()) / np.sqrt(layer.moving_variance.numpy() + 1e-3)
    np.testing.assert_allclose(inference, expected, rtol=1e-5)
    assert [w.name.split(":")[0] for w in layer.weights][:2] == ["gamma", "beta"]
    assert len(layer.trainable_weights) == 2 and len(layer.non_trainable_weights) == 2


def test_a_frozen_batch_normalization_uses_its_averages_even_in_training():
    layer = layers.BatchNormalization(trainable=False)
    x = np.full((4, 2), 5.0, np.float32)
    np.testing.assert_allclose(layer(x, training=True).numpy(), 5.0 / np.sqrt(1.001), rtol=1e-6)
    assert not layer.moving_mean.numpy().any()


# -- training --------------------------------------------------------------------------------------

def stripes(count, rng):
    """Images of noise with a bright horizontal (class 0) or vertical (class 1) bar."""
    x = rng.normal(0.0, 0.3, size=(count, 12, 12, 1)).astype(np.float32)
    y = rng.integers(0, 2, size=count).astype(np.int32)
    where = rng.integers(2, 10, size=count)
    for i in range(count):
        if y[i]:
            x[i, :, where[i], 0] += 2.0
        else:
            x[i, where[i], :, 0] += 2.0
    return x, y


def test_a_tiny_cnn_learns_to_tell_two_image_classes_apart():
    fl.random.set_seed(1)
    rng = np.random.default_rng(1)
    x, y = stripes(256, rng)
    model = fl.keras.Sequential([
        layers.Conv2D(8, 3, activation="relu"), layers.MaxPooling2D(),
        layers.Conv2D(8, 3, padding="same", activation="relu"), layers.GlobalMaxPooling2D(),
        layers.Dense(2)])
    model.compile(optimizer=fl.keras.optimizers.Adam(0.01), metrics=["accuracy"],
                  loss=fl.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, epochs=6, batch_size=32, verbose=0)
    test_x, test_y = stripes(128, rng)
    _, accuracy = model.evaluate(test_x, test_y, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert accuracy > 0.9


def test_the_tutorial_image_model_runs_a_training_step_and_shows_in_summary(capsys):
    fl.keras.backend.clear_session()
    model = fl.keras.Sequential([
        layers.Rescaling(1 / 255), layers.Conv2D(4, 3, activation="relu"), layers.MaxPooling2D(),
        layers.Conv2D(4, 3, activation="relu"), layers.AveragePooling2D(2), layers.Flatten(),
        layers.Dense(3)])
    model.compile(optimizer="adam",
                  loss=fl.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.random.default_rng(0).integers(0, 255, size=(8, 20, 20, 3)).astype(np.uint8)
    history = model.fit(x, np.arange(8) % 3, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    model.summary()
    text = capsys.readouterr().out
    assert "conv2d (Conv2D)" in text and "(None, 9, 9, 4)" in text
    assert f"Total params: {4 * 27 + 4 + 4 * 36 + 4 + 3 * 3 * 3 * 4 + 3:,}" in text


def test_a_conv1d_text_model_trains_on_embedding_output():
    fl.random.set_seed(4)
    rng = np.random.default_rng(4)
    tokens = rng.integers(1, 40, size=(200, 16)).astype(np.int32)
    labels = (tokens == 7).any(axis=1).astype(np.int32)  # does word 7 occur?
    model = fl.keras.Sequential([
        layers.Embedding(40, 8), layers.Conv1D(16, 3, activation="relu", strides=1),
        layers.GlobalMaxPooling1D(), layers.Dropout(0.1), layers.Dense(1)])
    model.compile(optimizer=fl.keras.optimizers.Adam(0.02), metrics=["accuracy"],
                  loss=fl.keras.losses.BinaryCrossentropy(from_logits=True))
    history = model.fit(tokens, labels, epochs=8, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]


def test_a_functional_model_with_conv_pooling_and_batch_normalization_trains():
    fl.random.set_seed(3)
    inputs = fl.keras.Input(shape=(12, 12, 1))
    h = layers.Conv2D(4, 3, padding="same")(inputs)
    h = layers.BatchNormalization()(h)
    h = layers.Activation("relu")(h)
    h = layers.MaxPooling2D()(h)
    assert h.shape == (None, 6, 6, 4)
    outputs = layers.Dense(2)(layers.Flatten()(h))
    model = fl.keras.Model(inputs=inputs, outputs=outputs)
    model.compile(optimizer="adam",
                  loss=fl.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x, y = stripes(64, np.random.default_rng(3))
    history = model.fit(x, y, epochs=3, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.layers[2].moving_mean.numpy().any()  # the averages moved while fitting


def test_conv1d_causal_padding_pads_the_start_by_the_kernel_reach():
    """keras.io/api/layers/convolution_layers/convolution1d/: "causal" makes output[t]
    depend only on input[:t + 1]; Conv2D refuses it (ValueError, as Keras)."""
    layer = fl.keras.layers.Conv1D(1, 2, padding="causal", dilation_rate=2, use_bias=False,
                                   kernel_initializer="ones")
    out = layer(np.arange(1, 6, dtype=np.float32).reshape(1, 5, 1))
    assert out.numpy().ravel().tolist() == [1.0, 2.0, 4.0, 6.0, 8.0]  # Keras 3.15, JAX backend
    with pytest.raises(ValueError, match="padding"):
        fl.keras.layers.Conv2D(1, 2, padding="causal")


def test_max_pools_keep_integer_inputs_and_average_pools_need_a_size():
    """Keras 3 autocasts only floats (an int32 max pool stays int32) and its
    AveragePooling1D/2D have no default pool_size (TypeError); Keras 3.15, JAX backend."""
    x = np.arange(8, dtype=np.int32).reshape(1, 4, 2)
    assert layers.MaxPooling1D()(x).numpy().tolist() == [[[2, 3], [6, 7]]]
    assert layers.MaxPooling1D()(x).dtype == np.int32
    assert layers.GlobalMaxPooling1D()(x).dtype == np.int32
    assert layers.AveragePooling1D(2)(x).numpy().tolist() == [[[1.0, 2.0], [5.0, 6.0]]]
    with pytest.raises(TypeError):
        layers.AveragePooling2D()


def test_grouped_convolution_gives_each_group_its_own_filters():
    """keras.io/api/layers/convolution_layers/convolution1d/ (groups): the kernel holds
    channels / groups inputs per filter; group g convolves channel slice g alone."""
    layer = layers.Conv1D(2, 1, groups=2, use_bias=False)
    x = np.array([[[1.0, 2.0], [3.0, 4.0]]], np.float32)
    layer(x)
    layer.set_weights([np.array([[[10.0, 100.0]]], np.float32)])
    assert layer(x).numpy().tolist() == [[[10.0, 200.0], [30.0, 400.0]]]  # Keras 3.15, JAX
    with pytest.raises(ValueError, match="groups"):
        layers.Conv2D(3, 1, groups=2)
