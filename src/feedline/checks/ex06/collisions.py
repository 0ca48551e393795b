"""Check for exercise `ex-06-3`: the expected number of hash collisions."""

import math

from .._common import call_answer, check, fail, passed, rng


def _expected(n, m):
    """Colliding pairs and used buckets expected for n distinct values in m buckets."""
    return n * (n - 1) / (2 * m), m * (1 - (1 - 1 / m) ** n)


@check("ex-06-3", hint="a pair collides with probability 1/m, and there are n(n-1)/2 pairs; a "
                        "bucket stays empty with probability (1 - 1/m)^n",
       replayable=True)
def check_collision_formula(expected_collisions):
    """ex-06-3: `expected_collisions(n, m)` gives (colliding pairs, used buckets), exactly.

    >>> check_collision_formula(lambda n, m: (n * (n - 1) / (2 * m), m * (1 - (1 - 1 / m) ** n)))
    ex-06-3 passed: colliding pairs and used buckets match the birthday formulas
    """
    check_id = "ex-06-3"
    generator = rng(check_id)
    cases = [(int(generator.integers(2, 60)), int(generator.integers(2, 12))) for _ in range(4)]
    cases += [(int(generator.integers(100, 5000)), int(generator.integers(50, 100_000)))
              for _ in range(4)]
    cases += [(1, 10), (7, 1)]
    for n, m in cases:
        got = call_answer(check_id, expected_collisions, n, m, want_dataset=False)
        if not (isinstance(got, (tuple, list)) and len(got) == 2):
            fail(check_id, f"expected_collisions({n}, {m}) returned {got!r}; expected a pair "
                           "(colliding pairs, used buckets)")
        try:
            pairs, used = float(got[0]), float(got[1])
        except (TypeError, ValueError):
            fail(check_id, f"expected_collisions({n}, {m}) returned {got!r}; expected two "
                           "numbers")
        want_pairs, want_used = _expected(n, m)
        if not math.isclose(pairs, want_pairs, rel_tol=1e-6, abs_tol=1e-9):
            fail(check_id, _explain_pairs(n, m, pairs, want_pairs))
        if not math.isclose(used, want_used, rel_tol=1e-6, abs_tol=1e-9):
            fail(check_id, _explain_used(n, m, used, want_used))
    passed(check_id, "colliding pairs and used buckets match the birthday formulas")


def _explain_pairs(n, m, got, want):
    said = f"for n={n} values in m={m} buckets expected {want:.4f} colliding pairs, got {got:.4f}"
    if math.isclose(got, n * n / (2 * m), rel_tol=1e-6):
        return said + "; n²/(2m) also pairs each value with itself: there are n(n - 1)/2 pairs"
    if math.isclose(got, n * (n - 1) / m, rel_tol=1e-6):
        return said + "; n(n - 1) counts every pair twice (a with b, and b with a)"
    return said


def _explain_used(n, m, got, want):
    said = f"for n={n} values in m={m} buckets expected {want:.4f} used buckets, got {got:.4f}"
    if math.isclose(got, min(n, m), rel_tol=1e-6):
        return said + "; min(n, m) assumes no two values ever share a bucket"
    if math.isclose(got, m * (1 - math.exp(-n / m)), rel_tol=1e-6):
        return said + ("; m(1 - e^(-n/m)) is the approximation for large m: use the exact "
                       "(1 - 1/m)^n")
    if math.isclose(got, n - n * (n - 1) / (2 * m), rel_tol=1e-6):
        return said + ("; n minus the colliding pairs is not the number of used buckets: three "
                       "values in one bucket make three pairs")
    return said
