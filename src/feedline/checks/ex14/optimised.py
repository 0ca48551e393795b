"""Check for exercise `ex-14-3`: build the optimised pipeline, fast and right.

The check runs the learner's pipeline for 2 epochs against a stand-in training loop; its files,
decode and augment sleep (like I/O, they leave the CPU free) and record which thread did what,
when, in which epoch. It asserts the elements first, then a structure (decode once per batch,
files read side by side, nothing recomputed in epoch 2), and last a loose ratio of the measured
time to the ideal schedule of the same costs.
"""

import math
import threading
import time

import numpy as np

from ...data import AUTOTUNE, Dataset  # AUTOTUNE: the doctest of check_optimised uses it
from ...data.spec import TensorSpec
from ...perf.timeline import peak_overlap
from .._common import (call_answer, check, fail, observe, passed, pipeline_nodes, read_elements,
                       rng)


class _Log:
    """Work that sleeps and remembers (kind, thread id, start, end, epoch) for every call."""

    def __init__(self):
        self.entries, self.epoch, self.lock = [], 0, threading.Lock()

    def work(self, kind, seconds):
        start = time.perf_counter()
        time.sleep(seconds)
        with self.lock:
            self.entries.append((kind, threading.get_ident(), start, time.perf_counter(),
                                 self.epoch))

    def of(self, kind, epoch=None):
        return [entry for entry in self.entries
                if entry[0] == kind and (epoch is None or entry[4] == epoch)]


class _File(Dataset):
    """A file of `samples` records: opening costs `open_s`, each record `read_s`; record k of
    file f is the int64 100 * f + k."""

    _stage = "read"

    def __init__(self, log, number, samples, open_s, read_s):
        self.log, self.number, self.samples = log, int(number), samples
        self.open_s, self.read_s = open_s, read_s

    def _make_iterator(self):
        self.log.work("open", self.open_s)
        for k in range(self.samples):
            self.log.work("read", self.read_s)
            yield np.int64(100 * self.number + k)

    def _cardinality(self):
        return self.samples

    def _element_spec(self):
        return TensorSpec((), np.int64)


