"""Configs written by Keras 3.15 (JAX backend, `layer.get_config()`, recorded as data): each
loads with `from_config`, so a `.keras` file or a config copied from Keras 3.15 works. Keras
3.15 writes keys older Keras did not (`quantization_config`, `renorm*`, initializers'
`input_axes`/`output_axes`) and its spatial dropouts write a short config of their own."""

import numpy as np
import pytest

from feedline import layers

KERAS_3_15 = {
    "Dense": {
        "name": "dense",
        "trainable": True,
        "dtype": {
            "module": "keras",
            "class_name": "DTypePolicy",
            "config": {
                "name": "float32"
            },
            "registered_name": None
        },
        "units": 2,
        "activation": "linear",
        "use_bias": True,
        "kernel_initializer": {
            "module": "keras.initializers",
            "class_name": "GlorotUniform",
            "config": {
                "seed": None,
                "input_axes": None,
                "output_axes": None
            },
            "registered_name": None
        },
        "bias_initializer": {
            "module": "keras.initializers",
            "class_name": "Zeros",
            "config": {},
            "registered_name": None
        },
        "kernel_regularizer": None,
        "bias_regularizer": None,
        "kernel_constraint": None,
        "bias_constraint": None,
        "quantization_config": None
    },
    "Embedding": {
        "name": "embedding",
        "trainable": True,
        "dtype": {
            "module": "keras",
            "class_name": "DTypePolicy",
            "config": {
                "name": "float32"
            },
            "registered_name": None
        },
        "input_dim": 4,
        "output_dim": 2,
        "embeddings_initializer": {
            "module": "keras.initializers",
            "class_name": "RandomUniform",
            "config": {
                "seed": None,
                "minval": -0.05,
                "maxval": 0.05
            },
            "registered_name": None
        },
        "embeddings_regularizer": None,
        "activity_regularizer": None,
        "embeddings_constraint": None,
        "mask_zero": False,
        "quantization_config": None
    },
    "Conv1D": {
        "name": "conv1d",
        "trainable": True,
        "dtype": {
            "module": "keras",
            "class_name": "DTypePolicy",
            "config": {
                "name": "float32"
            },
            "registered_name": None
        },
        "filters": 2,
        "kernel_size": [
            2
        ],
        "strides": [
            1
        ],
        "padding": "valid",
        "data_format": "channels_last",
        "dilation_rate": [
            1
        ],
        "groups": 1,
        "activation": "linear",
        "use_bias": True,
        "kernel_initializer": {
            "module": "keras.initializers",
            "class_name": "GlorotUniform",
            "config": {
                "seed": None,
                "input_axes": None,
                "output_axes": None
            },
            "registered_name": None
        },
        "bias_initializer": {
            "module": "keras.initializers",
            "class_name": "Zeros",
            "config": {},
            "registered_name": None
        },
        "kernel_regularizer": None,
        "bias_regularizer": None,
        "activity_regularizer": None,
        "kernel_constraint": None,
        "bias_constraint": None
    },
    "BatchNormalization": {
        "name": "batch_normalization",
        "trainable": True,
        "dtype": {
            "module": "keras",
            "class_name": "DTypePolicy",
            "config": {
                "name": "float32"
            },
            "registered_name": None
        },
        "axis": -1,
        "momentum": 0.99,
        "epsilon": 0.001,
        "center": True,
        "scale": True,
        "beta_initializer": {
            "module": "keras.initializers",
            "class_name": "Zeros",
            "config": {},
            "registered_name": None
        },
        "gamma_initializer": {
            "module": "keras.initializers",
            "class_name": "Ones",
            "config": {},
            "registered_name": None
        },
        "moving_mean_initializer": {
            "module": "keras.initializers",
            "class_name": "Zeros",
            "config": {},
            "registered_name": None
        },
        "moving_variance_initializer": {
            "module": "keras.initializers",
            "class_name": "Ones",
            "config": {},
            "registered_name": None
        },
        "beta_regularizer": None,
        "gamma_regularizer": None,
        "beta_constraint": None,
        "gamma_constraint": None,
        "synchronized": False,
        "renorm": False,
        "renorm_clipping": None,
        "renorm_momentum": 0.99
    },
    "SpatialDropout1D": {
        "rate": 0.2,
        "seed": None,
        "name": "spatial_dropout1d",
        "dtype": "float32"
    },
    "Discretization": {
        "bin_boundaries": [
            0.0,
            1.0
        ],
        "num_bins": None,
        "epsilon": 0.01,
        "output_mode": "int",
        "sparse": False,
        "name": "discretization",
        "dtype": "float32"
    },
    "LSTM": {
        "name": "lstm",
        "trainable": True,
        "dtype": {
            "module": "keras",
            "class_name": "DTypePolicy",
            "config": {
                "name": "float32"
            },
            "registered_name": None
        },
        "return_sequences": False,
        "return_state": False,
        "go_backwards": False,
        "stateful": False,
        "unroll": False,
        "zero_output_for_mask": False,
        "units": 2,
        "activation": "tanh",
        "recurrent_activation": "sigmoid",
        "use_bias": True,
        "kernel_initializer": {
            "module": "keras.initializers",
            "class_name": "GlorotUniform",
            "config": {
                "seed": None,
                "input_axes": None,
                "output_axes": None
            },
            "registered_name": None
        },
        "recurrent_initializer": {
            "module": "keras.initializers",
            "class_name": "Orthogonal",
            "config": {
                "seed": None,
                "gain": 1.0
            },
            "registered_name": None
        },
        "bias_initializer": {
            "module": "keras.initializers",
            "class_name": "Zeros",
            "config": {},
            "registered_name": None
        },
        "unit_forget_bias": True,
        "kernel_regularizer": None,
        "recurrent_regularizer": None,
        "bias_regularizer": None,
        "activity_regularizer": None,
        "kernel_constraint": None,
        "recurrent_constraint": None,
        "bias_constraint": None,
        "dropout": 0.0,
        "recurrent_dropout": 0.0,
        "seed": None
    }
}


