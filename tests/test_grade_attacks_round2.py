"""A second round of students who attack the grader (see test_grade_attacks_more.py): each attack
here once got past it. Graded one at a time (`jobs=1`), in name order, so that an attack by an
earlier student would show in a later student's score.
"""

import copy
import csv
import json
import pathlib
import shutil
import signal
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from feedline import grade
from feedline.checks import _wire

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from test_grade import CHECKS, NAME, _answered, key  # noqa: E402,F401
from test_grade_attacks import _with_cell  # noqa: E402


# Rewrites the restored notebook in the kernel's working folder after the run used it, so the
# grader's scan for cells that call the checks' own code reads a notebook without them.
REWRITE_NOTEBOOK = '''
import json, pathlib
for path in pathlib.Path.cwd().glob("*.ipynb"):
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        text = "".join(cell["source"])
        cell["source"] = "" if ("feedline." + "checks.ex") in text else text
    path.write_text(json.dumps(nb))
'''

# Sends a signal to the grader (the first ancestor without the run's marker), found through
# /proc/self, which names the processes as the grader sees them.
SIGNAL_THE_GRADER = '''
import os, signal
def parent(pid):
    return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
pid = parent("self")
while pid > 1:
    if b"FEEDLINE_GRADE_RUN=" not in open(f"/proc/{pid}/environ", "rb").read():
        try:
            os.kill(pid, signal.SIGUSR2)
            print("signalled", pid)
        except OSError as error:
            print("could not signal", pid, error)
        break
    pid = parent(pid)
'''



def _grade(folder, key_path, out, **options):
    return grade.grade(folder, key_path, out, cell_timeout=20, jobs=1, log=lambda line: None,
                       **options)


def _rows(out):
    with open(out, newline="", encoding="utf-8") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def _put(folder, student, nb, name=f"{NAME}.ipynb"):
    (folder / student).mkdir(parents=True)
    nbformat.write(nb, str(folder / student / name))


@pytest.mark.timeout(240)
def test_a_link_to_the_key_or_to_another_students_notebook_is_not_graded(key, tmp_path):
    """A submission unpacked from an archive can hold links: to the key (`../../solutions/...`),
    to a classmate's notebook, or to any file, whose first line the 'not JSON' note showed."""
    root, full, blank = key
    folder = tmp_path / "class"
    _put(folder, "honest", _answered(blank, full, CHECKS))
    (folder / "to_key").mkdir()
    (folder / "to_key" / f"{NAME}.ipynb").symlink_to(root / "solutions" / f"{NAME}.ipynb")
    (folder / "to_classmate").mkdir()
    (folder / "to_classmate" / f"{NAME}.ipynb").symlink_to(
        pathlib.Path("..") / "honest" / f"{NAME}.ipynb")
    secret = tmp_path / "secret.txt"
    secret.write_text("the instructor's private line\n")
    (folder / "to_file.ipynb").symlink_to(secret)
    out = tmp_path / "gradebook.csv"
    _grade(folder, root / "solutions", out)
    rows = _rows(out)
    assert rows["honest"]["total"] == "4", rows["honest"]
    for student in ("to_key", "to_classmate", "to_file"):
        assert rows[student]["total"] == "0", rows[student]
        assert "is a link" in rows[student]["notes"], rows[student]
        assert "private line" not in (tmp_path / "feedback" / f"{student}.md").read_text()


@pytest.mark.timeout(240)
def test_a_name_that_is_not_utf8_or_holds_a_newline_still_gives_every_student_a_row(
        key, tmp_path):
    """A byte that is not UTF-8 in a file name (an archive from another system) stopped the
    grader when it wrote the gradebook, for the whole class; a newline in a name forged a line
    about another student in the instructor's log."""
    root, full, blank = key
    folder = tmp_path / "class"
    _put(folder, "a\udcffb", _answered(blank, full, CHECKS))
    forged = "a_forger\nhonest: signs of tampering: made up"
    _put(folder, forged, copy.deepcopy(blank))
    _put(folder, "honest", _answered(blank, full, CHECKS))
    out = tmp_path / "gradebook.csv"
    _grade(folder, root / "solutions", out)
    rows = _rows(out)
    assert rows["a\\xffb"]["total"] == "4" and rows["honest"]["total"] == "4", rows
    assert "a_forger\\nhonest: signs of tampering: made up" in rows
    log = (tmp_path / "gradebook-instructor-log.txt").read_text()
    assert not any(line.startswith("honest:") for line in log.splitlines()), log


