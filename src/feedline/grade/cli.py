"""`python -m feedline.grade`: grade a class, resumably, and check nothing was tampered with.

Rows are written as students finish (the CSV and a progress file beside it), so a grader that
is interrupted or killed leaves the rows graded so far, and the next run resumes from them
(`--regrade` starts over). After each student the key and the grader's own package are compared
with their state at the start; if either changed, grading stops with a message naming it.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import pathlib
import shutil
import signal
import sys
import tempfile
import time

from . import judge, processes, run
from .collect import feedback_name, find_submissions
from .key import load_key
from .report import feedback_text, one_line, progress_line, score, write_gradebook


class Tampered(SystemExit):
    """The key or the grader's package changed while grading."""


def fingerprint(paths):
    """sha256 over the names and bytes of every file under `paths`."""
    digest = hashlib.sha256()
    for root in paths:
        root = pathlib.Path(root)
        files = [root] if root.is_file() else sorted(
            p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for file in files:
            digest.update(str(file).encode("utf-8", "surrogatepass") + b"\0")
            digest.update(file.read_bytes())
    return digest.hexdigest()


def _submission_hash(paths):
    return fingerprint(paths) if paths else "none"


class Progress:
    """The progress file: one line per graded student, read back to resume."""

    def __init__(self, path, key_hash, regrade):
        self.path, self.key_hash = pathlib.Path(path), key_hash
        self.done = {}
        if regrade or not self.path.exists():
            self._start()
            return
        lines = self.path.read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0]) if lines else {}
        if header.get("key") != key_hash:
            self._start()  # another key: nothing carries over
            return
        for line in lines[1:]:
            try:
                entry = json.loads(line)
                self.done[entry["student"]] = (entry["submission"],
                                               run.Result.from_json(entry["result"]))
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a kill

    def _start(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps({"key": self.key_hash}) + "\n", encoding="utf-8")

    def resumed(self, student, submission):
        entry = self.done.get(student)
        return entry[1] if entry and entry[0] == submission else None

    def add(self, result, submission):
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"student": result.student, "submission": submission,
                                     "result": result.to_json()}) + "\n")


def grade(submissions, key_path, out, feedback=None, cell_timeout=60.0, wall_timeout=900.0,
          jobs=None, workdir=None, log=None, regrade=False, excel=False):
    """Grade every submission; write the gradebook and feedback; return the Results."""
    log = log or (lambda line: print(line, flush=True))
    key = load_key(key_path)
    judge.load_every_check()
    key_path = pathlib.Path(key_path)
    key_root = (key_path.parent if key_path.is_file() else key_path).resolve().parent
    watched = {"the answer key": lambda: [key_path],
               "the feedline package": lambda: [run.PACKAGE],
               "Python's start-up files (*.pth, sitecustomize)": site_startup_files,
               "IPython's and Jupyter's system configuration": system_config_folders}
    if (key_root / "minidata").is_dir():
        watched["minidata/"] = lambda: [key_root / "minidata"]
    baseline = {name: fingerprint(paths()) for name, paths in watched.items()}
    entries = find_submissions(submissions)
    out = pathlib.Path(out)
    progress = Progress(out.with_name(out.name + ".progress"), baseline["the answer key"],
                        regrade)
    jobs = jobs or max(1, min(2, os.cpu_count() or 1))
    processes.become_subreaper()
    run.OWN_CHILDREN.update(processes.orphans())  # ours before any student ran: not theirs
    scratch = pathlib.Path(workdir or tempfile.mkdtemp(prefix="feedline-grade-"))
    scratch.mkdir(parents=True, exist_ok=True)
    early_notes = {student: notes for student, _, notes in entries}
    results, todo = [], []
    for student, paths, _ in entries:
        previous = progress.resumed(student, _submission_hash(paths))
        if previous is not None:
            results.append(previous)
        else:
            todo.append((student, paths))
    if results:
        log(f"resuming: {len(results)} students already graded (--regrade to start over)")
    started, total = time.monotonic(), len(todo)
    pool = concurrent.futures.ThreadPoolExecutor(jobs)
    try:
        futures = {pool.submit(run.run_student, student, paths, key, scratch, key_root,
                               cell_timeout, wall_timeout, keep=workdir is not None):
                   (student, paths)
                   for student, paths in todo}
        for count, future in enumerate(concurrent.futures.as_completed(futures), 1):
            student, paths = futures[future]
            try:
                result = future.result()
            except Exception as error:  # a bug or an odd file: still a row, with a note
                result = run.Result(student, notes=[f"could not be graded: "
                                                    f"{type(error).__name__}: {error}"])
            result.notes[:0] = early_notes[student]
            _verify(watched, baseline, student)
            results.append(result)
            progress.add(result, _submission_hash(paths))
            outputs = _write(results, key, out, feedback, excel)
            watched["the gradebook, its progress file and the feedback"] = outputs
            baseline["the gradebook, its progress file and the feedback"] = fingerprint(
                outputs())
            log(progress_line(count, total, result, *score(result, _shown(key, [result])),
                              started, time.monotonic()))
    except BaseException:
        for run_id in list(run.ACTIVE_RUNS):
            processes.end_run(run_id)
        pool.shutdown(wait=False, cancel_futures=True)
        log(f"grading stopped: {len(results)} of {len(entries)} students are in {out}; "
            "run the same command again to grade the rest")
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        with run.CHILDREN_LOCK:
            processes.end_orphans(keep=run.OWN_CHILDREN)
        if workdir is None:
            shutil.rmtree(scratch, ignore_errors=True)
    _write(results, key, out, feedback, excel)
    return sorted(results, key=lambda r: r.student)


