"""The worker side of the parallel `interleave`: readers, the shared state, and the block a
worker reads and hands over (see `parallel_interleave` for the whole design).

A worker takes the oldest queued reader, reads up to `BLOCK` of its elements (a file reader's
records a run at a time), and hands them over in one step under one lock; an element that
raised ends the block as a `_Failure` in its place.
"""

import collections
import threading
import time

from . import _workers

_END = object()
_ANY = object()  # what the consumer waits for when any slot will do (deterministic=False)
BLOCK = 64  # elements a worker reads from one dataset per hand-off
WAITED = 0.001  # seconds: an inline read this long that was mostly off the CPU waited
# Threads come back when at least this many inline reads waited, and at least one read in
# WAIT_SHARE did: one preempted read on a busy machine looks like a wait, a slow disk
# makes most reads wait.
WAITS, WAIT_SHARE = 3, 10


class _Failure:
    """An error raised in place of an element; `final` when nothing follows it (not an
    `Exception`: KeyboardInterrupt and co.)."""
    __slots__ = ("error", "final")

    def __init__(self, error, final=False):
        self.error, self.final = error, final


class _Reader:
    """One opened dataset: the elements a worker handed over, and the block being delivered.

    `items` is shared (guarded by the state's lock); `taken` belongs to the consumer alone.
    `queued` is True while the reader waits in the work queue or a worker reads it.
    """
    __slots__ = ("iterator", "next_many", "items", "taken", "queued", "ended", "failed")

    def __init__(self, iterator):
        self.iterator = iterator
        # File readers hand over a run of records per call (see FileRecordsIterator).
        self.next_many = getattr(iterator, "next_many", None)
        self.items = collections.deque()
        self.taken = collections.deque()
        self.queued = self.ended = False
        self.failed = False  # an error was handed over: its elements go one by one


class _State:
    """What the workers share with the consumer (never the consumer's iterator itself)."""

    def __init__(self, workers, pull):
        self.lock = threading.Lock()
        self.ready = threading.Condition(self.lock)  # the consumer waits here
        self.work_ready = threading.Condition(self.lock)  # idle workers wait here
        self.work = collections.deque()  # readers to read next, oldest first
        self.readers = set()  # every reader not yet closed, to close them on stop
        self.wanted = None  # the reader the consumer waits for, _ANY, or None
        self.stopped = False
        self.busy = 0  # threads reading a block now (workers and the consumer): <= workers
        self.newest_first = False
        self.inline = False  # the consumer reads every block itself (see interleave_trial)
        self.inline_waited = False  # and enough of those reads waited for data
        self.inline_reads = self.inline_waits = 0  # reads made inline, and those that waited
        self.workers, self.pull = workers, pull
        self.running = 0  # worker threads started and not ended
        self.node = None  # the autotune model's node, when num_parallel_calls is AUTOTUNE
        self.threads = []

    def queue(self, reader):
        """Queue `reader` for a worker (call with the lock held)."""
        reader.queued = True
        self.work.append(reader)
        if not self.inline:  # a worker woken for nothing would cost a thread switch
            self.work_ready.notify()

    def stop(self):
        with self.lock:
            self.stopped = True
            self.work.clear()
            self.ready.notify_all()
            self.work_ready.notify_all()
        if self.node is not None:
            self.node.closed = True

    def missing(self, most):
        """Workers to start (up to `most`) for queued work the idle ones will not take; counted
        as running (call with the lock held, then `start` them after releasing it)."""
        if self.inline:
            return 0
        count = max(0, min(most, len(self.work) - (self.running - self.busy),
                           self.workers - self.running))
        self.running += count
        return count

    def start(self, count):
        # Outside the lock: a new worker can take its reader before the consumer reads it.
        model = self.node.model if self.node is not None else None
        for _ in range(count):
            self.threads.append(_workers.start_thread(_work, (self,), "interleave-read", model))

    def set_workers(self, workers):
        """AUTOTUNE's new worker count: start workers now, or let the extra ones end."""
        with self.lock:
            self.workers = workers
            count = self.missing(workers)
            self.work_ready.notify_all()
        self.start(count)


def _shutdown(state):
    """Stop the workers, wait for them, then close every dataset still open."""
    _workers.shutdown(state, state.threads)
    with state.lock:
        readers, state.readers = state.readers, []
    for reader in readers:
        _workers.close_quietly(reader.iterator)


