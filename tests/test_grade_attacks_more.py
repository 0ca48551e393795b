"""More students who attack the grader (see test_grade_attacks.py): each attack here once got
past it. Graded one at a time (`jobs=1`), in name order, so that an attack by an earlier student
would show in a later student's score.
"""

import copy
import csv
import os
import pathlib
import sys
import time

import nbformat
import pytest

from feedline import grade

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from test_grade import CHECKS, NAME, _answered, key  # noqa: E402,F401
from test_grade_attacks import _processes_with, _with_cell  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
EX01_KEY = ROOT / "solutions" / "01_dataset_basics_exercises.ipynb"
EX01_BLANK = ROOT / "exercises" / "01_dataset_basics_exercises.ipynb"
CHAIN_MARK = "feedline-chain-5c1d"

# Records that the grader cannot replay (every value "not plain data"), from a check that is
# made to pass in the kernel: the kernel's verdict must not count.
UNREPLAYABLE = '''
import feedline.checks, feedline.checks._wire as wire
def _refuse(value):
    raise wire.Unsendable("not plain data")
wire.encode = _refuse
for name in dir(feedline.checks.ex01):
    if name.startswith("check_"):
        def quiet(*args, _check=getattr(feedline.checks.ex01, name)):
            try:
                _check(*args)
            except AssertionError:
                pass
        setattr(feedline.checks.ex01, name, quiet)
'''

# A conftest.py above the run folders: every later run's pytest would load it.
CONFTEST = '''
import pathlib
for folder in pathlib.Path.cwd().resolve().parents:
    try:
        (folder / "conftest.py").write_text("import os\\nos._exit(3)\\n")
    except OSError:
        pass
    if folder.name.startswith(("feedline-grade-", "pytest-")):
        break
'''

# Record lines written into the pytest process's record pipe, opened through /proc.
FORGED_THROUGH_PROC = '''
import json, os
parent = os.getppid()
lines = "".join(json.dumps({"file": "%s.ipynb", "cell": cell, "outcome": "passed",
                            "message": "", "observations": []}) + "\\n" for cell in (2, 4, 6, 8))
for fd in os.listdir(f"/proc/{parent}/fd"):
    try:
        if os.readlink(f"/proc/{parent}/fd/{fd}").startswith("pipe:"):
            handle = os.open(f"/proc/{parent}/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK)
            os.write(handle, lines.encode())
            os.close(handle)
    except OSError:
        pass
''' % NAME

# A process that leaves the run (new session, double fork, an empty environment, so no marker)
# and keeps forking, each parent exiting at once, so that one sweep of the orphans misses it.
FORK_CHAIN = f'''
import subprocess, sys
chain = """
import os, time
start = time.time()
while time.time() - start < 90:
    if os.fork():
        os._exit(0)
    time.sleep(0.002)
"""
escape = ("import os, sys\\nif os.fork(): os._exit(0)\\nos.setsid()\\n"
          "os.execve(sys.executable, [sys.executable, '-c', sys.argv[1], '{CHAIN_MARK}'], {{}})")
subprocess.Popen([sys.executable, "-c", escape, chain], start_new_session=True)
'''

# A process without the run's marker that waits for the next students' run folders and breaks
# their private copy of feedline.
SABOTEUR = '''
import pathlib, subprocess, sys
code = """
import pathlib, sys, time
scratch, mine = pathlib.Path(sys.argv[1]), sys.argv[2]
start = time.time()
while time.time() - start < 60:
    for init in scratch.glob("*/lib/feedline/__init__.py"):
        if mine not in str(init) and "SABOTAGED" not in init.read_text():
            init.write_text(init.read_text() + "\\\\nraise SystemExit('SABOTAGED')\\\\n")
    time.sleep(0.02)
"""
home = pathlib.Path.cwd().resolve().parent
escape = ("import os, sys\\nif os.fork(): os._exit(0)\\nos.setsid()\\n"
          "os.execve(sys.executable, [sys.executable, '-c'] + sys.argv[1:], {})")
subprocess.Popen([sys.executable, "-c", escape, code, str(home.parent), home.name],
                 start_new_session=True)
'''


def _grade(folder, key_path, out):
    return grade.grade(folder, key_path, out, cell_timeout=20, jobs=1, log=lambda line: None)


def _rows(out):
    with open(out, newline="", encoding="utf-8") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def _write(folder, students, name):
    for student, nb in students.items():
        (folder / student).mkdir(parents=True)
        nbformat.write(nb, str(folder / student / name))


@pytest.mark.timeout(240)
def test_a_check_the_grader_cannot_replay_counts_zero_not_the_kernels_pass(tmp_path):
    """Opaque records (not plain data) make the replay give up; the kernel's pass then counted."""
    blank = nbformat.read(str(EX01_BLANK), as_version=4)
    wrong = copy.deepcopy(blank)
    for cell in wrong.cells:
        if cell.cell_type == "code" and "raise NotImplementedError()" in cell.source:
            cell.source = cell.source.replace("raise NotImplementedError()",
                                              "return Dataset.from_tensor_slices(np.arange(3))")
    setup = next(i for i, cell in enumerate(wrong.cells)
                 if cell.cell_type == "code" and "import feedline.checks" in cell.source)
    wrong.cells.insert(setup + 1, nbformat.v4.new_code_cell(UNREPLAYABLE))
    _write(tmp_path / "class", {"opaque": wrong}, EX01_KEY.name)
    out = tmp_path / "gradebook.csv"
    _grade(tmp_path / "class", EX01_KEY, out)
    row = _rows(out)["opaque"]
    assert row["total"] == "0", row
    assert "could not be judged" in row["notes"]


