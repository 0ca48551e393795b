"""Normalization, Discretization and CategoryEncoding: statistics, streaming adapt, errors."""

import numpy as np
import pytest

import feedline as fl
from feedline import layers


@pytest.fixture
def data():
    return np.random.default_rng(3).normal(5.0, 3.0, size=(1001, 4)).astype(np.float32)


def test_normalization_population_statistics(data):
    layer = layers.Normalization()
    layer.adapt(data)
    assert layer.mean.shape == (1, 4) and layer.mean.dtype == np.float32
    np.testing.assert_allclose(layer.mean.ravel(), data.astype(np.float64).mean(0), rtol=1e-6)
    np.testing.assert_allclose(layer.variance.ravel(), data.astype(np.float64).var(0), rtol=1e-6)
    out = layer(data)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out.mean(0), 0, atol=1e-5)
    np.testing.assert_allclose(out.std(0), 1, atol=1e-4)


@pytest.mark.parametrize("batch", [1, 7, 128, 1001])
def test_streaming_adapt_equals_full_array(data, batch):
    full = layers.Normalization()
    full.adapt(data)
    streamed = layers.Normalization()
    streamed.adapt(fl.data.Dataset.from_tensor_slices(data).batch(batch))
    np.testing.assert_allclose(streamed.mean, full.mean, rtol=1e-6)
    np.testing.assert_allclose(streamed.variance, full.variance, rtol=1e-6)


def test_streaming_adapt_from_generator_and_labelled_batches(data):
    full = layers.Normalization()
    full.adapt(data)
    generated = layers.Normalization()
    generated.adapt(data[i:i + 100] for i in range(0, len(data), 100))
    labelled = layers.Normalization()
    labelled.adapt(fl.data.Dataset.from_tensor_slices((data, np.arange(len(data)))).batch(50))
    for layer in (generated, labelled):
        np.testing.assert_allclose(layer.variance, full.variance, rtol=1e-6)


def test_streaming_is_stable_for_large_offsets():
    rng = np.random.default_rng(0)
    values = 1e6 + rng.normal(size=(10_000, 1))
    layer = layers.Normalization()
    layer.adapt(fl.data.Dataset.from_tensor_slices(values).batch(33))
    np.testing.assert_allclose(layer.variance.ravel(), values.var(0), rtol=1e-5)


def test_axis_none_and_several_axes():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    scalar = layers.Normalization(axis=None)
    scalar.adapt(x)
    assert scalar.mean.shape == (1, 1, 1)
    assert np.isclose(scalar.mean.item(), x.mean())
    per_cell = layers.Normalization(axis=(1, 2))
    per_cell.adapt(x)
    assert per_cell.mean.shape == (1, 3, 4)
    np.testing.assert_allclose(per_cell.variance[0], x.var(0))


def test_given_mean_and_variance_and_invert_round_trip(data):
    layer = layers.Normalization(mean=[1.0, 2.0, 3.0, 4.0], variance=[4.0, 4.0, 1.0, 0.0])
    out = layer(np.array([[3.0, 2.0, 3.0, 4.5]]))
    np.testing.assert_allclose(out, [[1.0, 0.0, 0.0, 0.5 / 1e-7]], rtol=1e-6)
    forward, backward = layers.Normalization(), layers.Normalization(invert=True)
    forward.adapt(data)
    backward.adapt(data)
    np.testing.assert_allclose(backward(forward(data)), data, rtol=1e-5, atol=1e-5)


def test_normalization_config_round_trip(data):
    layer = layers.Normalization(axis=-1)
    layer.adapt(data)
    config = layer.get_config()
    clone = layers.Normalization.from_config(config)
    assert clone.get_config() == config
    np.testing.assert_array_equal(clone(data[:5]), layer(data[:5]))


def test_discretization_before_adapt_raises_kerass_value_error():
    with pytest.raises(ValueError, match="bin_boundaries"):
        layers.Discretization(num_bins=3)([1.0])


def test_normalization_errors(data):
    with pytest.raises(TypeError):
        layers.Normalization(mean=0.0, variance=1.0)(np.array(["a"]))
    with pytest.raises(ValueError):
        layers.Normalization(mean=1.0)
    with pytest.raises(ValueError):
        layers.Normalization(axis=3).adapt(data)


