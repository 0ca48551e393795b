"""`Dataset`: an immutable description of a pipeline; iterating it runs one epoch.

Each transformation lives in its own module under `feedline.data.ops`; the methods of `Dataset`
only document the public API and build the matching dataset object. They come in groups, one
mixin module each: `_dataset_sources` (the static constructors), `_dataset_elementwise` (`map`,
`filter`, `interleave`, ...), `_dataset_storage` (`prefetch`, `cache`, `save`, `load`,
`snapshot`), `_dataset_reordering` (`shuffle`, `repeat`, `take`, ...), `_dataset_batching`
(`batch` and its kinds, windows) and `_dataset_whole` (`reduce`, `explain`, `with_options`,
...). This module holds what every dataset has: what a subclass provides, iteration,
cardinality, element_spec, options and fingerprint; and `UnaryDataset`, the base of the
transformations of one input. One pass over a dataset is an `Iterator` (`feedline.data.iterator`,
imported here too).
"""

import numpy as np

from ..random.seed import peeking
from . import structure  # noqa: F401 - loaded before spec and tensor (an import cycle)
from .options import Options
from .spec import spec_of
from ..tensor import as_tensors
from . import (_dataset_batching, _dataset_elementwise, _dataset_reordering, _dataset_sources,
               _dataset_storage, _dataset_whole)

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2

# Functions `(dataset, iterator) -> iterator` applied to every stage's iterator as it is made.
# `feedline.perf` installs one while tracing; with none installed iteration costs nothing extra.
iterator_hooks = []


class Dataset(_dataset_sources.SourcesMixin, _dataset_elementwise.ElementwiseMixin,
              _dataset_storage.StorageMixin, _dataset_reordering.ReorderingMixin,
              _dataset_batching.BatchingMixin, _dataset_whole.WholeDatasetMixin):
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


# Imported last: the transformation modules subclass Dataset. They load here, in this order, and
# stay importable from here; the method mixins take what they use below.
from .ops import (  # noqa: E402,F401
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
from .ops import cache, prefetch  # noqa: E402,F401
from .ops import list_files  # noqa: E402,F401
from .iterator import Iterator  # noqa: E402 - it imports `optimize`, which imports Dataset
from . import optimize  # noqa: E402,F401

# The method mixins build those modules' datasets and name `Dataset` and `Iterator`, none of
# which they could import before `Dataset` existed: they import them now.
for _methods in (_dataset_sources, _dataset_elementwise, _dataset_storage, _dataset_reordering,
                 _dataset_batching, _dataset_whole):
    _methods._import_late()
del _methods
