"""`RNN`, `StackedRNNCells` and the cells `SimpleRNNCell`, `LSTMCell`, `GRUCell`: Keras 3's
documented behaviour (https://keras.io/api/layers/recurrent_layers/rnn/, lstm_cell/,
gru_cell/, simple_rnn_cell/, stacked_rnn_cells/): weights and states, the same numbers as
the layers, a learner's own cell, masks, initial states, gradients against finite
differences, configs and the `.keras` round trip."""

import numpy as np
import pytest

import feedline as fl
from feedline.layers import (GRU, LSTM, RNN, GRUCell, Layer, LSTMCell, SimpleRNN,
                             SimpleRNNCell, StackedRNNCells)


class MinimalCell(Layer):
    """A learner's cell in the style of Keras' guide: `h = x W + h U` (no activation)."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight((input_shape[-1], self.units), "glorot_uniform",
                                      name="kernel")
        self.recurrent_kernel = self.add_weight((self.units, self.units), "orthogonal",
                                                name="recurrent_kernel")

    def call(self, inputs, states):
        output = fl.matmul(inputs, self.kernel) + fl.matmul(states[0], self.recurrent_kernel)
        return output, [output]


def sequences(shape=(3, 5, 4), seed=0, dtype=np.float32):
    return np.random.default_rng(seed).normal(size=shape).astype(dtype)


def test_cells_have_keras_weights_shapes_and_state_sizes():
    lstm, gru, simple = LSTMCell(3), GRUCell(3), SimpleRNNCell(3)
    for cell in (lstm, gru, simple):
        cell.build((None, 4))
    assert [w.shape for w in lstm.get_weights()] == [(4, 12), (3, 12), (12,)]
    assert [w.shape for w in gru.get_weights()] == [(4, 9), (3, 9), (2, 9)]
    assert [w.shape for w in simple.get_weights()] == [(4, 3), (3, 3), (3,)]
    assert (lstm.state_size, gru.state_size, simple.state_size) == ([3, 3], 3, 3)
    assert lstm.get_weights()[2].tolist() == [0.0] * 3 + [1.0] * 3 + [0.0] * 6
    assert GRUCell(2).get_config()["reset_after"] is True


def test_an_lstm_cell_step_returns_the_hidden_state_and_both_states():
    cell = LSTMCell(2)
    x, h, c = sequences((1, 3))[0:1], np.zeros((1, 2), np.float32), np.ones((1, 2), np.float32)
    output, (new_h, new_c) = cell(x, [h, c])
    kernel, recurrent, bias = cell.get_weights()
    z = x @ kernel + h @ recurrent + bias
    i, f, g, o = (1 / (1 + np.exp(-z[:, k * 2:(k + 1) * 2])) for k in range(4))
    g = np.tanh(z[:, 4:6])
    expected_c = f * c + i * g
    assert np.allclose(new_c, expected_c, atol=1e-6)
    assert np.allclose(output, o * np.tanh(expected_c), atol=1e-6) and output is not None
    assert np.array_equal(output.numpy(), new_h.numpy())


@pytest.mark.parametrize("cell_class, layer_class", [
    (SimpleRNNCell, SimpleRNN), (LSTMCell, LSTM), (GRUCell, GRU)])
def test_rnn_of_a_cell_gives_the_layers_numbers(cell_class, layer_class):
    x = sequences()
    layer = layer_class(3, return_sequences=True)
    wrapped = RNN(cell_class(3), return_sequences=True)
    layer(x), wrapped(x)
    wrapped.set_weights(layer.get_weights())
    assert np.allclose(wrapped(x).numpy(), layer(x).numpy(), atol=1e-6)
    assert isinstance(layer, RNN) and isinstance(layer.cell, cell_class)


def test_a_learners_own_cell_runs_with_sequences_and_states():
    x = sequences()
    layer = RNN(MinimalCell(2), return_sequences=True, return_state=True)
    outputs, state = layer(x)
    kernel, recurrent = layer.cell.get_weights()
    h = np.zeros((3, 2))
    for step in range(5):
        h = x[:, step] @ kernel + h @ recurrent
        assert np.allclose(outputs[:, step], h, atol=1e-5)
    assert np.allclose(state, h, atol=1e-5) and len(layer.trainable_weights) == 2


def test_a_list_of_cells_is_stacked_each_feeding_the_next():
    """Keras 3 keeps a stacked cell's states per cell: `output, [h1, c1], [h2]`."""
    x = sequences()
    first, second = RNN(LSTMCell(4), return_sequences=True), RNN(GRUCell(2))
    expected = second(first(x))
    stacked = RNN([LSTMCell(4), GRUCell(2)], return_state=True)
    stacked(x)
    assert isinstance(stacked.cell, StackedRNNCells)
    stacked.set_weights(first.get_weights() + second.get_weights())
    output, (h1, c1), (h2,) = stacked(x)
    assert np.allclose(output, expected, atol=1e-6) and np.allclose(h2, expected, atol=1e-6)
    assert (h1.shape, c1.shape, stacked.state_size) == ((3, 4), (3, 4), [[4, 4], 2])
    resumed = stacked(x[:, 1:], initial_state=stacked(x[:, :1])[1:])
    assert np.allclose(resumed[0], output, atol=1e-6)


