"""Stand-in files for `ex-09-2` and `ex-09-4`, and the reading of the learner's pipeline.

The files sleep to open and to read, and record which file did what, on which thread and when;
the checks then assert a structure (files read at the same time; records arriving while a slow
file is still opening), never an absolute time.
"""

import os
import threading
import time

import numpy as np

from ...data import Dataset
from ...data.spec import TensorSpec
from ...dtypes import string
from .._common import CheckFailed, call_answer, fail, observe, pipeline_nodes, read_elements


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
