"""SimpleRNN, LSTM, GRU and Bidirectional: Keras 3's step formulas worked by hand, gradients
against finite differences, training on a toy sequence task, and shapes."""

import numpy as np
import pytest

import feedline as fl
from feedline.layers import GRU, LSTM, Bidirectional, SimpleRNN


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def numpy_lstm(x, kernel, recurrent, bias, units):
    h = c = np.zeros((x.shape[0], units))
    for step in range(x.shape[1]):
        z = x[:, step] @ kernel + h @ recurrent + bias
        i, f, g, o = (z[:, k * units:(k + 1) * units] for k in range(4))
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
    return h


def numpy_gru(x, kernel, recurrent, bias, units):
    h = np.zeros((x.shape[0], units))
    for step in range(x.shape[1]):
        xp, hp = x[:, step] @ kernel + bias[0], h @ recurrent + bias[1]
        z = sigmoid(xp[:, :units] + hp[:, :units])
        r = sigmoid(xp[:, units:2 * units] + hp[:, units:2 * units])
        n = np.tanh(xp[:, 2 * units:] + r * hp[:, 2 * units:])
        h = z * h + (1 - z) * n
    return h


@pytest.mark.parametrize("layer_class, reference", [(LSTM, numpy_lstm), (GRU, numpy_gru)])
def test_the_last_output_follows_keras_3_formulas(layer_class, reference):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 5, 4)).astype(np.float32)
    layer = layer_class(2)
    out = layer(x).numpy()
    weights = [np.asarray(w, np.float64) for w in layer.get_weights()]
    assert np.allclose(out, reference(x.astype(np.float64), *weights, 2), atol=1e-5)


def test_lstm_starts_its_forget_bias_at_one():
    layer = LSTM(3)
    layer(np.zeros((1, 2, 4), np.float32))
    assert layer.get_weights()[2].tolist() == [0.0] * 3 + [1.0] * 3 + [0.0] * 6


def test_shapes_for_sequences_states_and_both_directions():
    x = np.zeros((2, 7, 3), np.float32)
    assert SimpleRNN(4, return_sequences=True)(x).shape == (2, 7, 4)
    output, hidden, cell = LSTM(4, return_state=True)(x)
    assert output.shape == hidden.shape == cell.shape == (2, 4)
    assert Bidirectional(GRU(5))(x).shape == (2, 10)
    assert Bidirectional(LSTM(5, return_sequences=True), merge_mode="sum")(x).shape == (2, 7, 5)


def test_go_backwards_reads_the_sequence_from_its_end():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 6, 3)).astype(np.float32)
    forward = GRU(3, kernel_initializer="ones", recurrent_initializer="orthogonal")
    forward(x)
    backward = GRU(3, go_backwards=True)
    backward(x)
    backward.set_weights(forward.get_weights())
    assert np.allclose(backward(x), forward(x[:, ::-1]), atol=1e-6)


@pytest.mark.parametrize("layer_class", [SimpleRNN, LSTM, GRU])
def test_gradients_match_finite_differences(layer_class):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(2, 4, 3))
    layer = layer_class(2, dtype="float64")
    layer(x)
    with fl.GradientTape() as tape:
        loss = fl.reduce_sum(fl.square(layer(x)))
    kernel = layer.kernel
    analytic = tape.gradient(loss, kernel).numpy()
    base = kernel.numpy().copy()
    numeric = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        for sign in (1, -1):
            shifted = base.copy()
            shifted[index] += sign * 1e-6
            kernel.assign(shifted)
            numeric[index] += sign * float(np.sum(np.square(layer(x).numpy()))) / 2e-6
    kernel.assign(base)
    assert np.allclose(analytic, numeric, atol=1e-5)


