"""Parallel `interleave`: a few long-lived workers read the open datasets of the cycle a block
at a time.

The consumer follows exactly the sequential order rule (see `interleave.py`): the same slots,
blocks and refills. What changes is where elements come from: every opened dataset (the ones
in the cycle and the next `cycle_length + 1` inputs, opened ahead) is a `_Reader`, queued for
a pool of `num_parallel_calls` worker threads. A worker takes a queued reader, pulls up to
`BLOCK` elements from it (fewer when the file ends or when the consumer is waiting for that
reader), and hands them over in one go under one lock; the consumer is woken only when it waits
for them. The consumer then takes the whole block out of the reader and delivers it without a
lock. A reader holds at most two blocks (one with the consumer, one being refilled), so memory
stays bounded. When the consumer needs a reader no worker has started on, it reads that block
itself instead of sleeping (deterministic order only; a hand-off between threads costs more
than a small file under the GIL); it then counts as one of the `num_parallel_calls` reads that
may run at once. With `deterministic=False`, when the current slot has nothing ready the turn
moves to a slot that has. With AUTOTUNE the number of workers starts at `cycle_length` and is
tuned by the pipeline's autotune model (`feedline.data.autotune`) from the measured reads.

Errors keep their place, as in the sequential interleave and in TensorFlow (whose results carry
a status each): an error from an opened dataset's element ends that block and is raised in the
element's place without using up a turn; the dataset is read on afterwards (a generator that
ended when it raised then ends). An error from the input, or from the function that makes a
dataset, is raised when that dataset's slot would be filled, and the slot is filled from the
next input on the next call. In every case the next call goes on.
"""

import collections
import time
import weakref

from .. import autotune
from .. import dataset as _dataset
from ..state import protocol
from . import _workers
from ._interleave_workers import (
    _ANY, _END, _Failure, _hand_over, _read_measured, _Reader, _shutdown, _State)
from .flat_map import dataset_from


def _direct_reader(dataset):
    """A one-file reader dataset's own file reader (see `FileReaderDataset.single_file_reader`),
    unless a tracer or other hook must see the dataset's iterator; else None."""
    single = getattr(dataset, "single_file_reader", None)
    if single is None or _dataset.iterator_hooks:
        return None
    return single()


def _opened(function, element):
    """The iterator of the dataset `function` makes from `element` (see `_direct_reader`)."""
    opened = dataset_from(function, element, "interleave")
    return _direct_reader(opened) or opened._iterator()


