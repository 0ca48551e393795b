"""Where a pipeline starts: `Dataset`'s static constructors, from `range` and
`from_tensor_slices` to `zip` and choosing or sampling among datasets.

`Dataset` takes these methods from `SourcesMixin`. Each builds the source dataset of its module
under `feedline.data.ops` (or `feedline.data.experimental`). Those modules subclass `Dataset`,
which is built from this mixin, so this module gets them, and `Dataset` itself, only once
`Dataset` exists: `feedline.data.dataset` then calls `_import_late()`.
"""

import numpy as np


class SourcesMixin:
    """The static constructors of `Dataset` (see the module docstring)."""

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


def _import_late():
    """Import `Dataset` and the source modules the methods above build datasets of: those
    import `feedline.data.dataset`, so this module can import them only once `Dataset` exists."""
    global Dataset, from_generator, from_tensors, list_files, range_, zip_
    from .dataset import Dataset
    from .ops import from_generator, from_tensors, list_files, range_, zip_
