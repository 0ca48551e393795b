"""More of Keras 3's activation functions, by the names `Dense(activation=...)` takes.

- `gelu(x, approximate=False)`: `x * P(X <= x)` for a standard normal X (the tanh form
  when `approximate`);
- `silu` (alias `swish`): `x * sigmoid(x)`; `mish`: `x * tanh(softplus(x))`;
- `softplus`: `log(1 + exp(x))`; `softsign`: `x / (1 + |x|)`; `exponential`: `exp(x)`;
- `relu6`: `min(max(x, 0), 6)`; `leaky_relu(x, negative_slope=0.2)`;
- `hard_sigmoid`: Keras 3's `relu6(x + 3) / 6` (0 below -3, 1 above 3); `hard_silu`
  (alias `hard_swish`): `x * hard_sigmoid(x)`;
- `log_sigmoid`: `-softplus(-x)`.

Each is written with feedline's ops, so a `GradientTape` differentiates it.

>>> import numpy as np
>>> hard_sigmoid(np.array([-4.0, 0.0, 1.5], np.float32)).numpy().tolist()
[0.0, 0.5, 0.75]
>>> softsign(np.array([1.0], np.float32)).numpy().tolist()
[0.5]
"""

from .. import ops
from ..ops import nn


def gelu(x, approximate=False):
    """The Gaussian error linear unit (exact, or the tanh approximation)."""
    return nn.gelu(ops.convert_to_tensor(x), approximate=approximate)


def silu(x):
    """`x * sigmoid(x)`."""
    return nn.silu(ops.convert_to_tensor(x))


def softplus(x):
    """`log(1 + exp(x))`."""
    return nn.softplus(ops.convert_to_tensor(x))


def softsign(x):
    """`x / (1 + |x|)`."""
    return nn.softsign(ops.convert_to_tensor(x))


def exponential(x):
    """`exp(x)`."""
    return ops.exp(ops.convert_to_tensor(x))


def relu6(x):
    """`min(max(x, 0), 6)`."""
    return nn.relu6(ops.convert_to_tensor(x))


def leaky_relu(x, negative_slope=0.2):
    """`x` where positive, `negative_slope * x` elsewhere (Keras' default slope 0.2)."""
    return nn.leaky_relu(ops.convert_to_tensor(x), alpha=negative_slope)


def hard_sigmoid(x):
    """Keras 3's piecewise-linear sigmoid: `relu6(x + 3) / 6`."""
    return ops.divide(nn.relu6(ops.add(ops.convert_to_tensor(x), 3.0)), 6.0)


def hard_silu(x):
    """`x * hard_sigmoid(x)`."""
    x = ops.convert_to_tensor(x)
    return ops.multiply(x, hard_sigmoid(x))


def mish(x):
    """`x * tanh(softplus(x))`."""
    x = ops.convert_to_tensor(x)
    return ops.multiply(x, ops.tanh(nn.softplus(x)))


def log_sigmoid(x):
    """`log(sigmoid(x))`, computed as `-softplus(-x)` so it stays finite."""
    return ops.negative(nn.softplus(ops.negative(ops.convert_to_tensor(x))))


swish, hard_swish = silu, hard_silu

BY_NAME = {"gelu": gelu, "silu": silu, "swish": swish, "softplus": softplus,
           "softsign": softsign, "exponential": exponential, "relu6": relu6,
           "leaky_relu": leaky_relu, "hard_sigmoid": hard_sigmoid, "hard_silu": hard_silu,
           "hard_swish": hard_swish, "mish": mish, "log_sigmoid": log_sigmoid}
