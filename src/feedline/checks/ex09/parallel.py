"""Check for exercise `ex-09-2`: read files in parallel with `interleave`."""

import os
import threading

from ...perf.provenance import format_order, interleave_order
from .._common import call_answer, check, fail, passed, rng
from ._shared import (_check_uses_files_at_once, _FileLog, _observed_log, _records,
                      _stand_in_files)


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
