"""Check for exercise `ex-14-1`: put the steps of an optimised pipeline in order.

The check compares the learner's answer with a reference on sets of steps drawn from the seed,
and names the first rule the answer breaks.
"""

from .._common import call_answer, check, fail, passed, rng


ORDER = ("interleave", "batch", "decode", "cache", "augment", "prefetch")

# Why a pair must come in this order, for the first pair an answer gets wrong.
_RULES = {
    ("interleave", "batch"): "interleave reads the files and makes the elements, so it comes "
                             "first: there is nothing to batch before it",
    ("batch", "decode"): "batch before the decode, so that a vectorised decode runs once per "
                         "batch instead of once per element",
    ("decode", "cache"): "cache after the slow decode, so that later epochs replay decoded "
                         "batches instead of decoding again",
    ("cache", "augment"): "the random augment goes after the cache: above it, the cache would "
                          "store the first epoch's augmentation and replay it every epoch",
    ("interleave", "cache"): "the cache goes after the reading, so that later epochs do not "
                             "read the files again",
    ("batch", "cache"): "cache whole batches: the cache comes after batch",
    ("decode", "augment"): "augment works on decoded data: decode first",
    ("batch", "augment"): "augment whole batches (vectorised): batch first",
}


def _in_order(steps):
    return sorted(steps, key=ORDER.index)


@check("ex-14-1", hint="interleave the files, batch, decode the batch, cache, augment, and "
                        "prefetch last",
       replayable=True)
def check_in_order(in_order):
    """ex-14-1: `in_order(steps)` puts any of the six techniques in the order that works.

    >>> check_in_order(lambda steps: sorted(steps, key=ORDER.index))
    ex-14-1 passed: 10 sets of steps put in the right order
    """
    check_id = "ex-14-1"
    generator = rng(check_id)
    cases = [list(ORDER)]
    for _ in range(8):
        size = int(generator.integers(3, len(ORDER) + 1))
        cases.append([str(step) for step in generator.choice(ORDER, size=size, replace=False)])
    cases.append(["prefetch", "augment", "cache"])
    for steps in cases:
        shuffled = [str(step) for step in generator.permutation(steps)]
        want = _in_order(shuffled)
        got = call_answer(check_id, in_order, list(shuffled), want_dataset=False)
        if not isinstance(got, (list, tuple)) or sorted(map(str, got)) != sorted(want):
            fail(check_id, f"for the steps {shuffled} expected a list of the same steps in "
                           f"order, got {got!r}")
        got = [str(step) for step in got]
        if got != want:
            fail(check_id, f"for the steps {shuffled} expected {want}, got {got}",
                 hint=_broken_rule(got))
    passed(check_id, f"{len(cases)} sets of steps put in the right order")


def _broken_rule(got):
    """The reason for the first pair of steps `got` puts the wrong way round."""
    if "prefetch" in got and got[-1] != "prefetch":
        return ("prefetch goes last: only the work above it runs ahead of the training loop, "
                "so everything else must be above it")
    for i, later in enumerate(got):
        for earlier in got[i + 1:]:
            rule = _RULES.get((earlier, later))
            if rule:
                return rule
    return None
