"""Whole rounds of a parallel `interleave`, handed to the loop in one step.

With `block_length=1` the order rule takes one element from each slot in turn. When every slot
of the cycle already holds at least `n` plain elements (read, not an error, not the end of its
dataset), the next `n * cycle_length` elements are known: `n` full rounds, starting at the
current slot, and after them the slots of one more round up to the first that has nothing
ready. `take_rounds` moves them out of the slots in one go and lays them out in that
order, so the loop over the dataset pulls them from a list at C speed instead of running the
order rule once per element (about a microsecond each, as much as splitting a small file's
lines). Whatever is not a full round (a slot still empty or being read, a dataset that ended
or raised) goes through the order rule one element at a time, exactly as before.

>>> from collections import deque
>>> from feedline.data.ops._interleave_workers import _END, _Reader
>>> readers = [_Reader(iter(())) for _ in range(3)]
>>> for reader, values in zip(readers, ["abc", "de", "fgh"]):
...     reader.taken.extend(values)
>>> readers[1].taken.append(_END)  # the second dataset ends after two elements
>>> take_rounds(readers, start=1)  # two full rounds from slot 1, whose turn it is again
(['d', 'f', 'a', 'e', 'g', 'b'], 1)
>>> [len(reader.taken) for reader in readers]  # 'c', the end (for the order rule), 'h'
[1, 1, 1]
"""

import itertools
import operator

from ._interleave_workers import _END


def _plain_count(reader):
    """How many elements `reader` holds before its end or an error (0 for an empty slot or a
    reader that had an error: those go one element at a time)."""
    if reader is None or reader.failed:
        return 0
    taken = reader.taken
    count = len(taken)
    if count and taken[-1] is _END:  # only a block's last item may be the end
        count -= 1
    return count


def _take_first(taken, count):
    """Remove the first `count` items of the deque `taken` and return them as a list (the
    popping runs in C: this is the interleave's per-element cost)."""
    if count == len(taken):
        column = list(taken)
        taken.clear()
        return column
    return list(map(operator.call, itertools.repeat(taken.popleft, count)))


def rounds_ready(readers):
    """How many full rounds every slot holds already."""
    return min(map(_plain_count, readers))


def take_rounds(readers, start):
    """Remove from `readers` (the cycle's slots) the elements the order rule hands out next,
    beginning at slot `start`, as long as each slot it comes to holds one: the full rounds
    every slot holds, then the slots of one more round up to the first that has nothing
    ready. Returns them in order, and the slot where the turn then is."""
    order = readers[start:] + readers[:start]
    counts = list(map(_plain_count, order))
    rounds = min(counts)
    extra = 0  # slots, from `start` on, that hold one more element than the full rounds
    while extra < len(counts) and counts[extra] > rounds:
        extra += 1
    columns = []
    for position, reader in enumerate(order[:extra] if not rounds else order):
        columns.append(_take_first(reader.taken, rounds + (position < extra)))
    run = [None] * (rounds * len(columns) + extra)
    for position, column in enumerate(columns):  # slot by slot, each into its places
        if len(column) > rounds:
            run[position:rounds * len(columns) + extra:len(columns)] = column
        elif rounds:
            run[position:rounds * len(columns):len(columns)] = column
    return run, (start + extra) % len(readers)
