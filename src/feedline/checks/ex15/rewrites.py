"""Check for exercise `ex-15-1`: predict the rewrites that fire on a chain.

The check compares the learner's prediction with `plan()` on chains drawn from the seed.
"""

from ...data import Dataset
from ...data.experimental import stateless
from ...data.optimize import plan
from .._common import call_answer, check, fail, passed, rng


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