def test_normalization_inside_dataset_map(data):
    layer = layers.Normalization()
    layer.adapt(data)
    batches = list(fl.data.Dataset.from_tensor_slices(data).batch(500).map(layer))
    np.testing.assert_allclose(np.concatenate(batches), layer(data))


# -- Discretization --------------------------------------------------------------------------


def test_discretization_buckets_and_modes():
    layer = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    x = np.array([[-5.0, 0.0], [1.5, 2.0]])
    out = layer(x)
    assert out.dtype == np.int32 and out.tolist() == [[0, 1], [2, 3]]
    one_hot = layers.Discretization(bin_boundaries=[0.0], output_mode="one_hot")([-1.0, 3.0])
    assert one_hot.dtype == np.float32 and one_hot.tolist() == [[1, 0], [0, 1]]
    count = layers.Discretization(bin_boundaries=[0.0], output_mode="count")([[-1.0, 3.0, 4.0]])
    assert count.tolist() == [[1, 2]]


def test_discretization_adapt_quantiles():
    layer = layers.Discretization(num_bins=4)
    layer.adapt(np.arange(1, 101, dtype=np.float32))
    # Keras' summary interpolates the cumulative weights (k/n, value) of the sorted values
    assert layer.bin_boundaries == [25.75, 50.5, 75.25]
    assert layer(np.array([1.0, 30.0, 99.0])).tolist() == [0, 1, 3]


def test_discretization_summary_thins_a_batch_like_keras():
    # Keras 3's `summarize`: increment = size / (1 / epsilon), the kept values start at
    # int(increment) and step by int(max(increment, 1)), each weighing max(increment, 1).
    # With epsilon=0.03 and 1800 values, 1 / 0.03 = 33.333333333333336 and
    # 1800 / 33.333333333333336 = 53.99999999999999: start 53 and step 53 (not 54 = 1800 * 0.03).
    from feedline.layers.discretization import summarize
    summary = summarize(np.arange(1800, dtype=np.float32), 0.03)
    assert summary[0, :3].tolist() == [53.0, 106.0, 159.0]
    assert summary[1, :3].tolist() == [54.0, 54.0, 54.0]


def test_discretization_adapt_boundaries_follow_keras_when_a_batch_exceeds_one_over_epsilon():
    # Values derived by running Keras 3's summarize / merge_summaries / compress_summary /
    # get_bin_boundaries steps by hand on these 1800 values (20 distinct levels).
    values = (np.arange(1800) * 7 % 20).astype(np.float32)
    layer = layers.Discretization(num_bins=4, epsilon=0.03)
    layer.adapt(values)
    np.testing.assert_array_equal(np.float32(layer.bin_boundaries),
                                  np.float32([4.249999523162842, 9.5, 14.0]))
    layer = layers.Discretization(num_bins=7, epsilon=0.03)
    layer.adapt(values)
    assert layer.bin_boundaries[:3] == [2.0, 5.0, 8.0]


def test_discretization_adapt_over_dataset_is_close_to_array():
    values = np.random.default_rng(1).uniform(0, 1, 5000).astype(np.float32)
    layer = layers.Discretization(num_bins=5)
    layer.adapt(fl.data.Dataset.from_tensor_slices(values).batch(256))
    np.testing.assert_allclose(layer.bin_boundaries, np.quantile(values, [.2, .4, .6, .8]),
                               atol=0.02)


def test_discretization_config_and_errors():
    layer = layers.Discretization(num_bins=3)
    with pytest.raises(layers.NotAdaptedError):
        layer([1.0])
    layer.adapt(np.arange(30.0))
    clone = layers.Discretization.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()
    with pytest.raises(ValueError, match="output_mode"):
        layers.Discretization(num_bins=3, output_mode="tf_idf")
    with pytest.raises(ValueError):
        layers.Discretization()
    with pytest.raises(ValueError):
        layers.Discretization(bin_boundaries=[0.0]).adapt(np.arange(3.0))
    with pytest.raises(TypeError):
        layers.Discretization(bin_boundaries=[0.0])(np.array(["x"]))


# -- CategoryEncoding ------------------------------------------------------------------------


