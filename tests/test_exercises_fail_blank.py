"""Blank exercises fail every check; solutions pass every check.

Each exercises/*.ipynb runs as shipped (answer cells still `raise NotImplementedError()`), and
every check cell must stop with an AssertionError: a check that passes on a blank answer checks
nothing. For solutions/*.ipynb the stored outputs are read (they were made by executing them in
`make notebooks`; nbval runs them again in the same test session): every check cell ran and
printed one line, without an error.
"""

import concurrent.futures
import os
import pathlib
import re

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
CHECK_ID = re.compile(r"^ex-\d{2}-\d+$")


def check_cells(nb):
    """{check id: cell} for the cells tagged `check` and `ex-NN-K`."""
    found = {}
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        ids = [tag for tag in tags if CHECK_ID.match(tag)]
        if "check" in tags:
            assert len(ids) == 1 and cell.id == ids[0], f"check cell {cell.id}: tags {tags}"
            found[ids[0]] = cell
    return found


def _run_blank(path):
    nb = nbformat.read(str(path), as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


@pytest.fixture(scope="module")
def blank_runs():
    """Every exercise notebook executed as shipped, two kernels at a time."""
    with concurrent.futures.ThreadPoolExecutor(max(1, min(2, os.cpu_count() or 1))) as pool:
        futures = {path.name: pool.submit(_run_blank, path) for path in EXERCISES}
    return futures


@pytest.mark.timeout(600)
@pytest.mark.parametrize("path", EXERCISES, ids=[path.name for path in EXERCISES])
def test_every_check_fails_on_the_blank_exercise(path, blank_runs):
    shipped = nbformat.read(str(path), as_version=4)
    assert check_cells(shipped), f"{path.name} has no check cell"
    nb = blank_runs[path.name].result()  # re-raises what went wrong while running it
    for check_id, cell in check_cells(nb).items():
        errors = [out for out in cell.outputs if out.output_type == "error"]
        assert errors, f"{path.name}: check {check_id} passes on the blank exercise"
        assert errors[0].ename in ("AssertionError", "CheckFailed"), (
            f"{path.name}: check {check_id} fails on the blank exercise with "
            f"{errors[0].ename}: {errors[0].evalue}, not with an AssertionError that helps")


@pytest.mark.parametrize("path", SOLUTIONS, ids=[path.name for path in SOLUTIONS])
def test_every_check_passes_in_its_solution(path):
    nb = nbformat.read(str(path), as_version=4)
    checks = check_cells(nb)
    assert checks, f"{path.name} has no check cell"
    blank = ROOT / "exercises" / path.name
    if blank.exists():
        assert list(check_cells(nbformat.read(str(blank), as_version=4))) == list(checks)
    for check_id, cell in checks.items():
        assert cell.execution_count is not None, f"{path.name}: {check_id} was not run"
        assert not [out for out in cell.outputs if out.output_type == "error"], (
            f"{path.name}: check {check_id} fails in the solution")
        printed = "".join(out.text for out in cell.outputs
                          if out.output_type == "stream" and out.name == "stdout")
        assert len(printed.strip().splitlines()) == 1, (
            f"{path.name}: check {check_id} should print one line when right, "
            f"printed {printed!r}")
