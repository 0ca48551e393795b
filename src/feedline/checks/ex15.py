"""Checks for exercise notebook 15, optimizations (ids `ex-15-1` to `ex-15-4`).

`ex-15-1` compares the learner's prediction of the rewrites that fire with `plan()` on chains
drawn from the seed. `ex-15-2` reads the learner's pipeline as written and observes which of its
maps the static rewrites made parallel. `ex-15-3` runs the doctor on the learner's fix of a slow
pipeline and asks that its bottleneck be the training step (a structure of the run, not a time).
`ex-15-4` plays the learner's split of a core budget between two maps on the simulator's virtual
clock (`Overheads.NONE`: deterministic) against every other split within the budget.
"""

import time

import numpy as np

from ..data import Dataset, Options
from ..data.experimental import stateless
from ..data.optimize import plan
from ..perf import ArtificialDataset, ExpensiveMap, diagnose, simulate
from ..perf.simulate import Overheads
from ._common import (call_answer, check, fail, listed_if_iterator, normalised_answer, observe,
                      passed, read_elements, rng)

# -- ex-15-1 ------------------------------------------------------------------------------------

STAGES = ("map", "map_stateless", "filter", "batch", "shuffle", "repeat", "take(-1)", "skip(0)",
          "prefetch")

_WHY = {
    "inject_prefetch": "inject_prefetch fires whenever the last stage as run is synchronous; it "
                       "does not fire after a prefetch or a parallel map (a stateless map "
                       "becomes one)",
    "map_fusion": "map_fusion is off by default in TensorFlow 2.21 (and in feedline): two maps in "
                  "a row stay two stages unless you switch it on",
    "filter_fusion": "filter_fusion is off by default: two filters in a row stay two stages",
    "map_and_filter_fusion": "map_and_filter_fusion is off by default",
    "map_parallelization": "map_parallelization fires only for a map of a function declared "
                           "stateless (here: map_stateless), never for a plain function",
    "noop_elimination": "noop_elimination removes take(-1) and skip(0), and nothing else here",
    "map_and_batch_fusion": "map_and_batch_fusion fuses a sequential map directly followed by "
                            "batch, once no-ops between them are gone; a stateless map is made "
                            "parallel first, and a parallel map is not fused",
    "shuffle_and_repeat_fusion": "shuffle_and_repeat_fusion fuses a shuffle directly followed by "
                                 "repeat, once no-ops between them are gone",
}


def build_chain(stages):
    """The pipeline `Dataset.range(24)` followed by `stages` (names from `STAGES`).

    >>> [r.rewrite for r in plan(build_chain(["map", "take(-1)", "batch"])).fired]
    ['noop_elimination', 'map_and_batch_fusion', 'inject_prefetch']
    """
    ds = Dataset.range(24)
    for stage in stages:
        ds = {"map": lambda d: d.map(lambda x: x + 1),
              "map_stateless": lambda d: d.map(stateless(lambda x: x * 2)),
              "filter": lambda d: d.filter(lambda x: x % 3 != 0),
              "batch": lambda d: d.batch(4),
              "shuffle": lambda d: d.shuffle(8, seed=1),
              "repeat": lambda d: d.repeat(2),
              "take(-1)": lambda d: d.take(-1),
              "skip(0)": lambda d: d.skip(0),
              "prefetch": lambda d: d.prefetch(2)}[stage](ds)
    return ds


def _chains(generator):
    """Random chains, plus one of each shape where a plausible rule goes wrong."""
    pick = lambda *names: str(generator.choice(names))  # noqa: E731 - a one-line helper
    chains = [["map", pick("take(-1)", "skip(0)"), "batch"],
              ["map", "map", pick("filter", "batch")],
              ["filter", "filter", pick("map", "map_stateless")],
              ["shuffle", pick("take(-1)", "skip(0)"), "repeat", "map"],
              ["map_stateless", "batch", "map_stateless"],
              [pick("map", "filter"), "prefetch", pick("take(-1)", "skip(0)")]]
    for _ in range(6):
        size = int(generator.integers(2, 6))
        chains.append([str(s) for s in generator.choice(STAGES, size=size)])
    return [chains[i] for i in generator.permutation(len(chains))]