def test_category_encoding_shapes():
    assert layers.CategoryEncoding(4, "multi_hot")([3, 2, 0, 1]).tolist() == [1, 1, 1, 1]
    assert layers.CategoryEncoding(3, "one_hot")([[1], [2]]).shape == (2, 3)
    assert layers.CategoryEncoding(3, "one_hot")(2).shape == (1, 3)
    count = layers.CategoryEncoding(3, "count")([[0, 0, 2], [1, 1, 1]])
    assert count.dtype == np.float32 and count.tolist() == [[2, 0, 1], [0, 3, 0]]


def test_category_encoding_drops_out_of_range_ids_in_every_mode():
    # Keras 3.15 encodes every mode through one_hot (numerical_utils.encode_categorical_inputs),
    # and TensorFlow's one_hot gives a row of zeros for ids < 0 or >= depth: no error.
    ids = [[0, 3], [-1, 2]]
    assert (layers.CategoryEncoding(3, "multi_hot")(ids).tolist()
            == [[1, 0, 0], [0, 0, 1]])
    assert (layers.CategoryEncoding(3, "count")(ids, count_weights=[[2.0, 5.0], [5.0, 1.5]])
            .tolist() == [[2, 0, 0], [0, 0, 1.5]])
    assert (layers.CategoryEncoding(3, "one_hot")([3, -1, 1]).tolist()
            == [[0, 0, 0], [0, 0, 0], [0, 1, 0]])


def test_category_encoding_errors_and_config():
    layer = layers.CategoryEncoding(num_tokens=3, output_mode="count")
    with pytest.raises(TypeError):
        layer(np.array(["a"]))
    with pytest.raises(ValueError):
        layers.CategoryEncoding(num_tokens=3, output_mode="one_hot")([1], count_weights=[1.0])
    with pytest.raises(ValueError, match="output_mode"):
        layers.CategoryEncoding(num_tokens=3, output_mode="tf_idf")
    clone = layers.CategoryEncoding.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()


def test_calling_on_inputs_the_statistics_do_not_fit_names_the_layer_and_the_shapes():
    layer = layers.Normalization(name="ages")
    layer.adapt(np.arange(10, dtype=np.float32))  # a 1-D column: axis=-1 keeps 10 "features"
    with pytest.raises(ValueError, match=r"Layer ages .* inputs of shape \(4,\).*axis=None"):
        layer(np.arange(4, dtype=np.float32))


def test_discretization_ids_are_int32_as_recorded_and_int64_on_request():
    """layers_expected.json (Keras 3.15.1) records int32 bucket ids for the default dtype;
    Keras takes `dtype=` as the output dtype of "int" mode (keras/src/layers/preprocessing/
    discretization.py casts the ids to it), which is how HOML3's int64 (ch.13 #83) is had."""
    ages = np.array([[10.0], [93.0], [57.0], [18.0], [37.0], [5.0]], np.float32)
    default = layers.Discretization(bin_boundaries=[18.0, 50.0])(ages)
    assert default.dtype == np.int32 and default.ravel().tolist() == [0, 2, 2, 1, 1, 0]
    wide = layers.Discretization(bin_boundaries=[18.0, 50.0], dtype="int64")(ages)
    assert wide.dtype == np.int64 and wide.shape == (6, 1)


def test_multi_hot_and_count_of_rank_3_inputs_reduce_axis_1_as_keras_3():
    """Keras 3's encode_categorical_inputs one-hot encodes, then reduces axis 1 for inputs
    of rank 3 or more (keras/src/utils/numerical_utils.py)."""
    x = np.array([[[0.5, -1.0], [2.5, 0.2], [0.1, 3.0]],
                  [[-2.0, -2.0], [1.0, 1.5], [0.0, 0.7]]], np.float32)
    count = layers.Discretization(bin_boundaries=[0.0, 1.0], output_mode="count")(x)
    # value from Keras 3.15, JAX backend
    assert count.numpy().tolist() == [[[0, 2, 1], [1, 1, 1]], [[1, 1, 1], [1, 1, 1]]]
    ids = np.array([[[0, 1], [2, 2]], [[1, 1], [0, 3]]])
    multi_hot = layers.CategoryEncoding(num_tokens=3, output_mode="multi_hot")(ids)
    assert multi_hot.numpy().tolist() == [[[1, 0, 1], [0, 1, 1]], [[1, 1, 0], [0, 1, 0]]]