def test_a_mask_keeps_the_states_of_every_stacked_cell():
    x = sequences((1, 4, 3))
    stacked = RNN([LSTMCell(2), SimpleRNNCell(2)], return_state=True)
    padded = stacked(x, mask=np.array([[True, True, False, False]]))
    short = stacked(x[:, :2])
    for got, want in zip([padded[0], *padded[1], *padded[2]],
                         [short[0], *short[1], *short[2]]):
        assert np.allclose(got, want, atol=1e-6)


def test_initial_state_is_where_the_sequence_starts():
    x = sequences((2, 3, 4))
    layer = RNN(LSTMCell(2), return_state=True)
    zero_start = layer(x)
    states = layer.get_initial_state(2)
    assert [s.shape for s in states] == [(2, 2), (2, 2)] and not np.any(states[0])
    same = layer(x, initial_state=states)
    assert np.allclose(same[0], zero_start[0])
    # Running the first step, then the rest from its states, is the whole sequence.
    _, h, c = layer(x[:, :1])
    resumed = layer(x[:, 1:], initial_state=[h, c])
    assert np.allclose(resumed[0], zero_start[0], atol=1e-6)
    with pytest.raises(ValueError, match="initial_state"):
        layer(x, initial_state=[h])


def test_go_backwards_reads_the_sequence_from_its_end():
    x = sequences()
    forward, backward = RNN(GRUCell(3)), RNN(GRUCell(3), go_backwards=True)
    forward(x), backward(x)
    backward.set_weights(forward.get_weights())
    assert np.allclose(backward(x), forward(x[:, ::-1]), atol=1e-6)


def test_a_mask_keeps_states_and_repeats_or_zeroes_the_output():
    """Keras: a masked step keeps the states; its output is the previous step's, or zeros
    with zero_output_for_mask=True."""
    x = sequences((1, 4, 3))
    mask = np.array([[True, True, False, False]])
    plain = RNN(SimpleRNNCell(2), return_sequences=True)
    zeroed = RNN(SimpleRNNCell(2), return_sequences=True, zero_output_for_mask=True)
    plain(x), zeroed(x)
    zeroed.set_weights(plain.get_weights())
    repeated, zeros = plain(x, mask=mask).numpy(), zeroed(x, mask=mask).numpy()
    assert np.allclose(repeated[0, 2], repeated[0, 1]) and np.allclose(repeated[0, 3],
                                                                       repeated[0, 1])
    assert not np.any(zeros[0, 2:]) and np.allclose(zeros[0, :2], repeated[0, :2])


def test_embedding_mask_reaches_an_rnn_of_a_custom_cell():
    fl.random.set_seed(4)
    model = fl.keras.Sequential([fl.keras.layers.Embedding(10, 4, mask_zero=True),
                                 RNN(MinimalCell(3))])
    assert np.allclose(model(np.array([[5, 7, 0, 0]])).numpy(),
                       model(np.array([[5, 7]])).numpy(), atol=1e-6)


