"""Check for exercise `ex-15-3`: fix a slow pipeline as the doctor says.

The check runs the doctor on the learner's fix and asks that its bottleneck be the training
step (a structure of the run, not a time).
"""

import time

from ...data import Options
from ...perf import ArtificialDataset, diagnose
from .._common import call_answer, check, fail, observe, passed, read_elements, rng


def slow_parts(generator, elements=90):
    """`(source, decode, augment, step_s, want)`: sleeping stages (I/O-like, the CPU stays
    free) whose sum is about 3 times the training step; `want` are the right elements.

    The decode costs 1.6 times the step on average, so the doctor names it even when a busy
    machine stretches every sleep; with two workers each map is at least 20% faster than the
    step. Its sleep alternates 1.5 and 0.5 times that average (even and odd elements), so
    parallel workers finish out of order at once: `deterministic=False` shows in the first few
    elements instead of passing by chance."""
    scale = float(generator.uniform(0.85, 1.15))
    read_s, decode_s, augment_s, step_s = (scale * c for c in (0.0005, 0.008, 0.005, 0.005))
    offset = int(generator.integers(1, 50))

    def decode(x):
        time.sleep(decode_s * (1.5 if int(x) % 2 == 0 else 0.5))
        return x * 2

    def augment(x):
        time.sleep(augment_s)
        return x + offset

    source = ArtificialDataset(elements, open_cost=0.0, read_cost=read_s)
    return source, decode, augment, step_s, [2 * i + offset for i in range(elements)]


def slow_pipeline(source, decode, augment):
    """The pipeline as the doctor first sees it: every stage on the consumer's thread."""
    as_written = Options()
    as_written.experimental_optimization.inject_prefetch = False
    return source.map(decode).map(augment).with_options(as_written)


def _doctor_finds(dataset, step_s):
    """`[bottleneck, elements/s]` of a bounded doctor's run with the training step."""
    found = diagnose(dataset, seconds=2.0, train_step=step_s)
    return [found.bottleneck, round(found.throughput, 1)]


@check("ex-15-3", hint="follow the doctor: give both maps num_parallel_calls (AUTOTUNE) and end "
                        "with prefetch(AUTOTUNE), so the stages overlap the training step",
       replayable=True)
def check_doctor_fix(fix_pipeline):
    """ex-15-3: `fix_pipeline(source, decode, augment)` gives the same elements, and the doctor
    finds that the training step, not the pipeline, sets the pace.

    >>> from feedline.data import AUTOTUNE
    >>> check_doctor_fix(lambda source, decode, augment: source
    ...     .map(decode, num_parallel_calls=AUTOTUNE).map(augment, num_parallel_calls=AUTOTUNE)
    ...     .prefetch(AUTOTUNE))  # doctest: +ELLIPSIS
    ex-15-3 passed: same elements, and the doctor names train_step as the bottleneck...
    """
    check_id = "ex-15-3"
    source, decode, augment, step_s, want = slow_parts(rng(check_id))
    for attempt in range(2):  # a second try, on a fresh pipeline, if a busy moment misled it
        # Each try gets a fresh pipeline, diagnosed before anything else reads it: a filled
        # cache would flatter it.
        dataset = call_answer(check_id, fix_pipeline, source, decode, augment)
        bottleneck, rate = observe(check_id, f"doctor, try {attempt + 1}",
                                   lambda: _doctor_finds(dataset, step_s))
        if bottleneck == "train_step":
            break
    got = [int(x) for x in read_elements(check_id, dataset)]
    if got != want:
        if sorted(got) == sorted(want):  # the values are right: only their order moved
            at = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
            fail(check_id, f"the right elements, but out of order from position {at} "
                           f"(expected {want[at:at + 4]}..., got {got[at:at + 4]}...)",
                 hint="keep the default deterministic=True: parallel maps then hand out "
                      "their results in the order of their input")
        fail(check_id, f"the elements changed: expected decode then augment of every element in "
                       f"order ({want[:4]}...), got {got[:4]}... ({len(got)} elements)",
             hint="keep decode then augment, in that order, on every element; change only how "
                  "they run (workers, buffers), not what they compute")
    if bottleneck != "train_step":
        fail(check_id, f"the doctor still finds the bottleneck in {bottleneck!r} "
                       f"({rate} elements/s; the training step alone allows "
                       f"{1 / step_s:.0f}): the loop still waits for the pipeline",
             hint="run diagnose(your_pipeline, train_step=...) and apply its suggestions one by "
                  "one until the bottleneck is train_step; a cache does not help a first epoch")
    passed(check_id, "same elements, and the doctor names train_step as the bottleneck "
                     "(the input pipeline keeps up)")
