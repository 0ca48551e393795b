"""Check for exercise `ex-12-3`: predict the time per element of a batched map."""

import math

from .._common import call_answer, check, fail, passed, rng, seconds


def _per_element(overhead_s, work_s, batch_size, num_elements):
    """The reference: ceil(n / b) calls of fixed cost, and the work of every element, per
    element."""
    calls = -(-num_elements // batch_size)
    return (calls * overhead_s + num_elements * work_s) / num_elements


@check("ex-12-3", hint="count the calls: ceil(num_elements / batch_size), each paying the "
                        "overhead once; every element pays its own work; then divide the "
                        "total by num_elements",
       replayable=True)
def check_time_per_element(time_per_element):
    """ex-12-3: `time_per_element(overhead_s, work_s, batch_size, num_elements)` is exact.

    >>> def time_per_element(overhead_s, work_s, batch_size, num_elements):
    ...     calls = math.ceil(num_elements / batch_size)
    ...     return (calls * overhead_s + num_elements * work_s) / num_elements
    >>> check_time_per_element(time_per_element)
    ex-12-3 passed: the time per element matches the calls and the work, short last batch included
    """
    check_id = "ex-12-3"
    generator = rng(check_id)
    cases = []
    for _ in range(8):
        overhead = float(generator.uniform(1e-6, 2e-5))
        work = float(generator.uniform(1e-8, 2e-6))
        batch_size = int(generator.choice([1, 2, 3, 8, 32, 64, 100]))
        num_elements = int(generator.integers(50, 5000))
        cases.append((overhead, work, batch_size, num_elements))
    # A batch larger than the dataset, and one that divides it exactly.
    cases += [(1e-5, 2e-7, 512, 300), (4e-6, 1e-7, 16, 1024)]
    for case in cases:
        want = _per_element(*case)
        got = seconds(check_id, call_answer(check_id, time_per_element, *case,
                                            want_dataset=False))
        if not math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-15):
            fail(check_id, _explain_per_element(case, got, want))
    passed(check_id, "the time per element matches the calls and the work, short last batch "
                     "included")


def _explain_per_element(case, got, want):
    overhead, work, batch_size, n = case
    said = (f"for overhead_s={overhead:.3g}, work_s={work:.3g}, batch_size={batch_size}, "
            f"num_elements={n}: expected {want:.4g} s per element, got {got:.4g} s")
    close = lambda value: math.isclose(got, value, rel_tol=1e-6)  # noqa: E731
    if close(overhead / batch_size + work):
        return said + (f"; {n} elements in batches of {batch_size} make "
                       f"{-(-n // batch_size)} calls: the short last batch pays the whole "
                       "overhead too")
    if close((n // batch_size) * overhead / n + work):
        return said + "; the short last batch is a call too, and pays the overhead"
    if close(overhead + work / batch_size):
        return said + ("; the overhead is paid once per call and shared by the batch; the "
                       "work is paid by every element")
    if close((overhead + work) / batch_size):
        return said + "; batching shares the overhead, but every element still does its work"
    if close(want * n) or close(-(-n // batch_size) * (overhead + batch_size * work)):
        return said + "; that is the time for all the elements: divide by num_elements"
    if close(overhead + work):
        return said + "; batching means one call per batch, not one per element"
    return said
