"""`Generator`: a random-number generator whose state is a Philox counter and key.

The state is three int64 numbers, `[counter low, counter high, key]`, as in TensorFlow.
`Generator.from_seed(s)` starts at `[s, 0, 0]`; each call reads the stream from the current
counter and moves it on by 256 per value drawn, as TensorFlow's `rng_read_and_skip` does, so
the values are TensorFlow's: `Generator.from_seed(1234).normal([2, 3])` gives the numbers
printed in TensorFlow's documentation.

>>> import feedline as fl
>>> g = fl.random.Generator.from_seed(1234)
>>> g.normal([2, 3])
<tf.Tensor: shape=(2, 3), dtype=float32, numpy=
array([[ 0.9356609 ,  1.0854305 , -0.93788373],
       [-0.5061547 ,  1.3169702 ,  0.7137579 ]], dtype=float32)>
>>> g.state.tolist()
[2770, 0, 0]
"""

import secrets
import threading

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..ops._convert import _as_array, _result
from ..ops._eager import returns_tensors
from . import distributions
from .ops import _FLOATS, _INTS, _float_dtype, _scalar, _shape

_M64 = (1 << 64) - 1
_STATE_SIZE = 3
_PHILOX = 1  # tf.random.Algorithm.PHILOX


def _check_alg(alg):
    if alg not in (None, _PHILOX, "philox", "PHILOX", "auto_select"):
        raise ValueError(f"alg must be 'philox' (Feedline has no ThreeFry), got {alg!r}")


def _state_from_seed(seed):
    """TensorFlow's state for a seed: an int is cut into 64-bit words from the lowest; a list
    is cut to three words and padded with zeros on the left."""
    if isinstance(seed, (int, np.integer)):
        seed = int(seed)
        words = [(seed >> (64 * index)) & _M64 for index in range(_STATE_SIZE)]
    else:
        words = [int(word) & _M64 for word in np.asarray(seed).reshape(-1).tolist()]
        words = [0] * (_STATE_SIZE - len(words[:_STATE_SIZE])) + words[:_STATE_SIZE]
    return np.array(words, dtype=np.uint64).view(np.int64)


