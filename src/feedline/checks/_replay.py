"""Verdicts a student's kernel cannot forge: record in the kernel, judge in the grader.

When a check runs in a graded notebook (`FEEDLINE_GRADE_SEED` is set by the grader), it draws
its inputs from the grader's fresh seed and records what the learner's code did with them: the
result of each call to the answer, the elements of each dataset it read, and any other
measurement it `observe`s. It then shows that record as an output of the check cell
(`application/vnd.feedline.observation+json`), which the grader's nbval plugin collects.

The grader runs the same check again, in its own process, with its own copy of the checks and
the same seed: the check makes the same calls with the same inputs, and each call returns what
was recorded instead of running the learner's code. The verdict is the grader's. A hook, a
patched module or a forged output can only change the recorded data, and recorded data passes
only if it is what a correct answer gives on inputs drawn from a seed chosen at grading time.

Outside grading nothing is recorded and checks behave as before.
"""

import os

from . import _wire
from ._tampering import remember_helpers, tampering_signs  # noqa: F401 - _common calls it here

MIME = "application/vnd.feedline.observation+json"
SEED_VARIABLE = "FEEDLINE_GRADE_SEED"
REGISTRY = {}  # check id -> the decorated check function

_current = None  # the Recording or Replay of the check that is running
LAST = None  # the latest observation made in this process (for tests outside a kernel)
class ReplayUnsupported(Exception):
    """The check used the learner's code in a way the record does not cover."""


class ReplayDiverged(Exception):
    """The check, run again with the same seed, asked for something the record lacks."""


def grading_seed():
    """The grader's seed for this run, or None outside grading."""
    return os.environ.get(SEED_VARIABLE) or None


def current():
    return _current


class Recording:
    """Collects the events of one check in the student's kernel."""
    replaying = False

    def __init__(self, check_id, args):
        self.check_id, self.events = check_id, []
        self.events.append({"op": "args", "values": [_plain_or_answer(arg) for arg in args]})

    def add(self, event):
        self.events.append(event)
        return event

    def finish(self, verdict):
        """Show the record as an output of the check cell, for the grader's plugin."""
        global LAST
        observation = {"check_id": self.check_id, "events": self.events, "verdict": verdict,
                       "signs": tampering_signs()}
        LAST = observation
        try:
            from IPython import get_ipython
        except ImportError:
            return
        if get_ipython() is not None:
            from IPython.display import display
            display({MIME: observation, "text/plain": ""}, raw=True)


class Replay:
    """Feeds a check the recorded events, in order, in the grader's process."""
    replaying = True

    def __init__(self, check_id, events):
        self.check_id, self.events, self.position = check_id, list(events), 0

    def next(self, op):
        if self.position >= len(self.events):
            raise ReplayDiverged(f"the check asked for a {op} the record does not have")
        event = self.events[self.position]
        if event.get("op") != op:
            raise ReplayDiverged(f"the record has a {event.get('op')} where the check asked "
                                 f"for a {op}")
        self.position += 1
        return event


def _plain_or_answer(value):
    try:
        return {"value": _wire.encode(value)}
    except _wire.Unsendable:
        return {"answer": type(value).__name__,
                "name": getattr(value, "__name__", type(value).__name__)}


def begin(check_id, args):
    """Start recording (in a graded kernel) unless a replay is already set up."""
    global _current
    if _current is not None and _current.replaying:
        return _current
    if grading_seed() is None:
        return None
    _current = Recording(check_id, args)
    return _current


def end(session, verdict):
    global _current
    if session is not None and not session.replaying:
        _current = None
        session.finish(verdict)


# --- what a recording holds -------------------------------------------------------------------

def record_call(outcome):
    """`outcome` is ("value", result) | ("not_implemented",) | ("error", report)."""
    session = _current
    if session is None or session.replaying:
        return outcome
    event = {"op": "call", "kind": outcome[0]}
    if outcome[0] == "value":
        event["value"] = _result_to_plain(outcome[1])
    elif outcome[0] == "error":
        event["report"] = outcome[1]
    session.add(event)
    return outcome


def replay_call():
    """The recorded outcome of the next call to the learner's answer."""
    event = _current.next("call")
    if event["kind"] == "value":
        return ("value", _result_from_plain(event["value"]))
    if event["kind"] == "error":
        return ("error", event["report"])
    return ("not_implemented",)


def _result_to_plain(result):
    from ..data import Dataset

    if isinstance(result, Dataset):
        return {"dataset": type(result).__name__}
    try:
        return {"value": _wire.encode(result)}
    except _wire.Unsendable:
        return {"opaque": type(result).__name__}


