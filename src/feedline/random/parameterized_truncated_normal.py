"""`stateless_parameterized_truncated_normal`: normal values cut to `[minvals, maxvals]`, each
output with its own mean, standard deviation and bounds (broadcast together), fixed by a seed.

The sampler is TensorFlow's CPU kernel's (`feedline.random.truncated_normal_kernel`) on the
stream `stateless_normal` reads for the same seed. Values were checked against an independent
recomputation of that algorithm from the Philox outputs, not against numbers printed by
TensorFlow. TensorFlow splits large outputs between threads (each starting further on in the
stream, where depends on the machine); its values equal Feedline's when it runs one thread,
which it does for small outputs.

>>> import feedline as fl
>>> y = fl.random.stateless_parameterized_truncated_normal(
...     shape=[10, 2, 3], seed=[7, 17], means=0.0, stddevs=[[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]],
...     minvals=[-1.0, -2.0, -1000.0], maxvals=[[10000.0], [1.0]])
>>> y.shape, y.dtype
(TensorShape([10, 2, 3]), tf.float32)
"""

import numpy as np

from ..errors import InvalidArgumentError
from ..ops._convert import _as_array, _result
from ..ops._eager import returns_tensors
from .ops import _shape
from . import truncated_normal_kernel as kernel
from .stateless import key_counter


def _parameter(value, name):
    array = np.asarray(_as_array(value, name))
    if array.dtype.kind != "f":
        raise TypeError(f"stateless_parameterized_truncated_normal: {name} must be a float "
                        f"tensor, got dtype {array.dtype}; write {name}=float(...)")
    return array


@returns_tensors
def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0,
                                             minvals=-2.0, maxvals=2.0, name=None):
    """Truncated normal values of `shape`, each from its own (broadcast) parameters.

    Args:
        shape: the output shape; it must end with the shape the four parameters broadcast to.
        seed: two integers, as for `stateless_uniform`.
        means, stddevs, minvals, maxvals: the normal's mean and standard deviation, and
            the interval kept (float tensors of one dtype; Python floats are float32).
        name: ignored.

    Returns:
        A tensor of `shape` and the parameters' dtype.

    Raises:
        InvalidArgumentError: when the parameters do not broadcast to a shape `shape` ends
            with, or (TensorFlow's "Invalid parameters") a `stddevs` is not positive, a
            `minvals` is not below its `maxvals`, or both bounds are infinite.

    >>> import feedline as fl
    >>> x = fl.random.stateless_parameterized_truncated_normal([1000], [1, 2], minvals=0.5)
    >>> bool((x.numpy() >= 0.5).all() and (x.numpy() <= 2).all())
    True
    """
    what = "stateless_parameterized_truncated_normal"
    params = [_parameter(v, n) for v, n in ((means, "means"), (stddevs, "stddevs"),
                                            (minvals, "minvals"), (maxvals, "maxvals"))]
    dtype = np.result_type(*params)
    dims = _shape(shape)
    try:
        both = np.broadcast_shapes(*(p.shape for p in params))
    except ValueError:
        raise InvalidArgumentError(
            f"{what}: means, stddevs, minvals, maxvals must have compatible batch dimensions: "
            f"{' vs. '.join(str(list(p.shape)) for p in params)}") from None
    if len(both) > len(dims) or dims[len(dims) - len(both):] != both:
        raise InvalidArgumentError(
            f"{what}: shape must end with the parameters' broadcast shape: shape {list(dims)} "
            f"does not end with {list(both)}; write shape={[*dims, *both]}")
    flat = [np.broadcast_to(p.astype(dtype), both).reshape(-1) for p in params]
    mean, std, low, high = flat
    valid = (std > 0) & (low < high) & (np.isfinite(low) | np.isfinite(high))
    if not valid.all():
        raise InvalidArgumentError(f"{what}: Invalid parameters: each stddevs must be > 0, "
                                   "minvals < maxvals, and one bound at least finite")
    key, counter = key_counter(seed)
    size = int(np.prod(dims, dtype=np.int64))
    if size == 0:
        return _result(np.zeros(dims, dtype))
    values = kernel.samples(key, counter, dtype, size // max(mean.size, 1), *flat)
    return _result(values.reshape(dims))
