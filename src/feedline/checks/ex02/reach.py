"""Check for exercise `ex-02-3`: how far a buffer shuffle can move an element."""

from .._common import call_answer, check, fail, listed_if_iterator, normalised_answer, passed, rng


def _reach(i, n, buffer_size):
    """The reference: earliest and latest output positions of input position i."""
    if buffer_size == 1:
        return i, i
    return max(0, i - buffer_size + 1), n - 1


@check("ex-02-3", hint="an element is read buffer_size - 1 steps before the output can first "
                        "pick it, and nothing ever forces it out of the buffer",
       replayable=True)
def check_reach(reach):
    """ex-02-3: `reach(i, n, buffer_size)` gives the earliest and latest output positions.

    >>> def reach(i, n, buffer_size):
    ...     if buffer_size == 1:
    ...         return i, i
    ...     return max(0, i - buffer_size + 1), n - 1
    >>> check_reach(reach)
    ex-02-3 passed: the earliest and latest positions are right for every buffer size
    """
    check_id = "ex-02-3"
    generator = rng(check_id)
    cases = [(0, 10, 3), (9, 10, 3), (5, 10, 1), (4, 10, 20), (3, 10, 4), (7, 8, 2)]
    for _ in range(20):
        n = int(generator.integers(2, 500))
        cases.append((int(generator.integers(n)), n, int(generator.integers(1, n + 20))))
    # A pair given as a generator or map(...) crosses to the grader as a list of its items.
    reach = normalised_answer(reach, listed_if_iterator)
    for i, n, size in cases:
        got = call_answer(check_id, reach, i, n, size, want_dataset=False)
        try:
            earliest, latest = (int(x) for x in got)
        except (TypeError, ValueError):
            fail(check_id, f"reach({i}, {n}, {size}) should return two integers (earliest, "
                           f"latest), got {got!r}")
        want = _reach(i, n, size)
        if (earliest, latest) != want:
            fail(check_id, f"reach({i}, {n}, {size}) returned ({earliest}, {latest}), expected "
                           f"{want}" + _explain_reach(i, n, size, earliest, latest, want))
    passed(check_id, "the earliest and latest positions are right for every buffer size")


def _explain_reach(i, n, size, earliest, latest, want):
    if earliest < 0:
        return ": a position is never negative (the first output is position 0)"
    if earliest != want[0] and earliest == max(0, i - size):
        return (f": one too far forward; when position {i - size} is picked only elements 0 "
                f"to {i - 1} have been read")
    if earliest != want[0] and earliest == i and size > 1:
        return ": an element can come out before its own position, by up to buffer_size - 1"
    if size == 1 and (earliest, latest) != (i, i):
        return ": a buffer of one element keeps the order, so every element stays in place"
    if latest != want[1] and latest == min(n - 1, i + size - 1):
        return (": an element can stay in the buffer for any number of steps (every pick "
                "may pass it over), so it can come out last")
    if latest != want[1] and latest == n:
        return f": positions count from 0, so the last of {n} is {n - 1}"
    return ""
