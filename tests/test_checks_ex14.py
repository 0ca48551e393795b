"""The ex-14 checks accept the reference answers, reject plausible wrong ones, and replay."""

import math

import pytest

from feedline.checks import _replay, ex14
from feedline.data import AUTOTUNE, Dataset
from checkkit import assert_same_verdict_when_replayed, blank, graded


# -- ex-14-1: the order of the techniques -----------------------------------------------------

ORDER = ["interleave", "batch", "decode", "cache", "augment", "prefetch"]


def in_order(steps):
    return sorted(steps, key=ORDER.index)


def test_in_order_accepts_a_sort_by_the_pipeline_order(capsys):
    ex14.check_in_order(in_order)
    assert capsys.readouterr().out == "ex-14-1 passed: 10 sets of steps put in the right order\n"


def swapped(first, second):
    """The right order with two techniques the wrong way round."""
    order = list(ORDER)
    i, j = order.index(first), order.index(second)
    order[i], order[j] = order[j], order[i]
    return lambda steps: sorted(steps, key=order.index)


@pytest.mark.parametrize("wrong, match", [
    (swapped("cache", "augment"), "the random augment goes after the cache"),
    (swapped("batch", "decode"), "batch before the decode"),
    (swapped("decode", "cache"), "cache after the slow decode"),
    (lambda steps: sorted(steps, key=(["prefetch"] + ORDER[:-1]).index), "prefetch goes last"),
    (lambda steps: list(steps), "expected \\["),
    (lambda steps: sorted(steps), "expected \\["),
    (lambda steps: in_order(steps)[:-1], "the same steps"),
    (blank, "NotImplementedError"),
])
def test_in_order_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex14.check_in_order(wrong)


# -- ex-14-2: the speed-up of batching before a vectorised map --------------------------------

def predicted_speedup(n, read_s, call_s, item_s, step_s, batch_size):
    batches = math.ceil(n / batch_size)
    before = n * (read_s + call_s + item_s) + batches * step_s
    after = n * (read_s + item_s) + batches * (call_s + step_s)
    return before / after


def test_predicted_speedup_accepts_the_ratio_of_the_two_totals(capsys):
    ex14.check_predicted_speedup(predicted_speedup)
    assert capsys.readouterr().out.startswith("ex-14-2 passed:")


def full_batches_only(n, read_s, call_s, item_s, step_s, batch_size):
    batches = n // batch_size
    return ((n * (read_s + call_s + item_s) + batches * step_s)
            / (n * (read_s + item_s) + batches * (call_s + step_s)))


def last_batch_full(n, read_s, call_s, item_s, step_s, batch_size):
    batches = math.ceil(n / batch_size)
    before = n * (read_s + call_s + item_s) + batches * step_s
    return before / (n * read_s + batches * (call_s + batch_size * item_s + step_s))


@pytest.mark.parametrize("wrong, match", [
    (lambda *case: 1 / predicted_speedup(*case), "after / before"),
    (full_batches_only, "the last, shorter one costs a call"),
    (last_batch_full, "its vectorised call handles fewer items"),
    (lambda n, r, c, i, s, b: (c + i) / (c / b + i), "the map alone"),
    (lambda n, r, c, i, s, b: b, "expected a speed-up"),
    (blank, "NotImplementedError"),
])
def test_predicted_speedup_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex14.check_predicted_speedup(wrong)


# -- ex-14-3: optimise a naive pipeline -------------------------------------------------------

def optimise(file_ids, open_file, decode, augment, batch_size):
    return (file_ids.interleave(open_file, cycle_length=4, num_parallel_calls=4)
            .batch(batch_size)
            .map(decode, num_parallel_calls=AUTOTUNE)
            .cache()
            .map(augment, num_parallel_calls=AUTOTUNE)
            .prefetch(AUTOTUNE))


def test_optimise_accepts_every_technique_in_order(capsys):
    ex14.check_optimised(optimise)
    assert capsys.readouterr().out.startswith("ex-14-3 passed: same records")


def test_optimise_accepts_autotuned_interleave():
    # cycle_length given: left unset, TensorFlow's rule opens ceil(cores / 3) files at once,
    # one on a 2-core machine.
    ex14.check_optimised(lambda f, o, d, a, b: f.interleave(o, cycle_length=4,
                                                            num_parallel_calls=AUTOTUNE)
                         .batch(b).map(d, num_parallel_calls=AUTOTUNE).cache()
                         .map(a, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE))


