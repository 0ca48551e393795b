"""Check for exercise `ex-09-5`: choose the smallest `cycle_length` that keeps up.

The check compares the answer with the schedule the exercises describe: files read in rounds of
`cycle_length`, each round as long as one file.
"""

import math

import numpy as np

from .._common import call_answer, check, fail, passed, rng


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
