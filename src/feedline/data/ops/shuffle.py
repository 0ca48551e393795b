"""`Dataset.shuffle`: the buffer algorithm.

Fill a buffer with the first `buffer_size` elements. Then repeatedly yield a uniformly chosen
buffer slot and put the next input element in its place. When the input ends, empty the buffer
in random order. A small buffer only mixes nearby elements; a buffer as large as the dataset
gives a uniform permutation.
"""

import itertools

import numpy as np

from ..dataset import UnaryDataset

_RANDOM_BLOCK = 1024  # uniform numbers drawn at once: one Generator call per element is slow


class ShuffleDataset(UnaryDataset):
    _stage = "shuffle"
    _same_spec = True
    _same_cardinality = True

    def __init__(self, input_dataset, buffer_size, seed=None, reshuffle_each_iteration=True):
        buffer_size = int(buffer_size)
        if buffer_size < 1:
            raise ValueError(f"shuffle buffer_size must be at least 1, got {buffer_size}")
        super().__init__(input_dataset)
        self._buffer_size = buffer_size
        # Without a seed, pick one now, so reshuffle_each_iteration=False repeats one order.
        self._seed = np.random.SeedSequence().entropy if seed is None else int(seed)
        self._reshuffle = bool(reshuffle_each_iteration)
        self._epochs = itertools.count()

    def _make_iterator(self):
        epoch = next(self._epochs) if self._reshuffle else 0
        rng = np.random.default_rng([self._seed, epoch])
        return _shuffle(self._input._iterator(), self._buffer_size, rng)


def _shuffle(elements, buffer_size, rng):
    shuffle_buffer = list(itertools.islice(elements, buffer_size))
    uniforms = iter(())
    for element in elements:
        draw = next(uniforms, None)
        if draw is None:
            uniforms = iter(rng.random(_RANDOM_BLOCK).tolist())
            draw = next(uniforms)
        slot = int(draw * len(shuffle_buffer))
        yield shuffle_buffer[slot]
        shuffle_buffer[slot] = element
    order = rng.permutation(len(shuffle_buffer)).tolist()
    for slot in order:
        yield shuffle_buffer[slot]