def test_optimise_rejects_an_autotuned_interleave_without_cycle_length_when_it_opens_one_file():
    # TensorFlow 2.21's default cycle_length under AUTOTUNE is ceil(cores / 3): one file at a
    # time on a 1- to 3-core machine, so the learner is told to give cycle_length.
    from feedline.data.ops.interleave import resolve_cycle_length
    if resolve_cycle_length(None, AUTOTUNE) > 1:
        pytest.skip("this machine's default cycle opens several files")
    with pytest.raises(AssertionError, match="cycle_length"):
        ex14.check_optimised(lambda f, o, d, a, b: f.interleave(o, num_parallel_calls=AUTOTUNE)
                             .batch(b).map(d, num_parallel_calls=AUTOTUNE).cache()
                             .map(a, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE))


def parallel(f, o):
    return f.interleave(o, cycle_length=4, num_parallel_calls=4)


@pytest.mark.parametrize("wrong, match", [
    # the naive pipeline the exercise starts from
    (lambda f, o, d, a, b: f.flat_map(o).map(d).map(a).batch(b), "once per record"),
    (lambda f, o, d, a, b: parallel(f, o).map(d, num_parallel_calls=AUTOTUNE).batch(b).cache()
     .map(a, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE), "once per record"),
    (lambda f, o, d, a, b: parallel(f, o).batch(b).map(d, num_parallel_calls=AUTOTUNE)
     .map(a, num_parallel_calls=AUTOTUNE).cache().prefetch(AUTOTUNE),
     "same augmented values as epoch 1"),
    (lambda f, o, d, a, b: parallel(f, o).batch(b).cache().map(d, num_parallel_calls=AUTOTUNE)
     .map(a, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE), "epoch 2 decoded again"),
    (lambda f, o, d, a, b: f.flat_map(o).batch(b).map(d, num_parallel_calls=AUTOTUNE).cache()
     .map(a, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE), "one at a time"),
    (lambda f, o, d, a, b: parallel(f, o).batch(b).map(d, num_parallel_calls=AUTOTUNE).cache()
     .prefetch(AUTOTUNE).map(a), "augment ran \\d+ of \\d+ times in the training loop's"),
    (lambda f, o, d, a, b: parallel(f, o).batch(b).map(d).cache().map(a).prefetch(AUTOTUNE),
     "decode ran one call at a time"),
    (lambda f, o, d, a, b: optimise(f, o, d, a, b).unbatch(), "expected batches"),
    (lambda f, o, d, a, b: parallel(f, o).batch(b).map(d, num_parallel_calls=AUTOTUNE).cache()
     .prefetch(AUTOTUNE), "augment never ran"),
    # the check's batch size written in: right for this workload, not for the argument
    (lambda f, o, d, a, b: optimise(f, o, d, a, 6),
     "called with batch_size=4, the pipeline batches by \\[6\\]"),
    (blank, "NotImplementedError"),
])
def test_optimise_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex14.check_optimised(wrong)


def test_optimise_rejects_a_slow_pipeline_by_its_ratio_to_the_ideal(monkeypatch):
    """A record in which the loop took twice the ideal time fails, whatever its structure."""
    verdict, observation = graded(monkeypatch, ex14.check_optimised, optimise)
    assert verdict == "passed"
    for event in observation["events"]:
        if event["op"] == "observe" and event["name"] == "seconds":
            event["value"] *= 2.5
    outcome, message = _replay.judge("ex-14-3", observation, "5eed")
    assert outcome == "failed" and "times the ideal time" in message


# -- ex-14-4: name the flaw of a traced pipeline ----------------------------------------------

def diagnose(timeline):
    workers = {row.stage: row.workers for row in timeline.summary().stages}
    maps = [stage for stage in timeline.stages if stage.startswith("map")]
    steps = len(ex14.work_spans(timeline, "train_step", epoch=0))
    if workers["read"] < 2:
        return "sequential_reads"
    if ex14.work_spans(timeline, "read", epoch=1):
        return "no_cache"
    if any(len(ex14.work_spans(timeline, stage, epoch=0)) > steps for stage in maps):
        return "map_before_batch"
    working = [stage for stage in maps if ex14.work_spans(timeline, stage, epoch=1)]
    if not working:
        return "cache_after_augment"
    if len(working) > 1:
        return "cache_before_decode"
    if any(span.worker == "MainThread" for stage in maps
           for span in ex14.work_spans(timeline, stage)):
        return "prefetch_before_map"
    return "none"


def test_diagnose_accepts_a_reading_of_each_symptom(capsys):
    ex14.check_diagnose(diagnose)
    assert capsys.readouterr().out.startswith("ex-14-4 passed: the flaw of 7")


def test_each_flawed_pipeline_keeps_the_records():
    for flaw in ex14.FLAWS:
        pipeline = ex14.flawed_pipeline(flaw, open_s=0, read_s=0, decode_s=0, augment_s=0)
        assert sorted(int(x) for batch in pipeline for x in batch) == sorted(list(range(4)) * 3)


