"""Helpers shared by the checks: the verdict, calling the learner's answer, reading elements.

A check is a function decorated with `@check(check_id, hint=...)`. Inside it, `fail(...)`
stops with a `CheckFailed` (an `AssertionError`, so nbval and the grader see a failed cell);
the decorator adds the exercise's hint when the failure has no more specific one, and turns
any error raised by the learner's code while the check ran it into a plain sentence.

>>> passed("ex-00-0", "an example")
ex-00-0 passed: an example
>>> fail("ex-00-0", "expected 3, got 4")
Traceback (most recent call last):
...
feedline.checks._common.CheckFailed: ex-00-0: expected 3, got 4
>>> @check("ex-00-1", hint="count again")
... def check_three(answer):
...     if answer != 3:
...         fail("ex-00-1", f"expected 3, got {answer}")
>>> check_three(4)
Traceback (most recent call last):
...
feedline.checks._common.CheckFailed: ex-00-1: expected 3, got 4
Hint: count again
"""

import collections.abc
import functools
import itertools

import numpy as np

from ..data import Dataset, Iterator
from . import _replay
from ._learner import describe_call, error_report
from ._replay import observe  # noqa: F401 - checks record measurements through it


class CheckFailed(AssertionError):
    """A wrong answer: which exercise, what was wrong, and a hint (or None)."""

    def __init__(self, check_id, message, hint=None):
        super().__init__(check_id, message, hint)
        self.check_id, self.message, self.hint = check_id, message, hint

    def __str__(self):
        text = f"{self.check_id}: {self.message}"
        return f"{text}\nHint: {self.hint}" if self.hint else text

    def _render_traceback_(self):
        # IPython calls this instead of printing a traceback: the learner sees a short block
        # with no frames from inside feedline, and the cell still fails.
        from ._display import render_failure

        return render_failure(self)


def fail(check_id, message, hint=None):
    """Stop the check with `CheckFailed`; `hint` replaces the exercise's own hint."""
    raise CheckFailed(check_id, message, hint)


def passed(check_id, message):
    """Print the one stable line a check gives when the answer is right."""
    print(f"{check_id} passed: {message}")


def check(check_id, hint, replayable=False):
    """Decorate a check function: its id, its default hint, and errors turned into verdicts.

    Args:
        check_id: the exercise id, `ex-NN-K`.
        hint: the sentence shown with every failure that does not bring its own hint.
        replayable: True when the check touches the learner's code only through
            `call_answer`, `read_elements`/`take_elements` and `observe`, and is otherwise
            deterministic for a seed: the grader then judges it again outside the student's
            kernel (see `_replay`). Leave False for a check that reads other state.
    """
    def decorate(function):
        @functools.wraps(function)
        def run(*args, **kwargs):
            # In a graded notebook the session records what the answer did, for the grader to
            # judge again (see _replay); elsewhere it is None and nothing is recorded.
            session = _replay.begin(check_id, args)
            verdict = "failed"
            try:
                result = function(*args, **kwargs)
                verdict = "passed"
                return result
            except CheckFailed as failure:
                if failure.hint is None:
                    failure.hint = hint
                raise failure.with_traceback(None) from None
            except (_replay.ReplayUnsupported, _replay.ReplayDiverged):
                raise  # only in the grader: the record cannot decide this check
            except Exception as error:  # noqa: BLE001 - the learner's code may raise anything
                raise CheckFailed(check_id, error_report(error, "your answer"),
                                  hint) from None
            finally:
                _replay.end(session, verdict)

        run.check_id, run.hint, run.replayable = check_id, hint, replayable
        _replay.REGISTRY[check_id] = run
        return run

    return decorate


def seconds(check_id, value):
    """`value` as a float; a failed check when the answer is not a number of seconds."""
    try:
        return float(value)
    except (TypeError, ValueError):
        fail(check_id, f"expected a number of seconds, got {type(value).__name__}")


def rng(check_id):
    """A generator seeded from the check id: fresh inputs, the same on every run; in a graded
    run, also from the grader's seed, so the inputs are new to every student and run."""
    seed = [ord(c) for c in check_id]
    grading = _replay.grading_seed()
    if grading is not None:
        seed += [ord(c) for c in grading]
    return np.random.default_rng(seed)


def call_answer(check_id, function, *args, want_dataset=True):
    """Call the learner's `function(*args)`, turning the usual slips into clear failures."""
    name = getattr(function, "__name__", "your function")
    if not callable(function):
        fail(check_id, f"expected a function, got {type(function).__name__}")
    session = _replay.current()
    if session is not None and session.replaying:
        outcome = _replay.replay_call()
    else:
        outcome = _replay.record_call(_invoke(function, args, name))
    if outcome[0] == "not_implemented":
        fail(check_id, f"{name} still raises NotImplementedError: replace "
                       "`raise NotImplementedError()` with your answer in the cell above",
             hint="write your answer where it says # YOUR CODE HERE, run that cell, then "
                  "this one")
    if outcome[0] == "error":
        fail(check_id, outcome[1])
    result = outcome[1]
    if result is None:
        fail(check_id, f"{name} returned None: did you forget `return`?")
    if want_dataset and not isinstance(result, Dataset):
        fail(check_id, f"{name} should return a Dataset, but returned "
                       f"{type(result).__name__}")
    return result


