"""Checks for exercise notebook 09, interleave (ids `ex-09-1` to `ex-09-5`).

`ex-09-1` compares the learner's order with what feedline's own `interleave` gives on inputs
the learner has not seen. `ex-09-2` and `ex-09-4` run the learner's pipeline over stand-in
files that sleep to open and to read, and record which file did what, on which thread and
when; they then assert a structure (files read at the same time; records arriving while a slow
file is still opening), never an absolute time. `ex-09-3` and `ex-09-5` compare numbers with
the schedule the exercises describe: files read in rounds of `cycle_length`.
"""

import math
import os
import threading
import time

import numpy as np

from ..data import Dataset
from ..data import dataset as _dataset
from ..data.spec import TensorSpec
from ..dtypes import string
from ..perf.provenance import format_order, input_name, interleave_order
from ._common import (CheckFailed, call_answer, check, fail, listed_if_iterator,
                      normalised_answer, observe, passed, pipeline_nodes, read_elements, rng,
                      seconds)


# --- ex-09-1: the order of an interleave ----------------------------------------------------

def _simulate_order(lengths, cycle_length, block_length, eager_end=False, refill_at_once=False):
    """The interleave order rule in plain Python, and two plausible misreadings of it.

    `eager_end`: a slot is emptied as soon as its input gave its last element (instead of on
    the turn that asks for one more). `refill_at_once`: an ended input's slot takes the next
    input in the same turn (instead of passing the turn on)."""
    slots = [None] * cycle_length  # each open slot: [input, next index]
    upcoming = iter(range(len(lengths)))
    order, slot, taken, inputs_left = [], 0, 0, True

    def advance():
        return (slot + 1) % cycle_length, 0

    while inputs_left or any(current is not None for current in slots):
        current = slots[slot]
        if current is None:
            if not inputs_left:
                slot, taken = advance()
                continue
            position = next(upcoming, None)
            if position is None:
                inputs_left = False
                continue
            slots[slot] = current = [position, 0]
        position, index = current
        if index == lengths[position]:  # asked for one more element: this input has ended
            slots[slot] = None
            if refill_at_once:
                taken = 0
            else:
                slot, taken = advance()
            continue
        order.append((position, index))
        current[1] += 1
        taken += 1
        if eager_end and current[1] == lengths[position]:
            slots[slot] = None
            slot, taken = advance()
        elif taken == block_length:
            slot, taken = advance()
    return order


def _grouped_order(lengths, cycle_length, block_length):
    """A misreading: the next `cycle_length` inputs open only when the whole group has ended."""
    order = []
    for start in range(0, len(lengths), cycle_length):
        group = lengths[start:start + cycle_length]
        order += [(start + position, index) for position, index
                  in _simulate_order(group, len(group), block_length)]
    return order


class _StagesRun:
    """Notes the stages of every pipeline iterated inside the `with` block."""

    def __enter__(self):
        self.stages = set()
        _dataset.iterator_hooks.append(self)
        return self

    def __call__(self, dataset, iterator):
        self.stages.add(dataset._stage)
        return iterator

    def __exit__(self, *exc):
        _dataset.iterator_hooks.remove(self)


def _as_pairs(check_id, answer):
    """The answer as a list of (int, int) pairs, or a failed check saying what it is instead."""
    example = "a list of (input, index) pairs such as [(0, 0), (1, 0), (0, 1)]"
    try:
        pairs = [tuple(item) for item in answer]
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError
        return [(int(position), int(index)) for position, index in pairs]
    except (TypeError, ValueError):
        fail(check_id, f"expected {example}, got {answer!r:.120}")