def test_flawed_pipeline_names_the_argument_of_an_unknown_flaw():
    with pytest.raises(ValueError, match="flaw must be one of"):
        ex14.flawed_pipeline("too_slow")


@pytest.mark.parametrize("wrong, match", [
    (lambda timeline: "none", "The symptom to look for"),
    (lambda timeline: timeline.summary().bottleneck, "answer with one of"),
    # a reading that never looks at epoch 1: misses the cache flaws
    (lambda timeline: diagnose(timeline) if diagnose(timeline) in (
        "sequential_reads", "map_before_batch", "prefetch_before_map") else "none",
     "The symptom to look for"),
    # counting every span of a parallel map (its consumer's too) sees per-element maps everywhere
    (lambda timeline: "map_before_batch" if any(
        len([s for s in timeline.of(stage) if s.epoch == 0]) > 3
        for stage in timeline.stages if stage.startswith("map")) else diagnose(timeline),
     "you answered 'map_before_batch'"),
    (blank, "NotImplementedError"),
])
def test_diagnose_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex14.check_diagnose(wrong)


# -- replay: the grader reaches the kernel's verdict --------------------------------------------

@pytest.mark.parametrize("check, right, wrong", [
    (ex14.check_in_order, in_order, lambda steps: sorted(steps)),
    (ex14.check_predicted_speedup, predicted_speedup, full_batches_only),
    (ex14.check_optimised, optimise,
     lambda f, o, d, a, b: parallel(f, o).batch(b).map(d, num_parallel_calls=AUTOTUNE)
     .map(a, num_parallel_calls=AUTOTUNE).cache().prefetch(AUTOTUNE)),
    (ex14.check_diagnose, diagnose, lambda timeline: "none"),
])
def test_naive_vs_optimized_checks_give_the_same_verdict_when_replayed(monkeypatch, check,
                                                                      right, wrong):
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)


def test_a_forged_record_of_work_fails_in_the_grader(monkeypatch):
    """A kernel that claims every decode ran once, side by side, but gave stale elements."""
    _, observation = graded(monkeypatch, ex14.check_optimised, optimise)
    reads = [event for event in observation["events"] if event["op"] == "read"]
    reads[1]["elements"] = reads[0]["elements"]  # epoch 2 the same as epoch 1
    assert _replay.judge("ex-14-3", observation, "5eed")[0] == "failed"


class _OneThreadLog:
    """A work log where decode and augment each ran one call at a time on one worker."""

    def __init__(self):
        self.entries = [(kind, 7, 0.1 * step, 0.1 * step + 0.05, 0)
                        for kind in ("decode", "augment") for step in range(4)]

    def of(self, kind, epoch=None):
        return [entry for entry in self.entries if entry[0] == kind]


class _OneThreadWork:
    log = _OneThreadLog()


def test_parallel_maps_that_ran_on_one_thread_are_not_blamed():
    """A machine too busy to overlap two calls, or a map whose trial chose to read inline,
    runs every call on one thread; the structure says the maps were written parallel."""
    dataset = Dataset.range(8).batch(2).map(lambda x: x, num_parallel_calls=AUTOTUNE).map(
        lambda x: x, num_parallel_calls=2)
    ex14._check_threads("ex-14-3", _OneThreadWork(), main=1, dataset=dataset)


def test_a_sequential_map_that_ran_one_call_at_a_time_is_blamed():
    dataset = Dataset.range(8).batch(2).map(lambda x: x, num_parallel_calls=AUTOTUNE).map(
        lambda x: x)
    with pytest.raises(AssertionError, match="ran one call at a time"):
        ex14._check_threads("ex-14-3", _OneThreadWork(), main=1, dataset=dataset)


class _SequentialReadsWork:
    """Files opened and read one after another, decode once per batch, nothing in epoch 2."""
    batches, records = 2, list(range(8))

    class log:
        entries = [(kind, 7, 0.1 * step, 0.1 * step + 0.05, 0)
                   for step, kind in enumerate(["open", "read", "open", "read", "decode",
                                                "decode"])]

        @classmethod
        def of(cls, kind, epoch=None):
            return [entry for entry in cls.entries if entry[0] == kind and
                    (epoch is None or entry[4] == epoch)]


def test_reads_one_at_a_time_from_a_parallel_interleave_of_several_files_are_not_blamed():
    files = Dataset.range(4)
    parallel = files.interleave(lambda f: Dataset.range(2), cycle_length=4,
                                num_parallel_calls=4)
    ex14._check_work("ex-14-3", _SequentialReadsWork(), parallel)
    with pytest.raises(AssertionError, match="opened and read one at a time"):
        ex14._check_work("ex-14-3", _SequentialReadsWork(),
                         files.flat_map(lambda f: Dataset.range(2)))
