"""`Iterator`: one pass over a dataset, as `iter(dataset)` and `as_numpy_iterator()` start it.

It runs the pipeline as the static optimizations rewrote it (`feedline.data.optimize`), under
the pipeline's options, and hands out its elements; closing it ends the background work of
every stage. It is importable from `feedline.data.dataset` too.
"""

from ..errors import OutOfRangeError
from . import debug_mode
from .options import Options, OptionsScopedIterator
from ..tensor import as_tensors

_DEFAULT_OPTIONS = Options()
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


# Imported last: the static optimizations import `feedline.data.dataset`, which imports this
# module.
from . import optimize  # noqa: E402