def _result_from_plain(plain):
    if "dataset" in plain:
        return ReplayDataset()
    if "opaque" in plain:
        return ReplayOpaque(plain["opaque"])
    return _wire.decode(plain["value"])


def observe(check_id, name, compute):
    """A measurement of the learner's code (a trace, a count of threads): computed in the
    kernel, recorded, and replayed in the grader."""
    session = _current
    if session is not None and session.replaying:
        event = session.next("observe")
        if event["name"] != name:
            raise ReplayDiverged(f"expected the observation {name!r}, found {event['name']!r}")
        if "opaque" in event:
            raise ReplayUnsupported(f"{name} was not plain data")
        return _wire.decode(event["value"])
    value = compute()
    if session is not None:
        try:
            session.add({"op": "observe", "name": name, "value": _wire.encode(value)})
        except _wire.Unsendable:
            session.add({"op": "observe", "name": name, "opaque": type(value).__name__})
    return value


# --- placeholders for the learner's objects during a replay -----------------------------------

def _unsupported(*args, **kwargs):
    raise ReplayUnsupported("the check used the learner's code beyond what was recorded")


class ReplayAnswer:
    """Stands for a function the learner wrote; calling it outside `call_answer` is refused."""

    def __init__(self, name):
        self.__name__ = name

    __call__ = _unsupported


class ReplayOpaque:
    """Stands for a value the learner returned that was not plain data."""

    def __init__(self, type_name):
        self.type_name = type_name

    def __getattr__(self, name):
        _unsupported()


def _replay_dataset_class():
    from ..data import Dataset

    class ReplayDataset(Dataset):
        """Stands for a dataset the learner's code returned; only its recorded reads exist."""

        def _make_iterator(self):
            _unsupported()

        def _cardinality(self):
            _unsupported()

        @property
        def element_spec(self):
            _unsupported()

    return ReplayDataset


def ReplayDataset():  # noqa: N802 - a class made on first use (feedline.data imports checks)
    global ReplayDataset
    ReplayDataset = _replay_dataset_class()
    return ReplayDataset()


# --- signs of tampering, recorded beside each check's events ----------------------------------

# --- the grader's side ------------------------------------------------------------------------

def judge(check_id, observation, seed):
    """Run the registered check on the record: ("passed" | "failed" | "unjudged", message)."""
    from . import _common

    global _current
    function = REGISTRY.get(check_id)
    if function is None:
        return "unjudged", f"no check named {check_id} in feedline.checks"
    if not getattr(function, "replayable", False):
        return "unjudged", f"the check for {check_id} is not replayable yet"
    events = observation.get("events") or []
    if not events or events[0].get("op") != "args":
        return "unjudged", "the record has no arguments"
    try:
        args = [_wire.decode(item["value"]) if "value" in item
                else ReplayAnswer(item.get("name", "answer")) for item in events[0]["values"]]
    except (_wire.Unsendable, ValueError, TypeError, KeyError, AttributeError):
        # Only a forged or damaged record gets here: the kernel records plain data.
        return "failed", "the record's arguments could not be read"
    previous = os.environ.get(SEED_VARIABLE)
    os.environ[SEED_VARIABLE] = seed
    _current = Replay(check_id, events[1:])
    try:
        with _quiet():
            function(*args)
        if _current.position != len(_current.events):
            return "failed", "the record holds more than the check asked for"
        return "passed", ""
    except _common.CheckFailed as failure:
        if isinstance(failure.__context__, (ReplayUnsupported, ReplayDiverged)):
            return _unjudged_or_diverged(failure.__context__)
        return "failed", str(failure)
    except (ReplayUnsupported, ReplayDiverged) as error:
        return _unjudged_or_diverged(error)
    finally:
        _current = None
        if previous is None:
            os.environ.pop(SEED_VARIABLE, None)
        else:
            os.environ[SEED_VARIABLE] = previous


def _unjudged_or_diverged(error):
    if isinstance(error, ReplayDiverged):
        return "failed", f"the recorded results do not match this check's inputs ({error})"
    return "unjudged", str(error)


class _quiet:
    """Swallow the check's printed success line in the grader."""

    def __enter__(self):
        import contextlib
        import io

        self._redirect = contextlib.redirect_stdout(io.StringIO())
        self._redirect.__enter__()

    def __exit__(self, *exc):
        return self._redirect.__exit__(*exc)
