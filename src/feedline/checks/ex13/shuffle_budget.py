"""Check for exercise `ex-13-4`: the largest shuffle buffer that fits a memory budget."""

from .._common import call_answer, check, fail, passed, rng
from ._shared import ORDERS, _model_cases, _number, largest_shuffle, pipeline_peak


@check("ex-13-4", hint="subtract the batches (prefetch + 2) from the budget, divide what is "
                        "left by the size of one element the shuffle holds, round down; 0 if "
                        "nothing is left",
       replayable=True)
def check_largest_shuffle(largest_shuffle_buffer):
    """ex-13-4: `largest_shuffle_buffer(budget, element_bytes, batch_size, prefetch_buffer,
    order)` is the largest buffer whose predicted peak fits the budget.

    >>> check_largest_shuffle(largest_shuffle)
    ex-13-4 passed: every buffer fits its budget, and one more element would not
    """
    check_id = "ex-13-4"
    generator = rng(check_id)
    cases = []
    for element, _, batch, prefetch, order in _model_cases(generator, 10):
        fixed = (prefetch + 2) * batch * element
        held = element if order == ORDERS[0] else batch * element
        budget = fixed + int(generator.integers(1, 300)) * held + int(generator.integers(
            0, held))
        cases.append((budget, element, batch, prefetch, order))
    element, batch, prefetch = 49152, 32, 2
    fixed = (prefetch + 2) * batch * element
    cases += [(fixed + 100 * element, element, batch, prefetch, ORDERS[0]),  # exactly 100
              (fixed - 1, element, batch, prefetch, ORDERS[0]),  # nothing fits
              (fixed + element - 1, element, batch, prefetch, ORDERS[0])]  # not even 1
    for case in cases:
        want = largest_shuffle(*case)
        got = _number(check_id, call_answer(check_id, largest_shuffle_buffer, *case,
                                            want_dataset=False), "a buffer size")
        if got != want:
            fail(check_id, _explain_shuffle(case, got, want))
    passed(check_id, "every buffer fits its budget, and one more element would not")


def _explain_shuffle(case, got, want):
    budget, element, batch, prefetch, order = case
    said = (f"for budget={budget}, element_bytes={element}, batch_size={batch}, "
            f"prefetch_buffer={prefetch}, order={order!r}: expected {want}, got {got:g}")
    held = element if order == ORDERS[0] else batch * element
    if got != int(got):
        return said + "; a buffer holds a whole number of elements: round down"
    if want == 0 and got < 0:
        return said + ("; nothing fits once the batches are counted, so the answer is 0, "
                       "not a negative buffer")
    if got == budget // held:
        return said + ("; the batches in the prefetch buffer and in flight take "
                       f"{(prefetch + 2) * batch * element} bytes of the budget first")
    if got == want + 1 or got == -(-(budget - (prefetch + 2) * batch * element) // held):
        return said + (f"; with {got:g} elements the predicted peak is "
                       f"{pipeline_peak(element, int(got), batch, prefetch, order)} bytes, "
                       "over the budget: round down")
    if order == ORDERS[1] and got == largest_shuffle(budget, element, batch, prefetch,
                                                     ORDERS[0]):
        return said + ("; after batch(), each element of the shuffle buffer is a whole batch, "
                       f"{batch * element} bytes")
    if got == max(0, (budget - prefetch * batch * element) // held):
        return said + "; count the 2 batches in flight as well as the prefetch buffer"
    return said