def test_a_small_lstm_learns_whether_a_sequence_sums_above_zero():
    fl.random.set_seed(3)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(256, 6, 1)).astype(np.float32)
    y = (x.sum(axis=(1, 2)) > 0).astype(np.float32)
    model = fl.keras.Sequential([fl.keras.Input(shape=(6, 1)), LSTM(8),
                                 fl.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(loss="binary_crossentropy", optimizer=fl.keras.optimizers.Adam(0.05),
                  metrics=["accuracy"])
    history = model.fit(x, y, epochs=15, batch_size=32, verbose=0)
    assert history.history["accuracy"][-1] > 0.9


def test_bidirectional_trains_both_directions_weights():
    layer = Bidirectional(SimpleRNN(2))
    layer(np.zeros((1, 3, 2), np.float32))
    assert len(layer.trainable_weights) == 6
    with pytest.raises(ValueError, match="recurrent layer"):
        Bidirectional(fl.keras.layers.Dense(2))


def test_unsupported_arguments_are_refused_with_what_to_write():
    with pytest.raises(ValueError, match="units"):
        SimpleRNN(0)


def numpy_gru_reset_before(x, kernel, recurrent, bias, units):
    h = np.zeros((x.shape[0], units))
    for step in range(x.shape[1]):
        xp = x[:, step] @ kernel + bias
        z = sigmoid(xp[:, :units] + h @ recurrent[:, :units])
        r = sigmoid(xp[:, units:2 * units] + h @ recurrent[:, units:2 * units])
        n = np.tanh(xp[:, 2 * units:] + (r * h) @ recurrent[:, 2 * units:])
        h = z * h + (1 - z) * n
    return h


def test_gru_with_reset_after_false_resets_the_state_before_its_matmul():
    """Keras 3's GRUCell(reset_after=False) (keras.io/api/layers/recurrent_layers/gru/):
    one bias of 3 units and the reset gate applied to the state before the recurrent matmul."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 4, 3)).astype(np.float32)
    layer = GRU(2, reset_after=False)
    layer(x)
    weights = [rng.uniform(-0.8, 0.8, w.shape).astype(np.float32) for w in layer.get_weights()]
    assert [w.shape for w in weights] == [(3, 6), (2, 6), (6,)]
    layer.set_weights(weights)
    np.testing.assert_allclose(layer(x).numpy(), numpy_gru_reset_before(x, *weights, 2),
                               rtol=1e-5, atol=1e-6)
    assert GRU.from_config(layer.get_config()).reset_after is False


def test_bidirectional_returning_sequences_outputs_zeros_at_masked_steps():
    """keras.io/api/layers/recurrent_layers/bidirectional/: with return_sequences the
    output of a masked step is zero whatever the layer's zero_output_for_mask."""
    layer = Bidirectional(SimpleRNN(2, return_sequences=True))
    x = np.random.default_rng(0).normal(size=(2, 3, 2)).astype(np.float32)
    mask = np.array([[True, True, False], [True, True, True]])
    out = layer(x, mask=mask).numpy()
    assert (out[0, 2] == 0).all() and (out[1] != 0).any()


def test_a_padding_mask_keeps_the_state_through_padded_steps():
    """With Embedding(mask_zero=True) before it, an LSTM ignores trailing zeros: the output
    for [a, b, 0, 0] equals the output for [a, b] alone, as in Keras."""
    fl.random.set_seed(4)
    model = fl.keras.Sequential([fl.keras.layers.Embedding(10, 4, mask_zero=True), LSTM(3)])
    padded = model(np.array([[5, 7, 0, 0]])).numpy()
    short = model(np.array([[5, 7]])).numpy()
    assert np.allclose(padded, short, atol=1e-6)
    unmasked = fl.keras.Sequential([model.layers[0], model.layers[1]])
    unmasked.layers[0].mask_zero = False
    assert not np.allclose(unmasked(np.array([[5, 7, 0, 0]])).numpy(), short, atol=1e-4)


def test_the_functional_model_hands_the_mask_on_through_bidirectional_and_pooling():
    tokens = fl.keras.Input(shape=(None,), dtype="int64")
    embedded = fl.keras.layers.Embedding(10, 4, mask_zero=True)(tokens)
    sequences = Bidirectional(GRU(3, return_sequences=True))(embedded)
    pooled = fl.keras.layers.GlobalAveragePooling1D()(sequences)
    model = fl.keras.Model(tokens, pooled)
    assert np.allclose(model(np.array([[4, 2, 0, 0, 0]])).numpy(),
                       model(np.array([[4, 2]])).numpy(), atol=1e-6)


@pytest.mark.parametrize("argument", ["dropout", "recurrent_dropout"])
def test_dropout_changes_outputs_only_while_training(argument):
    x = np.random.default_rng(5).normal(size=(4, 6, 3)).astype(np.float32)
    layer = LSTM(3, **{argument: 0.5}, seed=1)
    plain = layer(x).numpy()
    assert np.array_equal(layer(x, training=False).numpy(), plain)
    assert not np.allclose(layer(x, training=True).numpy(), plain)


def test_dropout_rates_and_time_major_are_checked():
    with pytest.raises(ValueError, match="dropout"):
        GRU(2, dropout=1.0)
    with pytest.raises(ValueError, match="time_major"):
        SimpleRNN(2, time_major=True)
    assert Bidirectional(GRU(2, dropout=0.25)).backward_layer.dropout == 0.25


def test_bidirectional_wraps_an_rnn_of_cells_with_a_backward_copy():
    """keras.io Bidirectional: any recurrent layer, the backward one a copy with go_backwards
    flipped and weights of its own."""
    x = np.random.default_rng(3).normal(size=(2, 5, 4)).astype(np.float32)
    both = fl.keras.layers.Bidirectional(fl.keras.layers.RNN(fl.keras.layers.LSTMCell(3)))
    assert both(x).shape == (2, 6)
    assert both.backward_layer.go_backwards and both.backward_layer.name.startswith("backward_")
    forward_weights = [w.numpy() for w in both.forward_layer.weights]
    backward_weights = [w.numpy() for w in both.backward_layer.weights]
    assert not all(np.array_equal(a, b) for a, b in zip(forward_weights, backward_weights))


def test_bidirectional_backward_copy_keeps_every_argument_of_the_layer():
    layer = fl.keras.layers.LSTM(3, kernel_regularizer="l2", unit_forget_bias=False,
                                 recurrent_dropout=0.0, use_bias=False)
    both = fl.keras.layers.Bidirectional(layer)
    config = both.backward_layer.get_config()
    assert config["kernel_regularizer"]["class_name"] == "L2"
    assert config["use_bias"] is False and config["unit_forget_bias"] is False


def test_bidirectional_return_state_gives_output_then_forward_then_backward_states():
    """Keras' Bidirectional with return_state=True returns [output] + forward states +
    backward states (both outputs first when merge_mode is None)."""
    x = np.random.default_rng(4).normal(size=(2, 5, 4)).astype(np.float32)
    lstm = fl.keras.layers.Bidirectional(fl.keras.layers.LSTM(3, return_state=True))
    output, h_forward, c_forward, h_backward, c_backward = lstm(x)
    assert output.shape == (2, 6) and h_forward.shape == c_backward.shape == (2, 3)
    assert np.allclose(output[:, :3], h_forward) and np.allclose(output[:, 3:], h_backward)
    gru = fl.keras.layers.Bidirectional(
        fl.keras.layers.GRU(3, return_state=True, return_sequences=True), merge_mode=None)
    forward, backward, h_forward, h_backward = gru(x)
    assert forward.shape == backward.shape == (2, 5, 3)
    assert np.allclose(forward[:, -1], h_forward) and np.allclose(backward[:, 0], h_backward)