def site_startup_files():
    """The files Python runs at start-up: a student who adds one would run code in every later
    kernel, and in the grader."""
    import site
    import sysconfig

    folders = {*site.getsitepackages(), sysconfig.get_paths()["purelib"]}
    if site.ENABLE_USER_SITE and site.getusersitepackages():
        folders.add(site.getusersitepackages())
    files = []
    for folder in sorted(folders):
        folder = pathlib.Path(folder)
        if folder.is_dir():
            files += sorted(folder.glob("*.pth"))
            files += [folder / name for name in ("sitecustomize.py", "usercustomize.py")
                      if (folder / name).exists()]
    return files


def system_config_folders():
    """Configuration every kernel reads whatever its HOME: `<prefix>/etc/ipython` (exec_lines
    there would run in every later student's kernel), `/etc/jupyter`, and the like."""
    folders = [pathlib.Path(sys.prefix) / "etc" / name for name in ("ipython", "jupyter")]
    return folders + [pathlib.Path(root) / name for root in ("/usr/local/etc", "/etc")
                      for name in ("ipython", "jupyter")]


def _verify(watched, baseline, student):
    for name, paths in watched.items():
        if fingerprint(paths()) != baseline[name]:
            raise Tampered(f"error: {name} changed while {student!r} was graded; grading "
                           f"stopped. Restore it (git status, or reinstall feedline) and "
                           "re-run with --regrade; grade untrusted work in a container.")


def _shown(key, results):
    graded = {name for result in results for name in result.graded}
    return [key_nb for key_nb in key if key_nb.name in graded] or key


def _write(results, key, out, feedback, excel):
    """Write the gradebook, feedback and log; return a function listing the files written,
    so the next student's run can be checked for having changed them."""
    results = sorted(results, key=lambda r: r.student)
    shown = _shown(key, results)
    rows = []
    for result in results:
        copy = run.Result.from_json(result.to_json())
        copy.notes += [f"no readable notebook for {key_nb.name}" for key_nb in shown
                       if key_nb.name not in copy.graded]
        rows.append(copy)
    write_gradebook(rows, shown, out, excel=excel)
    folder = pathlib.Path(feedback) if feedback else pathlib.Path(out).parent / "feedback"
    folder.mkdir(parents=True, exist_ok=True)
    taken = set()
    for result in rows:
        (folder / feedback_name(result.student, taken)).write_text(
            feedback_text(result, shown), encoding="utf-8")
    # One line per note: a note can quote what a kernel recorded (a type's name, a sign of
    # tampering), and a line break in it would forge a line about another student.
    log_lines = [one_line(f"{r.student}: {note}") for r in rows for note in r.instructor_notes]
    in_kernel = sorted({cid for r in rows for cid in r.kernel_decided})
    if in_kernel:
        log_lines.insert(0, "checks decided in the students' kernels (not judged again by the "
                            "grader, so a student's code could forge them): "
                            + ", ".join(in_kernel))
    log = pathlib.Path(out).with_name(pathlib.Path(out).stem + "-instructor-log.txt")
    log.write_text("\n".join(log_lines) + ("\n" if log_lines else ""), encoding="utf-8")
    progress = pathlib.Path(out).with_name(pathlib.Path(out).name + ".progress")
    return lambda: [pathlib.Path(out), progress, log, folder]


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m feedline.grade",
        description="Grade exercise notebooks: restore the key's check cells, run them with "
                    "nbval, write a gradebook CSV and a feedback file per student.")
    parser.add_argument("submissions", help="folder with one folder or notebook per student")
    parser.add_argument("--key", required=True, help="answer key: solutions/ or one notebook")
    parser.add_argument("--out", default="gradebook.csv", help="gradebook CSV to write")
    parser.add_argument("--feedback", help="folder for <student>.md (default: feedback/ "
                                           "next to --out)")
    parser.add_argument("--cell-timeout", type=float, default=60.0,
                        help="seconds a cell may run before it is interrupted (default 60)")
    parser.add_argument("--notebook-timeout", type=float, default=900.0,
                        help="wall-clock seconds for a whole notebook (default 900)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="students graded at once (default: min(2, cores))")
    parser.add_argument("--workdir", help="keep the run folders here (default: a temporary "
                                          "folder, removed afterwards)")
    parser.add_argument("--regrade", action="store_true",
                        help="grade everyone again instead of resuming a stopped run")
    parser.add_argument("--excel", action="store_true",
                        help="write the CSV with a UTF-8 byte order mark, for Excel")
    args = parser.parse_args(argv)
    if not pathlib.Path(args.submissions).is_dir():
        parser.error(f"{args.submissions} is not a folder")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so temp folders are removed
    results = grade(args.submissions, args.key, args.out, args.feedback, args.cell_timeout,
                    args.notebook_timeout, args.jobs, args.workdir, regrade=args.regrade,
                    excel=args.excel)
    print(f"wrote {args.out} ({len(results)} students)")
    return 0
