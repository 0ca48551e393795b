"""Check for exercise `ex-10-2`: pick num_parallel_calls for a machine and a kind of work.

The rule of the exercise is `_choose_parallel_calls`; the machines and workloads are drawn
fresh, with call-to-step ratios kept away from whole numbers so rounding always matters.
"""

import math

import numpy as np

from .._common import call_answer, check, fail, passed, rng


KINDS = ("io", "numpy", "python")


def _choose_parallel_calls(cores, kind, call_s, step_s):
    """The rule of the exercise: enough calls in flight to keep up with the step, but no more
    threads than cores for CPU work that releases the GIL, and one for pure Python."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    needed = max(1, math.ceil(call_s / step_s))
    if kind == "io":
        return needed
    if kind == "numpy":
        return min(needed, cores)
    return 1


def _describe_machine(cores, kind, call_s, step_s):
    return (f"for cores={cores}, kind={kind!r}, call_s={call_s:.4f}, step_s={step_s:.4f}")


def _ratio_away_from_whole(generator, low, high):
    """A ratio call_s / step_s whose fraction is clearly not 0, so rounding is never a toss."""
    return int(generator.integers(low, high)) + float(generator.uniform(0.2, 0.8))


def _whole_number(check_id, value, what):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer, float,
                                                                       np.floating)):
        fail(check_id, f"expected a whole number of {what}, got {type(value).__name__}")
    if value != int(value):
        fail(check_id, f"expected a whole number of {what}, got {value}")
    return int(value)


@check("ex-10-2", hint="needed = ceil(call_s / step_s) calls in flight keep up with the step; "
                        "waiting uses no core, so io gets all of them; numpy work is capped at "
                        "the cores; pure Python in threads gains nothing, so 1",
       replayable=True)
def check_choose_parallel_calls(choose_parallel_calls):
    """ex-10-2: `choose_parallel_calls(cores, kind, call_s, step_s)` follows the rule.

    >>> check_choose_parallel_calls(_choose_parallel_calls)
    ex-10-2 passed: the right num_parallel_calls for every machine and workload
    """
    check_id = "ex-10-2"
    generator = rng(check_id)
    cases = []
    for kind in KINDS * 3:
        cores = int(generator.choice([2, 4, 8, 16]))
        step_s = float(generator.uniform(0.002, 0.02))
        ratio = _ratio_away_from_whole(generator, 0, 3 * cores)
        cases.append((cores, kind, round(ratio * step_s, 6), round(step_s, 6)))
    cases += [
        (2, "io", 0.050, 0.004),       # 12.5 -> 13 waits in flight on 2 cores
        (2, "numpy", 0.050, 0.004),    # the same, but only 2 cores to compute on
        (8, "numpy", 0.0125, 0.005),   # 2.5 -> 3: fewer than the cores is enough
        (4, "python", 0.030, 0.005),   # pure Python: threads take turns
        (2, "io", 0.003, 0.010),       # the step is slower than a call: 1 is enough
    ]
    generator.shuffle(cases)
    for cores, kind, call_s, step_s in cases:
        want = _choose_parallel_calls(cores, kind, call_s, step_s)
        got = _whole_number(check_id, call_answer(check_id, choose_parallel_calls, cores, kind,
                                                  call_s, step_s, want_dataset=False),
                            "parallel calls")
        if got == want:
            continue
        setting = f"{_describe_machine(cores, kind, call_s, step_s)}: expected {want}, got {got}"
        needed = max(1, math.ceil(call_s / step_s))
        if got < 1:
            fail(check_id, f"{setting}; a map needs at least one call in flight")
        if kind == "python":
            fail(check_id, f"{setting}; pure-Python work holds the GIL, so threads run it one "
                           "at a time whatever their number: more than 1 only adds switching",
                 hint="for pure Python, threads gain nothing: answer 1 (exercise 4 uses "
                      "processes instead)")
        if kind == "numpy" and got > cores:
            fail(check_id, f"{setting}; NumPy work needs a core per call, and there are "
                           f"{cores}: more threads than cores make no call faster",
                 hint="cap CPU work at the number of cores: min(needed, cores)")
        if got < needed and got == math.floor(call_s / step_s):
            fail(check_id, f"{setting}; {got} calls in flight give {got} elements per "
                           f"{call_s:.4f} s, fewer than one per step: round up",
                 hint="k calls in flight give k elements per call_s seconds; the loop needs "
                      "one per step_s, so k >= call_s / step_s, rounded up")
        if kind == "io" and got < needed and got == cores:
            fail(check_id, f"{setting}; a call that waits uses no core, so the cores are no "
                           f"limit: with {got} calls in flight the map gives {got} elements "
                           f"per {call_s:.4f} s, slower than one per step",
                 hint="for waiting work do not cap at the cores: ceil(call_s / step_s)")
        if got > want:
            fail(check_id, f"{setting}; {want} already keeps up with the step, and every "
                           "extra worker holds elements in memory: choose the smallest that "
                           "keeps up")
        fail(check_id, setting)
    passed(check_id, "the right num_parallel_calls for every machine and workload")