def _order_mistake(got, lengths, cycle_length, block_length):
    """A sentence naming the misreading of the rules that gives `got`, or ""."""
    want = _simulate_order(lengths, cycle_length, block_length)
    candidates = [
        (_simulate_order(lengths, block_length, cycle_length),
         f"that is the order for cycle_length={block_length} and block_length={cycle_length}: "
         "the two are swapped. cycle_length is how many inputs are open at once; "
         "block_length is how many elements an input gives per turn"),
        (_simulate_order(lengths, 1, 1),
         "that is flat_map's order, every input to its end before the next; interleave keeps "
         "cycle_length inputs open and takes turns between them"),
        (_simulate_order(lengths, cycle_length, 1),
         f"that is the order for block_length=1: each turn takes up to {block_length} "
         "elements from the same input"),
        (_grouped_order(lengths, cycle_length, block_length),
         "you opened the next inputs only once the whole group of cycle_length inputs had "
         "ended; a slot whose input has ended takes the next input on its next turn, while "
         "the other slots are still reading"),
        (_simulate_order(lengths, cycle_length, block_length, eager_end=True),
         "the slot of an input that had ended took the next input one turn too early. "
         "interleave only finds out that an input has ended when a turn asks it for one more "
         "element; that turn gives nothing and passes to the next slot, and the empty slot "
         "opens the next input on its following turn"),
        (_simulate_order(lengths, cycle_length, block_length, refill_at_once=True),
         "when an input ended in the middle of a turn, you carried on with the next input in "
         "the same turn; the turn is cut short there and passes to the next slot, and the "
         "empty slot opens the next input when its turn comes round again"),
    ]
    for order, mistake in candidates:
        if got == order and order != want:
            return mistake
    if sorted(got) != sorted(want):
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want))
        parts = []
        if missing:
            parts.append(f"missing {format_order(missing[:6])}")
        if extra:
            parts.append(f"not in any input: {format_order(extra[:6])}")
        if len(got) != len(set(got)):
            parts.append("some elements appear twice")
        return "the elements themselves differ (" + "; ".join(parts or ["counts differ"]) + \
            "); every element of every input appears exactly once"
    return ""


_ORDER_CASES = [([2, 4], 3, 2), ([5, 1, 1, 5], 2, 3), ([1, 1, 1, 1, 1], 2, 1)]


@check("ex-09-1", hint="keep a list of cycle_length slots and the current slot; take up to "
                        "block_length elements, then move on; an input that has no next "
                        "element empties its slot and passes the turn, and an empty slot opens "
                        "the next input when its turn comes",
       replayable=True)
def check_predict_order(predict_order):
    """ex-09-1: `predict_order(lengths, cycle_length, block_length)` is interleave's order.

    >>> check_predict_order(_simulate_order)
    ex-09-1 passed: the predicted orders match interleave, uneven inputs included
    """
    check_id = "ex-09-1"
    generator = rng(check_id)
    cases = []
    for _ in range(7):
        lengths = generator.integers(1, 7, size=int(generator.integers(3, 8))).tolist()
        cases.append((lengths, int(generator.integers(2, 5)), int(generator.integers(1, 4))))
    cases += _ORDER_CASES
    # Pairs yielded by a generator cross to the grader as a list (see normalised_answer).
    predict_order = normalised_answer(predict_order, listed_if_iterator)
    for lengths, cycle_length, block_length in cases:
        with _StagesRun() as run:
            answer = call_answer(check_id, predict_order, list(lengths), cycle_length,
                                 block_length, want_dataset=False)
            got = _as_pairs(check_id, answer)
        if "interleave" in observe(check_id, "stages iterated", lambda: sorted(run.stages)):
            fail(check_id, "predict_order ran feedline's interleave to get the order; the "
                           "exercise asks you to work it out yourself",
                 hint="follow the rules in plain Python: a list of slots, the current slot and "
                      "how many elements it has given in this turn")
        want = interleave_order(lengths, cycle_length, block_length)
        if got != want:
            names = ", ".join(f"{input_name(i)}: {n}" for i, n in enumerate(lengths))
            mistake = _order_mistake(got, lengths, cycle_length, block_length)
            fail(check_id, f"for inputs of lengths {{{names}}}, cycle_length={cycle_length}, "
                           f"block_length={block_length} interleave gives\n  "
                           f"{format_order(want)}\nbut predict_order gave\n  "
                           f"{format_order(got)}" + (f"\n{mistake}" if mistake else ""))
    passed(check_id, "the predicted orders match interleave, uneven inputs included")


