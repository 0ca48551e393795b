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
"""

import collections
import concurrent.futures
import itertools
import multiprocessing
import pickle
import threading
import time
import warnings

from .. import autotune, structure
from ..options import current_options
from ..state import protocol
from . import _call, _workers


class _State:
    """Shared by the feeder, the workers and the consumer (which is not itself shared)."""

    def __init__(self, function, deterministic, parallelism, limit, stage):
        self.lock = threading.Lock()
        self.work_ready = threading.Condition(self.lock)
        self.result_ready = threading.Condition(self.lock)
        self.slot_free = threading.Condition(self.lock)
        self.inputs = collections.deque()
        self.results = {} if deterministic else collections.deque()
        self.deterministic = deterministic
        self.function = function
        self.parallelism, self.limit = parallelism, limit
        self.buffer = buffer_for(parallelism)
        self.stage = stage
        self.node = None  # the autotune model's node, when num_parallel_calls is AUTOTUNE
        self.threads = []
        self.workers = 0
        self.idle = 0
        self.outstanding = 0
        self.end = None  # number of inputs, once the input has ended
        self.fed = 0  # input elements (or their errors) the feeder handed on so far
        self.handing_back = False  # the feeder stops and leaves the input to the consumer
        self.stopped = False
        self.on_stop = []

    def stop(self):
        with self.lock:
            self.stopped = True
            self.work_ready.notify_all()
            self.result_ready.notify_all()
            self.slot_free.notify_all()
        if self.node is not None:
            self.node.closed = True
        for action in self.on_stop:
            action()

    def add_worker(self):
        """Start one more worker (called with the lock held)."""
        self.workers += 1
        model = self.node.model if self.node is not None else None
        self.threads.append(_workers.start_thread(_work, (self,), self.stage, model))

    def set_parallelism(self, parallelism):
        """AUTOTUNE's new worker count: start workers now, or let the extra ones finish."""
        with self.lock:
            self.parallelism = parallelism
            self.buffer = buffer_for(parallelism)
            missing = min(parallelism - self.workers, len(self.inputs) - self.idle)
            for _ in range(max(0, missing)):
                self.add_worker()  # queued work no idle worker will take
            self.slot_free.notify_all()
            self.work_ready.notify_all()

    def store(self, index, result):
        if self.deterministic:
            self.results[index] = result
        else:
            self.results.append(result)
        self.result_ready.notify()


def buffer_for(parallelism):
    """Elements pulled ahead of the consumer: enough to keep every worker fed."""
    return 2 * parallelism


def _feed(state, upstream, index=0):
    """The feeder thread: pull input elements from `upstream` (numbered from `index`) into the
    work queue, until the input ends, the iterator stops, or `handing_back` asks it to leave
    the input (open) to the consumer (see `parallel_map_trial`)."""
    try:
        while True:
            with state.lock:
                while state.outstanding >= state.buffer and not state.stopped \
                        and not state.handing_back:
                    state.slot_free.wait()
                if state.stopped or state.handing_back:
                    return
                state.outstanding += 1
            try:
                element = next(upstream)
            except StopIteration:
                with state.lock:
                    state.outstanding -= 1
                    state.end = state.fed = index
                    state.work_ready.notify_all()
                    state.result_ready.notify_all()
                return
            except BaseException as error:  # noqa: BLE001 - handed to the consumer in order
                final = not isinstance(error, Exception)  # KeyboardInterrupt and co. end it
                with state.lock:
                    state.store(index, (False, error))  # its slot stays taken until delivered
                    state.fed = index + 1
                    if final:
                        state.end = index + 1
                        state.work_ready.notify_all()
                        state.result_ready.notify_all()
                if final:
                    return
                index += 1
                continue  # the input may go on (one that ended when it raised says so next)
            with state.lock:
                if state.stopped:
                    return
                state.inputs.append((index, element))
                state.fed = index + 1
                if state.idle:
                    state.work_ready.notify()
                elif state.workers < state.parallelism:
                    state.add_worker()
            index += 1
    finally:
        if not state.handing_back:  # handed back, the input stays open for the consumer
            _workers.close_quietly(upstream)


def _work(state):
    function, node = state.function, state.node
    wall, cpu = time.perf_counter, time.thread_time
    while True:
        with state.lock:
            state.idle += 1
            while not state.inputs and not state.stopped and state.end is None \
                    and state.workers <= state.parallelism:
                state.work_ready.wait()
            state.idle -= 1
            if state.stopped or not state.inputs or state.workers > state.parallelism:
                state.workers -= 1  # ended, or AUTOTUNE took this worker back
                return
            index, element = state.inputs.popleft()
        started, started_cpu = wall(), cpu()
        try:
            result = (True, function(element))
        except BaseException as error:  # noqa: BLE001 - handed to the consumer in order
            result = (False, error)
        if node is not None:
            node.record_call(wall() - started, cpu() - started_cpu)
        with state.lock:
            state.store(index, result)
            del result, element


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


# -- processes -------------------------------------------------------------------------------

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
