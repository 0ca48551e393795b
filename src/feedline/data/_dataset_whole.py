"""What `Dataset` does with a pipeline as a whole: run it to one value (`reduce`,
`get_single_element`), show what the static optimizations make of it (`explain`), and give it
options (`with_options`).

`Dataset` takes these methods from `WholeDatasetMixin`. They use `Iterator` and the
`with_options` dataset, whose modules import `Dataset`, which is built from this mixin: this
module gets them, and `Dataset` itself, only once `Dataset` exists (`feedline.data.dataset`
then calls `_import_late()`).
"""

import numpy as np  # noqa: F401 - the examples use it

from . import structure
from ..tensor import as_tensors

_NOTHING = object()


class WholeDatasetMixin:
    """The whole-dataset operations of `Dataset` (see the module docstring)."""

    # -- whole-dataset operations ------------------------------------------------------------

    def reduce(self, initial_state, reduce_func, name=None):
        """Fold all elements into one value: `reduce_func(state, element) -> state`.

        >>> int(Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x))
        10
        """
        state = structure.to_element(initial_state)
        with Iterator(self) as iterator:
            for element in iterator:  # the element as tensors; the state as in `scan`
                state = structure.to_element(reduce_func(state, as_tensors(element)))
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


def _import_late():
    """Import `Dataset` (the examples above use it), `Iterator` and the `with_options` module:
    those import `feedline.data.dataset`, so this module can import them only once `Dataset`
    exists."""
    global Dataset, Iterator, options_dataset
    from .dataset import Dataset
    from .iterator import Iterator
    from .ops import options_dataset