# --- stand-in files for ex-09-2 and ex-09-4 -------------------------------------------------

class _FileLog:
    """What the stand-in files did: (file, kind, thread id, start, end) for every open/read."""

    def __init__(self):
        self.entries = []
        self._lock = threading.Lock()

    def work(self, name, kind, seconds_):
        start = time.perf_counter()
        time.sleep(seconds_)
        with self._lock:
            self.entries.append((name, kind, threading.get_ident(), start, time.perf_counter()))

    def threads(self):
        return {thread for _, _, thread, _, _ in self.entries}

    def peak_files(self):
        """The largest number of files being opened or read at the same moment."""
        events = sorted([(start, 1) for *_, start, _ in self.entries]
                        + [(end, -1) for *_, end in self.entries])
        peak = current = 0
        for _, step in events:
            current += step
            peak = max(peak, current)
        return peak

    def opened(self, name):
        """When the file `name` finished opening (None when it was never opened)."""
        ends = [end for file, kind, _, _, end in self.entries if file == name and kind == "open"]
        return min(ends) if ends else None


def _observed_log(check_id, log, main):
    """The loop's thread and the files' log, as the grader will see them (replayed there)."""
    main = observe(check_id, "main thread", lambda: main)
    entries = observe(check_id, "file log", lambda: [list(entry) for entry in log.entries])
    log.entries = [tuple(entry) for entry in entries]
    return main


class _File(Dataset):
    """A stand-in file: sleeps `open_s` to open and `read_s` per record; records are b"name/k"."""

    _stage = "file"

    def __init__(self, name, records, open_s, read_s, log):
        self.name, self.records, self.open_s, self.read_s, self.log = (name, records, open_s,
                                                                       read_s, log)

    def _make_iterator(self):
        self.log.work(self.name, "open", self.open_s)
        for index in range(self.records):
            self.log.work(self.name, "read", self.read_s)
            yield f"{self.name}/{index}".encode()

    def _cardinality(self):
        return self.records

    def _element_spec(self):
        return TensorSpec((), string)


def _file_name(name):
    """A filename element (bytes, str or a NumPy scalar) as str."""
    if isinstance(name, np.ndarray):
        name = name.item()
    return os.fsdecode(bytes(name)) if isinstance(name, (bytes, np.bytes_)) else str(name)


def _stand_in_files(lengths, open_costs, read_s, log):
    """A Dataset of file names and the `open_file(name)` function that opens them."""
    names = [f"shard-{i:02d}" for i in range(len(lengths))]
    files = Dataset.from_tensor_slices(np.array([n.encode() for n in names], dtype=object))

    def open_file(name):
        name = _file_name(name)
        if name not in names:
            raise ValueError(f"no file named {name!r}")
        i = names.index(name)
        return _File(name, lengths[i], open_costs[i], read_s, log)

    return names, files, open_file


def _records(check_id, dataset, names, lengths, arrivals=None):
    """Read the learner's pipeline; return its records as (file, index) pairs, in order, and
    append to `arrivals` (when given) the time.perf_counter() at which each one arrived.

    Fails when a record is not one of the files' records, or when some are missing, repeated
    or out of order within their file."""
    limit = sum(lengths) + 10
    got = []
    try:
        for element in read_elements(check_id, dataset):
            if arrivals is not None:
                arrivals.append(time.perf_counter())
            try:
                name, index = _file_name(element).rsplit("/", 1)
                got.append((names.index(name), int(index)))
            except (TypeError, ValueError):
                fail(check_id, f"expected the files' records (bytes like b'shard-00/0'), got "
                               f"{element!r:.60}; pass each file name to open_file and keep "
                               "its records as they are")
            if len(got) > limit:
                fail(check_id, f"the pipeline gave more than {limit} records; the files hold "
                               f"{sum(lengths)} (is there a repeat()?)")
    except CheckFailed as failure:
        if "convert _File" in failure.message:  # map(open_file): elements would be datasets
            fail(check_id, "the pipeline's elements are whole files (datasets), not records: "
                           "map(open_file) only makes one dataset per file; interleave opens "
                           "them and hands out their records")
        raise
    want = {(i, k) for i, n in enumerate(lengths) for k in range(n)}
    if sorted(got) != sorted(want):
        missing = sorted(want - set(got))
        detail = (f"missing {len(missing)}, e.g. {names[missing[0][0]]}/{missing[0][1]}"
                  if missing else "some records came twice")
        fail(check_id, f"expected each of the {sum(lengths)} records of the {len(lengths)} "
                       f"files exactly once, got {len(got)} ({detail})")
    for i, name in enumerate(names):
        indices = [k for j, k in got if j == i]
        if indices != sorted(indices):
            fail(check_id, f"the records of {name} came out of order ({indices}); the records "
                           "of one file must keep their order")
    return got


