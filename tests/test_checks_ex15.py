"""The ex-15 checks accept the reference answers, reject plausible wrong ones, and replay."""

import numpy as np
import pytest

from feedline.checks import ex15
from feedline.data import AUTOTUNE, Dataset
from feedline.data.experimental import stateless
from feedline.data.optimize import plan
from checkkit import assert_same_verdict_when_replayed, blank, check_rejects


# -- ex-15-1: which rewrites fire ----------------------------------------------------------------

def rewrites_that_fire(stages, fuse_across_noops=True, inject=True, defaults_only=True,
                       every_map_parallel=False):
    """The reference: walk the chain as plan() does (keyword arguments make wrong answers)."""
    fired, run = set(), []
    for stage in stages:
        if stage in ("take(-1)", "skip(0)"):
            fired.add("noop_elimination")
            if not fuse_across_noops:
                run.append("removed")  # wrongly keeps its neighbours apart
            continue
        if stage == "map_stateless" or (stage == "map" and every_map_parallel):
            fired.add("map_parallelization")
            run.append("parallel map")
            continue
        previous = run[-1] if run else None
        if (previous, stage) == ("map", "batch"):
            fired.add("map_and_batch_fusion")
            run[-1] = "map_and_batch"
        elif (previous, stage) == ("shuffle", "repeat"):
            fired.add("shuffle_and_repeat_fusion")
            run[-1] = "shuffle_and_repeat"
        elif (previous, stage) == ("map", "map") and not defaults_only:
            fired.add("map_fusion")
        else:
            run.append(stage)
    last = ([stage for stage in run if stage != "removed"] or ["range"])[-1]
    if inject == "always" or (inject and last not in ("parallel map", "prefetch")):
        fired.add("inject_prefetch")
    return fired


def test_the_reference_agrees_with_plan_on_many_random_chains():
    generator = np.random.default_rng(15)
    for _ in range(300):
        stages = [str(s) for s in generator.choice(ex15.STAGES, size=generator.integers(1, 7))]
        want = {record.rewrite for record in plan(ex15.build_chain(stages)).fired}
        assert rewrites_that_fire(stages) == want, stages


def test_rewrites_that_fire_accepts_the_reference(capsys):
    ex15.check_rewrites_that_fire(rewrites_that_fire)
    assert capsys.readouterr().out == "ex-15-1 passed: the rewrites of 12 pipelines predicted\n"


def test_rewrites_that_fire_accepts_a_list_of_names():
    ex15.check_rewrites_that_fire(lambda stages: sorted(rewrites_that_fire(stages)))


@pytest.mark.parametrize("wrong, match", [
    (lambda s: rewrites_that_fire(s, inject=False), "inject_prefetch fires whenever"),
    (lambda s: rewrites_that_fire(s, inject="always"), "does not fire after a prefetch"),
    (lambda s: rewrites_that_fire(s, defaults_only=False), "map_fusion is off by default"),
    (lambda s: rewrites_that_fire(s, every_map_parallel=True), "declared stateless"),
    (lambda s: rewrites_that_fire(s, fuse_across_noops=False), "once no-ops between them"),
    (lambda s: "inject_prefetch", "expected a set of rewrite names"),
    (blank, "NotImplementedError"),
])
def test_rewrites_that_fire_rejects(wrong, match):
    check_rejects(ex15.check_rewrites_that_fire, wrong, match)


def test_rewrites_that_fire_gives_the_same_verdict_when_replayed(monkeypatch):
    assert_same_verdict_when_replayed(monkeypatch, ex15.check_rewrites_that_fire,
                                      rewrites_that_fire,
                                      lambda s: rewrites_that_fire(s, inject=False))


# -- ex-15-2: map_parallelization, safely --------------------------------------------------------

def parallel_where_safe(source, scale, number):
    return source.map(stateless(scale)).map(number)


def test_parallel_where_safe_accepts_only_the_pure_map_declared(capsys):
    ex15.check_parallel_where_safe(parallel_where_safe)
    assert capsys.readouterr().out.startswith("ex-15-2 passed: scale runs in parallel")


