"""Check for exercise `ex-07-3`: name the input stage that does the most work of its own.

Half the timelines get a training step heavier than any input stage, so an answer that does not
leave `train_step` out is caught.
"""

from ...perf.timeline import Timeline
from .._common import call_answer, check, fail, passed, rng
from ._shared import _random_timeline


def _slowest(timeline):
    rows = [row for row in timeline.summary().stages if row.stage != "train_step"]
    return max(rows, key=lambda row: row.busy).stage


@check("ex-07-3", hint="use the busy time of each stage from timeline.summary() (a stage's own "
                        "work, without the time it waited for the stage before it) and leave "
                        "out train_step, which is the loop, not the input pipeline",
       replayable=True)
def check_slowest_stage(slowest_stage):
    """ex-07-3: `slowest_stage(timeline)` names the input stage with the most own work.

    >>> check_slowest_stage(lambda t: max(
    ...     (row for row in t.summary().stages if row.stage != "train_step"),
    ...     key=lambda row: row.busy).stage)
    ex-07-3 passed: the slowest input stage found in 8 new timelines
    """
    check_id = "ex-07-3"
    generator = rng(check_id)
    heavies = ["read", "map", "map#2", "open", "read", "map", "map#2", "open"]
    for position in generator.permutation(len(heavies)):
        timeline = _random_timeline(generator, heavies[position])
        # Half of the timelines get a training step heavier than any input stage.
        if position % 2 == 0:
            timeline = _heavier_step(timeline, generator)
        want = _slowest(timeline)
        got = call_answer(check_id, slowest_stage, timeline, want_dataset=False)
        if got != want:
            fail(check_id, f"in a timeline with stages {timeline.stages} the slowest input "
                           f"stage is {want!r}, got {got!r}" + _explain_slowest(timeline, got))
    passed(check_id, f"the slowest input stage found in {len(heavies)} new timelines")


def _heavier_step(timeline, generator):
    """The same timeline with the train_step spans stretched so the step does most work."""
    busiest = max(row.busy for row in timeline.summary().stages)
    steps = len(timeline.of("train_step"))
    extra = 1.5 * busiest / steps + float(generator.uniform(0.001, 0.003))
    spans, shift = [], 0.0
    for span in timeline.spans:  # sorted by start: shift everything after each step
        moved = span._replace(start=span.start + shift, end=span.end + shift)
        if span.stage == "train_step":
            moved = moved._replace(end=moved.end + extra)
            shift += extra
        spans.append(moved)
    return Timeline(spans, origin=0.0)


def _explain_slowest(timeline, got):
    if got == "train_step":
        return ("; train_step is the training loop itself, not a stage of the input pipeline "
                "(here the loop is the bottleneck, and the question is which input stage to "
                "make faster)")
    if not isinstance(got, str) or got not in timeline.stages:
        return f"; answer with one of the stage names {timeline.stages}"
    longest = max((s for s in timeline.spans if s.stage != "train_step"),
                  key=lambda s: s.end - s.start).stage
    by_length = max((st for st in timeline.stages if st != "train_step"),
                    key=lambda st: sum(s.end - s.start for s in timeline.of(st)))
    if got in (longest, by_length):
        return (f"; the spans of {got!r} are long because they include the time it waited for "
                "the stages before it; compare the busy time of each stage, its own work")
    most = max(timeline.stages, key=lambda st: len(timeline.of(st)))
    if got == most:
        return "; the stage with the most spans is not the one with the most work"
    return ""
