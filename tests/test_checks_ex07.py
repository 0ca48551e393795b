"""The ex-07 checks accept the reference answers, reject plausible wrong ones, and replay."""

import math
from decimal import Decimal
from fractions import Fraction

import pytest

from feedline.checks import _replay, ex07
from checkkit import assert_same_verdict_when_replayed, blank, graded


def train_seconds(timeline):
    return sum(s.end - s.start for s in timeline.spans if s.stage == "train_step")


# -- the timelines the checks build -----------------------------------------------------------

def test_a_built_timeline_reads_like_a_traced_one():
    timeline = ex07.sequential_timeline(3, 2, 0.01, 0.002, [0.004, 0.001], 0.003)
    summary = timeline.summary()
    busy = {row.stage: row.busy for row in summary.stages}
    assert timeline.stages == ["open", "read", "map", "map#2", "train_step"]
    assert math.isclose(busy["open"], 0.02) and math.isclose(busy["map"], 0.024)
    assert math.isclose(busy["read"], 0.012) and math.isclose(busy["train_step"], 0.018)
    assert math.isclose(timeline.duration, 2 * (0.01 + 3 * 0.01))


def test_a_built_timeline_refuses_an_empty_pipeline():
    with pytest.raises(ValueError, match="n and epochs"):
        ex07.sequential_timeline(0, 1, 0.01, 0.002, [0.004], 0.003)


# -- ex-07-1: how long the loop waited --------------------------------------------------------

def consumer_wait(timeline):
    return timeline.duration - train_seconds(timeline)


def test_consumer_wait_accepts_wall_time_minus_training(capsys):
    ex07.check_consumer_wait(consumer_wait)
    assert capsys.readouterr().out == "ex-07-1 passed: the waiting times match on 6 new timelines\n"


@pytest.mark.parametrize("wrong, match", [
    (lambda t: t.duration, "whole wall time"),
    (lambda t: train_seconds(t), "time spent training"),
    (lambda t: sum(s.end - s.start for s in t.spans if s.stage != "train_step"), "spans nest"),
    (lambda t: sum(s.end - s.start for s in t.of("read")), "'read' spans alone"),
    (lambda t: sum(row.busy for row in t.summary().stages if row.stage in ("read", "map")),
     "expected"),
    (lambda t: "a while", "a number of seconds"),
    (blank, "NotImplementedError"),
])
def test_consumer_wait_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex07.check_consumer_wait(wrong)


# -- ex-07-2: the total of a sequential pipeline ----------------------------------------------

def sequential_total(n, epochs, open_s, read_s, map_s, step_s, batch_size):
    batches = math.ceil(n / batch_size)
    return epochs * (open_s + n * (read_s + map_s) + batches * step_s)


def test_sequential_total_accepts_the_formula(capsys):
    ex07.check_sequential_total(sequential_total)
    assert capsys.readouterr().out.startswith("ex-07-2 passed:")


