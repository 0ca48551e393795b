"""`log_uniform_candidate_sampler`: TensorFlow's sampler of negative classes for sampled
softmax and word2vec's negative sampling, with its distribution and expected counts.

Class `k` in `[0, range_max)` is drawn with probability

    P(k) = (log(k + 2) - log(k + 1)) / log(range_max + 1)

(small ids, the frequent words of a vocabulary sorted by frequency, are drawn most). A draw
takes `u` uniform in [0, 1) and keeps the integer part of `exp(u log(range_max + 1)) - 1`.

The expected counts say how often a class is expected among the `num_sampled` candidates
(TensorFlow's `range_sampler.cc`, in float32 as there):
- `unique=False`: `P(k) * num_sampled`;
- `unique=True`: draws that repeat a class are rejected until `num_sampled` distinct ones are
  found after `tries` draws; the count is `1 - (1 - P(k)) ** tries` (and `P(k) * num_sampled`
  when no draw was rejected, as TensorFlow does).

The candidates cannot equal TensorFlow's for the same seed (its kernel's random stream is
internal to it); their distribution is the same. As in TensorFlow's eager mode, two calls with
the same `seed` give different candidates, and `fl.random.set_seed` starts them again.

>>> import feedline as fl
>>> sampled, true_count, sampled_count = fl.random.log_uniform_candidate_sampler(
...     [[1], [4]], num_true=1, num_sampled=3, unique=True, range_max=10, seed=7)
>>> sampled.dtype, sampled.shape, true_count.shape, sampled_count.dtype
(tf.int64, TensorShape([3]), TensorShape([2, 1]), tf.float32)
>>> len(set(sampled.numpy().tolist()))
3
"""

import numpy as np

from ..errors import InvalidArgumentError
from ..ops._convert import _result
from ..ops._eager import returns_tensors


def log_uniform_probability(classes, range_max):
    """P(k) of the log-uniform (Zipfian) sampler, float32 as TensorFlow computes it."""
    classes = np.asarray(classes, np.float64)
    return (np.log((classes + 2.0) / (classes + 1.0)) / np.log1p(range_max)).astype(np.float32)


def expected_count(probability, num_sampled, tries):
    """How often a class of `probability` is expected among the candidates (see module)."""
    probability = np.asarray(probability, np.float32)
    if tries == num_sampled:  # unique=False, or unique=True without a rejected draw
        return probability * np.float32(num_sampled)
    return -np.expm1(np.float32(tries) * np.log1p(-probability))


def _positive(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidArgumentError(f"log_uniform_candidate_sampler: {name} must be an int >= 1, "
                                   f"got {name}={value!r}")
    return int(value)


def _true_classes(true_classes, num_true):
    from ..tensor import Tensor

    dtype = getattr(true_classes, "dtype", None)
    # A tensor keeps its dtype (TensorFlow refuses an int32 one); Python and NumPy values
    # convert to the op's int64.
    if (isinstance(true_classes, Tensor) or hasattr(true_classes, "assign")) \
            and dtype != np.int64:
        raise InvalidArgumentError(
            f"log_uniform_candidate_sampler: true_classes must be an int64 tensor, got "
            f"{dtype}; write fl.cast(true_classes, fl.int64)")
    classes = np.asarray(true_classes)
    if classes.dtype.kind not in "iu":
        raise InvalidArgumentError("log_uniform_candidate_sampler: true_classes must hold "
                                   f"integer class ids, got dtype {classes.dtype}")
    if classes.ndim != 2:
        raise InvalidArgumentError("log_uniform_candidate_sampler: true_classes must be a "
                                   f"matrix (batch_size, num_true), got shape {classes.shape}")
    if classes.shape[1] != num_true:
        raise InvalidArgumentError(
            f"log_uniform_candidate_sampler: true_classes must have num_true columns, expected "
            f"{num_true}, got {classes.shape[1]}")
    return classes.astype(np.int64)


def _generator(seed):
    """A NumPy generator for one call, drawn from the op's seeded stream (see module)."""
    from .ops import _reserve

    key, counter = _reserve("LogUniformCandidateSampler", seed, "int64", 1)
    return np.random.default_rng([key, counter >> 64, counter & (2**64 - 1)])


def _draw(rng, count, range_max):
    log_range = np.log1p(range_max)
    values = np.exp(rng.random(count) * log_range).astype(np.int64) - 1
    return values % range_max  # guards against round-off at the top, as TensorFlow does


def _sample(rng, num_sampled, unique, range_max):
    """The candidates and the number of draws it took."""
    return sample(lambda count: _draw(rng, count, range_max), num_sampled, unique)


def sample(draw, num_sampled, unique):
    """`num_sampled` candidates from `draw(count)` (an int64 array of `count` draws), with
    repeats rejected when `unique`; and the number of draws it took."""
    if not unique:
        return draw(num_sampled), num_sampled
    picked, seen, tries = [], set(), 0
    while len(picked) < num_sampled:
        # Draw in blocks (one NumPy call each), but count tries up to the last kept draw only.
        for value in draw(max(num_sampled - len(picked), 16)).tolist():
            tries += 1
            if value not in seen:
                seen.add(value)
                picked.append(value)
                if len(picked) == num_sampled:
                    break
    return np.array(picked, np.int64), tries


@returns_tensors
def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """Draw `num_sampled` class ids from the log-uniform distribution over `[0, range_max)`.

    Args:
        true_classes: int64 `(batch_size, num_true)`: each row's target classes.
        num_true: the number of targets per row (columns of `true_classes`).
        num_sampled: how many candidates to draw (for the whole batch).
        unique: True draws without repetition (rejecting repeats).
        range_max: the number of classes.
        seed: the op seed (with `fl.random.set_seed`'s global seed, as in TensorFlow).
        name: accepted for TensorFlow's signature.

    Returns:
        `(sampled_candidates, true_expected_count, sampled_expected_count)`: int64
        `(num_sampled,)`, float32 `(batch_size, num_true)`, float32 `(num_sampled,)`.

    Raises:
        InvalidArgumentError: for a `true_classes` that is not an int64 matrix with
            `num_true` columns, counts below 1, or `unique=True` with
            `num_sampled > range_max`.

    >>> import feedline as fl
    >>> _, true_count, _ = fl.random.log_uniform_candidate_sampler(
    ...     [[0]], 1, num_sampled=4, unique=False, range_max=3, seed=1)
    >>> round(float(true_count[0, 0]), 4)  # 4 * log(2) / log(4)
    2.0
    """
    num_true, num_sampled = _positive(num_true, "num_true"), _positive(num_sampled,
                                                                       "num_sampled")
    range_max = _positive(range_max, "range_max")
    classes = _true_classes(true_classes, num_true)
    if unique and num_sampled > range_max:
        raise InvalidArgumentError(
            f"log_uniform_candidate_sampler: the sampler's range is too small: unique=True "
            f"needs num_sampled <= range_max, got {num_sampled} > {range_max}")
    sampled, tries = _sample(_generator(seed), num_sampled, bool(unique), range_max)
    true_count = expected_count(log_uniform_probability(classes, range_max), num_sampled, tries)
    sampled_count = expected_count(log_uniform_probability(sampled, range_max), num_sampled,
                                   tries)
    return (_result(sampled), _result(true_count.astype(np.float32)),
            _result(sampled_count.astype(np.float32)))
