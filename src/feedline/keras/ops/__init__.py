"""`fl.keras.ops`: Keras 3's backend-neutral ops (`keras.ops`), as TensorFlow's backend runs them.

Each function takes Keras' argument names and defaults and gives Keras' result dtype
(`_dtypes`: Keras' promotion lattice, Python scalars weak, integers to floatx() where a float
is needed). Results are `feedline.Tensor`s. The namespaces `fl.keras.ops.numpy`, `.nn`,
`.image`, `.linalg`, `.math` and `.core` hold the same functions by family, as in Keras.

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.mean(ops.cast(ops.arange(4), "int8")), ops.nn.relu is ops.relu
(<tf.Tensor: shape=(), dtype=float32, numpy=1.5>, True)
"""

import sys
import types

from . import core, image, linalg, math, nn  # noqa: F401
from . import numpy_create, numpy_extra, numpy_math, numpy_reduce, numpy_shape
from ._dtypes import result_type  # noqa: F401
from .core import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .math_signal import *  # noqa: F401,F403
from .numpy_create import *  # noqa: F401,F403
from .numpy_extra import *  # noqa: F401,F403
from .numpy_math import *  # noqa: F401,F403
from .numpy_reduce import *  # noqa: F401,F403
from .numpy_shape import *  # noqa: F401,F403
from .core import shape, slice, unstack  # noqa: F401,E402 - core's, not numpy_shape's forms

# `keras.ops.numpy` gathers the NumPy-like families in one namespace.
numpy = types.ModuleType(f"{__name__}.numpy", "keras.ops.numpy: the NumPy-like functions.")
for _module in (numpy_create, numpy_extra, numpy_math, numpy_reduce, numpy_shape):
    for _name in _module.__all__:
        setattr(numpy, _name, getattr(_module, _name))
sys.modules[numpy.__name__] = numpy