def _check_uses_files_at_once(check_id, answer, dataset, files, open_file, files_at_once):
    """The interleave has cycle_length files_at_once, and again when the answer is built with
    another value: a number hard-coded to fit this run's files_at_once does not."""
    other = files_at_once + 1
    rebuilt = call_answer(check_id, answer, files, open_file, other)
    for pipeline, wanted in ((dataset, files_at_once), (rebuilt, other)):
        found = observe(check_id, f"interleaves for files_at_once={wanted}", lambda: [
            [int(node._cycle_length), -2 if node._num_parallel_calls is None
             else int(node._num_parallel_calls)]
            for node in pipeline_nodes(pipeline) if getattr(node, "_stage", None) == "interleave"])
        cycles = [cycle for cycle, _ in found]
        if wanted not in cycles:
            fail(check_id, f"called with files_at_once={wanted}, the pipeline keeps "
                           + (f"{max(cycles)} files open at once" if cycles else "no interleave")
                           + f", not {wanted}",
                 hint="cycle_length=files_at_once: use the argument, not a number")
        calls = [count for cycle, count in found if cycle == wanted]
        if not any(count in (wanted, -1) for count in calls):  # -1 is AUTOTUNE
            fail(check_id, f"called with files_at_once={wanted}, the interleave reads "
                           + ("in the loop's thread" if calls == [-2] else
                              f"with num_parallel_calls={calls[0]}") + f", not {wanted} at once",
                 hint="num_parallel_calls=files_at_once (or AUTOTUNE): use the argument")


# --- ex-09-2: read files in parallel --------------------------------------------------------

_OPEN_S, _READ_S = 0.030, 0.004


def _order_name(got, lengths, files_at_once):
    """Which (cycle_length, block_length) gives `got`, as a phrase, or ""."""
    default = os.cpu_count() or 1
    for cycle_length in sorted({1, 2, 3, 4, 5, 6, default, len(lengths)}):
        for block_length in range(1, files_at_once + 1):
            if (cycle_length, block_length) == (files_at_once, 1):
                continue
            if got == interleave_order(lengths, cycle_length, block_length):
                if cycle_length == 1:
                    return ("that is the order of reading the files one after another "
                            "(flat_map, or cycle_length=1)")
                why = (f" (cycle_length left at its default: one per CPU core, {default} here)"
                       if cycle_length == default else "")
                return (f"that is the order of cycle_length={cycle_length}, "
                        f"block_length={block_length}{why}")
    return ""


@check("ex-09-2", hint="interleave(open_file, cycle_length=files_at_once, "
                        "num_parallel_calls=files_at_once): the cycle says how many files are "
                        "open at once, the parallel calls let their reader threads work at the "
                        "same time",
       replayable=True)
