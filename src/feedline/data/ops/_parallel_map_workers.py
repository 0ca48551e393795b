"""The thread side of the parallel `map`: the state the feeder, the workers and the consumer
share, the feeder thread that pulls input elements ahead, and the worker threads that call the
function (see `parallel_map` for the whole design).

`buffer_for(parallelism)` is how far ahead of the consumer the feeder may pull; the workers
store each result under its input's number (deterministic order) or in a queue (as they come).
"""

import collections
import threading
import time

from . import _workers


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
