"""`fl.keras.random`: Keras 3's random functions, with the values Keras gives on the TensorFlow
backend.

Every function takes `seed=` an int (the same values on every call), a `SeedGenerator` (the
next values on every call) or None (a process-wide generator), turns it into a stateless seed
by Keras' rules (`feedline.random.seed_generator`) and calls the TensorFlow op the TensorFlow
backend calls: `uniform` -> `stateless_uniform`, `normal` -> `stateless_normal`,
`truncated_normal` -> `stateless_truncated_normal`, `randint` -> integer `stateless_uniform`,
`categorical` -> `stateless_categorical`, `dropout` -> `stateless_dropout`, `shuffle` ->
`stateless_shuffle`. Float results default to `keras.backend.floatx()`.

>>> import feedline as fl
>>> gen = fl.keras.random.SeedGenerator(42)
>>> first = fl.keras.random.uniform([2], seed=gen)
>>> bool((first == fl.random.stateless_uniform([2], seed=[42, 0])).numpy().all())
True
>>> bool((fl.keras.random.uniform([2], seed=gen) == first).numpy().all())  # moved on
False
"""

import numpy as np

from .. import dtypes
from ..random import stateless
from ..random.seed_generator import SeedGenerator, tf_seed
from ..random.stateless_more import stateless_dropout, stateless_shuffle
from .backend import floatx

__all__ = ["SeedGenerator", "uniform", "normal", "truncated_normal", "randint",
           "categorical", "dropout", "shuffle"]


def _float_dtype(dtype, function):
    name = floatx() if dtype is None else dtypes.as_dtype(dtype).name
    if dtypes.as_dtype(name).kind != "f":
        raise ValueError(f"`keras.random.{function}` requires a floating point `dtype`. "
                         f"Received: dtype={dtype}")
    return name


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform floats in `[minval, maxval)`.

    Raises:
        ValueError: for a non-float `dtype`.

    >>> bool((uniform([3], 2.0, 4.0, seed=1) >= 2.0).numpy().all())
    True
    """
    dtype = _float_dtype(dtype, "uniform")
    return stateless.stateless_uniform(shape, seed=tf_seed(seed), minval=np.asarray(
        minval, dtype), maxval=np.asarray(maxval, dtype), dtype=dtype)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal floats with `mean` and `stddev`.

    >>> normal([2, 3], seed=5).shape
    TensorShape([2, 3])
    """
    dtype = _float_dtype(dtype, "normal")
    return stateless.stateless_normal(shape, seed=tf_seed(seed), mean=mean, stddev=stddev,
                                      dtype=dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal floats within two `stddev` of `mean`.

    >>> bool((abs(truncated_normal([100], seed=2)) <= 2).numpy().all())
    True
    """
    dtype = _float_dtype(dtype, "truncated_normal")
    return stateless.stateless_truncated_normal(shape, seed=tf_seed(seed), mean=mean,
                                                stddev=stddev, dtype=dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers in `[minval, maxval)`; drawn as int64 for integer dtypes other than int32/int64.

    Raises:
        ValueError: for a float `dtype`.

    >>> randint([3], 0, 10, seed=1).dtype
    tf.int32
    """
    wanted = dtypes.as_dtype(dtype)
    if wanted.kind not in "iu":
        raise ValueError(f"`keras.random.randint` requires an integer `dtype`. Received: "
                         f"dtype={dtype}")
    drawn = wanted if wanted.name in ("int32", "int64") else np.dtype(np.int64)
    values = stateless.stateless_uniform(shape, seed=tf_seed(seed), minval=minval,
                                         maxval=maxval, dtype=drawn)
    return values if drawn == wanted else values.astype(wanted)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """`num_samples` class ids per row of the 2-D `logits`.

    Raises:
        ValueError: when `logits` is not 2-D.

    >>> categorical([[0.0, -np.inf]], 3, seed=1).numpy().tolist()
    [[0, 0, 0]]
    """
    if np.ndim(logits) != 2:
        raise ValueError(f"`logits` should be a 2-D tensor with shape [batch_size, "
                         f"num_classes]. Received: logits={logits!r}")
    drawn = stateless.stateless_categorical(logits, num_samples, seed=tf_seed(seed))
    return drawn.astype(dtypes.as_dtype(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    """`inputs` with a fraction `rate` zeroed and the rest scaled by `1 / (1 - rate)`;
    None entries of `noise_shape` take the inputs' size on that axis.

    >>> sorted(set(dropout(np.ones(10, np.float32), 0.5, seed=3).numpy().tolist()))
    [0.0, 2.0]
    """
    seed = tf_seed(seed)
    if noise_shape is not None:
        sizes = np.shape(inputs)
        noise_shape = [sizes[axis] if size is None else size
                       for axis, size in enumerate(noise_shape)]
    return stateless_dropout(inputs, rate=rate, seed=seed, noise_shape=noise_shape)


def shuffle(x, axis=0, seed=None):
    """`x` shuffled along `axis` (whole slices move).

    >>> sorted(shuffle(np.arange(5), seed=7).tolist())
    [0, 1, 2, 3, 4]
    """
    seed = tf_seed(seed)
    if axis == 0:
        return stateless_shuffle(x, seed=seed)
    moved = np.swapaxes(np.asarray(x), 0, axis)
    return np.swapaxes(stateless_shuffle(moved, seed=seed), 0, axis)
