"""End every process a student's run started, including those that left its process group.

Each run's processes carry an environment marker (`FEEDLINE_GRADE_RUN=<random id>`) that
children inherit. When the run ends, every process whose environment has the marker is killed,
whatever its session or parent. On Linux the grader also becomes a "child subreaper", so a
process that double-forks to escape is re-parented to the grader rather than to init; any such
orphan is killed when the run that let it escape ends (`end_orphans`), so it cannot reach the
next student's run folder.
"""

import ctypes
import os
import signal
import time

MARKER = "FEEDLINE_GRADE_RUN"
_PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    """Ask Linux to re-parent our orphaned descendants to us; False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _processes():
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def _environ(pid):
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return handle.read().split(b"\0")
    except OSError:
        return []


def _parent(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return int(handle.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def marked(run_id):
    """Pids of the processes that carry this run's marker."""
    needle = f"{MARKER}={run_id}".encode()
    return [pid for pid in _processes() if pid != os.getpid() and needle in _environ(pid)]


def orphans(keep=()):
    """Our direct children that we did not start ourselves (re-parented to us)."""
    me = os.getpid()
    return [pid for pid in _processes() if _parent(pid) == me and pid not in keep]


def kill_all(pids, patience=2.0):
    """SIGKILL each pid (they are student code: no grace period is owed); wait until gone."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.05)
    return [pid for pid in pids if _alive(pid)]


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def end_run(run_id):
    """Kill every process of the run, repeatedly, until none is left (a fork race may add
    one while we kill); return the number killed."""
    killed = 0
    for _ in range(20):
        pids = marked(run_id)
        if not pids:
            break
        kill_all(pids)
        killed += len(pids)
    return killed


def end_orphans(keep=()):
    """Kill our re-parented orphans (any direct child not in `keep`) until none is left.

    A process that forks and exits over and over hands its pid on faster than one sweep of
    /proc can kill it, and a sweep can fall between two of them. So each orphan's whole process
    group is killed at once (its descendants share it unless they leave it, and the group's id
    does not change as pids do), unless the group is ours or a run's we keep; and only a few
    empty sweeps in a row end the search.
    """
    protected = {os.getpgrp()} | {_group(pid) for pid in keep} - {None}
    killed, empty = 0, 0
    for _ in range(400):
        pids = orphans(keep)
        _reap([pid for pid in pids if not _alive(pid)])  # dead: only their zombies remain
        pids = [pid for pid in pids if _alive(pid)]
        if not pids:
            empty += 1
            if empty == 3:
                break
            time.sleep(0.02)
            continue
        empty = 0
        for group in {_group(pid) for pid in pids} - protected - {None}:
            try:
                os.killpg(group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        kill_all(pids, patience=0.2)
        killed += len(pids)
    return killed


def _group(pid):
    try:
        return os.getpgid(pid)
    except (ProcessLookupError, PermissionError):
        return None


def _reap(pids):
    """Collect the exit status of re-parented children that died, so they leave /proc."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
