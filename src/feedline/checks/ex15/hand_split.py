"""Check for exercise `ex-15-4`: split a core budget between two maps by hand.

The check plays the learner's split on the simulator's virtual clock (`Overheads.NONE`:
deterministic) against every other split within the budget.
"""

from ...perf import ArtificialDataset, ExpensiveMap, simulate
from ...perf.simulate import Overheads
from .._common import call_answer, check, fail, listed_if_iterator, normalised_answer, passed, rng


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
