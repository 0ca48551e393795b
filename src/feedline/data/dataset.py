"""`Dataset`: an immutable description of a pipeline; iterating it runs one epoch.

Each transformation lives in its own module under `feedline.data.ops`; the methods here only
document the public API and build the matching dataset object.
"""

import numpy as np

from ..errors import OutOfRangeError
from ..random.seed import peeking
from . import debug_mode, structure
from .options import Options, OptionsScopedIterator
from .spec import spec_of
from ..tensor import as_tensors

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2

# Functions `(dataset, iterator) -> iterator` applied to every stage's iterator as it is made.
# `feedline.perf` installs one while tracing; with none installed iteration costs nothing extra.
iterator_hooks = []

_DEFAULT_OPTIONS = Options()
_NOTHING = object()


class Dataset:
    """A sequence of elements, described lazily; `iter(dataset)` starts a fresh epoch.

    >>> ds = Dataset.range(6).map(lambda x: x * 10).batch(4)
    >>> [batch.tolist() for batch in ds]
    [[0, 10, 20, 30], [40, 50]]
    """

    #: Datasets this one reads from (used for options, tracing and cardinality).
    _inputs = ()
    #: The name of this stage in timelines and error messages.
    _stage = "dataset"

    # -- what a subclass provides ------------------------------------------------------------

    def _make_iterator(self):
        """A fresh Python iterator over this dataset's elements."""
        raise NotImplementedError

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _element_spec(self):
        """The spec of one element; by default found by looking at the first element."""
        with peeking():  # a look, not an epoch: seeded ops keep their sequence of orders
            iterator = self._iterator()
        try:
            with peeking():
                first = next(iterator)
        except StopIteration:
            raise ValueError(f"cannot infer the element_spec of an empty {self._stage} dataset; "
                             "give an output_signature") from None
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                close()
        return spec_of(first)

    # -- iteration ---------------------------------------------------------------------------

    def _iterator(self):
        iterator = self._make_iterator()
        for hook in iterator_hooks:
            iterator = hook(self, iterator)
        return iterator

    def __iter__(self):
        """An iterator handing out elements as `feedline.Tensor`s, NumPy arrays that also
        have TensorFlow's `.numpy()` and printed form (see `feedline.tensor`)."""
        return Iterator(self, tensors=True)

    def as_numpy_iterator(self):
        """An iterator over the elements as plain NumPy values (strings as `bytes`)."""
        return Iterator(self)

    def __bool__(self):
        return True

    def __len__(self):
        size = self.cardinality()
        if size == INFINITE_CARDINALITY:
            raise TypeError("the dataset is infinite")
        if size == UNKNOWN_CARDINALITY:
            raise TypeError("the dataset length is unknown")
        return int(size)

    def __repr__(self):
        """`<_MapDataset element_spec=...>`, as TensorFlow shows it (see `data.display`)."""
        from .display import describe

        return describe(self)

    # -- properties --------------------------------------------------------------------------

    def cardinality(self):
        """Number of elements, or `INFINITE_CARDINALITY` (-1) or `UNKNOWN_CARDINALITY` (-2),
        as a scalar int64 tensor (TensorFlow's type: `.numpy()` works, so do `int()` and `==`).

        >>> Dataset.range(10).batch(3).cardinality()
        <tf.Tensor: shape=(), dtype=int64, numpy=4>
        """
        return as_tensors(np.int64(self._cardinality()))

    @property
    def element_spec(self):
        """The `TensorSpec` structure of one element."""
        cached = self.__dict__.get("_cached_spec")
        if cached is None:
            cached = self._element_spec()
            self.__dict__["_cached_spec"] = cached
        return cached

    def options(self):
        """The `Options` in force here: those of every input, then this dataset's own."""
        merged = Options()
        for dataset in self._inputs:
            merged = merged.merge(dataset.options())
        return merged

    def fingerprint(self):
        """A uint64 that is the same for pipelines built the same way (stages, arguments,
        function bodies), in any process. TensorFlow hashes its own graph, which Feedline
        cannot rebuild, so the numbers are not TensorFlow's.

        >>> a = Dataset.range(3).map(lambda x: x + 1).fingerprint()
        >>> bool(a == Dataset.range(3).map(lambda x: x + 1).fingerprint()), a.dtype
        (True, dtype('uint64'))
        """
        from .state.fingerprint import fingerprint

        return np.uint64(int(fingerprint(self)[:16], 16))

    # -- sources -----------------------------------------------------------------------------

    @staticmethod
    def range(*args, dtype=np.int64, output_type=None, name=None):
        """Integers like Python's `range(start, stop, step)`, as int64 scalars (or the dtype
        given as `output_type`, TensorFlow's name for it).

        >>> list(Dataset.range(2, 8, 3).as_numpy_iterator())
        [np.int64(2), np.int64(5)]
        """
        return range_.RangeDataset(*args, dtype=dtype if output_type is None else output_type)

    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset of one element: `tensors` itself (any nested structure)."""
        return from_tensors.TensorsDataset(tensors)

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """One element per row of `tensors`; every component must have the same first size.

        >>> [x.tolist() for x in Dataset.from_tensor_slices([[1, 2], [3, 4]])]
        [[1, 2], [3, 4]]
        """
        return from_tensors.TensorSlicesDataset(tensors)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        """Elements produced by calling `generator(*args)` afresh for every iterator."""
        return from_generator.GeneratorDataset(generator, output_signature, args,
                                               output_types, output_shapes)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The files matching a glob pattern (or a list of them), as `bytes` paths: sorted,
        then shuffled each epoch unless `shuffle=False`. Nothing matching is an error.

        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> for part in ("b", "a"):
        ...     _ = open(os.path.join(folder, f"{part}.csv"), "w").write("x")
        >>> [os.path.basename(f) for f in Dataset.list_files(folder + "/*.csv", shuffle=False)]
        [b'a.csv', b'b.csv']
        """
        return list_files.list_files(Dataset, file_pattern, shuffle, seed)

    @staticmethod
    def zip(*args, datasets=None, name=None):
        """Elements of several datasets side by side, until the shortest ends: `zip(a, b)`
        gives pairs; one argument (or `datasets=`) may be a nested tuple or dict of datasets,
        whose structure the elements take; a single dataset is passed through as it is.

        >>> [tuple(map(int, pair)) for pair in Dataset.zip(Dataset.range(2), Dataset.range(5, 9))]
        [(0, 5), (1, 6)]
        >>> Dataset.zip(datasets={"x": Dataset.range(2)}).element_spec
        {'x': TensorSpec(shape=(), dtype=tf.int64, name=None)}
        """
        if not args and datasets is None:
            raise TypeError("zip needs datasets: Dataset.zip(a, b) or Dataset.zip(datasets=(a, b))")
        if args and datasets is not None:
            raise TypeError("zip takes the datasets as arguments or as datasets=, not both")
        if datasets is None:
            datasets = args[0] if len(args) == 1 else args
        return zip_.ZipDataset(datasets)

    @staticmethod
    def counter(start=0, step=1, dtype=np.int64, name=None):
        """Numbers `start, start + step, ...` forever, as scalars of `dtype`.

        >>> [int(x) for x in Dataset.counter(start=5, step=2).take(3)]
        [5, 7, 9]
        """
        from .experimental.counter import CounterDataset

        return CounterDataset(start, step, dtype)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """Pseudorandom int64 scalars in `[0, 2**32)`, forever: TensorFlow's algorithm (one
        32-bit Philox sample per element), not checked against TensorFlow's output.

        >>> ds = Dataset.random(seed=7)
        >>> [int(x) for x in ds.take(2)] == [int(x) for x in ds.take(2)]
        True
        """
        from .ops.random_ import RandomDataset

        return RandomDataset(seed, rerandomize_each_iteration)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """Elements of `datasets` in the order the int64 scalars of `choice_dataset` name.

        >>> choice = Dataset.from_tensor_slices(np.array([0, 1, 0], np.int64))
        >>> [int(x) for x in Dataset.choose_from_datasets(
        ...     [Dataset.range(2), Dataset.range(10, 12)], choice)]
        [0, 10, 1]
        """
        from .experimental.directed import choose_from_datasets

        return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Elements of `datasets` drawn at random, each picked with probability by `weights`
        (see `feedline.data.experimental.sample_from_datasets`).

        >>> ds = Dataset.sample_from_datasets([Dataset.range(2), Dataset.range(5, 7)], seed=1)
        >>> sorted(int(x) for x in ds)
        [0, 1, 5, 6]
        """
        from .experimental.directed import sample_from_datasets

        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                    rerandomize_each_iteration)

    # -- element-wise transformations --------------------------------------------------------

    def map(self, map_func, num_parallel_calls=None, deterministic=None, synchronous=None,
            use_unbounded_threadpool=False, name=None):
        """Apply `map_func` to every element (tuples are unpacked into arguments).

        How the `element_spec` is found: without running the pipeline, by calling `map_func`
        on two placeholders that fit the input's spec (all ones with unknown sizes 1, then all
        twos with unknown sizes 2); sizes that differ between the two calls are unknown (None).
        Parsers, decoders and `py_function` do not read the placeholders: they return
        placeholders of the spec their arguments give, as TensorFlow's shape functions do
        (`parse_example`'s features, `decode_raw`'s `out_type`, `py_function`'s `Tout` with
        an unknown shape; see `feedline.data.tracing`), and the `py_function`'s Python
        function is not called. Where this can differ from TensorFlow's trace:

        - a size that depends on the values but happens to agree for all three calls stays
          known;
        - a function that still fails on the placeholders (it reshapes `decode_raw`'s bytes
          of unknown length to a fixed shape, or calls Python without `py_function`) is
          looked at on the first real element instead: the spec then has that element's
          sizes, reading it costs a read, and an empty input has no spec (ValueError);
        - `map_func` runs three times more, side effects included (a third call on varied
          entries makes sizes that depend on the values, like a boolean mask's, unknown).

        `synchronous`, `use_unbounded_threadpool` and `name` are TensorFlow's arguments,
        accepted so its code runs: a sequential map already runs in the consumer's thread.

        >>> [int(x) for x in Dataset.range(3).map(lambda x: x + 1)]
        [1, 2, 3]
        >>> Dataset.range(0).map(lambda x: np.arange(x)).element_spec
        TensorSpec(shape=(None,), dtype=tf.int64, name=None)
        """
        if synchronous and num_parallel_calls is not None:  # TensorFlow refuses it too
            raise ValueError("map: synchronous=True runs the function in the consumer's "
                             "thread, so it cannot go with num_parallel_calls; drop one")
        if debug_mode.DEBUG_MODE:  # sequential and in order (see data.debug_mode)
            num_parallel_calls = deterministic = None
        return map_.MapDataset(self, map_func, num_parallel_calls, deterministic)

    def filter(self, predicate, name=None):
        """Keep the elements for which `predicate` is true.

        >>> [int(x) for x in Dataset.range(6).filter(lambda x: x % 2 == 0)]
        [0, 2, 4]
        """
        return filter_.FilterDataset(self, predicate)

    def flat_map(self, map_func, name=None):
        """Map each element to a dataset and yield their elements one dataset after another."""
        return flat_map.FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        """Map each element to a dataset and take `block_length` elements from each of
        `cycle_length` open datasets in turn.

        >>> ds = Dataset.range(1, 3).interleave(
        ...     lambda x: Dataset.from_tensors(x).repeat(3), cycle_length=2)
        >>> [int(x) for x in ds]
        [1, 2, 1, 2, 1, 2]
        """
        if debug_mode.DEBUG_MODE:  # sequential and in order (see data.debug_mode)
            num_parallel_calls = deterministic = None
        return interleave.InterleaveDataset(self, map_func, cycle_length, block_length,
                                            num_parallel_calls, deterministic)

    def scan(self, initial_state, scan_func, name=None):
        """Carry a state through the elements: `scan_func(state, element) -> (state, output)`.

        >>> [int(x) for x in Dataset.range(4).scan(np.int64(0), lambda s, x: (s + x, s + x))]
        [0, 1, 3, 6]
        """
        return scan.ScanDataset(self, initial_state, scan_func)

    def enumerate(self, start=0, name=None):
        """Pairs `(index, element)`, indices counting from `start` as int64."""
        return enumerate_.EnumerateDataset(self, start)

    def apply(self, transformation_func):
        """Return `transformation_func(self)`: for reusable chains of transformations."""
        return transformation_func(self)

    def unique(self, name=None):
        """Drop elements seen before (scalar int or string elements)."""
        return unique.UniqueDataset(self)

    def take_while(self, predicate, name=None):
        """Elements up to (not including) the first for which `predicate` is false."""
        return take_while.TakeWhileDataset(self, predicate)

    def ignore_errors(self, log_warning=False, name=None):
        """Skip elements whose production raised an error, counting them.

        At the end of each epoch a warning reports how many elements were skipped and the
        first error, so nothing is dropped silently.
        """
        return ignore_errors.IgnoreErrorsDataset(self, log_warning)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                           name=None):
        """Pairs `(class, element)`, some elements dropped so that the classes returned by
        `class_func` follow `target_dist` (see `feedline.data.ops.rejection_resample`).

        >>> ds = Dataset.range(6).rejection_resample(lambda x: x % 2, [0.0, 1.0],
        ...                                          initial_dist=[0.5, 0.5], seed=1)
        >>> [int(label) for label, _ in ds]
        [1, 1, 1]
        """
        from .ops.rejection_resample import rejection_resample

        return rejection_resample(self, class_func, target_dist, initial_dist, seed)

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

    # -- batching ----------------------------------------------------------------------------

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        """Stack `batch_size` consecutive elements into one (the last batch may be smaller).

        >>> [b.tolist() for b in Dataset.range(5).batch(2)]
        [[0, 1], [2, 3], [4]]
        """
        if debug_mode.DEBUG_MODE:  # sequential and in order (see data.debug_mode)
            num_parallel_calls = deterministic = None
        return batch.BatchDataset(self, batch_size, drop_remainder, num_parallel_calls,
                                  deterministic)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        """Batch elements of different shapes, padding each component to a common shape."""
        return padded_batch.PaddedBatchDataset(self, batch_size, padded_shapes,
                                               padding_values, drop_remainder)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=np.int64,
                     name=None):
        """Batch elements of different lengths: each component of rank >= 1 becomes a
        `RaggedTensor` with one row per element (scalars are stacked as by `batch`).

        >>> ds = Dataset.range(4).map(lambda x: np.arange(x)).ragged_batch(3)
        >>> [batch.to_list() for batch in ds]
        [[[], [0], [0, 1]], [[0, 1, 2]]]
        """
        from .ops.ragged_batch import RaggedBatchDataset

        return RaggedBatchDataset(self, batch_size, drop_remainder, row_splits_dtype)

    def sparse_batch(self, batch_size, row_shape, name=None):
        """Batch dense elements of different shapes into a `SparseTensor` of dense shape
        `[elements] + row_shape` (-1 in `row_shape`: the batch's largest size).

        >>> ds = Dataset.range(1, 4).map(lambda x: np.full([x], x)).sparse_batch(2, [3])
        >>> [batch.to_dense().tolist() for batch in ds]
        [[[1, 0, 0], [2, 2, 0]], [[3, 3, 3]]]
        """
        from .ops.sparse_batch import SparseBatchDataset

        return SparseBatchDataset(self, batch_size, row_shape)

    def unbatch(self, name=None):
        """Split every element along its first axis into rows.

        >>> [int(x) for x in Dataset.range(5).batch(2).unbatch()]
        [0, 1, 2, 3, 4]
        """
        return unbatch.UnbatchDataset(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        """Re-cut batches to `batch_size` rows (an int, or a list of sizes used in turn)."""
        return rebatch.RebatchDataset(self, batch_size, drop_remainder)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """Windows of `size` elements, each a dataset, starting every `shift` elements."""
        return window.WindowDataset(self, size, shift, stride, drop_remainder)

    def group_by_window(self, key_func, reduce_func, window_size=None,
                        window_size_func=None, name=None):
        """Group elements by `key_func` into windows and reduce each window to a dataset."""
        return group_by_window.GroupByWindowDataset(self, key_func, reduce_func, window_size,
                                                    window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None,
                                  padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        """Batch elements of similar length together, padding within each bucket."""
        return group_by_window.bucket_by_sequence_length(
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
            padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)

    # -- whole-dataset operations ------------------------------------------------------------

    def reduce(self, initial_state, reduce_func, name=None):
        """Fold all elements into one value: `reduce_func(state, element) -> state`.

        >>> int(Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x))
        10
        """
        state = structure.to_element(initial_state)
        with Iterator(self) as iterator:
            for element in iterator:
                state = structure.to_element(reduce_func(state, element))
        return as_tensors(state)

    def get_single_element(self, name=None):
        """The one element of a dataset that has exactly one.

        Raises:
            InvalidArgumentError: when the dataset is empty or has more than one element.

        >>> int(Dataset.range(1).get_single_element())
        0
        """
        from ..errors import InvalidArgumentError

        with Iterator(self) as iterator:
            for element in iterator:
                if next(iterator, _NOTHING) is not _NOTHING:
                    raise InvalidArgumentError(
                        "get_single_element: the dataset has more than one element; take(1) "
                        "keeps the first")
                return as_tensors(element)
        raise InvalidArgumentError("get_single_element: the dataset is empty")

    def explain(self):
        """What the static optimizations do to this pipeline: print it, or show it in a
        notebook (see `feedline.data.experimental.explain`).

        >>> print(Dataset.range(4).skip(0).prefetch(2).explain())
        as written:  range -> skip -> prefetch [buffer_size=2]
        as run:      range -> prefetch [buffer_size=2]
        rewrites that fired:
          noop_elimination: skip removed (skip(0) drops nothing)
        on, but not applied:
          inject_prefetch at prefetch: the last stage, prefetch, already runs in the background
        """
        from .experimental.explain import explain

        return explain(self)

    def with_options(self, options, name=None):
        """The same dataset with `options` merged over the options already set."""
        return options_dataset.OptionsDataset(self, options)


class UnaryDataset(Dataset):
    """A transformation of one input dataset.

    Subclasses set `_same_spec` when their elements look like the input's, and
    `_same_cardinality` when they yield exactly one element per input element.
    """

    _same_spec = False
    _same_cardinality = False

    def __init__(self, input_dataset):
        if not isinstance(input_dataset, Dataset):
            raise TypeError(f"expected a Dataset, got {type(input_dataset).__name__}")
        self._input = input_dataset
        self._inputs = (input_dataset,)

    def _cardinality(self):
        if self._same_cardinality:
            return self._input._cardinality()
        return UNKNOWN_CARDINALITY

    def _element_spec(self):
        if self._same_spec:
            return self._input.element_spec
        return super()._element_spec()


_RUN_ENDED = object()


class Iterator:
    """One pass over a dataset. Closing it (or dropping it) stops any background work."""

    def __init__(self, dataset, rewrite=True, tensors=False):
        """Start an epoch of `dataset`, rewritten by the static optimizations (see
        `Dataset.explain`) unless `rewrite=False`, which runs the stages as written. With
        `tensors=True` (what `iter(dataset)` does) elements come as `feedline.Tensor`s."""
        self._dataset = dataset
        self._tensors = tensors
        if debug_mode.DEBUG_MODE:  # autotune and asynchronous rewrites off
            dataset = dataset.with_options(debug_mode.debug_options())
        self._plan = plan = optimize.plan(dataset) if rewrite else optimize.as_written(dataset)
        if plan.options == _DEFAULT_OPTIONS:
            self._attach(plan.dataset._iterator())
        else:  # stages created while it runs see the pipeline's options (parallel ops do)
            self._attach(OptionsScopedIterator(plan.dataset, plan.options))

    def _attach(self, iterator):
        """Read from `iterator` from now on. A last stage with `next_run` (the parallel
        interleave) hands out elements a run at a time, pulled here without a Python call
        each."""
        self._iterator = iterator
        self._next_run = getattr(iterator, "next_run", None)
        self._run = iter(()) if self._next_run is not None else None

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        run = self._run
        if run is not None:
            value = next(run, _RUN_ENDED)
            if value is _RUN_ENDED:
                self._run = run = self._next_run(self._tensors)
                value = next(run)
            return value
        if self._tensors:
            return as_tensors(next(self._iterator))
        return next(self._iterator)

    def get_next(self):
        """The next element.

        Raises:
            OutOfRangeError: at the end, as TensorFlow's `get_next()` does (`next()` raises
                `StopIteration` there instead).
        """
        try:
            return self.__next__()
        except StopIteration:
            raise OutOfRangeError("End of sequence: the iterator has no more elements") \
                from None

    def get_next_as_optional(self):
        """The next element as an `experimental.Optional`, empty at the end."""
        from .experimental.optional import Optional
        try:
            return Optional(self.__next__(), self.element_spec)
        except StopIteration:
            return Optional.empty(self.element_spec)

    def close(self):
        """Stop the pipeline now, ending any background threads or processes it owns."""
        iterator = self._iterator
        self._attach(iter(()))
        close = getattr(iterator, "close", None)
        if close is not None:
            close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - nothing sensible to do while finalising
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# Imported last: the transformation modules subclass Dataset.
from .ops import (  # noqa: E402
    batch,
    concatenate,
    enumerate_,
    filter_,
    flat_map,
    from_generator,
    from_tensors,
    group_by_window,
    ignore_errors,
    interleave,
    map_,
    options_dataset,
    padded_batch,
    range_,
    rebatch,
    repeat,
    scan,
    shard,
    shuffle,
    take_skip,
    take_while,
    unbatch,
    unique,
    window,
    zip_,
)
from .ops import cache, prefetch  # noqa: E402
from .ops import list_files  # noqa: E402
from . import optimize  # noqa: E402