@pytest.mark.timeout(240)
def test_a_planted_conftest_does_not_reach_the_next_student(key, tmp_path):
    root, full, blank = key
    _write(tmp_path / "class", {"a_plants": _with_cell(blank, CONFTEST),
                                "b_honest": _answered(blank, full, CHECKS)}, f"{NAME}.ipynb")
    out = tmp_path / "gradebook.csv"
    try:
        _grade(tmp_path / "class", root / "solutions", out)
    finally:
        for folder in tmp_path.parents:
            if (folder / "conftest.py").exists() and "os._exit(3)" in (
                    folder / "conftest.py").read_text():
                (folder / "conftest.py").unlink()
    rows = _rows(out)
    assert rows["b_honest"]["total"] == "4", rows["b_honest"]


@pytest.mark.timeout(240)
def test_record_lines_forged_through_proc_do_not_count(key, tmp_path):
    root, full, blank = key
    last = len(blank.cells)  # after the check cells, so the forged lines come last
    _write(tmp_path / "class", {"forger": _with_cell(blank, FORGED_THROUGH_PROC, last)},
           f"{NAME}.ipynb")
    out = tmp_path / "gradebook.csv"
    _grade(tmp_path / "class", root / "solutions", out)
    assert _rows(out)["forger"]["total"] == "0", _rows(out)


@pytest.mark.timeout(240)
def test_escaped_processes_are_ended_before_the_next_student_and_outlive_nobody(key, tmp_path):
    root, full, blank = key
    _write(tmp_path / "class", {"a_chain": _with_cell(blank, FORK_CHAIN),
                                "b_saboteur": _with_cell(blank, SABOTEUR),
                                "c_honest": _answered(blank, full, CHECKS)}, f"{NAME}.ipynb")
    out = tmp_path / "gradebook.csv"
    try:
        _grade(tmp_path / "class", root / "solutions", out)
        time.sleep(0.5)
        assert not _processes_with(CHAIN_MARK), "a student's process outlived the grader"
    finally:
        for _ in range(200):  # do not leave the chain to the rest of the test session
            pids = _processes_with(CHAIN_MARK)
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(int(pid), 9)
                except OSError:
                    pass
    assert _rows(out)["c_honest"]["total"] == "4", _rows(out)["c_honest"]


@pytest.mark.timeout(240)
def test_a_huge_error_message_or_output_stays_out_of_the_feedback_and_the_progress_file(
        key, tmp_path):
    """Gigabytes of message would sit in the grader's memory and in every file it writes."""
    root, full, blank = key
    nb = _with_cell(blank, 'raise ValueError("x" * 20_000_000)')
    nb = _with_cell(nb, 'print("y" * 20_000_000)')
    _write(tmp_path / "class", {"huge": nb, "honest": _answered(blank, full, CHECKS)},
           f"{NAME}.ipynb")
    out = tmp_path / "gradebook.csv"
    _grade(tmp_path / "class", root / "solutions", out)
    assert _rows(out)["honest"]["total"] == "4"
    feedback = (tmp_path / "feedback" / "huge.md").read_text()
    assert "raised ValueError: xxxx" in feedback and len(feedback) < 50_000
    assert (tmp_path / "gradebook.csv.progress").stat().st_size < 100_000


def test_the_configuration_every_kernel_reads_is_watched_for_changes():
    """`<venv>/etc/ipython/ipython_config.py` with exec_lines would run in every later kernel
    (not written here: it would reach everyone's kernels on this machine)."""
    from feedline.grade import cli

    folders = cli.system_config_folders()
    assert pathlib.Path(sys.prefix) / "etc" / "ipython" in folders
    assert pathlib.Path("/etc/jupyter") in folders


@pytest.mark.timeout(240)
def test_a_cell_that_calls_the_checks_own_code_is_named_in_the_instructor_log(key, tmp_path):
    root, full, blank = key
    borrower = _with_cell(blank, "import feedline.checks.ex01 as reference  # the rule itself")
    _write(tmp_path / "class", {"borrower": borrower, "honest": copy.deepcopy(blank)},
           f"{NAME}.ipynb")
    out = tmp_path / "gradebook.csv"
    _grade(tmp_path / "class", root / "solutions", out)
    log = (tmp_path / "gradebook-instructor-log.txt").read_text()
    assert "borrower:" in log and "import feedline.checks.ex01 as reference" in log
    assert "honest:" not in log
    feedback = (tmp_path / "feedback" / "borrower.md").read_text()
    assert "checks' own code" not in feedback  # a note for the instructor only


def test_the_grader_loads_every_check_before_grading_and_writes_no_bytecode_after(monkeypatch):
    """A `.pyc` planted by a kernel for a check module the grader had not imported yet would
    otherwise run inside the grader when it first judged that exercise."""
    import feedline.checks
    from feedline.grade import judge

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    judge.load_every_check()
    exercises = [name for name in feedline.checks.__all__ if name.startswith("ex")]
    assert len(exercises) == 16
    assert all(f"feedline.checks.{name}" in sys.modules for name in exercises)
    assert sys.dont_write_bytecode