def finite_difference_check(layer, variable, x):
    with fl.GradientTape() as tape:
        loss = fl.reduce_sum(fl.square(layer(x)))
    analytic = tape.gradient(loss, variable).numpy()
    base = variable.numpy().copy()
    numeric = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        for sign in (1, -1):
            shifted = base.copy()
            shifted[index] += sign * 1e-6
            variable.assign(shifted)
            numeric[index] += sign * float(np.sum(np.square(layer(x).numpy()))) / 2e-6
    variable.assign(base)
    assert np.allclose(analytic, numeric, atol=1e-5)


@pytest.mark.parametrize("make_cell", [
    lambda: SimpleRNNCell(2, dtype="float64"), lambda: LSTMCell(2, dtype="float64"),
    lambda: GRUCell(2, dtype="float64"), lambda: MinimalCell(2, dtype="float64"),
    lambda: [GRUCell(2, dtype="float64"), LSTMCell(2, dtype="float64")]])
def test_gradients_through_every_cell_match_finite_differences(make_cell):
    x = sequences((2, 3, 3), seed=2, dtype=np.float64)
    layer = RNN(make_cell(), return_sequences=True, dtype="float64")
    layer(x)
    for variable in (layer.trainable_weights[0], layer.trainable_weights[1]):
        finite_difference_check(layer, variable, x)