@pytest.mark.parametrize("wrong, match", [
    (lambda source, scale, number: source.map(scale).map(number), "did not fire"),
    (lambda source, scale, number: source.map(stateless(scale)).map(stateless(number)),
     "number runs in parallel: it counts its calls"),
    (lambda source, scale, number: source.map(scale).map(stateless(number)),
     "number runs in parallel"),
    (lambda source, scale, number: source.map(scale, num_parallel_calls=AUTOTUNE).map(number),
     "because you gave it num_parallel_calls"),
    (lambda source, scale, number: source.map(stateless(lambda x: scale(x))).map(number),
     "a lambda around them hides"),
    (lambda source, scale, number: source.map(number).map(lambda i, x: (i, scale(x))),
     "should be \\(position, scale\\(x\\)\\)|the maps as run"),
    (lambda source, scale, number: source.map(stateless(scale)).take(3).map(number),
     "should be \\(position, scale\\(x\\)\\)"),
    (blank, "NotImplementedError"),
])
def test_parallel_where_safe_rejects(wrong, match):
    check_rejects(ex15.check_parallel_where_safe, wrong, match)


def test_parallel_where_safe_gives_the_same_verdict_when_replayed(monkeypatch):
    assert_same_verdict_when_replayed(
        monkeypatch, ex15.check_parallel_where_safe, parallel_where_safe,
        lambda source, scale, number: source.map(stateless(scale)).map(stateless(number)))


def test_maps_as_run_tells_a_rewritten_map_from_one_written_parallel():
    source, scale, number, _ = ex15.numbered_inputs(np.random.default_rng(0))
    assert ex15.maps_as_run(parallel_where_safe(source, scale, number)) == [
        ("scale", True, True), ("number", False, False)]
    assert ex15.maps_as_run(source.map(scale, num_parallel_calls=2)) == [("scale", True, False)]


# -- ex-15-3: follow the doctor ------------------------------------------------------------------

def fix_pipeline(source, decode, augment):
    return (source.map(decode, num_parallel_calls=AUTOTUNE)
            .map(augment, num_parallel_calls=AUTOTUNE)
            .prefetch(AUTOTUNE))


def test_doctor_fix_accepts_parallel_maps_and_a_prefetch(capsys):
    ex15.check_doctor_fix(fix_pipeline)
    assert "the doctor names train_step as the bottleneck" in capsys.readouterr().out


@pytest.mark.parametrize("wrong, match", [
    (ex15.slow_pipeline, "the doctor still finds the bottleneck in 'map"),
    (lambda source, decode, augment: source.map(decode).map(augment).prefetch(AUTOTUNE),
     "the doctor still finds the bottleneck"),
    (lambda source, decode, augment: source.map(decode).map(augment).cache(),
     "the doctor still finds the bottleneck"),
    (lambda source, decode, augment: fix_pipeline(source.take(30), decode, augment),
     "the elements changed"),
    (lambda source, decode, augment: fix_pipeline(source, augment, decode),
     "the elements changed"),
    (blank, "NotImplementedError"),
])
def test_doctor_fix_rejects(wrong, match):
    check_rejects(ex15.check_doctor_fix, wrong, match)


def test_doctor_fix_names_the_order_when_only_the_order_changed():
    # Built from the check's own elements reordered, so the verdict does not depend on which
    # parallel call happens to finish first.
    def reordered(source, decode, augment):
        fixed = fix_pipeline(source, decode, augment)
        values = [int(x) for x in fixed]
        values[0], values[1] = values[1], values[0]
        return Dataset.from_tensor_slices(np.array(values)).prefetch(AUTOTUNE)

    check_rejects(ex15.check_doctor_fix, reordered,
                  "(?s)right elements, but out of order from position 0.*deterministic=True")