class _Workload:
    """The costs of ex-14-3, the learner's stand-ins, and the ideal time of 2 epochs."""

    files, samples, batch_size, epochs = 4, 6, 6, 2
    open_s, read_s, decode_s, augment_s, step_s = 0.030, 0.0045, 0.015, 0.009, 0.012

    def __init__(self, generator):
        self.log = _Log()
        self.noise = np.random.default_rng(int(generator.integers(1 << 30)))

        def open_file(number):
            return _File(self.log, number, self.samples, self.open_s, self.read_s)

        def decode(records):
            self.log.work("decode", self.decode_s)
            return records * 2

        def augment(decoded):
            self.log.work("augment", self.augment_s)
            return np.asarray(decoded) + self.noise.uniform(0.0, 0.5, size=np.shape(decoded))

        self.open_file, self.decode, self.augment = open_file, decode, augment

    @property
    def records(self):
        return sorted(100 * f + k for f in range(self.files) for k in range(self.samples))

    @property
    def batches(self):
        return -(-self.files * self.samples // self.batch_size)

    def ideal(self):
        """Every file opened at once, decode and augment once per batch, decode cached, the
        loop never waiting after the first batch: the training step sets the pace."""
        first_batch = self.open_s + math.ceil(self.batch_size / self.files) * self.read_s
        epoch_one = first_batch + self.decode_s + self.augment_s + self.batches * self.step_s
        later = self.augment_s + self.batches * self.step_s
        return epoch_one + (self.epochs - 1) * later


# Loose on purpose: the structure checks above catch every wrong pipeline we know of, and an
# honest answer must pass on a busy 2-core laptop, where four files read by num_parallel_calls
# workers land near 1.25 of the ideal time.
_SLOWEST = 1.5


def _default_autotune_cycle():
    """The cycle_length an interleave with num_parallel_calls=AUTOTUNE gets when unset."""
    from ...data.autotune import AUTOTUNE
    from ...data.ops.interleave import resolve_cycle_length
    return resolve_cycle_length(None, AUTOTUNE)


@check("ex-14-3", hint="interleave the files with num_parallel_calls, batch, map the decode "
                        "with num_parallel_calls, cache, map the augment with "
                        "num_parallel_calls, and prefetch last",
       replayable=True)
def check_optimised(optimise):
    """ex-14-3: `optimise(file_ids, open_file, decode, augment, batch_size)` is fast and right.

    >>> check_optimised(lambda file_ids, open_file, decode, augment, batch_size: file_ids
    ...     .interleave(open_file, cycle_length=4, num_parallel_calls=4).batch(batch_size)
    ...     .map(decode, num_parallel_calls=AUTOTUNE).cache()
    ...     .map(augment, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE))  # doctest: +ELLIPSIS
    ex-14-3 passed: same records, fresh augmentation each epoch, ... the ideal time
    """
    check_id = "ex-14-3"
    work = _Workload(rng(check_id))
    dataset = call_answer(check_id, optimise, Dataset.range(work.files), work.open_file,
                          work.decode, work.augment, work.batch_size)
    main = threading.get_ident()
    epochs, start = [], time.perf_counter()
    for epoch in range(work.epochs):
        work.log.epoch = epoch
        got = []
        for element in read_elements(check_id, dataset):
            work.log.work("step", work.step_s)
            got.append(np.asarray(element))
            if len(got) > 3 * len(work.records):
                fail(check_id, "the dataset gave far more elements than there are records; "
                               "is there a repeat()?")
        epochs.append(got)
    total = observe(check_id, "seconds", lambda: time.perf_counter() - start)
    main = observe(check_id, "main thread", lambda: main)
    entries = observe(check_id, "work", lambda: [list(e) for e in work.log.entries])
    work.log.entries = [tuple(entry) for entry in entries]
    _check_elements(check_id, work, epochs)
    _check_work(check_id, work, dataset)
    _check_threads(check_id, work, main, dataset)
    _check_batch_size_used(check_id, optimise)
    ratio = total / work.ideal()
    if ratio > _SLOWEST:
        fail(check_id, f"2 epochs took {ratio:.2f} times the ideal time of {work.ideal():.3f} s "
                       f"(at most {_SLOWEST} expected): the loop still waits for the pipeline",
             hint="run the slow steps side by side and ahead of the loop: num_parallel_calls on "
                  "interleave and on both maps, and prefetch(AUTOTUNE) last")
    passed(check_id, "same records, fresh augmentation each epoch, decode once per batch, "
                     f"files read side by side, within {_SLOWEST} times the ideal time")


def _check_batch_size_used(check_id, optimise):
    """Build the pipeline again with another batch_size (not read): batch(6) written in
    fits this check's workload, which always batches by 6, but not the argument."""
    other = _Workload.batch_size - 2
    spare = _Workload(np.random.default_rng(0))  # stand-ins whose log nobody reads
    rebuilt = call_answer(check_id, optimise, Dataset.range(spare.files), spare.open_file,
                          spare.decode, spare.augment, other)
    sizes = observe(check_id, f"batch sizes for batch_size={other}", lambda: [
        int(node._batch_size) for node in pipeline_nodes(rebuilt)
        if getattr(node, "_stage", None) == "batch"])
    if other not in sizes:
        fail(check_id, f"called with batch_size={other}, the pipeline batches by "
                       f"{sizes or 'nothing'}: the batch_size argument is not used",
             hint="batch(batch_size), not a number written in")


def _check_elements(check_id, work, epochs):
    """Every epoch: batches of batch_size holding each record once, decoded and augmented."""
    for number, batches in enumerate(epochs, start=1):
        shapes = [batch.shape for batch in batches]
        sizes = [shape[0] if len(shape) == 1 else None for shape in shapes]
        full = [size for size in sizes[:-1]]
        if None in sizes or any(size != work.batch_size for size in full):
            fail(check_id, f"epoch {number} gave elements of shapes {shapes[:6]}; expected "
                           f"batches of {work.batch_size} records (shape ({work.batch_size},))",
                 hint="batch(batch_size) once, and no unbatch()")
        values = np.concatenate(batches) if batches else np.zeros(0)
        records = sorted(int(value) // 2 for value in np.floor(values))
        if records != work.records:
            fail(check_id, f"epoch {number} gave {len(values)} values; expected every one of "
                           f"the {len(work.records)} records once, decoded (x 2) and augmented "
                           "(+ a random fraction)")
        if np.array_equal(values, np.floor(values)):
            fail(check_id, f"epoch {number}: the values are whole numbers, so augment never "
                           "ran on them", hint="map augment after the cache")
    first, second = (np.sort(np.concatenate(batches)) for batches in epochs[:2])
    if np.array_equal(first, second):
        fail(check_id, "epoch 2 gave exactly the same augmented values as epoch 1: the cache "
                       "is below augment, so it replays the first epoch's augmentation",
             hint="cache after decode and before augment: a cache freezes everything above it")


def _check_work(check_id, work, dataset=None):
    """Decode once per batch, nothing read in epoch 2, files read side by side."""
    decodes, batches = len(work.log.of("decode")), work.batches
    records = len(work.records)
    if decodes > batches:
        if len(work.log.of("decode", epoch=0)) >= records:
            fail(check_id, f"decode ran {len(work.log.of('decode', epoch=0))} times in epoch 1, "
                           f"once per record; batch first, so that it runs once per batch "
                           f"({batches} times)",
                 hint="batch before map: the decode is vectorised, it takes a whole batch")
        fail(check_id, f"decode ran {decodes} times in 2 epochs, expected {batches}: epoch 2 "
                       "decoded again",
             hint="cache right after the decode, so that epoch 2 replays decoded batches")
    if work.log.of("read", epoch=1) or work.log.of("open", epoch=1):
        fail(check_id, "epoch 2 read the files again", hint="cache after decode")
    reads = [(start, end) for kind, _, start, end, _ in work.log.entries
             if kind in ("open", "read")]
    if peak_overlap(reads) < 2 and not (dataset is not None and
                                        _parallel_interleaves(dataset)):
        fail(check_id, "the files were opened and read one at a time",
             hint="interleave with num_parallel_calls and a cycle_length, so that several files "
                  "are opened and read side by side (left unset, cycle_length follows "
                  "TensorFlow 2.21: under AUTOTUNE it is a third of the cores, rounded up, "
                  f"so {_default_autotune_cycle()} here)")


def _stages(dataset, kind, parallel):
    """The stages of class `kind` in the pipeline `dataset` written with (`parallel`) or
    without `num_parallel_calls`: the structure decides where timing cannot (a loaded
    machine, or a stage that chose to work on one thread)."""
    found, stack, seen = [], [dataset], set()
    while stack:
        stage = stack.pop()
        if id(stage) in seen:
            continue
        seen.add(id(stage))
        if isinstance(stage, kind) and (stage._num_parallel_calls is not None) == parallel:
            found.append(stage)
        stack.extend(getattr(stage, "_inputs", ()))
    return found


def _sequential_maps(dataset):
    from ...data.ops.map_ import MapDataset

    return _stages(dataset, MapDataset, parallel=False)


def _parallel_interleaves(dataset):
    """Interleaves written to read several files side by side (parallel, cycle above 1)."""
    from ...data.ops.interleave import InterleaveDataset

    return [stage for stage in _stages(dataset, InterleaveDataset, parallel=True)
            if stage._cycle_length > 1]


def _check_threads(check_id, work, main, dataset):
    """Decode and augment run ahead of the loop, several calls at a time."""
    for kind in ("decode", "augment"):
        on_main = [entry for entry in work.log.of(kind) if entry[1] == main]
        if on_main:
            fail(check_id, f"{kind} ran {len(on_main)} of {len(work.log.of(kind))} times in the "
                           "training loop's own thread, so the loop waited for it",
                 hint="a map after prefetch runs in the loop's thread: put prefetch last")
        calls = work.log.of(kind)
        # A parallel map whose input comes slowly (a loaded machine) may never overlap two
        # calls, and one that found its threads slower than reading inline runs them all on
        # one thread; so one call at a time fails only when a map was written sequential.
        if peak_overlap([(start, end) for _, _, start, end, _ in calls]) < 2 and \
                len({thread for _, thread, _, _, _ in calls}) < 2 and \
                _sequential_maps(dataset):
            fail(check_id, f"{kind} ran one call at a time",
                 hint=f"give the map of {kind} num_parallel_calls=AUTOTUNE, so that several "
                      "batches are worked on side by side")