def normalised_answer(function, normalise):
    """The learner's `function`, with `normalise` applied to what it returns, inside the call.

    A graded kernel records what the call returned, and the grader judges that record: a right
    answer in a shape that is not plain data (a generator, a `Path`) would pass in the kernel
    but reach the grader as an opaque stand-in. Normalised inside the call, the record holds
    the normalised value, so the kernel and the grader judge the same thing. `normalise` must
    not raise; it gives back anything it does not recognise as it is.
    """
    if not callable(function):
        return function  # call_answer says what it is instead
    def answer(*args):
        result = function(*args)
        return None if result is None else normalise(result)

    answer.__name__ = getattr(function, "__name__", "your function")
    return answer


ITERATOR_LIMIT = 100_000  # more items than any answer returns; an endless iterator stops here


def listed_if_iterator(value):
    """A one-shot iterator (a generator, `map(...)`, `iter(...)`) as a list of its items,
    anything else as it is: a check that loops over a result accepts both, and a list is plain
    data while a generator is not."""
    if isinstance(value, collections.abc.Iterator) and not isinstance(value, Iterator):
        return list(itertools.islice(value, ITERATOR_LIMIT + 1))
    return value


def _invoke(function, args, name):
    """Run the learner's function: ("value", result), ("not_implemented",) or ("error", why)."""
    try:
        return ("value", function(*args))
    except NotImplementedError:
        return ("not_implemented",)
    except Exception as error:  # noqa: BLE001 - the learner's code may raise anything
        return ("error", error_report(error, f"your `{name}`",
                                      called_as=describe_call(name, args)))


def read_elements(check_id, dataset):
    """Yield the elements of `dataset`, recorded in a graded run and replayed by the grader."""
    session = _replay.current()
    if session is not None and session.replaying:
        return _replayed_elements(check_id, dataset, session.next("read"))
    elements = _read_elements(check_id, dataset)
    return elements if session is None else _recorded(session, elements)


def _recorded(session, elements):
    event = session.add({"op": "read", "elements": [], "error": None})
    try:
        for element in elements:
            if "opaque" not in event:
                try:
                    event["elements"].append(_replay._wire.encode(element))
                except _replay._wire.Unsendable:
                    event["opaque"] = type(element).__name__
            yield element
    except CheckFailed as failure:
        event["error"] = failure.message
        raise


def _replayed_elements(check_id, dataset, event):
    """The check's own datasets are read for real; the learner's come from the record."""
    if "opaque" in event:
        raise _replay.ReplayUnsupported(f"an element was {event['opaque']}, not plain data")
    limit = len(event["elements"]) + 1
    try:
        real = []
        for element in _read_elements(check_id, dataset):
            real.append(element)
            if len(real) >= limit:
                break
        yield from real
        return
    except _replay.ReplayUnsupported:
        pass
    except CheckFailed as failure:
        if not isinstance(failure.__context__, _replay.ReplayUnsupported):
            raise
    yield from (_replay._wire.decode(element) for element in event["elements"])
    if event["error"] is not None:
        fail(check_id, event["error"])


def _read_elements(check_id, dataset):
    """Yield the elements of `dataset`; an error raised while reading becomes a failed check.

    The error may come from a function the learner passed to `map`, or from a transformation
    that cannot apply to these elements; either way the learner reads what raised, where.
    """
    # Judged as written: no prefetch injected, no map parallelised (the elements are the same).
    iterator = Iterator(dataset, rewrite=False) if isinstance(dataset, Dataset) else iter(dataset)
    count = 0
    try:
        while True:
            try:
                element = next(iterator)
            except StopIteration:
                return
            except Exception as error:  # noqa: BLE001 - raised by the learner's pipeline
                fail(check_id, error_report(error, "your pipeline", while_doing=(
                    f"while the check read element {count} from it")))
            count += 1
            yield element
    finally:
        # A check that stops early must not leave the pipeline's threads running.
        close = getattr(iterator, "close", None)
        if close is not None:
            close()


def take_elements(check_id, dataset, limit):
    """The elements of `dataset` as a list, failing (not hanging) past `limit` elements."""
    elements = []
    for element in read_elements(check_id, dataset):
        elements.append(element)
        if len(elements) > limit:
            fail(check_id, f"the dataset gave more than {limit} elements; expected far fewer "
                           "(is there a `repeat()` without a count?)")
    return elements


def describe(element):
    """A short description of an element's structure, for failure messages."""
    if isinstance(element, dict):
        return "{" + ", ".join(f"{key!r}: {describe(value)}"
                               for key, value in element.items()) + "}"
    if isinstance(element, tuple):
        return "(" + ", ".join(describe(item) for item in element) + ")"
    array = np.asarray(element)
    return f"array of shape {tuple(array.shape)} and dtype {array.dtype}"


_replay.remember_helpers(globals())

# Which stages a learner's pipeline has (the walk is shared with the pipeline doctor).
from ..data.walk import pipeline_nodes  # noqa: E402
