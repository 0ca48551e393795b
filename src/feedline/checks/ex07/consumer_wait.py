"""Check for exercise `ex-07-1`: how long the training loop waited for data in a timeline."""

import math

from .._common import call_answer, check, fail, passed, rng, seconds
from ._shared import _random_timeline


def _train_seconds(timeline):
    return sum(s.end - s.start for s in timeline.spans if s.stage == "train_step")


def _waited(timeline):
    return timeline.duration - _train_seconds(timeline)


@check("ex-07-1", hint="the loop is either inside a train_step span or waiting for data: "
                        "take the wall time of the timeline and subtract the time spent in "
                        "train_step spans",
       replayable=True)
def check_consumer_wait(consumer_wait):
    """ex-07-1: `consumer_wait(timeline)` is the time the training loop spent waiting for data.

    >>> check_consumer_wait(lambda t: t.duration - sum(
    ...     s.end - s.start for s in t.spans if s.stage == "train_step"))
    ex-07-1 passed: the waiting times match on 6 new timelines
    """
    check_id = "ex-07-1"
    generator = rng(check_id)
    cases = 6
    for case in range(cases):
        heavy = ["read", "map", "train_step", "open", "read", "train_step"][case]
        timeline = _random_timeline(generator, heavy)
        want = _waited(timeline)
        got = seconds(check_id, call_answer(check_id, consumer_wait, timeline,
                                            want_dataset=False))
        if not math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-9):
            fail(check_id, f"for a timeline of {timeline.duration:.4f} s with "
                           f"{_train_seconds(timeline):.4f} s of train_step, expected "
                           f"{want:.4f} s of waiting, got {got:.4f} s"
                           + _explain_wait(timeline, got))
    passed(check_id, f"the waiting times match on {cases} new timelines")


def _explain_wait(timeline, got):
    close = lambda value: math.isclose(got, value, rel_tol=1e-6)  # noqa: E731
    if close(timeline.duration):
        return "; that is the whole wall time: subtract the time the loop spent training"
    if close(_train_seconds(timeline)):
        return "; that is the time spent training, not waiting"
    input_spans = sum(s.end - s.start for s in timeline.spans if s.stage != "train_step")
    if close(input_spans):
        return ("; that adds up every span of the input stages, but the spans nest (a map's "
                "span contains the read inside it), so the same time is counted several "
                "times")
    for stage in timeline.stages:
        if close(sum(s.end - s.start for s in timeline.of(stage))):
            return (f"; that is the total length of the {stage!r} spans alone; the loop "
                    "waits for every stage of the input pipeline")
    return ""
