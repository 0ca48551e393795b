"""Check for exercise `ex-09-3`: predict the total time of reading the files.

The check compares numbers with the schedule the exercises describe: files read in rounds of
`cycle_length`, one after another without `num_parallel_calls`.
"""

import math

from .._common import call_answer, check, fail, passed, rng, seconds


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