def _sets_as_lists(function):
    """`function` with a set it returns given as a sorted list: a record holds no sets."""
    def answer(*args):
        result = function(*args)
        if isinstance(result, (set, frozenset)):
            return sorted(str(item) for item in result)
        return result
    answer.__name__ = getattr(function, "__name__", "your function")
    return answer


@check("ex-15-1", hint="walk the chain from the source: drop take(-1) and skip(0) first, make a "
                        "stateless map parallel, fuse map+batch and shuffle+repeat when they "
                        "touch, and add inject_prefetch when the last stage is synchronous",
       replayable=True)
def check_rewrites_that_fire(rewrites_that_fire):
    """ex-15-1: `rewrites_that_fire(stages)` names the rewrites `plan()` applies by default.

    >>> from feedline.data.optimize import plan
    >>> check_rewrites_that_fire(lambda stages: {r.rewrite for r in
    ...                                          plan(build_chain(stages)).fired})
    ex-15-1 passed: the rewrites of 12 pipelines predicted
    """
    check_id = "ex-15-1"
    for stages in _chains(rng(check_id)):
        want = {record.rewrite for record in plan(build_chain(stages)).fired}
        got = call_answer(check_id, _sets_as_lists(rewrites_that_fire), list(stages),
                          want_dataset=False)
        if not isinstance(got, (set, frozenset, list, tuple)):
            fail(check_id, f"expected a set of rewrite names, got {type(got).__name__}")
        got = {str(name) for name in got}
        if got != want:
            extra, missing = sorted(got - want), sorted(want - got)
            # inject_prefetch is often a consequence of another slip: name that one first
            wrong = sorted(extra + missing, key=lambda name: (name == "inject_prefetch",
                                                               name not in extra))
            fail(check_id, f"for range -> {' -> '.join(stages)} the rewrites that fire are "
                           f"{sorted(want)}; you answered {sorted(got)} (extra: {extra}, "
                           f"missing: {missing})",
                 hint=_WHY.get(wrong[0]))
    passed(check_id, "the rewrites of 12 pipelines predicted")


# -- ex-15-2 ------------------------------------------------------------------------------------

def numbered_inputs(generator):
    """The check's source, a pure `scale` and a stateful `number` (it counts its calls)."""
    values = generator.integers(0, 100, size=int(generator.integers(8, 14)))
    factor = int(generator.integers(2, 9))
    calls = [0]

    def scale(x):
        return x * factor

    def number(x):
        calls[0] += 1
        return np.int64(calls[0] - 1), x

    return Dataset.from_tensor_slices(values), scale, number, [(i, int(v) * factor)
                                                              for i, v in enumerate(values)]


def maps_as_run(dataset):
    """`[(function name, parallel, made parallel by a rewrite), ...]` for the maps of `dataset`
    as it runs, source first.

    >>> maps_as_run(Dataset.range(3).map(stateless(abs)).map(abs))
    [('abs', True, True), ('abs', False, False)]
    """
    from ..data.optimize._maps import function_name

    found, node = [], plan(dataset).dataset
    while node is not None:
        if getattr(node, "_stage", None) == "map":
            found.append((function_name(node._function), node._num_parallel_calls is not None,
                          "_written" in vars(node)))
        node = getattr(node, "_input", None)
    return found[::-1]


@check("ex-15-2", hint="wrap only the pure function: source.map(stateless(scale)).map(number)",
       replayable=True)
