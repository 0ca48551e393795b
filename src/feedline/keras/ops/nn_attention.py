"""`keras.ops.nn` normalization and attention: layer_normalization, rms_normalization,
dot_product_attention, and polar (complex numbers from magnitude and angle).

The normalizations compute in at least float32 (`result_type(x, "float32")`) and hand the
result back in `x`'s own dtype, as Keras does; `epsilon=None` means `keras.config.epsilon()`
(1e-7). Attention takes `(batch, length, heads, head_size)` tensors, Keras' layout.

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.layer_normalization(fl.constant([1.0, 2.0, 3.0])).numpy().round(3).tolist()
[-1.225, 0.0, 1.225]
>>> ops.dot_product_attention(fl.ones([1, 2, 1, 4]), fl.ones([1, 3, 1, 4]),
...                           fl.ones([1, 3, 1, 4])).shape
TensorShape([1, 2, 1, 4])
"""

import numpy as np

from ...errors import InvalidArgumentError
from .. import backend
from . import _dtypes
from ._apply import array, plain

_IMPORTED = set(globals())  # what the module's exports leave out


def _axes(axis, ndim):
    axes = [axis] if isinstance(axis, int) else list(axis)
    return sorted(a % ndim for a in axes)


def _shaped(value, x, axes, dtype):
    """A gamma/beta/scale of the normalized axes' shape, broadcastable against `x`."""
    value = array(value, dtype)
    if value.ndim != x.ndim and axes != [x.ndim - 1]:
        shape = [x.shape[a] if a in axes else 1 for a in range(x.ndim)]
        value = value.reshape(shape)
    return value


@plain
def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """(x - mean) / sqrt(var + epsilon) * gamma + beta, statistics over `axis`.

    Raises:
        ValueError: for `rms_scaling=True`, which Keras deprecates; use rms_normalization.
    """
    if kwargs.pop("rms_scaling", False):
        raise ValueError("layer_normalization: rms_scaling=True is not supported here; use "
                         "fl.keras.ops.rms_normalization(x, scale, axis, epsilon)")
    if kwargs:
        raise TypeError(f"layer_normalization got unexpected arguments {sorted(kwargs)}")
    epsilon = backend.epsilon() if epsilon is None else epsilon
    original = array(x)
    compute = _dtypes.result_type(_dtypes.dtype_of(original), "float32")
    x = original.astype(compute)
    axes = _axes(axis, max(x.ndim, 1))
    mean = x.mean(axis=tuple(axes), keepdims=True)
    variance = np.square(x - mean).mean(axis=tuple(axes), keepdims=True)
    inverse = (1 / np.sqrt(variance + np.asarray(epsilon, compute))).astype(compute)
    if gamma is not None:
        inverse = inverse * _shaped(gamma, x, axes, compute)
    shift = -mean * inverse
    if beta is not None:
        shift = shift + _shaped(beta, x, axes, compute)
    return (x * inverse + shift).astype(original.dtype)


@plain
def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """x / sqrt(mean(x**2) + epsilon) * scale, the mean over `axis` (no centring)."""
    epsilon = backend.epsilon() if epsilon is None else epsilon
    original = array(x)
    compute = _dtypes.result_type(_dtypes.dtype_of(original), "float32")
    x = original.astype(compute).reshape(original.shape or (1,))
    axes = axis if isinstance(axis, int) else tuple(sorted(axis))
    mean_square = np.square(x).mean(axis=axes, keepdims=True)
    out = x * (1 / np.sqrt(mean_square + np.asarray(epsilon, compute))).astype(compute)
    if scale is not None:
        out = out * array(scale, compute)
    return out.astype(original.dtype)


def _large_negative(dtype):
    """The value Keras writes into masked logits: -0.7 times (about) the dtype's largest."""
    return np.asarray((65500.0 if dtype == "float16" else 3.38953e38) * -0.7, dtype)


@plain
def dot_product_attention(query, key, value, bias=None, mask=None, scale=None,
                          is_causal=False, flash_attention=None, attn_logits_soft_cap=None):
    """softmax(query . key * scale + bias, masked) . value over (batch, length, heads, size).

    `scale` defaults to 1 / sqrt(head_size); `mask` (True = attend) and `is_causal` (each
    query sees keys up to its own position) replace masked logits by a large negative number.
    Fewer key/value heads than query heads are repeated to match (grouped-query attention).
    The softmax runs in at least float32; the result has the inputs' promoted dtype.

    Raises:
        ValueError: for inputs that are not 4-D, `flash_attention=True` or a soft cap (which
            Keras' TensorFlow backend refuses too).
    """
    if flash_attention:
        raise ValueError("dot_product_attention: flash_attention is not supported on "
                         "TensorFlow's backend; leave flash_attention=None")
    if attn_logits_soft_cap is not None:
        raise ValueError("dot_product_attention: attn_logits_soft_cap is only supported by "
                         "JAX on TPU; leave it None")
    q, k, v = array(query), array(key), array(value)
    if q.ndim != 4:
        raise ValueError(f"dot_product_attention: query, key and value must be 4-D "
                         f"(batch, length, heads, size), got query shape {q.shape}")
    dtype = _dtypes.result_type(q.dtype.name, k.dtype.name, v.dtype.name)
    q, k, v = (t.astype(dtype) for t in (q, k, v))
    heads, kv_heads = q.shape[2], k.shape[2]
    if heads != kv_heads:
        if heads % kv_heads:
            raise InvalidArgumentError(f"dot_product_attention: {heads} query heads cannot "
                                       f"share {kv_heads} key/value heads evenly")
        k, v = (np.repeat(t, heads // kv_heads, axis=2) for t in (k, v))
    logits_dtype = _dtypes.result_type(dtype, "float32")
    logits = np.einsum("btnh,bsnh->bnts", q, k).astype(logits_dtype)
    if scale is None:
        scale = np.float32(1.0) / np.sqrt(np.float32(k.shape[-1]))
    logits = logits * np.asarray(scale, logits_dtype)
    if bias is not None:
        logits = logits + array(bias, dtype).astype(logits_dtype)
    keep = np.ones(logits.shape, bool)
    if mask is not None:
        keep &= array(mask).astype(bool)
    if is_causal:
        keep &= np.tril(np.ones(logits.shape[-2:], bool))
    if mask is not None or is_causal:
        logits = np.where(keep, logits, _large_negative(logits_dtype))
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probabilities = (shifted / shifted.sum(axis=-1, keepdims=True)).astype(dtype)
    return np.einsum("bnts,bsnh->btnh", probabilities, v).astype(dtype)


@plain
def polar(abs_, angle):
    """The complex numbers abs_ * (cos(angle) + i sin(angle)) (floats only, as TensorFlow).

    >>> import feedline as fl
    >>> fl.keras.ops.polar(fl.constant([2.0]), fl.constant([0.0])).numpy().tolist()
    [(2+0j)]

    Raises:
        ValueError: for integer inputs or shapes that differ.
    """
    magnitude, angle = array(abs_), array(angle)
    if magnitude.dtype.kind != "f" or angle.dtype.kind != "f":
        raise ValueError(f"polar: abs_ and angle must be floats, got {magnitude.dtype} and "
                         f"{angle.dtype}; cast them first")
    real, imaginary = magnitude * np.cos(angle), magnitude * np.sin(angle)
    if real.shape != imaginary.shape:
        raise ValueError(f"polar: abs_ and angle must have the same shape, got "
                         f"{magnitude.shape} and {angle.shape}")
    return (real + 1j * imaginary).astype("complex128" if real.dtype == np.float64
                                           else "complex64")


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