class ParallelInterleaveIterator:
    """The consumer side: the sequential interleave's order over blocks the workers read."""

    def __init__(self, dataset, deterministic, upstream=None):
        self._function = dataset._function
        self._block_length = dataset._block_length
        cycle = dataset._cycle_length
        calls = dataset._num_parallel_calls
        workers = cycle if calls == autotune.AUTOTUNE else int(calls)
        if workers < 1:
            raise ValueError(f"num_parallel_calls must be positive or AUTOTUNE, got {calls}")
        # No more workers than datasets open at once (the cycle and the ones opened ahead).
        most = 2 * cycle + 1
        self._state = state = _State(min(workers, most),
                                     _workers.worker_wrapper(dataset, next, "read"))
        self._model = None
        if calls == autotune.AUTOTUNE:
            self._model = self.autotune_model = autotune.model_for_new_stage()
            limit = autotune.max_parallelism(cycle)  # no more reads at once than the cycle
            state.node = self._model.add_node("interleave", "workers", min(workers, limit), 1,
                                              limit, state.set_workers)
            state.workers = state.node.value
        self._deterministic = state.newest_first = deterministic
        self._inputs = dataset._input._iterator() if upstream is None else upstream
        self._delivered = 0
        self._waited = 0.0  # seconds the consumer waited for the element being taken
        self._start_state = protocol.IteratorStateError("this interleave did not record its start")
        self._slots = [None] * cycle
        self._futures = collections.deque()
        self._input_ended = False
        self._open_count = self._slot = self._taken = 0
        self._finalize = weakref.finalize(self, _shutdown, state)
        self._finalize.atexit = False

    def __iter__(self):
        return self

    def _start(self):
        """Open the next input element's dataset and queue it for the workers (or note the
        end of the input)."""
        try:
            element = next(self._inputs, _END)
        except Exception as error:  # noqa: BLE001 - raised when its slot is reached
            return _Failure(error)
        if element is _END:
            self._input_ended = True
            return None
        try:
            if self._model is None:
                iterator = _opened(self._function, element)
            else:
                with autotune.using(self._model):  # AUTOTUNE stages inside join its model
                    iterator = _opened(self._function, element)
        except Exception as error:  # noqa: BLE001 - raised when its slot is reached
            return _Failure(error)
        reader, state = _Reader(iterator), self._state
        with state.lock:
            if state.stopped:
                _workers.close_quietly(iterator)
                raise StopIteration
            state.readers.add(reader)
            if state.inline:  # the consumer reads it when its turn comes (`_take`)
                return reader
            state.queue(reader)
            count = state.missing(1)
        state.start(count)
        return reader

    def _open(self):
        """The next opened reader, or the _Failure that came instead, or None."""
        while len(self._futures) < len(self._slots) + 1 and not self._input_ended:
            started = self._start()
            if started is not None:
                self._futures.append(started)
        if not self._futures:
            return None
        return self._futures.popleft()  # a _Failure: the caller hands it over

    def __next__(self):
        self._waited = 0.0
        try:
            value = self._next()
        except BaseException:
            self.close()
            raise
        self._delivered += 1  # an error takes its element's place, for checkpoints too
        if type(value) is _Failure:
            if value.final:
                self.close()
            # The error's traceback keeps the frames that raised it, which may still hold the
            # block this failure is in: without the failure pointing back at the error, that
            # is no cycle, so dropping the error frees the iterator and its threads end.
            error, value.error = value.error, None
            # Likewise this frame, which the traceback keeps too.
            del self, value
            try:
                raise error
            finally:
                del error
        node = self._state.node
        if node is not None:
            now = time.perf_counter()
            node.record_output(value, now, self._waited)
            node.model.tick(now)
            node.returned(time.perf_counter())
        return value

    def _input_done(self):
        """An opened dataset ended (see `interleave_trial`, whose trial counts it)."""

    def _save(self):
        """Where the input started and how many elements were delivered: restoring reads the
        input from there and passes over that many elements again (exact, not free)."""
        if not self._deterministic:
            raise protocol.IteratorStateError(
                "cannot save the position of a parallel `interleave` with deterministic=False: "
                "its order depends on timing, so no position describes what it delivered. "
                "Use deterministic=True (the default) in a pipeline you checkpoint")
        return protocol.from_start(self._start_state, self._delivered)

    def _next(self):
        slots = self._slots
        while not self._input_ended or self._open_count or self._futures:
            slot = self._slot
            reader = slots[slot]
            if reader is None:
                if self._input_ended and not self._futures:
                    self._slot, self._taken = (slot + 1) % len(slots), 0
                    continue
                reader = self._open()
                if reader is None:
                    continue
                if type(reader) is _Failure:
                    return reader  # the slot stays empty: the next input fills it
                slots[slot] = reader
                self._open_count += 1
            if not reader.taken and not self._take(reader):
                continue  # deterministic=False: the turn moved to a slot that is ready
            value = reader.taken.popleft()
            if value is _END:
                slots[slot] = None
                self._open_count -= 1
                self._slot, self._taken = (slot + 1) % len(slots), 0
                self._input_done()
                continue
            if type(value) is _Failure:
                return value  # in the element's place, without using up the turn
            self._taken += 1
            if self._taken == self._block_length:
                self._slot, self._taken = (slot + 1) % len(slots), 0
            return value
        self.close()
        raise StopIteration

    def _take(self, reader):
        """Move what the workers handed over for `reader` to the consumer's side. Returns False
        when instead the turn moved to another slot (deterministic=False).

        When nothing is there yet and no worker has started on `reader`, the consumer reads
        the block itself rather than sleep until a worker is scheduled: under the GIL a
        hand-off between threads costs more than reading a small file.
        """
        state = self._state
        while True:
            with state.lock:
                while not reader.items and not state.stopped:
                    if state.inline and (not reader.queued or reader in state.work) \
                            and not reader.ended:
                        if reader.queued:
                            state.work.remove(reader)  # read it here, not by a worker
                        reader.queued = True  # being read (here): `_hand_over` re-queues
                        state.busy += 1
                        break
                    if not self._deterministic:
                        other = self._ready_slot()
                        if other is not None:
                            self._slot, self._taken = other, 0
                            return False
                    if self._deterministic and reader.queued and reader in state.work \
                            and state.busy < state.workers:
                        state.work.remove(reader)  # not started: read it here
                        state.busy += 1
                        break
                    if not reader.queued and not reader.ended:
                        state.queue(reader)
                        continue
                    state.wanted = reader if self._deterministic else _ANY
                    before = time.perf_counter()
                    state.ready.wait()
                    self._waited += time.perf_counter() - before
                else:
                    if state.stopped:
                        raise StopIteration
                    reader.taken, reader.items = reader.items, reader.taken
                    if not reader.queued and not reader.ended:
                        state.queue(reader)  # read the next block while this one is delivered
                    return True
            _hand_over(state, reader, _read_measured(state, reader))

    def _ready_slot(self):
        """deterministic=False, with the lock held: a slot whose reader has something, or an
        empty slot that the next input can fill; None when there is none."""
        for position, reader in enumerate(self._slots):
            if reader is None:
                if self._futures or not self._input_ended:
                    return position
            elif reader.taken or reader.items:
                return position
        return None

    def close(self):
        """Stop every worker thread, wait for them, and close the open datasets."""
        self._finalize()
        _workers.close_quietly(self._inputs)
