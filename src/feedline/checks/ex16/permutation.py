"""Check for exercise `ex-16-3`: a permutation per epoch in O(1) memory."""

import tracemalloc

import numpy as np

from .._common import call_answer, check, fail, observe, passed, rng


BIG = 2_000_000  # records in the memory test: a table of them would take megabytes
MEMORY_LIMIT = 256 * 1024  # bytes one call may allocate


@check("ex-16-3", hint="a permutation you can compute index by index: for example "
                        "(a * index + b) % size with a coprime to size, where a and b come "
                        "from a generator seeded with (seed, epoch)",
       replayable=True)
def check_permuted_index(permuted_index):
    """ex-16-3: `permuted_index(index, size, seed, epoch)` is a seeded permutation per epoch.

    >>> import math
    >>> def permuted_index(index, size, seed, epoch):
    ...     generator = np.random.default_rng([seed, epoch])
    ...     a = int(generator.integers(1, size + 1))
    ...     while math.gcd(a, size) != 1:
    ...         a += 1
    ...     return (a * index + int(generator.integers(size))) % size
    >>> check_permuted_index(permuted_index)
    ex-16-3 passed: a different permutation every epoch and seed, without a table of the records
    """
    check_id = "ex-16-3"
    generator = rng(check_id)
    sizes = [int(generator.integers(20, 40)), int(generator.integers(40, 100)), 64]
    seeds = [int(s) for s in generator.integers(0, 10_000, size=2)]
    rotations = []
    for size in sizes:
        orders = {}
        for seed, epoch in [(seeds[0], 0), (seeds[0], 1), (seeds[0], 2), (seeds[1], 0)]:
            order = []
            for index in range(size):
                value = call_answer(check_id, permuted_index, index, size, seed, epoch,
                                    want_dataset=False)
                try:
                    order.append(int(value))
                except (TypeError, ValueError):
                    fail(check_id, f"permuted_index({index}, {size}, {seed}, {epoch}) returned "
                                   f"{type(value).__name__}; return an int")
            _judge_permutation(check_id, order, size, seed, epoch)
            orders[seed, epoch] = order
        _judge_orders(check_id, orders, size, seeds)
        rotations += [_is_rotation(order, size) for order in orders.values()]
    # A right answer rotates now and then ((a * i + b) % size with a = 1); rotating every
    # time is the sign of (index + something) % size, which keeps neighbours together.
    if all(rotations):
        fail(check_id, "every order was range(size) rotated, e.g. "
                       f"{orders[seeds[0], 1][:6]}...: record i + 1 always comes right after "
                       "record i, so nothing is shuffled",
             hint="mix the index, not just shift it: (a * index + b) % size with a coprime "
                  "to size, a and b drawn from a generator seeded with (seed, epoch)")
    _judge_memory(check_id, permuted_index, seeds[0])
    passed(check_id, "a different permutation every epoch and seed, without a table of the "
                     "records")


def _judge_permutation(check_id, order, size, seed, epoch):
    where = f"size={size}, seed={seed}, epoch={epoch}"
    outside = [value for value in order if not 0 <= value < size]
    if outside:
        fail(check_id, f"{where}: an index went to {outside[0]}, outside 0..{size - 1}")
    values, counts = np.unique(order, return_counts=True)
    if len(values) != size:
        twice = int(values[np.argmax(counts)])
        sources = [i for i, value in enumerate(order) if value == twice][:2]
        fail(check_id, f"{where}: indices {sources[0]} and {sources[1]} both go to record "
                       f"{twice}, so it is read twice in the epoch and {size - len(values)} "
                       "record(s) never",
             hint="a hash modulo size is not a permutation; for (a * index + b) % size, a must "
                  "share no factor with size (math.gcd(a, size) == 1)")
    if order == list(range(size)):
        fail(check_id, f"{where}: the order is 0, 1, 2, ...: nothing was shuffled")


def _is_rotation(order, size):
    """True when each value is the one before it plus 1 (mod size): range(size) shifted."""
    return all((b - a) % size == 1 for a, b in zip(order, order[1:]))


def _judge_orders(check_id, orders, size, seeds):
    first = orders[seeds[0], 0]
    for epoch in (1, 2):
        if orders[seeds[0], epoch] == orders[seeds[0], epoch - 1]:
            fail(check_id, f"size={size}, seed={seeds[0]}: epoch {epoch} gave the same order "
                           f"as epoch {epoch - 1}, so every epoch sees the records in the same "
                           "order",
                 hint="let the epoch change the permutation: seed your parameters with "
                      "(seed, epoch), not seed alone")
    if orders[seeds[1], 0] == first:
        fail(check_id, f"size={size}: seeds {seeds[0]} and {seeds[1]} gave the same order",
             hint="the seed must change the permutation")


def _judge_memory(check_id, permuted_index, seed):
    """One call for a large size must not build a table of all the records."""
    tracemalloc.start()
    try:
        value = call_answer(check_id, permuted_index, 12_345, BIG, seed, 0, want_dataset=False)
        peak = observe(check_id, "peak bytes", lambda: tracemalloc.get_traced_memory()[1])
    finally:
        tracemalloc.stop()
    try:
        value = int(value)
    except (TypeError, ValueError):
        fail(check_id, f"permuted_index(12345, {BIG}, {seed}, 0) returned "
                       f"{type(value).__name__}; return an int")
    if not 0 <= value < BIG:
        fail(check_id, f"permuted_index(12345, {BIG}, {seed}, 0) returned {value}, outside "
                       f"0..{BIG - 1}")
    if peak > MEMORY_LIMIT:
        fail(check_id, f"one call for size={BIG} allocated {peak / 1e6:.1f} MB: it builds "
                       "something as large as the dataset (a shuffled array?), which a "
                       "billion records would not fit",
             hint="compute where one index goes with arithmetic on the index, without a "
                  "table of all the records")
