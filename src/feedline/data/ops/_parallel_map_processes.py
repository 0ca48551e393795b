"""The process variant of the parallel `map`: `in_processes(f)` marks a function to run in
worker processes, and each worker thread of the map hands its call to a process pool and waits
for the result (see `parallel_map` for the whole design).
"""

import concurrent.futures
import multiprocessing
import pickle
import warnings

from . import _call


class in_processes:  # noqa: N801 - used like a function: `ds.map(in_processes(f), ...)`
    """Mark `function` to run in worker processes when the map is parallel.

    `ds.map(in_processes(f), num_parallel_calls=N)` calls `f` in N processes: use it for
    pure-Python CPU work, which threads cannot speed up because of the GIL. Each element and
    result is pickled to and from the process, so this pays off only when a call costs much
    more than sending its data. `f` must be picklable: a function defined at the top level of a
    module or notebook (not a lambda or a nested function). Without `num_parallel_calls` the
    map is sequential and `f` runs in this process.

    >>> import math
    >>> from feedline.data import Dataset
    >>> ds = Dataset.range(4).map(in_processes(math.factorial), num_parallel_calls=2)
    >>> [int(x) for x in ds]
    [1, 1, 2, 6]
    """

    def __init__(self, function):
        if not callable(function):
            raise TypeError(f"in_processes needs a function, got {type(function).__name__}")
        try:
            pickle.dumps(function)
        except Exception as error:  # noqa: BLE001 - pickling fails with many error types
            name = getattr(function, "__qualname__", repr(function))
            raise TypeError(
                f"in_processes: the function {name} cannot be sent to a worker process "
                f"({type(error).__name__}: {error}). Define it with `def` at the top level of "
                "a module or notebook (not a lambda, not inside another function), and make "
                "sure everything it refers to can be pickled.") from error
        self.function = function

    def __call__(self, *args):
        return self.function(*args)

    def __repr__(self):
        return f"in_processes({self.function!r})"


def _apply_in_process(function, element):
    return _call.mapper(function)(element)


def _shut_down(executor):
    """Stop `executor`'s processes and wait for them. The iterator's finalizer may run on the
    pool's own manager thread (garbage is collected on whichever thread allocates), which
    cannot wait for itself: there the pool is told to stop without waiting, and its manager
    thread, already the caller, ends it."""
    try:
        executor.shutdown(wait=True, cancel_futures=True)
    except RuntimeError:  # "cannot join current thread"
        executor.shutdown(wait=False, cancel_futures=True)


def _process_caller(state, function, processes):
    """A worker-thread function that runs `function` in a process pool and waits for it."""
    try:
        context = multiprocessing.get_context("fork")  # notebook-defined functions work
    except ValueError:
        context = None
    executor = concurrent.futures.ProcessPoolExecutor(max_workers=processes, mp_context=context)
    state.on_stop.append(lambda: _shut_down(executor))

    def call_in_process(element):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (3.12+)
            future = executor.submit(_apply_in_process, function, element)
        try:
            return future.result()
        finally:
            # The future holds the error, and the error's traceback this frame: without the
            # `del`, that cycle would keep the iterator and its processes alive until the
            # garbage collector runs, long after the consumer dropped both.
            del future
    return call_in_process
