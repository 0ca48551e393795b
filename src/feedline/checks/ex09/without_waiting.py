"""Check for exercise `ex-09-4`: do not wait for a slow file (`deterministic=False`)."""

import threading

from .._common import call_answer, check, fail, observe, passed, rng
from ._shared import (_check_uses_files_at_once, _FileLog, _observed_log, _records,
                      _stand_in_files)


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