def check_read_in_parallel(read_in_parallel):
    """ex-09-2: `read_in_parallel(filenames, open_file, files_at_once)` reads files at once.

    >>> check_read_in_parallel(lambda files, open_file, k: files.interleave(
    ...     open_file, cycle_length=k, num_parallel_calls=k))
    ex-09-2 passed: one record from each file in turn, and the files were read at the same time
    """
    check_id = "ex-09-2"
    generator = rng(check_id)
    files_at_once = int(generator.integers(3, 5))
    lengths = generator.integers(3, 8, size=2 * files_at_once + 1).tolist()
    log = _FileLog()
    names, files, open_file = _stand_in_files(lengths, [_OPEN_S] * len(lengths), _READ_S, log)
    dataset = call_answer(check_id, read_in_parallel, files, open_file, files_at_once)
    got = _records(check_id, dataset, names, lengths)
    main = _observed_log(check_id, log, threading.get_ident())
    want = interleave_order(lengths, files_at_once, 1)
    if got != want:
        which = _order_name(got, lengths, files_at_once)
        shown = dict(zip("ABCDEFGHIJKL", names))
        fail(check_id, f"with files_at_once={files_at_once} the loop should get one record from "
                       f"each of {files_at_once} files in turn:\n  {format_order(want)}\n"
                       f"got\n  {format_order(got)}\n(A is {shown['A']}, B is {shown['B']}, "
                       "...)" + (f"; {which}" if which else
                                 "; did you set deterministic=False? keep the default order"))
    if log.threads() == {main}:
        fail(check_id, "every file was opened and read in the loop's own thread, one after "
                       "another, so no open overlapped another; interleave only uses reader "
                       "threads when you give it num_parallel_calls")
    peak = log.peak_files()
    if peak < files_at_once:
        fail(check_id, f"at most {peak} file(s) were being opened or read at the same moment; "
                       f"expected {files_at_once}. num_parallel_calls sets how many reads may "
                       "run at once: give it files_at_once too")
    _check_uses_files_at_once(check_id, read_in_parallel, dataset, files, open_file,
                              files_at_once)
    passed(check_id, "one record from each file in turn, and the files were read at the same "
                     "time")


# --- ex-09-3: predict the total -------------------------------------------------------------

def _predicted_time(num_files, records_per_file, open_s, read_s, cycle_length, parallel):
    per_file = open_s + records_per_file * read_s
    if not parallel:
        return num_files * per_file
    return math.ceil(num_files / cycle_length) * per_file


def _time_mistake(got, num_files, records, open_s, read_s, cycle_length, parallel):
    """A sentence naming the slip that gives `got`, or ""."""
    per_file = open_s + records * read_s
    rounds = math.ceil(num_files / cycle_length)
    close = lambda value: math.isclose(got, value, rel_tol=1e-6)  # noqa: E731
    if not parallel:
        if close(num_files * per_file / cycle_length) or close(rounds * per_file):
            return ("without num_parallel_calls interleave opens and reads every file in the "
                    "loop's thread, one at a time: cycle_length changes the order, not the time")
        return ""
    if close(num_files * per_file / cycle_length):
        return (f"{num_files} files in rounds of {cycle_length} make {rounds} rounds, a whole "
                "number: the last round costs a whole file's time even when it is not full "
                "(round up)")
    if close(num_files * per_file):
        return (f"with num_parallel_calls, {cycle_length} files are opened and read at the "
                "same time")
    if close(rounds * open_s + num_files * records * read_s):
        return "the reads of the files in a round overlap too, not only their opens"
    if close(per_file):
        return (f"only cycle_length={cycle_length} files are read at once, so "
                f"{num_files} files take {rounds} rounds")
    return ""


@check("ex-09-3", hint="one file costs open_s + records_per_file * read_s; one after another, "
                        "the files add up; in parallel they go in rounds of cycle_length files, "
                        "and a round costs one file's time: ceil(num_files / cycle_length) rounds",
       replayable=True)
