"""The pytest plugin the grader loads into its nbval run (`-p feedline.grade.plugin`).

It runs in the pytest process, not in the student's kernel. It writes one JSON line per cell
outcome, as it happens, to a pipe the grader passed as a file descriptor (`--feedline-record-fd`).
The kernel does not inherit that descriptor, but it can still open the pipe through
`/proc/<pytest's pid>/fd/`, so every line is signed: the grader sends a secret through a second
pipe (`--feedline-secret-fd`) that this plugin reads and closes before any kernel starts, and the
grader keeps only lines whose HMAC matches. A run that hangs or is killed still leaves the lines
written so far.

It also notices a dead kernel within about a second: nbval on its own waits for the whole cell
timeout before it gives up on a kernel that has exited.
"""

import hashlib
import hmac
import json
import os
import sys
import time
from queue import Empty

import pytest

# nbval imports nbformat, which imports jsonschema, which imports `rfc3987_syntax` when it is
# installed (JupyterLab's dependencies install it): about 2 s of grammar building per graded
# run, for URI formats that notebook validation never checks. Skip it in this process only.
sys.modules.setdefault("rfc3987_syntax", None)

TIMED_OUT = "timed out"
KERNEL_DIED = "the kernel died"
POLL_SECONDS = 0.5


class KernelDied(RuntimeError):
    """The kernel process exited while a cell was waiting for it."""


_SECRET = b""  # read from the grader at start-up; signs every record line


def pytest_addoption(parser):
    parser.addoption("--feedline-record-fd", type=int, default=None,
                     help="write one JSON line per notebook cell outcome to this descriptor")
    parser.addoption("--feedline-secret-fd", type=int, default=None,
                     help="read the key that signs the record lines from this descriptor")


def pytest_configure(config):
    global _SECRET
    descriptor = config.getoption("--feedline-secret-fd", default=None)
    if descriptor is not None:
        with os.fdopen(descriptor, "rb") as pipe:  # read and closed before any kernel starts
            _SECRET = pipe.read()
    if config.getoption("--feedline-record-fd", default=None) is not None:
        _watch_for_dead_kernels()


def pytest_unconfigure(config):
    """Report the run's processes still alive after nbval ended its kernels. In a PID
    namespace (see run.isolation_prefix) they all die with this process, before the grader
    could count them, so they are counted here, for the instructor's log."""
    descriptor = config.getoption("--feedline-record-fd", default=None)
    marker = os.environ.get("FEEDLINE_GRADE_RUN")
    if descriptor is None or not marker:
        return
    from .processes import MARKER, marked

    mine = {os.getpid(), os.getppid()}  # pytest and `unshare`, as this /proc names them
    try:
        mine.add(int(os.readlink("/proc/self")))
        with open("/proc/self/stat", "rb") as handle:
            mine.add(int(handle.read().rsplit(b")", 1)[1].split()[1]))
    except (OSError, ValueError, IndexError):
        pass
    if os.environ.get(MARKER) != marker:
        return
    left = [pid for pid in marked(marker) if pid not in mine]
    try:
        os.write(descriptor, sign(_SECRET, json.dumps({"leftover": len(left)}).encode()))
    except OSError:
        pass


def sign(secret, payload):
    """`payload` (bytes, one JSON document) prefixed with its HMAC, as one line."""
    mac = hmac.new(secret, payload, hashlib.sha256).hexdigest().encode("ascii")
    return mac + b" " + payload + b"\n"


def verified(secret, line):
    """The JSON document of a signed line, or None when its signature does not match."""
    mac, _, payload = line.rstrip(b"\n").partition(b" ")
    expected = hmac.new(secret, payload, hashlib.sha256).hexdigest().encode("ascii")
    return payload if hmac.compare_digest(mac, expected) else None


def _watch_for_dead_kernels():
    """Make nbval's waits for kernel messages give up as soon as the kernel has exited."""
    from nbval.kernel import RunningKernel

    if getattr(RunningKernel.get_message, "_feedline", False):
        return
    original = RunningKernel.get_message

    def get_message(self, stream, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = POLL_SECONDS if deadline is None else deadline - time.monotonic()
            try:
                return original(self, stream, timeout=max(0.0, min(POLL_SECONDS, left)))
            except Empty:
                if not self.is_alive():
                    raise KernelDied(f"{KERNEL_DIED}: its process exited while the cell "
                                     "ran (os._exit, a crash, or out of memory)") from None
                if deadline is not None and time.monotonic() >= deadline:
                    raise

    get_message._feedline = True
    RunningKernel.get_message = get_message


def cell_message(item, call):
    """One or a few lines on why a cell failed: the exception as the kernel reported it."""
    if call.excinfo is None:
        return ""
    text = str(call.excinfo.value)
    if call.excinfo.errisinstance(KernelDied) or text.startswith(KERNEL_DIED + ":"):
        return text.splitlines()[0]
    for out in reversed(getattr(item, "test_outputs", None) or []):
        if out.get("output_type") == "error":
            if out.get("ename") == "KeyboardInterrupt" and "Timeout" in text:
                break
            if out.get("ename") == "CheckFailed":  # already "ex-08-1: what was wrong\nHint: ..."
                return str(out.get("evalue")).strip()
            return f"{out.get('ename')}: {out.get('evalue')}".strip()
    seconds = f"{item.config.option.nbval_cell_timeout:g} s"
    if "Failed to interrupt" in text or "waiting for output" in text:
        return (f"{KERNEL_DIED}: the cell did not finish within {seconds} and the kernel did "
                "not answer (it ignored the interrupt)")
    if "Timeout" in text:
        return f"{TIMED_OUT} after {seconds} (interrupted; an endless loop?)"
    if "Kernel dead" in text or "Kernel died" in text:
        return f"{KERNEL_DIED} in an earlier cell, so this one did not run"
    return text.splitlines()[0] if text else call.excinfo.typename


OBSERVATION = "application/vnd.feedline.observation+json"  # see feedline.checks._replay
# A student's cell can raise an error with a message of any size, or show huge outputs in a
# check cell; the grader keeps every line in memory and copies messages into feedback files.
MAX_MESSAGE = 4000  # characters of a failed cell's message that are kept
MAX_OBSERVATIONS = 32 * 2**20  # bytes of records per cell; far above any check's real record


def shorten(text, limit=MAX_MESSAGE):
    return text if len(text) <= limit else text[:limit] + f" ... ({len(text) - limit} more)"


def observations(item):
    """The records the cell's checks showed as outputs, for the grader to judge again."""
    found = []
    for out in getattr(item, "test_outputs", None) or []:
        data = out.get("data") or {}
        if OBSERVATION in data and isinstance(data[OBSERVATION], dict):
            found.append(data[OBSERVATION])
    return found


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    descriptor = item.config.getoption("--feedline-record-fd", default=None)
    if descriptor is None or not hasattr(item, "cell_num"):
        return
    if call.when == "call" or (call.when == "setup" and report.outcome != "passed"):
        line = {"file": os.path.basename(str(item.path)), "cell": item.cell_num,
                "outcome": report.outcome,
                "message": shorten(cell_message(item, call)) if report.outcome != "passed"
                else "", "observations": observations(item)}
        payload = json.dumps(line).encode("utf-8")
        if len(payload) > MAX_OBSERVATIONS:  # the check then shows no record, and fails
            line["observations"] = []
            payload = json.dumps(line).encode("utf-8")
        os.write(descriptor, sign(_SECRET, payload))
