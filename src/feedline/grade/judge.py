"""Decide each check in the grader's process, from what the student's kernel recorded.

For a check that feedline.checks can replay, the verdict is the grader's: the check runs again
here, with the grader's own copy of the checks and the run's seed, on the recorded results
(see `feedline.checks._replay`). Whether the cell failed or passed in the kernel does not count;
when the two disagree, the instructor is told. A replayable check whose cell showed no record,
or more than one, fails. Checks that are not replayable yet (and checks that are not
feedline's, such as an instructor's own asserts) keep the kernel's verdict, and the instructor's
log says which ones were decided that way. A replayable check whose record the grader cannot
use (a value that is not plain data) counts 0, with a note to check it by hand. Signs of
tampering the kernel reported go to the instructor only.
"""

import threading

from .plugin import KERNEL_DIED

_LOCK = threading.Lock()  # a replay sets module state in feedline.checks: one at a time


def _checks(check_ids):
    """feedline.checks' replay module, with the modules of `check_ids` imported (importing a
    module registers its checks)."""
    import feedline.checks
    from feedline.checks import _replay

    for module in sorted({f"ex{cid[3:5]}" for cid in check_ids}):
        if module in feedline.checks.__all__:
            getattr(feedline.checks, module)
    return _replay


def load_every_check():
    """Import every check module now, before any student runs, and write no bytecode after:
    a kernel could plant a `.pyc` in the package's `__pycache__` for a module the grader had
    not imported yet, and the grader would run it when it first judged that exercise."""
    import sys

    import feedline.checks

    _checks([f"ex-{name[2:]}-0" for name in feedline.checks.__all__ if name.startswith("ex")])
    sys.dont_write_bytecode = True


def decide(result, runs, records, seed):
    """Overwrite `result.passed` and `.messages` with the grader's verdicts where it can."""
    replay = _checks([cid for _, mapping in runs.values() for cid in mapping.values()])
    outcomes = {(item.get("file"), item.get("cell")): item for item in records}
    in_kernel = []
    for target, (key_nb, mapping) in runs.items():
        for number, cid in mapping.items():
            item = outcomes.get((target.name, number))
            function = replay.REGISTRY.get(cid)
            if item is None or function is None:
                continue  # did not run (already 0), or not one of feedline's checks
            mine = [obs for obs in item.get("observations", [])
                    if isinstance(obs, dict) and obs.get("check_id") == cid]
            if not getattr(function, "replayable", False):
                in_kernel.append(cid)
                _note_signs(result, cid, mine)
                continue
            if not mine and str(result.messages.get(cid, "")).startswith(KERNEL_DIED):
                continue  # the cell never ran (a dead kernel): already 0, and no tampering
            if len(mine) != 1:
                kernel = "passed" if result.passed.get(cid) else "failed"
                result.passed[cid] = False
                result.messages[cid] = "the check did not report its results"
                result.instructor_notes.append(
                    f"{cid}: the check cell {kernel} in the kernel but showed {len(mine)} "
                    "records (expected 1): a sign of tampering; counted 0")
                continue
            with _LOCK:
                verdict, message = replay.judge(cid, mine[0], seed)
            _note_signs(result, cid, mine)
            if verdict == "unjudged":
                # The record holds something the replay cannot use (a value that is not plain
                # data, or no arguments). The kernel's verdict must not count instead: code in
                # the kernel can make the record unusable on purpose and the cell pass.
                kernel = "passed" if result.passed.get(cid) else "failed"
                result.passed[cid] = False
                result.messages[cid] = (f"the grader could not judge this check from what "
                                        f"your answer returned ({message}); it counts 0")
                result.instructor_notes.append(f"{cid}: {kernel} in the kernel but could not be "
                                               f"judged by the grader ({message}); counted 0, "
                                               "check it by hand")
                continue
            if (verdict == "passed") != bool(result.passed.get(cid)):
                kernel = "passed" if result.passed.get(cid) else "failed"
                result.instructor_notes.append(
                    f"{cid}: {kernel} in the kernel, {verdict} when judged by the grader; the "
                    "grader's verdict counts")
            result.passed[cid] = verdict == "passed"
            if verdict == "passed":
                result.messages.pop(cid, None)
            else:
                result.messages[cid] = message
    result.kernel_decided = in_kernel


def _note_signs(result, cid, observations):
    signs = sorted({sign for obs in observations for sign in obs.get("signs", [])
                    if isinstance(sign, str)})
    if signs:
        result.instructor_notes.append(f"{cid}: signs of tampering: " + "; ".join(signs))
