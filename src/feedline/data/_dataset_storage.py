"""Where `Dataset`'s elements are kept: a buffer filled ahead of the consumer (`prefetch`),
a copy replayed on later epochs (`cache`), and files on disk (`save` and `load`, `snapshot`).

`Dataset` takes these methods from `StorageMixin`. `prefetch` and `cache` build the datasets of
their modules under `feedline.data.ops`; those modules subclass `Dataset`, which is built from
this mixin, so this module gets them, and `Dataset` itself, only once `Dataset` exists:
`feedline.data.dataset` then calls `_import_late()`.
"""

from . import debug_mode


class StorageMixin:
    """`prefetch`, `cache`, `save`, `load` and `snapshot` for `Dataset` (see the module)."""

    def prefetch(self, buffer_size, name=None):
        """Produce up to `buffer_size` elements ahead in a background thread (AUTOTUNE: a
        buffer that grows while the consumer has to wait; 0: no prefetching).

        >>> [int(x) for x in Dataset.range(4).prefetch(2)]
        [0, 1, 2, 3]
        """
        if debug_mode.DEBUG_MODE:  # no background thread (see data.debug_mode)
            return self
        return prefetch.PrefetchDataset(self, buffer_size)

    def cache(self, filename="", name=None):
        """Keep the elements of the first complete epoch and replay them later: in memory, or
        in the file `<filename>.cache` that later runs reuse. A partial epoch is discarded.

        >>> ds = Dataset.range(3).map(lambda x: x * 2).cache()
        >>> [int(x) for x in ds], [int(x) for x in ds]
        ([0, 2, 4], [0, 2, 4])
        """
        return cache.CacheDataset(self, filename)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Write every element under the directory `path`, for `Dataset.load` (TFRecord shards
        of serialized NumPy values, and a `DONE` marker written last; see
        `feedline.data.ops.save_load`).

        >>> import tempfile
        >>> folder = tempfile.mkdtemp() + "/saved"
        >>> Dataset.range(3).map(lambda x: (x, {"name": b"n"})).save(folder)
        >>> [(int(x), d["name"]) for x, d in Dataset.load(folder).as_numpy_iterator()]
        [(0, b'n'), (1, b'n'), (2, b'n')]
        """
        from .ops import save_load

        save_load.save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        """The dataset that `Dataset.save` wrote at `path`; a `path` whose write did not
        complete is an error. Its iterators can be checkpointed. `wait` (TensorFlow's wait
        for a distributed save still being written) changes nothing here: feedline has no
        distributed save, so a save is complete or an error."""
        from .ops import save_load

        return save_load.load(path, element_spec, compression, reader_func)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
        """Write the elements under `path` on the first complete pass and read them on later
        passes (and in later runs); a changed pipeline above writes a new snapshot.

        >>> import tempfile
        >>> ds = Dataset.range(3).map(lambda x: x * 2).snapshot(tempfile.mkdtemp())
        >>> [int(x) for x in ds], [int(x) for x in ds]
        ([0, 2, 4], [0, 2, 4])
        """
        from .ops import snapshot

        return snapshot.SnapshotDataset(self, path, compression, reader_func, shard_func)


def _import_late():
    """Import `Dataset` (the examples above use it) and the modules of `cache` and `prefetch`:
    those import `feedline.data.dataset`, so this module can import them only once `Dataset`
    exists."""
    global Dataset, cache, prefetch
    from .dataset import Dataset
    from .ops import cache, prefetch
