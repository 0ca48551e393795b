"""Run one student: a throwaway folder, private copies, nbval in a clean environment.

The run folder holds only what the run needs: the restored notebooks (`submission/`, the
kernel's working folder), an empty `workdir/`, a copy of the key's `minidata/`, a private copy
of the feedline package (`lib/`) that the kernel imports instead of the instructor's, and its
own home, Jupyter and IPython folders, so nothing a student writes (a startup file, a patched
module) reaches the next student. The kernel's environment names none of the grader's paths.
"""

import dataclasses
import json
import os
import pathlib
import secrets
import shutil
import subprocess
import sys
import threading
import time

import nbformat

from . import judge, processes, signs
from .collect import folder_name, match_key, shown_name
from .plugin import KERNEL_DIED, TIMED_OUT, verified
from .restore import restore_checks

PACKAGE = pathlib.Path(__file__).resolve().parents[1]  # the feedline package folder
KEPT_ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT")
ACTIVE_RUNS = set()  # run ids in progress, so an interrupted grader can end them all
# Our pytest runs' pids and the children we had before grading began: any other direct child
# of ours is a student's process that escaped its run and was re-parented to us (processes.py).
OWN_CHILDREN = set()
CHILDREN_LOCK = threading.Lock()


@dataclasses.dataclass
class Result:
    student: str
    passed: dict = dataclasses.field(default_factory=dict)    # check id -> bool
    messages: dict = dataclasses.field(default_factory=dict)  # check id -> why it failed
    notes: list = dataclasses.field(default_factory=list)     # for the student and instructor
    cell_errors: list = dataclasses.field(default_factory=list)  # errors in answer cells
    instructor_notes: list = dataclasses.field(default_factory=list)  # never shown to students
    graded: list = dataclasses.field(default_factory=list)    # key notebook names
    kernel_decided: list = dataclasses.field(default_factory=list)  # checks not judged again
    seconds: float = 0.0

    def to_json(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data):
        return cls(**{field.name: data[field.name] for field in dataclasses.fields(cls)
                      if field.name in data})


