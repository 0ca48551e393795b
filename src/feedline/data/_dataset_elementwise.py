"""The transformations of `Dataset` that work element by element: `map`, `filter`,
`flat_map`, `interleave`, `scan`, `enumerate`, `unique`, `take_while`, `ignore_errors`,
`rejection_resample`, and `apply` for chains of them.

`Dataset` takes these methods from `ElementwiseMixin`. Each builds the dataset of its module
under `feedline.data.ops`; those modules subclass `Dataset`, which is built from this mixin, so
this module gets them, and `Dataset` itself, only once `Dataset` exists: `feedline.data.dataset`
then calls `_import_late()`.
"""

import numpy as np  # noqa: F401 - the examples use it

from . import debug_mode


class ElementwiseMixin:
    """The element-wise transformations of `Dataset` (see the module docstring)."""

    # -- element-wise transformations --------------------------------------------------------

    def map(self, map_func, num_parallel_calls=None, deterministic=None, synchronous=None,
            use_unbounded_threadpool=False, name=None):
        """Apply `map_func` to every element (tuples are unpacked into arguments).

        The function receives each element as tensors (`fl.Tensor` views of the NumPy values,
        strings as `StringTensor`s), so its operators follow TensorFlow's rules: `x / 255` on
        uint8 gives float32, `x + 1.5` on an int64 element raises TypeError. NumPy functions
        still take them (a tensor is an array). What it returns becomes plain NumPy again.

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


def _import_late():
    """Import `Dataset` (the examples above use it) and the transformation modules the methods
    build datasets of: those import `feedline.data.dataset`, so this module can import them only
    once `Dataset` exists."""
    global Dataset, enumerate_, filter_, flat_map, ignore_errors, interleave, map_, scan
    global take_while, unique
    from .dataset import Dataset
    from .ops import (enumerate_, filter_, flat_map, ignore_errors, interleave, map_, scan,
                      take_while, unique)