def check_parallel_where_safe(parallel_where_safe):
    """ex-15-2: `parallel_where_safe(source, scale, number)` lets the rewrite parallelise the
    pure map and only it, with the elements `(i, scale(x))` unchanged.

    >>> check_parallel_where_safe(lambda source, scale, number:
    ...                           source.map(stateless(scale)).map(number))
    ex-15-2 passed: scale runs in parallel by the rewrite, number stays sequential, same elements
    """
    check_id = "ex-15-2"
    source, scale, number, want = numbered_inputs(rng(check_id))
    dataset = call_answer(check_id, parallel_where_safe, source, scale, number)
    maps = observe(check_id, "maps as run", lambda: [list(m) for m in maps_as_run(dataset)])
    got = [(int(i), int(x)) for i, x in read_elements(check_id, dataset)]
    if got != want:
        fail(check_id, f"the elements as written should be (position, scale(x)): {want[:3]}..., "
                       f"got {got[:3]}...", hint="map scale first, then number")
    names = [name for name, _, _ in maps]
    if sorted(names) != ["number", "scale"]:
        fail(check_id, f"the maps as run call {names}; expected one map of scale and one of "
                       "number, the functions themselves (a lambda around them hides which is "
                       "which)")
    if any(parallel for name, parallel, _ in maps if name == "number"):
        fail(check_id, "number runs in parallel: it counts its calls, so with several calls "
                       "at once the numbers could go to the wrong elements",
             hint="declare only scale stateless; number changes state outside itself")
    for name, parallel, by_rewrite in maps:
        if name == "scale" and parallel and not by_rewrite:
            fail(check_id, "scale runs in parallel because you gave it num_parallel_calls; "
                           "this exercise asks map_parallelization to do it",
                 hint="write source.map(stateless(scale)) without num_parallel_calls")
        if name == "scale" and not parallel:
            fail(check_id, "map_parallelization did not fire: scale's map runs sequentially",
                 hint="a rewrite cannot look inside a Python function: declare it with "
                      "feedline.data.experimental.stateless(scale)")
    passed(check_id, "scale runs in parallel by the rewrite, number stays sequential, "
                     "same elements")


# -- ex-15-3 ------------------------------------------------------------------------------------

def slow_parts(generator, elements=90):
    """`(source, decode, augment, step_s, want)`: sleeping stages (I/O-like, the CPU stays
    free) whose sum is about 3 times the training step; `want` are the right elements.

    The decode costs 1.6 times the step, so the doctor names it even when a busy machine
    stretches every sleep; with two workers each map is at least 20% faster than the step."""
    scale = float(generator.uniform(0.85, 1.15))
    read_s, decode_s, augment_s, step_s = (scale * c for c in (0.0005, 0.008, 0.005, 0.005))
    offset = int(generator.integers(1, 50))

    def decode(x):
        time.sleep(decode_s)
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


# -- ex-15-4 ------------------------------------------------------------------------------------

LIMITS = ("read", "maps", "train_step")
_ELEMENTS = 40


def split_pipeline(costs, decode_workers, augment_workers):
    """A read, two maps with the given workers and a prefetch, with the costs of `costs`."""
    return (ArtificialDataset(_ELEMENTS, open_cost=0.0, read_cost=costs["read_s"])
            .map(ExpensiveMap(costs["decode_s"]), num_parallel_calls=decode_workers)
            .map(ExpensiveMap(costs["augment_s"]), num_parallel_calls=augment_workers)
            .prefetch(2))


def simulated_seconds(costs, decode_workers, augment_workers):
    """Seconds of one epoch with a training step, on the simulator's ideal clock."""
    return simulate(split_pipeline(costs, decode_workers, augment_workers), num_epochs=1,
                    train_step=costs["step_s"], overheads=Overheads.NONE).total


def _per_element(costs, p, q):
    return {"read": costs["read_s"], "maps": max(costs["decode_s"] / p, costs["augment_s"] / q),
            "train_step": costs["step_s"]}


def best_split(costs):
    """The split `(p, q)` of `costs["cores"]` that makes the slower map fastest per element."""
    cores = costs["cores"]
    return min(((p, cores - p) for p in range(1, cores)),
               key=lambda pq: _per_element(costs, *pq)["maps"])


