"""Check for exercise `ex-16-2`: shards that are disjoint and cover the records."""

import itertools

from .._common import call_answer, check, fail, observe, passed, rng


def _shard_cases(generator):
    cases = [(10, 3, False), (10, 3, True), (7, 7, False), (3, 5, False), (3, 5, True)]
    for _ in range(6):
        count = int(generator.integers(2, 7))
        size = int(generator.integers(count, 60))
        if size % count == 0:
            size += int(generator.integers(1, count))  # always a remainder
        cases.append((size, count, bool(generator.integers(2))))
    order = generator.permutation(len(cases))
    return [cases[i] for i in order]


def _plain_indices(got):
    """`got` as a list of ints, or an {"error": why} (computed in the kernel, recorded)."""
    try:
        items = list(got)
        values = [int(value) for value in items]
    except (TypeError, ValueError):
        return {"error": f"returned {type(got).__name__}; return a list of record indices "
                         "(ints)"}
    if any(value != item for value, item in zip(values, items)):
        return {"error": "returned indices that are not whole numbers"}
    return values


@check("ex-16-2", hint="cut the records into shard_count contiguous slices: shard i starts at "
                        "i * num_records // shard_count and ends where shard i + 1 starts; "
                        "with drop_remainder every slice has num_records // shard_count",
       replayable=True)
def check_shard_indices(shard_indices):
    """ex-16-2: `shard_indices(num_records, shard_index, shard_count, drop_remainder)` shards.

    >>> check_shard_indices(lambda n, i, c, drop: list(range(i * n // c,
    ...     i * n // c + n // c if drop else (i + 1) * n // c)))
    ex-16-2 passed: shards are disjoint, cover every record (or drop only the remainder) and differ in size by at most one
    """
    check_id = "ex-16-2"
    for num_records, count, drop in _shard_cases(rng(check_id)):
        shards = []
        for index in range(count):
            call = f"shard_indices({num_records}, {index}, {count}, drop_remainder={drop})"
            got = call_answer(check_id, shard_indices, num_records, index, count, drop,
                              want_dataset=False)
            values = observe(check_id, "shard", lambda: _plain_indices(got))
            if isinstance(values, dict):
                fail(check_id, f"{call} {values['error']}")
            shards.append(values)
        _judge_shards(check_id, num_records, count, drop, shards)
    passed(check_id, "shards are disjoint, cover every record (or drop only the remainder) and "
                     "differ in size by at most one")


def _judge_shards(check_id, num_records, count, drop, shards):
    setting = f"{num_records} records in {count} shards, drop_remainder={drop}"
    sizes = [len(shard) for shard in shards]
    for index, shard in enumerate(shards):
        outside = [value for value in shard if not 0 <= value < num_records]
        if outside:
            fail(check_id, f"{setting}: shard {index} holds index {outside[0]}, outside 0.."
                           f"{num_records - 1}")
        if len(set(shard)) != len(shard):
            fail(check_id, f"{setting}: shard {index} holds a record twice")
    for (a, first), (b, second) in itertools.combinations(enumerate(shards), 2):
        both = sorted(set(first) & set(second))
        if both:
            fail(check_id, f"{setting}: record {both[0]} is in shard {a} and in shard {b}, so "
                           "two machines would read it",
                 hint="shards must not overlap: where one shard ends, the next begins")
    seen = set().union(*map(set, shards))
    missing = sorted(set(range(num_records)) - seen)
    if drop:
        want = num_records // count
        if sizes != [want] * count:
            fail(check_id, f"{setting}: shard sizes {sizes}, expected {want} each "
                           f"({num_records} // {count}): drop_remainder gives every shard the "
                           "same number of records",
                 hint="with drop_remainder=True every shard keeps num_records // shard_count "
                      "records and the leftover ones are read by nobody")
        return
    if missing:
        fail(check_id, f"{setting}: record {missing[0]} is in no shard ({len(missing)} "
                       f"missing, shard sizes {sizes}), so no machine reads it",
             hint="without drop_remainder every record must be in some shard: the remainder "
                  "of num_records / shard_count goes to some shards as one extra record each")
    if max(sizes) - min(sizes) > 1:
        fail(check_id, f"{setting}: shard sizes {sizes} differ by more than one record, so "
                       "one machine waits for another every epoch",
             hint="start shard i at i * num_records // shard_count: that spreads the "
                  "remainder one record at a time")