@pytest.mark.parametrize("wrong, match", [
    (lambda n, e, o, r, m, s, b: e * (o + n * (r + m + s)), "once per batch, not once per"),
    (lambda n, e, o, r, m, s, b: e * (o + n * (r + m) + (n // b) * s), "last, shorter one"),
    (lambda n, e, o, r, m, s, b: e * (o + n * (r + m) + n / b * s), "whole step"),
    (lambda n, e, o, r, m, s, b: o + e * (n * (r + m) + math.ceil(n / b) * s), "opens the file"),
    (lambda n, e, o, r, m, s, b: o + n * (r + m) + math.ceil(n / b) * s, "that is one epoch"),
    (blank, "NotImplementedError"),
])
def test_sequential_total_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex07.check_sequential_total(wrong)


# -- ex-07-3: the slowest stage ---------------------------------------------------------------

def slowest_stage(timeline):
    rows = [row for row in timeline.summary().stages if row.stage != "train_step"]
    return max(rows, key=lambda row: row.busy).stage


def test_slowest_stage_accepts_the_busiest_input_stage(capsys):
    ex07.check_slowest_stage(slowest_stage)
    assert capsys.readouterr().out == (
        "ex-07-3 passed: the slowest input stage found in 8 new timelines\n")


def longest_spans(timeline):
    stages = [stage for stage in timeline.stages if stage != "train_step"]
    return max(stages, key=lambda stage: sum(s.end - s.start for s in timeline.of(stage)))


@pytest.mark.parametrize("wrong, match", [
    (lambda t: t.summary().bottleneck, "train_step is the training loop itself"),
    (longest_spans, "include the time it waited"),
    (lambda t: max(t.stages, key=lambda stage: len(t.of(stage))), "most spans"),
    (lambda t: t.stages[0], "the slowest input stage is"),
    (lambda t: "decode", "answer with one of the stage names"),
    (blank, "NotImplementedError"),
])
def test_slowest_stage_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex07.check_slowest_stage(wrong)


# -- ex-07-4: the total with a prefetch -------------------------------------------------------

def prefetched_total(n, epochs, open_s, read_s, map_s, step_s):
    produce = read_s + map_s
    return epochs * (open_s + produce + (n - 1) * max(produce, step_s) + step_s)


def test_prefetched_total_accepts_the_formula(capsys):
    ex07.check_prefetched_total(prefetched_total)
    assert capsys.readouterr().out.startswith("ex-07-4 passed:")


@pytest.mark.parametrize("wrong, match", [
    (lambda n, e, o, r, m, s: e * (o + n * (r + m + s)), "time without prefetch"),
    (lambda n, e, o, r, m, s: e * (o + n * max(r + m, s)), "cannot start before the first"),
    (lambda n, e, o, r, m, s: o + e * (r + m + (n - 1) * max(r + m, s) + s),
     "opens the file again"),
    (lambda n, e, o, r, m, s: o + r + m + (e * n - 1) * max(r + m, s) + s, "across epochs"),
    (lambda n, e, o, r, m, s: e * (r + m + (n - 1) * max(r + m, s) + s), "delays the first"),
    (lambda n, e, o, r, m, s: e * (o + r + m + (n - 1) * min(r + m, s) + s), "expected"),
    (blank, "NotImplementedError"),
])
def test_prefetched_total_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex07.check_prefetched_total(wrong)


# -- replay: the grader reaches the kernel's verdict --------------------------------------------

@pytest.mark.parametrize("check, right, wrong", [
    (ex07.check_consumer_wait, consumer_wait, lambda t: t.duration),
    (ex07.check_sequential_total, sequential_total,
     lambda n, e, o, r, m, s, b: e * (o + n * (r + m + s))),
    (ex07.check_slowest_stage, slowest_stage, longest_spans),
    (ex07.check_prefetched_total, prefetched_total,
     lambda n, e, o, r, m, s: e * (o + n * (r + m + s))),
    # Seconds as a Fraction or a Decimal are numbers too, in the kernel and in the grader.
    (ex07.check_sequential_total, lambda *case: Fraction(sequential_total(*case)),
     lambda n, e, o, r, m, s, b: Fraction(e * (o + n * (r + m + s)))),
    (ex07.check_prefetched_total, lambda *case: Decimal(prefetched_total(*case)),
     lambda n, e, o, r, m, s: Decimal(e * (o + n * (r + m + s)))),
])
def test_timeline_checks_give_the_same_verdict_when_replayed(monkeypatch, check, right, wrong):
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)


def test_a_forged_answer_to_a_timeline_check_fails_in_the_grader(monkeypatch):
    _, observation = graded(monkeypatch, ex07.check_slowest_stage, slowest_stage)
    for event in observation["events"]:
        if event["op"] == "call":
            event["value"] = {"value": "read"}  # one answer for every timeline
    assert _replay.judge("ex-07-3", observation, "5eed")[0] == "failed"