@pytest.mark.timeout(240)
def test_a_cell_that_rewrites_its_notebook_does_not_hide_what_it_ran(key, tmp_path):
    root, full, blank = key
    borrower = _with_cell(_answered(blank, full, CHECKS),
                          "import feedline.checks.ex01 as reference  # the rule itself")
    borrower = _with_cell(borrower, REWRITE_NOTEBOOK, len(borrower.cells))
    _put(tmp_path / "class", "borrower", borrower)
    out = tmp_path / "gradebook.csv"
    _grade(tmp_path / "class", root / "solutions", out)
    log = (tmp_path / "gradebook-instructor-log.txt").read_text()
    assert "borrower:" in log and "import feedline.checks.ex01 as reference" in log, log


@pytest.mark.timeout(240)
def test_an_answer_that_walks_up_to_the_checks_frame_is_named_in_the_instructor_log(
        key, tmp_path):
    """`sys._getframe(...).f_globals` reaches the check module's rules without naming it."""
    root, full, blank = key
    walker = _with_cell(blank, "import sys\ndef peek():\n    return sys._getframe(2).f_globals")
    _put(tmp_path / "class", "walker", walker)
    out = tmp_path / "gradebook.csv"
    _grade(tmp_path / "class", root / "solutions", out)
    log = (tmp_path / "gradebook-instructor-log.txt").read_text()
    assert "walker:" in log and "sys._getframe(2).f_globals" in log, log


@pytest.mark.timeout(240)
def test_the_kernel_cannot_signal_the_grader(key, tmp_path):
    """Same account, so a kernel could SIGSTOP the grader and hang the class (SIGUSR2 stands in
    here: it is counted, not obeyed). Needs a PID namespace, which unshare gives."""
    probe = ["unshare", "--user", "--map-current-user", "--pid", "--fork", "true"]
    if shutil.which("unshare") is None or subprocess.run(probe, capture_output=True).returncode:
        pytest.skip("no unprivileged PID namespace here (unshare --user --pid)")
    root, full, blank = key
    received = []
    previous = signal.signal(signal.SIGUSR2, lambda *_: received.append(1))
    try:
        _put(tmp_path / "class", "a_signaller",
             _with_cell(_answered(blank, full, CHECKS), SIGNAL_THE_GRADER))
        _put(tmp_path / "class", "b_honest", _answered(blank, full, CHECKS))
        out = tmp_path / "gradebook.csv"
        _grade(tmp_path / "class", root / "solutions", out)
    finally:
        signal.signal(signal.SIGUSR2, previous)
    assert not received, "a student's kernel signalled the grader"
    rows = _rows(out)
    assert rows["a_signaller"]["total"] == "4" and rows["b_honest"]["total"] == "4", rows


def test_a_forged_record_cannot_make_the_grader_allocate_gigabytes():
    """A string dtype reserves its width for every item: `<U50000000` times five one-letter
    items is a gigabyte in the grader, from a record of a few bytes."""
    padded = {"objects": "<U50000000", "shape": [5], "items": ["a"] * 5}
    with pytest.raises(_wire.Unsendable):
        _wire.decode(padded)
    with pytest.raises(_wire.Unsendable):  # a structured dtype is never what encode writes
        _wire.decode({"objects": [["a", "O"]], "shape": [1], "items": ["a"]})
    honest = np.array(["ab", "c"], dtype="U10")  # wider than its items, but small: kept
    back = _wire.decode(json.loads(json.dumps(_wire.encode(honest))))
    assert back.dtype == honest.dtype and back.tolist() == ["ab", "c"]

