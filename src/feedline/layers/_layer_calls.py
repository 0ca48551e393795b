"""What `Layer.__call__` works out before it runs `call`: the shape `build` receives
(`_shape_of`) and whether `call` takes a `training` argument (`_takes_training`, remembered per
class). `_base.py` re-exports both.
"""

import inspect

import numpy as np


def _shape_of(inputs):
    """What `build` receives: the input's shape, or a list of shapes for a list of inputs."""
    if isinstance(inputs, (list, tuple)) and inputs and all(
            isinstance(item, np.ndarray) for item in inputs):
        return [tuple(item.shape) for item in inputs]
    if isinstance(inputs, np.ndarray):
        return tuple(inputs.shape)
    try:
        return tuple(np.shape(inputs)) if not isinstance(inputs, dict) else None
    except (TypeError, ValueError, UnicodeError):  # mixed or ragged Python values
        return None


_TAKES_TRAINING = {}


def _takes_training(layer_class):
    """Whether `layer_class.call` has a `training` argument (remembered per class)."""
    takes = _TAKES_TRAINING.get(layer_class)
    if takes is None:
        parameters = inspect.signature(layer_class.call).parameters
        takes = _TAKES_TRAINING[layer_class] = "training" in parameters or any(
            p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    return takes