def test_an_rnn_of_a_cell_learns_inside_fit():
    fl.random.set_seed(3)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(128, 5, 1)).astype(np.float32)
    y = (x.sum(axis=(1, 2)) > 0).astype(np.float32)
    model = fl.keras.Sequential([fl.keras.Input(shape=(5, 1)), RNN(GRUCell(8)),
                                 fl.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(loss="binary_crossentropy", optimizer=fl.keras.optimizers.Adam(0.05),
                  metrics=["accuracy"])
    history = model.fit(x, y, epochs=10, batch_size=32, verbose=0)
    assert history.history["accuracy"][-1] > history.history["accuracy"][0]
    assert history.history["loss"][-1] < 0.5


def test_config_holds_the_serialized_cell_and_rebuilds_the_layer():
    layer = RNN(LSTMCell(3, unit_forget_bias=False), return_sequences=True,
                zero_output_for_mask=True, name="r")
    config = layer.get_config()
    assert config["cell"]["class_name"] == "LSTMCell"
    assert config["cell"]["config"]["unit_forget_bias"] is False
    assert (config["return_sequences"], config["zero_output_for_mask"]) == (True, True)
    again = RNN.from_config(config)
    assert isinstance(again.cell, LSTMCell) and again.return_sequences and again.name == "r"
    stacked = RNN.from_config(RNN([GRUCell(2), SimpleRNNCell(3)]).get_config())
    assert [type(c).__name__ for c in stacked.cell.cells] == ["GRUCell", "SimpleRNNCell"]
    assert LSTM.from_config(LSTM(2, dropout=0.5).get_config()).dropout == 0.5


def test_a_model_with_cells_survives_the_keras_file_round_trip(tmp_path):
    registered = fl.keras.saving.register_keras_serializable("tests")(
        type("SavedMinimalCell", (MinimalCell,), {"get_config": lambda self: {
            **Layer.get_config(self), "units": self.units}}))
    model = fl.keras.Sequential([fl.keras.Input(shape=(4, 3)),
                                 RNN([LSTMCell(3), GRUCell(2)], return_sequences=True),
                                 RNN(registered(2))])
    x = sequences((2, 4, 3))
    expected = model(x).numpy()
    model.save(tmp_path / "cells.keras")
    loaded = fl.keras.models.load_model(tmp_path / "cells.keras")
    assert np.allclose(loaded(x).numpy(), expected, atol=1e-6)


def test_things_that_are_not_cells_are_refused_by_name():
    with pytest.raises(ValueError, match="state_size"):
        RNN(fl.keras.layers.Dense(2))
    with pytest.raises(ValueError, match="features"):
        RNN(GRUCell(2))(np.zeros((2, 3), np.float32))


@pytest.mark.parametrize("argument", ["dropout", "recurrent_dropout"])
def test_cell_dropout_applies_only_while_training(argument):
    x = sequences()
    layer = RNN(GRUCell(3, **{argument: 0.5}, seed=1))
    plain = layer(x).numpy()
    assert np.array_equal(layer(x, training=False).numpy(), plain)
    assert not np.allclose(layer(x, training=True).numpy(), plain)


def test_a_functional_model_hands_the_mask_from_one_rnn_to_the_next():
    tokens = fl.keras.Input(shape=(None,), dtype="int64")
    embedded = fl.keras.layers.Embedding(10, 4, mask_zero=True)(tokens)
    sequences_out = RNN(GRUCell(3), return_sequences=True)(embedded)
    model = fl.keras.Model(tokens, RNN(SimpleRNNCell(2))(sequences_out))
    assert np.allclose(model(np.array([[4, 2, 0, 0]])).numpy(),
                       model(np.array([[4, 2]])).numpy(), atol=1e-6)


def test_the_weights_of_an_rnn_are_saved_under_its_cell_as_keras_does():
    from feedline.keras.saving.h5_store import walk

    model = fl.keras.Sequential([fl.keras.Input(shape=(3, 2)), RNN(LSTMCell(2)),
                                 fl.keras.layers.Dense(1)])
    assert [path for path, _ in walk(model)][1:3] == ["layers/rnn", "layers/rnn/cell"]


def test_regularizers_of_a_cell_reach_the_layer_and_model_losses():
    """Keras' cells and layers take kernel/recurrent/bias regularizers and constraints."""
    layer = LSTM(2, kernel_regularizer="l2", recurrent_regularizer=fl.keras.regularizers.L1(0.5),
                 bias_constraint="non_neg")
    model = fl.keras.Sequential([fl.keras.Input(shape=(3, 2)), layer])
    model(sequences((1, 3, 2)))
    kernel, recurrent = layer.kernel.numpy(), layer.recurrent_kernel.numpy()
    assert np.allclose(sorted(float(v) for v in layer.losses),
                       sorted([0.01 * np.sum(kernel ** 2), 0.5 * np.sum(np.abs(recurrent))]),
                       rtol=1e-5)
    assert len(model.losses) == 2
    config = LSTM.from_config(layer.get_config()).get_config()
    assert config["kernel_regularizer"]["class_name"] == "L2"
    assert config["bias_constraint"] == "non_neg" and layer.bias.constraint is not None


def test_a_stateful_layer_starts_each_batch_where_the_last_ended():
    """Keras: with stateful=True the last state of sample i is the initial state of sample i
    in the next batch, until reset_state()."""
    x = sequences((2, 6, 3))
    whole = RNN([LSTMCell(3), GRUCell(2)], return_sequences=True)
    stateful = RNN([LSTMCell(3), GRUCell(2)], return_sequences=True, stateful=True)
    whole(x), stateful(x[:, :3])
    stateful.set_weights(whole.get_weights())
    stateful.reset_state()
    halves = [stateful(x[:, :3]).numpy(), stateful(x[:, 3:]).numpy()]
    assert np.allclose(np.concatenate(halves, axis=1), whole(x).numpy(), atol=1e-6)
    stateful.reset_states()
    assert np.allclose(stateful(x[:, :3]).numpy(), halves[0], atol=1e-6)
    assert LSTM(2, stateful=True).get_config()["stateful"] is True
    with pytest.raises(ValueError, match="batch"):
        stateful(x[:1, :3])


def test_a_stateful_layer_trains_without_reaching_into_earlier_batches():
    layer = RNN(SimpleRNNCell(2), stateful=True)
    x = sequences((2, 3, 3))
    layer(x)
    with fl.GradientTape() as tape:
        loss = fl.reduce_sum(layer(x))
    assert tape.gradient(loss, layer.trainable_weights[0]) is not None