def _read_block(state, reader):
    """Up to BLOCK elements of `reader`, then _END if it ended, or a _Failure if it raised
    there (the block ends with it; the next block reads on)."""
    block, pull, iterator = [], state.pull, reader.iterator
    try:
        if pull is next and reader.next_many is not None:  # a file reader: runs of records
            while len(block) < BLOCK:
                block.extend(reader.next_many(BLOCK - len(block)))
                if getattr(iterator, "drained", False):  # ended, without one more call
                    block.append(_END)
                    return block
                if state.wanted is reader or state.wanted is _ANY:
                    return block
            return block
        if pull is next:  # no tracer: the fast loop
            for value in iterator:
                block.append(value)
                if len(block) == BLOCK or state.wanted is reader or state.wanted is _ANY:
                    return block
            block.append(_END)
            return block
        while True:
            block.append(pull(iterator))
            if len(block) == BLOCK or state.wanted is reader or state.wanted is _ANY:
                return block
    except StopIteration:
        block.append(_END)
    except Exception as error:  # noqa: BLE001 - handed to the consumer in order
        block.append(_Failure(error))
    except BaseException as error:  # noqa: BLE001 - handed over, and ends this dataset
        block.append(_Failure(error, final=True))
    return block


def _work(state):
    """A worker: read a block from the oldest queued reader, hand it over, repeat."""
    lock = state.lock
    while True:
        with lock:
            while (not state.work or state.busy >= state.workers or state.inline) \
                    and not state.stopped and state.running <= state.workers:
                state.work_ready.wait()
            if state.stopped or state.running > state.workers:
                state.running -= 1  # stopped, or AUTOTUNE took this worker back
                return
            reader = state.work.pop() if state.newest_first else state.work.popleft()
            state.busy += 1
        if not _hand_over(state, reader, _read_measured(state, reader)):
            return


def _read_measured(state, reader):
    """`_read_block`, timed for the autotune model when there is one, and, while the consumer
    reads inline, to notice a read that waited (`inline_waited`; see interleave_trial)."""
    node = state.node
    if node is None and not state.inline:
        return _read_block(state, reader)
    started, started_cpu = time.perf_counter(), time.thread_time()
    block = _read_block(state, reader)
    wall = time.perf_counter() - started
    # The thread's CPU clock is a system call: read it again only when it is needed.
    cpu = time.thread_time() - started_cpu if node is not None or wall > WAITED else wall
    if node is not None:
        node.record_call(wall, cpu, len(block))
    if state.inline:
        state.inline_reads += 1
        if wall > WAITED and cpu < wall / 2:  # alone on its thread: CPU is exact
            state.inline_waits += 1
            if state.inline_waits >= WAITS and \
                    state.inline_waits * WAIT_SHARE >= state.inline_reads:
                state.inline_waited = True
    return block


def _ends(block):
    """Whether nothing follows `block` from its dataset (its end, or an error that ends it)."""
    last = block[-1]
    return last is _END or (type(last) is _Failure and last.final)


def _hand_over(state, reader, block):
    """Give `block`, just read from `reader`, to the consumer, and queue `reader` again if it
    has room for another block. Returns False when the iterator was stopped meanwhile."""
    last = block[-1]
    ended = _ends(block)
    if ended:
        _workers.close_quietly(reader.iterator)
    with state.lock:
        state.busy -= 1
        if state.work and not state.inline:
            state.work_ready.notify()
        if state.stopped:
            if not ended:
                _workers.close_quietly(reader.iterator)
            return False
        reader.items.extend(block)
        reader.ended = ended
        if type(last) is _Failure:
            reader.failed = True
        if ended:
            reader.queued = False
            state.readers.discard(reader)
        elif len(reader.items) < BLOCK:
            state.work.append(reader)  # room for another block: read on
        else:
            reader.queued = False  # full: the consumer queues it again when it takes
        wanted = state.wanted
        if wanted is reader or wanted is _ANY or (wanted is not None and wanted in state.work):
            # What it waits for is here, or it may read that itself now that a read ended.
            state.wanted = None  # one wake-up: no more short blocks until it waits again
            state.ready.notify()
    return True