def test_doctor_fix_rejects_maps_that_give_up_the_order():
    # The decode's even elements sleep three times as long as its odd ones, so parallel
    # workers finish out of order from the start: the mistake cannot pass by chance.
    def unordered(source, decode, augment):
        return (source.map(decode, num_parallel_calls=AUTOTUNE, deterministic=False)
                .map(augment, num_parallel_calls=AUTOTUNE, deterministic=False)
                .prefetch(AUTOTUNE))

    check_rejects(ex15.check_doctor_fix, unordered, "right elements, but out of order")


def test_doctor_fix_gives_the_same_verdict_when_replayed(monkeypatch):
    assert_same_verdict_when_replayed(monkeypatch, ex15.check_doctor_fix, fix_pipeline,
                                      ex15.slow_pipeline)


# -- ex-15-4: split a core budget by hand --------------------------------------------------------

def per_element(read_s, decode_s, augment_s, step_s, p, q):
    return {"read": read_s, "maps": max(decode_s / p, augment_s / q), "train_step": step_s}


def hand_split(read_s, decode_s, augment_s, step_s, cores):
    splits = [(p, cores - p) for p in range(1, cores)]
    p, q = min(splits, key=lambda pq: per_element(read_s, decode_s, augment_s, step_s,
                                                 *pq)["maps"])
    times = per_element(read_s, decode_s, augment_s, step_s, p, q)
    return (p, q), max(times, key=times.get)


def test_hand_split_accepts_the_best_split_and_its_limit(capsys):
    ex15.check_hand_split(hand_split)
    assert capsys.readouterr().out.startswith("ex-15-4 passed: 5 budgets split")


def even(read_s, decode_s, augment_s, step_s, cores):
    return (cores // 2, cores - cores // 2), hand_split(read_s, decode_s, augment_s, step_s,
                                                        cores)[1]


def greedy(read_s, decode_s, augment_s, step_s, cores):
    return (cores - 1, 1), hand_split(read_s, decode_s, augment_s, step_s, cores)[1]


def proportional_floor(read_s, decode_s, augment_s, step_s, cores):
    p = int(cores * decode_s / (decode_s + augment_s))
    return (p, cores - p - 1), hand_split(read_s, decode_s, augment_s, step_s, cores)[1]


def raw_costs_limit(read_s, decode_s, augment_s, step_s, cores):
    times = {"read": read_s, "maps": max(decode_s, augment_s), "train_step": step_s}
    return hand_split(read_s, decode_s, augment_s, step_s, cores)[0], max(times, key=times.get)


@pytest.mark.parametrize("wrong, match", [
    (even, "the best split takes"),
    (greedy, "the best split takes"),
    (proportional_floor, "the best split takes"),
    (lambda r, d, a, s, cores: ((cores, cores), "maps"), "over the budget"),
    (lambda r, d, a, s, cores: ((0, cores), "maps"), "each map needs at least 1"),
    (lambda *costs: (hand_split(*costs)[0], "maps"), "sets the pace"),
    (raw_costs_limit, "sets the pace"),
    (lambda *costs: hand_split(*costs)[0], "expected \\(\\(decode_workers"),
    (blank, "NotImplementedError"),
])
def test_hand_split_rejects(wrong, match):
    check_rejects(ex15.check_hand_split, wrong, match)


def test_hand_split_gives_the_same_verdict_when_replayed(monkeypatch):
    assert_same_verdict_when_replayed(monkeypatch, ex15.check_hand_split, hand_split, even)
    # The pair as a generator is unpacked alike in the kernel; the grader must agree.
    assert_same_verdict_when_replayed(monkeypatch, ex15.check_hand_split,
                                      lambda *costs: iter(hand_split(*costs)),
                                      lambda *costs: iter(even(*costs)))


def test_the_best_split_is_the_fastest_on_the_simulator():
    costs = dict(cores=6, read_s=0.001, decode_s=0.020, augment_s=0.012, step_s=0.002)
    assert ex15.best_split(costs) == (4, 2)
    times = {p: ex15.simulated_seconds(costs, p, 6 - p) for p in range(1, 6)}
    assert min(times, key=times.get) == 4
