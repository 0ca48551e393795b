"""`feedline.keras`: the spellings `tf.keras.layers.X`, `tf.keras.Sequential`,
`tf.keras.Model` and their training API in code written for TensorFlow, so that renaming
`tf` to `fl` is enough.

`fl.keras.layers` is `fl.layers` (the same classes). `Sequential` chains layers for input
pipelines (preprocessing and augmentation), and with trainable layers (`Dense`, `Embedding`)
it trains as Keras does: `compile`, `fit`, `evaluate`, `predict`, with `optimizers`,
`losses`, `metrics`, `callbacks`, `activations` and `initializers` by Keras' names.
`fl.keras.backend` holds `epsilon()`, `floatx()` and `clear_session()`; `fl.keras.utils.get_file`
and `fl.keras.datasets` download files and datasets into Keras' cache (`~/.keras`).

>>> import numpy as np
>>> import feedline as fl
>>> fl.keras.layers.Rescaling is fl.layers.Rescaling
True
>>> augment = fl.keras.Sequential([fl.keras.layers.Rescaling(1 / 255),
...                                fl.keras.layers.RandomFlip("horizontal", seed=1)])
>>> augment(np.full((2, 4, 4, 3), 255, np.uint8), training=False).numpy().max()
np.float32(1.0)
"""

import sys

from .. import layers

# `from tensorflow.keras.layers import Dense` imports a module of that name: it is this one.
sys.modules[f"{__name__}.layers"] = layers
from ..layers import Input
from . import (activations, backend, callbacks, datasets, initializers, losses, metrics,
               models, optimizers, preprocessing, utils)
from .model import Model
from .sequential import Sequential
from . import saving  # noqa: E402 - Keras 3's model files (.keras, .weights.h5)
from . import constraints, mixed_precision, regularizers  # noqa: E402
from . import random  # noqa: E402 - keras.random: seeded draws as Keras 3 makes them
from . import applications  # noqa: E402 - keras.applications: MobileNetV2, ResNet50

# `from tensorflow.keras.optimizers.schedules import ExponentialDecay` imports a module.
sys.modules[f"{__name__}.optimizers.schedules"] = optimizers.schedules

__all__ = ["activations", "backend", "callbacks", "datasets", "initializers", "layers", "losses",
           "metrics", "models", "optimizers", "preprocessing", "utils", "Input", "Model",
           "Sequential", "saving", "constraints", "mixed_precision", "regularizers", "random",
           "applications"]
from . import ops  # noqa: E402 - keras.ops: Keras 3's backend-neutral ops