def _case(generator, limit):
    """Costs (seconds) and a core budget whose best split leaves `limit` clearly the slowest,
    and where an even split and "all but one to decode" both lose."""
    while True:
        cores = int(generator.integers(4, 9))
        costs = {"cores": cores, "read_s": float(generator.uniform(0.0005, 0.004)),
                 "decode_s": float(generator.uniform(0.010, 0.040)),
                 "augment_s": float(generator.uniform(0.004, 0.020)),
                 "step_s": float(generator.uniform(0.001, 0.012))}
        per = _per_element(costs, *best_split(costs))
        others = max(value for name, value in per.items() if name != limit)
        if per[limit] < 1.2 * others:
            continue
        if limit != "maps":
            return costs
        even = _per_element(costs, cores // 2, cores - cores // 2)["maps"]
        greedy = _per_element(costs, cores - 1, 1)["maps"]
        if min(even, greedy) > 1.15 * per["maps"]:
            return costs


@check("ex-15-4", hint="try every split p + q = cores (p, q >= 1) and keep the one whose slower "
                        "map, cost / workers, is fastest; then compare that with the read and "
                        "the step: the largest per-element time sets the pace",
       replayable=True)
def check_hand_split(hand_split):
    """ex-15-4: `hand_split(read_s, decode_s, augment_s, step_s, cores)` returns
    `((decode_workers, augment_workers), limit)`: a split within the budget as fast as the best
    one, and which of "read", "maps", "train_step" then sets the pace.

    >>> def right(read_s, decode_s, augment_s, step_s, cores):
    ...     costs = dict(read_s=read_s, decode_s=decode_s, augment_s=augment_s, step_s=step_s,
    ...                  cores=cores)
    ...     p, q = best_split(costs)
    ...     per = _per_element(costs, p, q)
    ...     return (p, q), max(per, key=per.get)
    >>> check_hand_split(right)
    ex-15-4 passed: 5 budgets split as well as the best split, and the limit named each time
    """
    check_id = "ex-15-4"
    generator = rng(check_id)
    kinds = ["maps", "maps", "maps", "train_step", "read"]
    # A pair given as a generator crosses to the grader as a list (see normalised_answer).
    hand_split = normalised_answer(hand_split, listed_if_iterator)
    for kind in (kinds[i] for i in generator.permutation(len(kinds))):
        costs = _case(generator, kind)
        shown = ", ".join(f"{k}={v * 1e3:.1f} ms" if k.endswith("_s") else f"{k}={v}"
                          for k, v in costs.items())
        got = call_answer(check_id, hand_split, costs["read_s"], costs["decode_s"],
                          costs["augment_s"], costs["step_s"], costs["cores"],
                          want_dataset=False)
        try:
            (p, q), limit = got
            p, q = int(p), int(q)
        except (TypeError, ValueError):
            fail(check_id, f"expected ((decode_workers, augment_workers), limit), got {got!r}")
        if p < 1 or q < 1:
            fail(check_id, f"for {shown} you gave ({p}, {q}) workers; each map needs at least 1")
        if p + q > costs["cores"]:
            fail(check_id, f"for {shown} you gave {p} + {q} = {p + q} workers, over the budget "
                           f"of {costs['cores']} cores",
                 hint="each worker keeps a core busy: the workers of both maps together must "
                      "fit in the budget")
        best = simulated_seconds(costs, *best_split(costs))
        mine = simulated_seconds(costs, p, q)
        if mine > 1.03 * best:
            fail(check_id, f"for {shown} your split ({p}, {q}) takes {mine * 1e3:.0f} ms on the "
                           f"simulator; the best split takes {best * 1e3:.0f} ms")
        want = _per_element(costs, *best_split(costs))
        want = max(want, key=want.get)
        if limit != want:
            fail(check_id, f"for {shown} with the best split, {want!r} sets the pace (its time per "
                           f"element is the largest), not {limit!r}",
                 hint="per element: read_s, decode_s / p and augment_s / q (the maps), step_s; "
                      "the largest sets the pace, and when it is not the maps, no split, by hand "
                      "or by AUTOTUNE, can help")
    passed(check_id, f"{len(kinds)} budgets split as well as the best split, and the limit "
                     "named each time")


__all__ = ["LIMITS", "STAGES", "best_split", "build_chain", "check_doctor_fix",
           "check_hand_split", "check_parallel_where_safe", "check_rewrites_that_fire",
           "maps_as_run", "numbered_inputs", "simulated_seconds", "slow_parts", "slow_pipeline",
           "split_pipeline"]