@pytest.mark.parametrize("name", sorted(KERAS_3_15))
def test_a_keras_3_15_config_loads_and_the_layer_runs(name):
    layer = getattr(layers, name).from_config(KERAS_3_15[name])
    x = {"Embedding": np.array([[1, 2]]), "Discretization": np.array([[-1.0, 0.5, 2.0]]),
         "Dense": np.ones((1, 3), np.float32)}.get(name, np.ones((1, 4, 3), np.float32))
    assert layer(x).shape[0] == 1


def test_spatial_dropout_writes_kerass_short_config():
    config = layers.SpatialDropout1D(0.2).get_config()
    assert set(config) == set(KERAS_3_15["SpatialDropout1D"])


def test_discretization_defaults_to_float32_and_still_gives_int32_ids():
    """Keras 3.15: dtype float32 in the config, int32 ids in "int" mode."""
    layer = layers.Discretization(bin_boundaries=[0.0, 1.0])
    assert layer.get_config()["dtype"] == KERAS_3_15["Discretization"]["dtype"] == "float32"
    assert layer(np.array([-1.0, 0.5, 2.0])).numpy().tolist() == [0, 1, 2]
    assert layer(np.array([0.5])).dtype == np.int32


def test_values_feedline_cannot_honour_are_refused_by_name():
    with pytest.raises(ValueError, match="renorm"):
        layers.BatchNormalization(renorm=True)
    with pytest.raises(ValueError, match="quantization_config"):
        layers.Dense(2, quantization_config={"mode": "int8"})


def test_variance_scaling_normal_is_truncated_and_axes_choose_the_fans():
    """Keras 3's VarianceScaling: distribution="normal" is an alias of "truncated_normal";
    input_axes/output_axes multiply the sizes of those axes into the fans."""
    from feedline.keras import initializers

    init = initializers.VarianceScaling(1.0, "fan_in", "normal", seed=3)
    assert init.distribution == "truncated_normal"
    values = init((200, 50))
    assert np.abs(values).max() <= 2 * np.sqrt(1 / 200) / 0.87962566103423978 + 1e-6
    wide = initializers.GlorotUniform(seed=1, input_axes=[0, 1], output_axes=[2])
    assert wide._fans((2, 3, 4)) == (6, 4)
    assert wide.get_config() == {"seed": 1, "input_axes": [0, 1], "output_axes": [2]}


def test_auto_contrast_and_solarization_load_kerass_configs_with_data_format():
    """Keras 3.15 writes data_format in both configs (recorded from Keras 3.15, JAX)."""
    policy = {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
              "registered_name": None}
    contrast = layers.AutoContrast.from_config(
        {"name": "auto_contrast", "trainable": True, "dtype": policy,
         "data_format": "channels_last", "value_range": [0, 255]})
    solarize = layers.Solarization.from_config(
        {"name": "solarization", "trainable": True, "dtype": policy,
         "data_format": "channels_last", "value_range": [0, 255],
         "addition_factor": [0, 0.0], "threshold_factor": [0, 0.0], "seed": None})
    image = np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3)
    assert contrast(image).shape == solarize(image, training=False).shape == (1, 2, 2, 3)
    assert contrast.get_config()["data_format"] == "channels_last"
