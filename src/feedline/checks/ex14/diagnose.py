"""Check for exercise `ex-14-4`: name the one flaw of a traced pipeline.

The check traces pipelines it builds, each with one flaw chosen by the seed, and asks the
learner's function to name it; the verdict depends only on the seed and the answers, not on the
timing of the run.
"""

from ...data import AUTOTUNE, Dataset
from ...data.optimize import without_rewrites
from ...perf import ArtificialDataset, ExpensiveMap, benchmark
from .._common import call_answer, check, fail, passed, rng


FLAWS = ("none", "sequential_reads", "map_before_batch", "no_cache", "cache_before_decode",
         "cache_after_augment", "prefetch_before_map")

_SYMPTOMS = {
    "none": "nothing is wrong with this one: the files are read side by side, decode runs once "
            "per batch and only in epoch 0, only augment runs in epoch 1, and nothing but the "
            "training step works on the main thread",
    "sequential_reads": "the 'read' row never has two reads open at the same time (its "
                        "workers count in summary() is 1)",
    "map_before_batch": "in epoch 0 a map stage does its work many more times than there are "
                        "training steps: it runs once per element, not once per batch",
    "no_cache": "'read' spans appear in epoch 1: the second epoch reads the files again",
    "cache_before_decode": "in epoch 1 two map stages still work: the cache sits above the "
                           "decode, so the decode runs again",
    "cache_after_augment": "in epoch 1 no map stage works at all: the cache replays augmented "
                           "batches, so the augmentation is the same every epoch",
    "prefetch_before_map": "a map stage does its own work on the MainThread: a map after the "
                           "prefetch runs in the training loop's thread",
}

_COSTS = dict(files=3, samples=4, batch_size=4, open_s=0.008, read_s=0.002, decode_s=0.003,
              augment_s=0.002, step_s=0.003)


def flawed_pipeline(flaw, files=3, samples=4, batch_size=4, open_s=0.008, read_s=0.002,
                    decode_s=0.003, augment_s=0.002, step_s=None):
    """An optimised pipeline over `ArtificialDataset` files with exactly one `flaw` (one of
    `FLAWS`; "none" gives the right pipeline). `step_s` is ignored (the caller's loop).

    >>> [batch.tolist() for batch in flawed_pipeline("none", files=2, samples=2, open_s=0,
    ...                                              read_s=0, decode_s=0, augment_s=0)]
    [[0, 0, 1, 1]]
    """
    if flaw not in FLAWS:
        raise ValueError(f"flawed_pipeline: flaw must be one of {FLAWS}, not {flaw!r}")

    def open_file(_):
        return ArtificialDataset(samples, open_cost=open_s, read_cost=read_s)

    parallel = None if flaw == "sequential_reads" else files
    ds = Dataset.range(files).interleave(open_file, cycle_length=files,
                                         num_parallel_calls=parallel)
    decode, augment = ExpensiveMap(decode_s), ExpensiveMap(augment_s)
    if flaw == "map_before_batch":
        ds = ds.map(decode, num_parallel_calls=AUTOTUNE).batch(batch_size).cache()
    elif flaw == "cache_before_decode":
        ds = ds.batch(batch_size).cache().map(decode, num_parallel_calls=AUTOTUNE)
    else:
        ds = ds.batch(batch_size).map(decode, num_parallel_calls=AUTOTUNE)
        if flaw not in ("no_cache", "cache_after_augment"):
            ds = ds.cache()
    if flaw == "prefetch_before_map":
        return ds.prefetch(AUTOTUNE).map(augment)
    ds = ds.map(augment, num_parallel_calls=AUTOTUNE)
    if flaw == "cache_after_augment":
        ds = ds.cache()
    return ds.prefetch(AUTOTUNE)


def work_spans(timeline, stage, epoch=None):
    """The spans in which `stage` did its own work (in `epoch`, when given): its "work" spans
    when it runs on workers (a parallel map or interleave), otherwise its "next" spans.

    >>> timeline = traced_flaw("none")
    >>> len(work_spans(timeline, "train_step", epoch=0))
    3
    """
    spans = timeline.of(stage)
    kinds = {span.kind for span in spans}
    kind = "work" if "work" in kinds else "user" if "user" in kinds else "next"
    return [span for span in spans if span.kind == kind and (epoch is None or span.epoch == epoch)]


def _diagnose(timeline):
    """The reference reading of a timeline: one flaw name."""
    workers = {row.stage: row.workers for row in timeline.summary().stages}
    maps = [stage for stage in timeline.stages if stage.startswith("map")]
    steps = len([s for s in timeline.of("train_step") if s.epoch == 0])
    if workers.get("read", 0) < 2:
        return "sequential_reads"
    if any(s.epoch == 1 for s in timeline.of("read")):
        return "no_cache"
    if any(len(work_spans(timeline, stage, 0)) > steps for stage in maps):
        return "map_before_batch"
    working = [stage for stage in maps if work_spans(timeline, stage, 1)]
    if not working:
        return "cache_after_augment"
    if len(working) > 1:
        return "cache_before_decode"
    if any(span.worker == "MainThread" for stage in maps for span in work_spans(timeline,
                                                                                 stage)):
        return "prefetch_before_map"
    return "none"


def traced_flaw(flaw, **costs):
    """The `Timeline` of 2 epochs of `flawed_pipeline(flaw, **costs)` with a training step."""
    costs = {**_COSTS, **costs}
    # As written: a prefetch injected at the end would hide the "no prefetch" flaw.
    return benchmark(without_rewrites(flawed_pipeline(flaw, **costs)), num_epochs=2,
                     train_step=costs["step_s"]).timeline


@check("ex-14-4", hint="look for one symptom at a time, in the order of the list: the workers "
                        "of 'read', 'read' spans in epoch 1, a map working more often than the "
                        "step in epoch 0, how many map stages still work in epoch 1, and map "
                        "work on the MainThread",
       replayable=True)
def check_diagnose(diagnose):
    """ex-14-4: `diagnose(timeline)` names the one flaw of traced pipelines it has not seen.

    >>> check_diagnose(_diagnose)
    ex-14-4 passed: the flaw of 7 traced pipelines named, and the one without a flaw found
    """
    check_id = "ex-14-4"
    generator = rng(check_id)
    for position in generator.permutation(len(FLAWS)):
        flaw = FLAWS[position]
        scale = float(generator.uniform(0.8, 1.3))
        costs = {name: value * scale for name, value in _COSTS.items() if name.endswith("_s")}
        timeline = traced_flaw(flaw, **costs)
        got = call_answer(check_id, diagnose, timeline, want_dataset=False)
        if got != flaw:
            named = (f"; you answered {got!r}" if got in FLAWS
                     else f"; answer with one of {list(FLAWS)}, got {got!r}")
            fail(check_id, f"a traced pipeline whose flaw is {flaw!r} was not recognised"
                           f"{named}. The symptom to look for: {_SYMPTOMS[flaw]}")
    passed(check_id, f"the flaw of {len(FLAWS)} traced pipelines named, and the one without a "
                     "flaw found")
