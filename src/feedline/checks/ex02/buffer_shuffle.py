"""Check for exercise `ex-02-2`: a buffer shuffle written in plain Python.

The check looks at orders, never at times: it runs the learner's function on fresh inputs, several
times and with several seeds, and tests the properties a buffer shuffle must have.
"""

import numpy as np

from .._common import call_answer, check, fail, passed, rng


def _ints(check_id, values, what):
    """`values` as a list of Python ints, or a failed check naming what was not an int."""
    out = []
    for value in values:
        array = np.asarray(value)
        if array.shape != () or not np.issubdtype(array.dtype, np.integer):
            fail(check_id, f"{what} should be single integers, got {value!r}")
        out.append(int(array))
    return out


def _listed(function):
    """Call the learner's generator function and collect what it yields, as a list."""
    def call(*args):
        result = function(*args)
        return None if result is None else list(result)

    call.__name__ = getattr(function, "__name__", "buffer_shuffle")
    return call


@check("ex-02-2", hint="fill a list with the first buffer_size elements; then for each further "
                        "element pick a slot with rng.integers(len(buffer)), yield it and put "
                        "the new element in its place; at the end empty the buffer the same way",
       replayable=True)
def check_buffer_shuffle(buffer_shuffle):
    """ex-02-2: `buffer_shuffle(elements, buffer_size, rng)` follows the buffer rule.

    >>> def buffer_shuffle(elements, buffer_size, rng):
    ...     buffer = []
    ...     for element in elements:
    ...         if len(buffer) == buffer_size:
    ...             yield buffer.pop(int(rng.integers(len(buffer))))
    ...         buffer.append(element)
    ...     while buffer:
    ...         yield buffer.pop(int(rng.integers(len(buffer))))
    >>> check_buffer_shuffle(buffer_shuffle)
    ex-02-2 passed: every element once, none earlier than the buffer allows, random and seeded
    """
    check_id = "ex-02-2"
    generator = rng(check_id)
    answer = _listed(buffer_shuffle)

    def run(n, size, seed):
        values = [int(v) for v in generator.choice(10_000, size=n, replace=False)]
        got = call_answer(check_id, answer, iter(values), size, np.random.default_rng(seed),
                          want_dataset=False)
        got = _ints(check_id, got, "the elements yielded")
        _check_one_shuffle(check_id, values, size, got)
        return values, got

    # Shapes of every kind: a buffer of 1, smaller than, equal to and larger than the input.
    cases = [(1, 1), (6, 1), (10, 3), (9, 9), (5, 12)]
    cases += [(int(generator.integers(2, 30)), int(generator.integers(2, 8))) for _ in range(5)]
    for n, size in cases:
        run(n, size, int(generator.integers(1 << 30)))

    # The same seed gives the same order; different seeds give different orders.
    seed = int(generator.integers(1 << 30))
    values = [int(v) for v in generator.choice(10_000, size=12, replace=False)]
    first, second = (call_answer(check_id, answer, iter(values), 4, np.random.default_rng(seed),
                                 want_dataset=False) for _ in range(2))
    if _ints(check_id, first, "the elements yielded") != _ints(check_id, second,
                                                                "the elements yielded"):
        fail(check_id, "two calls with generators seeded alike gave different orders",
             hint="draw every random choice from `rng` (rng.integers), not from `random` or "
                  "np.random: the caller's seed must fix the order")

    # Over many seeds: each element reaches its earliest possible position, and with a buffer
    # larger than the input the last element comes out first.
    n, size, trials = 12, 4, 60
    earliest_seen = set()
    orders = set()
    for _ in range(trials):
        values, got = run(n, size, int(generator.integers(1 << 30)))
        index = {value: i for i, value in enumerate(values)}
        positions = [index[value] for value in got]
        orders.add(tuple(positions))
        earliest_seen |= {i for p, i in enumerate(positions) if p == max(0, i - size + 1)}
    if len(orders) == 1:
        fail(check_id, f"{trials} calls with buffer_size={size} and different seeds all gave "
                       f"the same order, {list(orders)[0]} (as input positions)",
             hint="yield a *random* element of the buffer (rng.integers), not the oldest or "
                  "the newest one")
    missing = sorted(set(range(n)) - earliest_seen)
    if missing:
        i = missing[0]
        fail(check_id, f"over {trials} calls with {n} elements and buffer_size={size}, the "
                       f"element at input position {i} never came out at position "
                       f"{max(0, i - size + 1)}, which a buffer shuffle reaches about one time "
                       f"in {size}",
             hint="refill the buffer after each element you yield (the new element goes into "
                  "the freed slot), and pick every slot with the same chance")
    last_first, firsts = 0, set()
    for _ in range(40):
        values, got = run(5, 8, int(generator.integers(1 << 30)))
        last_first += got[0] == values[-1]
        firsts.add(values.index(got[0]))
    if not last_first:
        fail(check_id, "with buffer_size=8 and 5 elements the last element never came out "
                       "first in 40 calls; a buffer that holds them all should pick it about "
                       "one time in 5",
             hint="when the input ends before the buffer is full, pick at random among all "
                  "the elements it holds")
    # Emptying the buffer with `buffer.pop()` (no slot) always starts with the newest element.
    if len(firsts) < 3:
        fail(check_id, "with buffer_size=8 and 5 elements, 40 calls only ever started with "
                       "the element at input position "
                       f"{' or '.join(str(i) for i in sorted(firsts))}; once the input ends, "
                       "each element left in the buffer should come out first about one time "
                       "in 5",
             hint="after the input ends, pop a random slot, buffer.pop(int(rng.integers("
                  "len(buffer)))), not the last one")
    passed(check_id, "every element once, none earlier than the buffer allows, random and "
                     "seeded")


def _check_one_shuffle(check_id, values, size, got):
    """Fail unless `got` is `values` once each, and no element leaves before it could."""
    said = f"for {len(values)} elements and buffer_size={size}"
    if sorted(got) != sorted(values):
        missing = [v for v in values if v not in got]
        extra = [v for v in got if v not in values or got.count(v) > 1]
        if extra:
            fail(check_id, f"{said} the element {extra[0]} was yielded "
                           + ("but was never in the input" if extra[0] not in values
                              else "twice"),
                 hint="take an element out of the buffer when you yield it")
        if sorted(got) == sorted(values[:size]):
            fail(check_id, f"{said} you yielded only the first {size} elements",
                 hint="refill: after yielding an element, read the next input element into "
                      "the freed slot")
        if missing and set(missing) <= set(values[-size:]):
            fail(check_id, f"{said} {len(missing)} of the last elements never came out: "
                           "they were still in the buffer when the input ended",
                 hint="after the input ends, keep yielding random elements until the buffer "
                      "is empty")
        fail(check_id, f"{said} {len(missing)} elements never came out, e.g. {missing[0]}")
    position = {value: i for i, value in enumerate(values)}
    for p, value in enumerate(got):
        i = position[value]
        if p < i - size + 1:
            fail(check_id, f"{said} the element at input position {i} came out at position "
                           f"{p}; when position {p} is yielded only {size + p} elements have "
                           f"been read, so the earliest it can leave is {i - size + 1}",
                 hint="the buffer holds at most buffer_size elements: pick one *before* "
                      "reading the next, never out of buffer_size + 1")