def check_predicted_time(predicted_time):
    """ex-09-3: `predicted_time(...)` matches the rounds schedule, one by one or in parallel.

    >>> check_predicted_time(_predicted_time)
    ex-09-3 passed: the predicted totals match the schedule, one by one and in parallel
    """
    check_id = "ex-09-3"
    generator = rng(check_id)
    cases = [(int(generator.integers(3, 21)), int(generator.integers(1, 11)),
              float(generator.uniform(0.005, 0.05)), float(generator.uniform(0.001, 0.01)),
              int(generator.integers(2, 7))) for _ in range(6)]
    cases += [(5, 3, 0.03, 0.01, 8), (12, 4, 0.02, 0.005, 4), (7, 2, 0.04, 0.002, 1),
              (10, 4, 0.03, 0.005, 3)]
    for num_files, records, open_s, read_s, cycle_length in cases:
        for parallel in (False, True):
            want = _predicted_time(num_files, records, open_s, read_s, cycle_length, parallel)
            got = seconds(check_id, call_answer(check_id, predicted_time, num_files, records,
                                                open_s, read_s, cycle_length, parallel,
                                                want_dataset=False))
            if not math.isclose(got, want, rel_tol=1e-6):
                mistake = _time_mistake(got, num_files, records, open_s, read_s, cycle_length,
                                        parallel)
                fail(check_id, f"for {num_files} files of {records} records, open_s={open_s:.4f},"
                               f" read_s={read_s:.4f}, cycle_length={cycle_length}, "
                               f"parallel={parallel} expected {want:.4f} s, got {got:.4f} s"
                               + (f"; {mistake}" if mistake else ""))
    passed(check_id, "the predicted totals match the schedule, one by one and in parallel")


# --- ex-09-4: do not wait for a slow file ----------------------------------------------------

_SLOW_OPEN_S, _FAST_OPEN_S = 0.250, 0.010


@check("ex-09-4", hint="a parallel interleave keeps the order by default, so the loop waits "
                        "for the slow file's turn; deterministic=False lets it hand out any "
                        "record that is ready",
       replayable=True)
def check_read_without_waiting(read_without_waiting):
    """ex-09-4: `read_without_waiting(filenames, open_file, files_at_once)` skips a slow file.

    >>> check_read_without_waiting(lambda files, open_file, k: files.interleave(
    ...     open_file, cycle_length=k, num_parallel_calls=k, deterministic=False))
    ex-09-4 passed: all records, and the loop got the other files' records while the slow one opened
    """
    check_id = "ex-09-4"
    generator = rng(check_id)
    files_at_once = int(generator.integers(2, 4))
    lengths = generator.integers(2, 5, size=6).tolist()
    slow = int(generator.integers(0, files_at_once))  # in the first cycle
    opens = [_SLOW_OPEN_S if i == slow else _FAST_OPEN_S for i in range(len(lengths))]
    log = _FileLog()
    names, files, open_file = _stand_in_files(lengths, opens, 0.003, log)
    dataset = call_answer(check_id, read_without_waiting, files, open_file, files_at_once)
    arrivals = []  # when each record reached the loop (time.perf_counter)
    got = _records(check_id, dataset, names, lengths, arrivals)
    main = _observed_log(check_id, log, threading.get_ident())
    arrivals = observe(check_id, "arrivals", lambda: list(arrivals))
    if log.threads() == {main}:
        fail(check_id, "every file was opened and read in the loop's own thread, so the loop "
                       f"stood still while {names[slow]} was opening; deterministic=False only "
                       "matters for a parallel interleave: add num_parallel_calls",
             hint="interleave(open_file, cycle_length=files_at_once, "
                  "num_parallel_calls=files_at_once, deterministic=False)")
    opened = log.opened(names[slow])
    others = sum(lengths) - lengths[slow]
    early = sum(1 for (i, _), t in zip(got, arrivals) if i != slow and t < opened)
    if early < others / 2:
        fail(check_id, f"{names[slow]} took {_SLOW_OPEN_S * 1000:.0f} ms to open, and meanwhile "
                       f"the loop received only {early} of the other files' {others} records: it "
                       f"waited for {names[slow]}'s turn, because the interleave keeps its order")
    _check_uses_files_at_once(check_id, read_without_waiting, dataset, files, open_file,
                              files_at_once)
    passed(check_id, "all records, and the loop got the other files' records while the slow one "
                     "opened")


# --- ex-09-5: choose cycle_length -----------------------------------------------------------

def _keeps_up(num_files, records, open_s, read_s, step_s, cycle_length):
    reading = math.ceil(num_files / cycle_length) * (open_s + records * read_s)
    training = num_files * records * step_s
    return reading <= training * (1 + 1e-9), reading, training


