"""Tracing: record when every stage of any pipeline produced each element, on which thread.

`with trace() as tr:` installs a hook in `feedline.data.dataset.iterator_hooks`; every stage
iterator made while it is active is wrapped to record one span per element, and parallel
stages record one span per call on their workers. `span(name)` adds spans from user code (a
training step, say). Each span also carries the CPU time its thread spent inside it
(`time.thread_time()` at both ends, on the same thread): a call that sleeps or waits uses
little CPU, pure-Python work uses about as much CPU as wall time. Nothing changes in the
pipeline, and with no trace active nothing is recorded and nothing costs extra.

>>> from feedline.data import Dataset
>>> with trace() as tr:
...     for x in Dataset.range(3).map(lambda x: x + 1):
...         with span("train_step"):
...             pass
>>> {'map', 'range', 'train_step'} <= set(tr.timeline().stages)
True
"""

import itertools
import threading
import time
from typing import NamedTuple

from ..data import dataset as _dataset

_active = []  # tracers recording now (user spans go to all of them)
_clock = time.perf_counter
_cpu_clock = time.thread_time  # CPU seconds of the calling thread only (a system call)


def _no_cpu_clock():
    return None


class Span(NamedTuple):
    """One interval of work: `kind` is "next" (a stage giving an element to its consumer),
    "work" (a call on a worker of a parallel stage) or "user" (a `span()` block).

    `cpu` is the CPU time (seconds) the thread used between `start` and `end`, nested spans
    included, or None when it was not measured (spans built by hand or by a simulator)."""
    stage: str
    worker: str
    start: float
    end: float
    epoch: int
    index: int
    kind: str
    cpu: float = None


class Tracer:
    """The hook that records spans; `trace()` yields one. Set `epoch` between epochs.

    With `cpu=False` spans carry no CPU time (`cpu` is None), which halves the cost of
    tracing a cheap stage (reading a thread's CPU clock costs about half a microsecond)."""

    def __init__(self, cpu=True):
        self.cpu_clock = _cpu_clock if cpu else _no_cpu_clock
        self.spans = []
        self.user_counts = {}
        self.epoch = 0
        self.origin = _clock()
        self._labels = {}      # id(dataset) -> (dataset, label)
        self._signatures = {}  # signature -> label
        self._owners = {}      # label -> the signature it names

    # -- naming --------------------------------------------------------------------------------

    def label(self, dataset):
        """A row name for `dataset`: its `_stage`, numbered when distinct stages share it.

        The number follows the pipeline, not the order in which iterators happen to start
        (which differs between a real run and its simulation): a stage with k stages of the
        same name upstream is `name#(k+1)` (`map`, then `map#2` below it), moved to the next
        free number only when another branch took that one. Datasets with the same chain of
        stages upstream share a row, so the many inner datasets an interleave opens appear
        as one stage."""
        known = self._labels.get(id(dataset))
        if known is not None and known[0] is dataset:
            return known[1]
        signature = _signature(dataset)
        label = self._signatures.get(signature)
        if label is None:
            name = dataset._stage
            number = 1 + sum(_count_stage(child, name) for child in signature[1:]
                             if isinstance(child, tuple))
            label = name if number == 1 else f"{name}#{number}"
            while label in self._owners:
                number += 1
                label = f"{name}#{number}"
            self._owners[label] = signature
            self._signatures[signature] = label
        self._labels[id(dataset)] = (dataset, label)
        return label

    # -- hooks -----------------------------------------------------------------------------------

    def __call__(self, dataset, iterator):
        return _TracedIterator(iterator, self.label(dataset), self.epoch, self.spans.append,
                               self.cpu_clock)

    def wrap_worker_call(self, dataset, function, what):
        """Record one "work" span per call of `function` on a worker thread."""
        label, record, epoch, counter = self.label(dataset), self.spans.append, self.epoch, \
            itertools.count()
        current, cpu_clock = threading.current_thread, self.cpu_clock

        def traced(*args):
            start, cpu = _clock(), cpu_clock()
            try:
                return function(*args)
            finally:
                end, used = _clock(), cpu_clock()
                record(Span(label, current().name, start, end, epoch, next(counter),
                            "work", None if cpu is None else used - cpu))
        return traced

    def datasets(self):
        """`{label: dataset}`: the first dataset traced under each row name."""
        found = {}
        for dataset, label in self._labels.values():
            found.setdefault(label, dataset)
        return found

    def next_epoch(self):
        self.epoch += 1

    def timeline(self):
        """The spans recorded so far, as a `Timeline`."""
        from .timeline import Timeline
        return Timeline(list(self.spans), origin=self.origin)


def _count_stage(signature, name):
    """How many stages called `name` a signature (a stage and its inputs') holds."""
    return (signature[0] == name) + sum(_count_stage(child, name) for child in signature[1:]
                                        if isinstance(child, tuple))


def _signature(dataset, depth=0):
    if depth > 50:
        return (dataset._stage, "...")
    return (dataset._stage,) + tuple(_signature(child, depth + 1) for child in dataset._inputs)


class _TracedIterator:
    __slots__ = ("_iterator", "_label", "_epoch", "_record", "_index", "_cpu_clock")

    def __init__(self, iterator, label, epoch, record, cpu_clock=_cpu_clock):
        self._iterator, self._label, self._epoch, self._record = iterator, label, epoch, record
        self._index, self._cpu_clock = 0, cpu_clock

    def __iter__(self):
        return self

    def __next__(self):
        start, cpu = _clock(), self._cpu_clock()
        value = next(self._iterator)
        end, used = _clock(), self._cpu_clock()
        self._record(Span(self._label, threading.current_thread().name, start, end,
                          self._epoch, self._index, "next", None if cpu is None else used - cpu))
        self._index += 1
        return value

    def close(self):
        closer = getattr(self._iterator, "close", None)
        if closer is not None:
            closer()


class trace:  # noqa: N801 - a context manager used like a function
    """Record a timeline of every pipeline iterated inside the `with` block.

    Args:
        cpu: also record each span's thread CPU time (True by default).
    """

    def __init__(self, cpu=True):
        self.cpu = cpu

    def __enter__(self):
        self.tracer = Tracer(cpu=self.cpu)
        _dataset.iterator_hooks.append(self.tracer)
        _active.append(self.tracer)
        return self.tracer

    def __exit__(self, *exc):
        _dataset.iterator_hooks.remove(self.tracer)
        _active.remove(self.tracer)


class span:  # noqa: N801 - a context manager used like a function
    """Record the `with` block as a span named `name` in every active trace.

    Also usable as a decorator: `@span("train_step")`.
    """

    __slots__ = ("name", "start", "cpu")

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.start, self.cpu = _clock(), _cpu_clock()
        return self

    def __exit__(self, *exc):
        if _active:
            end, cpu = _clock(), _cpu_clock() - self.cpu
            worker = threading.current_thread().name
            for tracer in _active:
                counts = tracer.user_counts
                index = counts[self.name] = counts.get(self.name, -1) + 1
                tracer.spans.append(Span(self.name, worker, self.start, end, tracer.epoch,
                                         index, "user", cpu))

    def __call__(self, function):
        import functools

        @functools.wraps(function)
        def wrapped(*args, **kwargs):
            with span(self.name):
                return function(*args, **kwargs)
        return wrapped