class Generator:
    """A stateful generator with TensorFlow's `tf.random.Generator` methods (Philox only)."""

    def __init__(self, copy_from=None, state=None, alg=None):
        _check_alg(alg)
        if copy_from is not None:
            state = copy_from.state
        if state is None:
            raise ValueError("Generator needs copy_from= or state=; or use Generator.from_seed")
        state = np.asarray(_as_array(state, "state")).astype(np.int64).reshape(-1)
        if state.shape != (_STATE_SIZE,):
            raise ValueError(f"state must hold 3 int64 numbers (counter, counter, key), got "
                             f"shape {list(state.shape)}")
        self._state = state.copy()
        self._lock = threading.Lock()

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose stream is fixed by `seed` (an int, or a list of ints)."""
        return cls(state=_state_from_seed(seed), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        """A generator starting from `state`."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        """A generator with Philox `key` (one int) and `counter` (two ints)."""
        words = list(np.asarray(counter).reshape(-1).tolist()) + [int(key)]
        return cls(state=_state_from_seed(words), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's randomness."""
        return cls(state=_state_from_seed(secrets.randbits(64 * _STATE_SIZE)), alg=alg)

    @property
    def state(self):
        """The state `[counter low, counter high, key]`, int64 (a copy)."""
        return self._state.copy()

    @property
    def algorithm(self):
        return _PHILOX

    @property
    def key(self):
        return self._state[-1]

    def reset(self, state):
        self._state = Generator(state=state)._state

    def reset_from_seed(self, seed):
        self._state = _state_from_seed(seed)

    def skip(self, delta):
        """Move the stream on as drawing `delta` values would; returns the state before."""
        with self._lock:
            before = self._state.copy()
            low, high, _ = (int(word) for word in before.view(np.uint64))
            counter = ((high << 64 | low) + int(delta) * 256) & ((1 << 128) - 1)
            self._state[:2] = np.array([counter & _M64, counter >> 64],
                                       dtype=np.uint64).view(np.int64)
        return before

    def _draw(self, sample, shape, dtype, *bounds):
        dims = _shape(shape)
        size = int(np.prod(dims, dtype=np.int64))
        low, high, key = (int(word) for word in self.skip(size).view(np.uint64))
        return sample(int(key), high << 64 | low, dtype, size, *bounds).reshape(dims)

    @returns_tensors
    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform values in `[minval, maxval)` (floats: [0, 1) by default; integers need
        both bounds, or neither for the whole range).

        >>> g = Generator.from_seed(1)
        >>> g.uniform([2], 0, 10, dtype="int64").dtype
        tf.int64
        """
        dtype = dtypes.as_dtype(dtype)
        if dtype not in _FLOATS + _INTS:
            raise ValueError(f"uniform: dtype must be a float or int32/int64, got {dtype}")
        if dtype in _INTS:
            if (minval is None) != (maxval is None):
                raise ValueError(f"uniform: for integer dtype {dtype.name}, minval and maxval "
                                 f"must be both None or both given; got minval={minval} and "
                                 f"maxval={maxval}")
            if minval is None:
                return self.uniform_full_int(shape, dtype)
            low, high = _scalar(minval, dtype, "minval"), _scalar(maxval, dtype, "maxval")
            if not low < high:
                raise InvalidArgumentError(f"uniform: need minval < maxval, got {low} >= {high}")
            return _result(self._draw(distributions.uniform, shape, dtype, int(low), int(high)))
        maxval = 1 if maxval is None else maxval
        low, high = _scalar(minval, dtype, "minval"), _scalar(maxval, dtype, "maxval")
        values = self._draw(distributions.uniform, shape, dtype) * (high - low) + low
        return _result(np.asarray(values, dtype=dtype))

    @returns_tensors
    def uniform_full_int(self, shape, dtype=np.uint64, name=None):
        """Integers over the whole range of `dtype` (uint64 by default)."""
        return _result(self._draw(distributions.full_int, shape, np.dtype(dtype)))

    def _scaled(self, draw, what, shape, mean, stddev, dtype):
        """`draw`'s standard values `* stddev + mean`, as float `dtype`."""
        dtype = _float_dtype(dtype, what)
        values = self._draw(draw, shape, dtype)
        values = values * _scalar(stddev, dtype, "stddev") + _scalar(mean, dtype, "mean")
        return _result(np.asarray(values, dtype=dtype))

    @returns_tensors
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal values: `standard normal * stddev + mean`."""
        return self._scaled(distributions.normal, "normal", shape, mean, stddev, dtype)

    @returns_tensors
    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal values within two `stddev` of `mean`."""
        return self._scaled(distributions.truncated_normal, "truncated_normal", shape, mean,
                            stddev, dtype)

    @returns_tensors
    def make_seeds(self, count=1):
        """Seeds for stateless ops, shape `[2, count]` int64: column `i` is one `seed=`.

        >>> seeds = Generator.from_seed(3).make_seeds(4)
        >>> seeds.shape, seeds.dtype, seeds[1].tolist()
        (TensorShape([2, 4]), tf.int64, [0, 0, 0, 0])
        """
        keys = self.uniform_full_int([count], np.int64)
        return np.stack([keys, np.zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators, each keyed by a fresh number of this one."""
        keys = self.uniform_full_int([count], np.int64).tolist()
        return [Generator(state=[0, 0, key]) for key in keys]


_global = [None]
_global_lock = threading.Lock()


def get_global_generator():
    """The global generator, made from non-deterministic state on first use.

    As in TensorFlow, `set_seed` does not touch it; use `set_global_generator(
    Generator.from_seed(s))` for a reproducible one.
    """
    with _global_lock:
        if _global[0] is None:
            _global[0] = Generator.from_non_deterministic_state()
        return _global[0]


def set_global_generator(generator):
    """Replace the global generator (later `get_global_generator()` calls return it)."""
    if not isinstance(generator, Generator):
        raise TypeError(f"generator must be a feedline.random.Generator, got "
                        f"{type(generator).__name__}")
    with _global_lock:
        _global[0] = generator


@returns_tensors
def create_rng_state(seed, alg):
    """The state (int64, 3 words for Philox) a `Generator` starts from for `seed` (an int, cut
    into 64-bit words from the lowest, or a 1-D list of words).

    Raises:
        ValueError: for an algorithm other than Philox (Feedline has no ThreeFry).

    >>> create_rng_state(1234, "philox")
    <tf.Tensor: shape=(3,), dtype=int64, numpy=array([1234,    0,    0])>
    """
    _check_alg(alg)
    return _state_from_seed(seed)