def _choose_cycle_length(num_files, records_per_file, open_s, read_s, step_s, max_open):
    largest = min(num_files, max_open)
    for cycle_length in range(1, largest + 1):
        if _keeps_up(num_files, records_per_file, open_s, read_s, step_s, cycle_length)[0]:
            return cycle_length
    return largest


def _whole_number(check_id, value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer, float,
                                                                       np.floating)):
        fail(check_id, f"expected a whole number of files, got {type(value).__name__}")
    if value != int(value):
        fail(check_id, f"expected a whole number of files, got {value}; cycle_length counts "
                       "files")
    return int(value)


@check("ex-09-5", hint="with cycle_length c, reading takes ceil(num_files / c) rounds of "
                        "(open_s + records_per_file * read_s), training num_files * "
                        "records_per_file * step_s; try c = 1, 2, ... up to min(num_files, "
                        "max_open) and keep the first that keeps up",
       replayable=True)
def check_choose_cycle_length(choose_cycle_length):
    """ex-09-5: `choose_cycle_length(...)` is the smallest cycle that keeps the step busy.

    >>> check_choose_cycle_length(_choose_cycle_length)
    ex-09-5 passed: the smallest cycle_length that keeps up, within the files and the limit
    """
    check_id = "ex-09-5"
    generator = rng(check_id)
    cases = []
    for _ in range(6):
        cases.append((int(generator.integers(4, 40)), int(generator.integers(2, 12)),
                      float(generator.uniform(0.01, 0.1)), float(generator.uniform(0.001, 0.005)),
                      float(generator.uniform(0.002, 0.01)), int(generator.integers(4, 17))))
    cases += [
        (4, 4, 0.034, 0.004, 0.005, 8),     # rounds matter: 3 files at once make 2 rounds
        (8, 4, 0.030, 0.005, 0.005, 8),     # the slider of the lesson: 3
        (30, 5, 0.080, 0.004, 0.003, 6),    # the limit binds: 6 files cannot keep up
        (6, 5, 0.040, 0.002, 0.001, 16),    # nothing keeps up, every file at once: 6
        (20, 10, 0.020, 0.002, 0.010, 8),   # the step is slow: one file is enough
    ]
    for num_files, records, open_s, read_s, step_s, max_open in cases:
        want = _choose_cycle_length(num_files, records, open_s, read_s, step_s, max_open)
        got = _whole_number(check_id, call_answer(
            check_id, choose_cycle_length, num_files, records, open_s, read_s, step_s,
            max_open, want_dataset=False))
        if got == want:
            continue
        setting = (f"for {num_files} files of {records} records, open_s={open_s:.4f}, "
                   f"read_s={read_s:.4f}, step_s={step_s:.4f}, max_open={max_open}: expected "
                   f"{want}, got {got}")
        largest = min(num_files, max_open)
        if got < 1:
            fail(check_id, f"{setting}; at least one file must be open")
        if got > num_files:
            fail(check_id, f"{setting}; there are only {num_files} files, so a longer cycle "
                           "only has empty slots")
        if got > max_open:
            fail(check_id, f"{setting}; at most max_open={max_open} files may be open at once")
        ok, reading, training = _keeps_up(num_files, records, open_s, read_s, step_s, got)
        best_ok = _keeps_up(num_files, records, open_s, read_s, step_s, want)[0]
        if not best_ok:
            fail(check_id, f"{setting}; no cycle_length up to {largest} keeps up here, so read "
                           f"as many files at once as allowed: {largest}")
        rounds = math.ceil(num_files / got)
        if not ok:
            fail(check_id, f"{setting}; with cycle_length={got} reading takes {rounds} rounds, "
                           f"{reading:.3f} s, more than the {training:.3f} s of training, so "
                           "the loop would wait (the rounds are whole: ceil(num_files / "
                           "cycle_length))")
        fail(check_id, f"{setting}; cycle_length={got - 1} already keeps up, and every open "
                       "file costs memory and a reader thread: choose the smallest that "
                       "keeps up")
    passed(check_id, "the smallest cycle_length that keeps up, within the files and the limit")
