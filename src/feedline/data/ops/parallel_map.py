"""Parallel `map`: a pool of worker threads (or processes) keeps several calls in flight.

One feeder thread pulls input elements ahead, numbering them, into a work queue; up to
`num_parallel_calls` worker threads take elements, call the function and store the results.
The consumer yields results in input order (deterministic, the default) or in the order they
complete (`deterministic=False`). At most `buffer` elements are pulled and not yet yielded.

The same engine runs `batch(num_parallel_calls=...)` (workers stack the batches) and the
process variant: `map(in_processes(f), num_parallel_calls=N)` calls `f` in N worker processes,
for pure-Python CPU work that the GIL would serialise in threads.

Errors keep their place, as in TensorFlow: a call that raised, or an input element that raised,
is raised to the consumer where its result would have been (in input order, or when it came,
with `deterministic=False`), and the next call goes on with the next element. An input that
ends when it raises (a Python generator) then ends this stage too.

The threads (their shared state, the feeder and the workers) are in `_parallel_map_workers`,
the process variant (`in_processes`) in `_parallel_map_processes`. This module holds the
consumer's side, `ParallelMapIterator`, and what `map` and `batch` call to make one.
"""

import itertools
import time

from .. import autotune, structure
from ..options import current_options
from ..state import protocol
from . import _call, _workers
from ._parallel_map_processes import _process_caller, in_processes
from ._parallel_map_processes import _shut_down  # noqa: F401 - re-exported
from ._parallel_map_workers import _State, _feed, buffer_for


class ParallelMapIterator:
    """The consumer side of a parallel map: yields the workers' results."""

    #: The input's state when this iterator started (set by `map_iterator`/`batch_iterator`).
    _start = protocol.IteratorStateError("this parallel iterator did not record its start")

    def __init__(self, dataset, upstream, function, num_parallel_calls, deterministic,
                 stage="map", processes=False):
        start, limit = autotune.resolve_parallelism(num_parallel_calls)
        self._state = state = _State(None, deterministic, start, limit, stage)
        if processes:  # a fixed pool: more processes than cores would not help CPU work
            if num_parallel_calls == autotune.AUTOTUNE:
                start = limit = state.parallelism = state.limit = autotune.cores()
                state.buffer = buffer_for(start)
            function = _process_caller(state, function, limit)
        state.function = _workers.worker_wrapper(dataset, function, "call")
        model = None
        if num_parallel_calls == autotune.AUTOTUNE and not processes:
            model = self.autotune_model = autotune.model_for_new_stage()
            state.node = model.add_node(stage, "workers", start, 1, limit,
                                        state.set_parallelism)
            state.parallelism = state.node.value
            state.buffer = buffer_for(state.parallelism)
        self._yielded = 0
        self._threads = state.threads
        state.threads.append(_workers.start_thread(_feed, (state, upstream), stage + "-feed",
                                                   model))
        self._finalize = _workers.finalizer(self, state, state.threads)

    def __iter__(self):
        return self

    def __next__(self):
        state = self._state
        waited = 0.0
        try:
            with state.lock:
                while True:
                    results = state.results
                    if state.deterministic:
                        result = results.pop(self._yielded, None)
                    else:
                        result = results.popleft() if results else None
                    if result is not None:
                        state.outstanding -= 1
                        state.slot_free.notify()
                        break
                    if state.stopped or (state.end is not None and self._yielded >= state.end):
                        break
                    if state.node is None:
                        state.result_ready.wait()
                    else:
                        before = time.perf_counter()
                        state.result_ready.wait()
                        waited += time.perf_counter() - before
        except BaseException:
            self.close()
            raise
        if result is None:
            self.close()
            raise StopIteration
        ok, value = result
        self._yielded += 1  # an error takes its element's place, for checkpoints too
        if not ok:
            # The traceback keeps this frame: it must hold neither the iterator (whose
            # threads end when it is dropped) nor the error (a cycle only gc would free).
            del self, state, result
            try:
                raise value
            finally:
                del value
        if state.node is not None:
            _measure(state.node, value, waited)
        return value

    def _save(self):
        """The input's state where this iterator started, and how many results it delivered.

        Restoring fast-forwards the input by that many elements (without calling the
        function); work in flight is dropped and done again.
        """
        if not self._state.deterministic:
            raise protocol.IteratorStateError(
                f"cannot save the position of a parallel `{self._state.stage}` with "
                "deterministic=False: the elements it delivered are not the first ones of its "
                "input, so no input position describes them. Use deterministic=True (the "
                "default) in a pipeline you checkpoint")
        return protocol.from_start(self._start, self._yielded)

    @property
    def num_workers(self):
        """Worker threads started so far (AUTOTUNE may add more)."""
        return self._state.parallelism

    def close(self):
        """Stop the feeder and the workers and wait for them to end."""
        self._finalize()


def _measure(node, value, waited):
    """Report one element to the autotune model and let it tune (the consumer's side)."""
    now = time.perf_counter()
    node.record_output(value, now, waited)
    node.model.tick(now)
    node.returned(time.perf_counter())


def deterministic_for(dataset, deterministic):
    """The `deterministic` argument if given, else the pipeline's `Options.deterministic`
    (wherever `with_options` was applied), else True."""
    if deterministic is None:
        running = current_options()
        deterministic = (running if running is not None else dataset.options()).deterministic
    return True if deterministic is None else bool(deterministic)


def map_iterator(dataset, upstream=None):
    """The iterator of a `MapDataset` whose `num_parallel_calls` is set (reading `upstream`,
    by default a fresh iterator of the input)."""
    function = dataset._function
    deterministic = deterministic_for(dataset, dataset._deterministic)
    if upstream is None:
        upstream = dataset._input._iterator()
    start = protocol.start_state(upstream, dataset._input)
    if isinstance(function, in_processes):
        iterator = ParallelMapIterator(dataset, upstream, function.function,
                                       dataset._num_parallel_calls, deterministic,
                                       processes=True)
    else:
        iterator = _trial_iterator()(dataset, upstream, _call.mapper(function),
                                     dataset._num_parallel_calls, deterministic)
    iterator._start = start
    return iterator


def _trial_iterator():
    from .parallel_map_trial import TrialMapIterator  # it builds on this module

    return TrialMapIterator


class _Chunks:
    """Lists of `size` consecutive elements, cut as the sequential batch cuts them: an error
    while cutting one drops that list and is raised in its place, and the next list starts
    after it (a generator would end at the first error instead)."""

    def __init__(self, elements, size, drop_remainder):
        self._elements, self._size, self._drop_remainder = elements, size, drop_remainder

    def __iter__(self):
        return self

    def __next__(self):
        chunk = list(itertools.islice(self._elements, self._size))
        if not chunk or (self._drop_remainder and len(chunk) < self._size):
            raise StopIteration
        return chunk

    def close(self):
        _workers.close_quietly(self._elements)


def batch_iterator(dataset, upstream=None):
    """The iterator of a `BatchDataset` whose `num_parallel_calls` is set: the input is cut
    into lists in order (cheap), and the workers stack them (the costly copy for big
    elements; NumPy releases the GIL while copying)."""
    if upstream is None:
        upstream = dataset._input._iterator()
    start = protocol.start_state(upstream, dataset._input)
    chunks = _Chunks(upstream, dataset._batch_size, dataset._drop_remainder)
    iterator = _trial_iterator()(dataset, chunks, structure.stack_elements,
                                 dataset._num_parallel_calls,
                                 deterministic_for(dataset, dataset._deterministic),
                                 stage="batch")
    iterator._start = start
    return iterator
