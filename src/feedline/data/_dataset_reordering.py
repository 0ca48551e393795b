"""The transformations of `Dataset` that change which elements come and in what order, not
the elements themselves: `shuffle`, `repeat`, `take`, `skip`, `shard`, `concatenate`.

`Dataset` takes these methods from `ReorderingMixin`. Each builds the dataset of its module
under `feedline.data.ops`; those modules subclass `Dataset`, which is built from this mixin, so
this module gets them, and `Dataset` itself, only once `Dataset` exists: `feedline.data.dataset`
then calls `_import_late()`.
"""


class ReorderingMixin:
    """The reordering and slicing transformations of `Dataset` (see the module docstring)."""

    # -- reordering and slicing --------------------------------------------------------------

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        """Shuffle with a buffer: fill `buffer_size` elements, yield a random one, refill.

        The orders are TensorFlow's for the same `buffer_size`, `seed` and global seed
        (`feedline.random.set_seed`), epoch by epoch: each epoch is shuffled afresh unless
        `reshuffle_each_iteration=False`. `buffer_size=UNKNOWN_CARDINALITY` holds everything.

        >>> ds = Dataset.range(10).repeat(2).shuffle(buffer_size=4, seed=42).batch(7)
        >>> [batch.tolist() for batch in ds]
        [[1, 4, 2, 3, 5, 0, 6], [9, 8, 2, 0, 3, 1, 4], [5, 7, 9, 6, 7, 8]]
        >>> fixed = Dataset.range(5).shuffle(5, seed=1, reshuffle_each_iteration=False)
        >>> [int(x) for x in fixed] == [int(x) for x in fixed]
        True
        """
        return shuffle.ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        """Repeat the dataset `count` times (`None` or -1: forever).

        >>> [int(x) for x in Dataset.range(2).repeat(2)]
        [0, 1, 0, 1]
        """
        return repeat.RepeatDataset(self, count)

    def take(self, count, name=None):
        """The first `count` elements (-1: all)."""
        return take_skip.TakeDataset(self, count)

    def skip(self, count, name=None):
        """All but the first `count` elements (-1: skip everything)."""
        return take_skip.SkipDataset(self, count)

    def shard(self, num_shards, index, name=None):
        """Every `num_shards`-th element, starting at `index`.

        >>> [int(x) for x in Dataset.range(10).shard(3, 1)]
        [1, 4, 7]
        """
        return shard.ShardDataset(self, num_shards, index)

    def concatenate(self, dataset, name=None):
        """The elements of `self`, then those of `dataset` (same structure and dtypes)."""
        return concatenate.ConcatenateDataset(self, dataset)


def _import_late():
    """Import `Dataset` (the examples above use it) and the transformation modules the methods
    build datasets of: those import `feedline.data.dataset`, so this module can import them only
    once `Dataset` exists."""
    global Dataset, concatenate, repeat, shard, shuffle, take_skip
    from .dataset import Dataset
    from .ops import concatenate, repeat, shard, shuffle, take_skip
