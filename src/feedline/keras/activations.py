"""Keras' activation functions, written with feedline's ops so a gradient tape follows them.

>>> import feedline as fl
>>> fl.keras.activations.relu(fl.constant([-1.0, 2.0])).numpy()
array([0., 2.], dtype=float32)
>>> fl.keras.activations.softmax(fl.constant([[0.0, 0.0]])).numpy()
array([[0.5, 0.5]], dtype=float32)
"""

from .. import ops
from ..autodiff.tape import stop_gradient

_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def linear(x):
    """`x` unchanged (the activation of a Dense layer without one)."""
    return x


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """`max(x, 0)`; with `negative_slope`, `max_value` and `threshold` combined in Keras 3's order.

    Keras 3 first keeps `x` where `x > threshold` (0 elsewhere), then clips to
    `[0, max_value]` when `max_value` is given, then subtracts
    `negative_slope * relu(threshold - x)`. So with a negative `threshold` and no `max_value`,
    values between `threshold` and 0 pass through unchanged.

    >>> relu([-2.0, -0.5, 4.0], negative_slope=0.5, max_value=3.0, threshold=-1.0).numpy()
    array([-0.5,  0. ,  3. ], dtype=float32)
    """
    x = ops.convert_to_tensor(x)
    if negative_slope and max_value is None and not threshold:
        return ops.where(ops.greater_equal(x, 0), x, ops.multiply(x, negative_slope))
    below = None
    if negative_slope:  # measured on the input, before the clipping below
        from ..ops import nn

        below = nn.relu(ops.subtract(threshold, x) if threshold else ops.negative(x))
    if threshold:
        out = ops.where(ops.greater(x, threshold), x, ops.zeros_like(x))
    else:
        from ..ops import nn  # one op with its own gradient: cheaper than maximum's

        out = nn.relu(x)
    if max_value is not None:
        out = ops.clip_by_value(out, ops.cast(0, out.dtype), ops.cast(max_value, out.dtype))
    if below is not None:
        out = ops.subtract(out, ops.multiply(below, negative_slope))
    return out


def sigmoid(x):
    """`1 / (1 + exp(-x))`."""
    return ops.sigmoid(x)


def tanh(x):
    """The hyperbolic tangent."""
    return ops.tanh(x)


def softmax(x, axis=-1):
    """`exp(x) / sum(exp(x))` along `axis` (the largest value is subtracted first, which
    changes nothing but keeps `exp` from overflowing)."""
    shifted = ops.subtract(x, stop_gradient(ops.reduce_max(x, axis=axis, keepdims=True)))
    exps = ops.exp(shifted)
    return ops.divide(exps, ops.reduce_sum(exps, axis=axis, keepdims=True))


def log_softmax(x, axis=-1):
    """`log(softmax(x))`, computed as `x - logsumexp(x)`."""
    return ops.subtract(x, ops.reduce_logsumexp(x, axis=axis, keepdims=True))


def elu(x, alpha=1.0):
    """`x` where positive, `alpha * (exp(x) - 1)` elsewhere."""
    negative = ops.multiply(alpha, ops.subtract(ops.exp(ops.minimum(x, 0.0)), 1.0))
    return ops.where(ops.greater(x, 0.0), x, negative)


def selu(x):
    """The scaled ELU of Klambauer et al. (meant for `lecun_normal` weights)."""
    return ops.multiply(_SELU_SCALE, elu(x, _SELU_ALPHA))


_BY_NAME = {"linear": linear, "relu": relu, "sigmoid": sigmoid, "tanh": tanh,
            "softmax": softmax, "log_softmax": log_softmax, "elu": elu, "selu": selu}

# gelu, silu/swish, softplus, ... live in their own module; Keras exports them here too.
from .activations_more import (BY_NAME as _MORE, exponential, gelu, hard_sigmoid,  # noqa: E402
                               hard_silu, hard_swish, leaky_relu, log_sigmoid, mish, relu6,
                               silu, softplus, softsign, swish)

_BY_NAME.update(_MORE)


def get(identifier):
    """The activation function named `identifier` (None is `linear`), or `identifier` itself
    when it is callable.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        try:
            return _BY_NAME[identifier]
        except KeyError:
            raise ValueError(f"Unknown activation {identifier!r}; use one of "
                             f"{sorted(_BY_NAME)} or a function") from None
    if callable(identifier):
        return identifier
    raise TypeError(f"activation: expected a name such as 'relu' or a function, got "
                    f"{identifier!r}")


def serialize(activation):
    """The name Keras writes for `activation` in a config."""
    return getattr(activation, "__name__", str(activation))