def prepare(student, paths, key, scratch, key_root):
    """Write the run folder; return (Result, run folder, {copy path: (key nb, cell mapping)})."""
    result = Result(student)
    home = pathlib.Path(scratch).resolve() / folder_name(student)
    shutil.rmtree(home, ignore_errors=True)
    folder = home / "submission"
    folder.mkdir(parents=True)
    for name in ("workdir", "home", "tmp"):
        (home / name).mkdir()
    if key_root is not None and (key_root / "minidata").is_dir():
        shutil.copytree(key_root / "minidata", home / "minidata", symlinks=False)
    shutil.copytree(PACKAGE, home / "lib" / "feedline",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    runs = {}
    names = {key_nb.name for key_nb in key}
    for path in sorted(paths, key=lambda p: p.stem not in names):  # exact names first
        try:
            nb = nbformat.read(str(path), as_version=4)
            if not isinstance(nb.get("cells"), list):
                raise ValueError("it has no cells")
        except Exception as error:  # any unreadable file is a note, never a crash
            result.notes.append(f"could not read {shown_name(path.name)}: "
                                f"{type(error).__name__}: "
                                f"{str(error).splitlines()[0] if str(error) else ''}".rstrip())
            continue
        key_nb, why_not = match_key(path, nb, key)
        if key_nb is None:
            result.notes.append(why_not)
            continue
        if key_nb.name in result.graded:
            result.notes.append(f"{path.name} ignored: another file already answers "
                                f"{key_nb.name}")
            continue
        copy, mapping = restore_checks(nb, key_nb)
        target = folder / f"{key_nb.name}.ipynb"
        nbformat.write(copy, str(target))
        runs[target] = (key_nb, mapping)
        result.graded.append(key_nb.name)
    return result, home, runs


def environment(home, run_id, seed):
    """The run's environment: the grader's PATH and locale, everything else its own."""
    env = {name: os.environ[name] for name in KEPT_ENVIRONMENT if name in os.environ}
    env.update({
        "HOME": str(home / "home"), "TMPDIR": str(home / "tmp"),
        "IPYTHONDIR": str(home / "home" / ".ipython"),
        "JUPYTER_CONFIG_DIR": str(home / "home" / ".jupyter"),
        "JUPYTER_DATA_DIR": str(home / "home" / ".local" / "share" / "jupyter"),
        "JUPYTER_RUNTIME_DIR": str(home / "home" / ".local" / "share" / "jupyter" / "runtime"),
        "MPLBACKEND": "Agg", "MPLCONFIGDIR": str(home / "home" / ".matplotlib"),
        "PYTHONPATH": str(home / "lib"), "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1", processes.MARKER: run_id,
        "FEEDLINE_GRADE_SEED": seed,  # fresh inputs for every check, judged again in the grader
    })
    return env


def pytest_command(files, record_fd, cell_timeout, secret_fd=None):
    # --noconftest: a conftest.py that a student wrote into any folder above the run (the
    # scratch folder, /tmp) would otherwise be loaded by every later student's pytest.
    command = [sys.executable, "-m", "pytest", "-c", os.devnull, "--rootdir",
               str(pathlib.Path(files[0]).parent), "--noconftest", "-p", "no:cacheprovider",
               "-p", "feedline.grade.plugin", f"--feedline-record-fd={record_fd}",
               *([f"--feedline-secret-fd={secret_fd}"] if secret_fd is not None else []),
               "--nbval-lax", "--nbval-current-env", f"--nbval-cell-timeout={cell_timeout}",
               "-q", "--no-header", "-rN", "-W", "ignore"]
    return [*isolation_prefix(), *command, *[file.name for file in files]]


_ISOLATION = []  # the prefix, once known


def isolation_prefix():
    """`unshare` into a new PID namespace (with a user namespace, so no privilege is needed)
    where Linux allows it: code in the notebook then cannot name, so cannot signal, any process
    outside its run. Without it a kernel could SIGSTOP the grader (same account) and grading
    would hang for the whole class. Where unavailable, runs go unwrapped (the README says
    to grade untrusted work in a container)."""
    if not _ISOLATION:
        prefix = ["unshare", "--user", "--map-current-user", "--pid", "--fork", "--kill-child"]
        try:
            works = subprocess.run([*prefix, "true"], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   timeout=10).returncode == 0
        except (OSError, subprocess.SubprocessError):
            works = False
        _ISOLATION.append(prefix if works else [])
    return _ISOLATION[0]


def _read_lines(descriptor, secret, into):
    """Collect the plugin's record lines; a line not signed with `secret` was forged (written
    through /proc by the student's code) and is dropped."""
    with os.fdopen(descriptor, "rb") as pipe:
        for line in pipe:
            payload = verified(secret, line)
            if payload is None:
                continue
            try:
                into.append(json.loads(payload))
            except ValueError:
                pass


def _read_tail(stream, into, keep=64 * 1024):
    """Read pytest's output to its end, keeping only the last `keep` bytes (a student's cell
    can print gigabytes into a failure report)."""
    tail = b""
    with stream:
        for chunk in iter(lambda: stream.read(65536), b""):
            tail = (tail + chunk)[-keep:]
    into.append(tail)


def _secret_pipe(secret):
    """A pipe holding `secret`, for the plugin to read once; returns its read end."""
    reader_end, writer_end = os.pipe()
    os.write(writer_end, secret)  # far below a pipe's buffer: never blocks
    os.close(writer_end)
    return reader_end


def run_student(student, paths, key, scratch, key_root, cell_timeout, wall_timeout,
                keep=False):
    """Grade one student: restore, run under nbval, read the per-cell record, clean up (the
    run folder stays for a look when `keep`)."""
    start = time.monotonic()
    result, home, runs = prepare(student, paths, key, scratch, key_root)
    records = []
    seed = secrets.token_hex(8)
    # The code cells as restored, read before the kernel starts: the notebook files sit in
    # the kernel's working folder, and a cell could rewrite them to hide what it ran from the
    # instructor's log (or make them unreadable, and the whole row with them).
    code = {target: _code_cells(target) for target in runs}
    try:
        if runs:
            records = _run(result, home, sorted(runs), cell_timeout, wall_timeout * len(runs),
                           seed)
        _score(result, runs, records, cell_timeout, code)
        judge.decide(result, runs, records, seed)
        _note_check_code(result, runs, code)
    finally:
        if not keep:
            shutil.rmtree(home, ignore_errors=True)
    result.seconds = time.monotonic() - start
    return result


def _run(result, home, files, cell_timeout, limit, seed):
    run_id = secrets.token_hex(8)
    ACTIVE_RUNS.add(run_id)
    reader_end, writer_end = os.pipe()
    secret = secrets.token_bytes(32)
    secret_end = _secret_pipe(secret)
    records = []
    reader = threading.Thread(target=_read_lines, args=(reader_end, secret, records),
                              daemon=True)
    reader.start()
    with CHILDREN_LOCK:  # a sweep for orphans must not take this pytest for one
        process = subprocess.Popen(pytest_command(files, writer_end, cell_timeout, secret_end),
                                   cwd=files[0].parent, env=environment(home, run_id, seed),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, start_new_session=True,
                                   pass_fds=(writer_end, secret_end))
        OWN_CHILDREN.add(process.pid)
    os.close(writer_end)
    os.close(secret_end)
    output = []
    tailer = threading.Thread(target=_read_tail, args=(process.stdout, output), daemon=True)
    tailer.start()
    try:
        process.wait(timeout=limit)
        tailer.join(timeout=5)
        output = output[0] if output else b""
        if process.returncode not in (0, 1):  # 2-4: pytest itself failed, 5: no tests
            tail = output.decode(errors="replace").strip().splitlines()[-3:]
            result.notes.append(f"pytest exited with code {process.returncode}: "
                                + " / ".join(tail))
        timed_out = False
    except subprocess.TimeoutExpired:
        result.notes.append(f"stopped after {limit:g} s; checks that had not run count 0")
        timed_out = True
    finally:
        leftover = processes.end_run(run_id)
        ACTIVE_RUNS.discard(run_id)
        process.wait()
        # A process that cleared its environment (no marker) and left its session was
        # re-parented to us: end it now, before it can touch the next student's run folder.
        with CHILDREN_LOCK:
            OWN_CHILDREN.discard(process.pid)
            leftover += processes.end_orphans(keep=OWN_CHILDREN)
        reader.join(timeout=5)
    # In a PID namespace the run's processes die with its pytest: the plugin counted them.
    leftover += sum(item["leftover"] for item in records
                    if isinstance(item.get("leftover"), int))
    records[:] = [item for item in records if "leftover" not in item]
    if leftover and not timed_out:  # nbval ends its kernel: anything left was started by code
        result.instructor_notes.append(f"{leftover} processes of the run were still alive "
                                       "after it and were killed")
    return records


def _code_cells(target):
    return [cell for cell in nbformat.read(str(target), as_version=4).cells
            if cell.get("cell_type") == "code"]


def _note_check_code(result, runs, code_of):
    for target, (_, mapping) in runs.items():
        for line in signs.uses_check_code(code_of[target], mapping):
            result.instructor_notes.append(f"{target.name}: a cell calls the checks' own code, "
                                           f"which may stand in for an answer: {line}")


def _score(result, runs, records, cell_timeout, code_of):
    outcomes = {(item.get("file"), item.get("cell")): item for item in records}
    for target, (key_nb, mapping) in runs.items():
        code = code_of[target]
        for number, cid in mapping.items():
            item = outcomes.get((target.name, number))
            result.passed[cid] = bool(item) and item["outcome"] == "passed"
            if not item:
                result.messages[cid] = "the check did not run"
            elif item["outcome"] != "passed":
                result.messages[cid] = item["message"]
        for (name, number), item in sorted(outcomes.items(), key=lambda pair: pair[0][1]):
            if name != target.name or item["outcome"] == "passed":
                continue
            first = (code[number].source.strip().splitlines() or [""])[0][:60] \
                if number < len(code) else "?"
            message = item["message"]
            if message.startswith(TIMED_OUT):
                result.notes.append(f"a cell ran longer than {cell_timeout:g} s and was "
                                    f"interrupted: `{first}`")
            elif message.startswith(KERNEL_DIED) and "earlier cell" not in message:
                result.notes.append(f"the kernel died or stopped answering in the cell "
                                    f"`{first}`; the cells after it did not run")
            elif (not message.startswith((KERNEL_DIED, "NotImplementedError"))
                  and number not in mapping):  # a blank answer is not an error to report
                result.cell_errors.append(f"`{first}` raised {message.splitlines()[0]}")
