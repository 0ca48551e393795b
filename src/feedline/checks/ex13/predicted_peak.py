"""Check for exercise `ex-13-3`: predict the peak memory of a pipeline in either order."""

import math

from .._common import call_answer, check, fail, passed, rng
from ._shared import ORDERS, _model_cases, _number, pipeline_peak


@check("ex-13-3", hint="peak = shuffle buffer x (an image, or a batch when the shuffle comes "
                        "after the batch) + (prefetch_buffer + 2) batches",
       replayable=True)
def check_predicted_peak(predicted_peak):
    """ex-13-3: `predicted_peak(element_bytes, shuffle_buffer, batch_size, prefetch_buffer,
    order)` follows the model for both orders.

    >>> check_predicted_peak(pipeline_peak)
    ex-13-3 passed: the predicted peaks match the model in both orders
    """
    check_id = "ex-13-3"
    for case in _model_cases(rng(check_id), 10) + [(49152, 256, 32, 2, ORDERS[0]),
                                                    (49152, 8, 32, 2, ORDERS[1])]:
        want = pipeline_peak(*case)
        got = _number(check_id, call_answer(check_id, predicted_peak, *case,
                                            want_dataset=False), "a number of bytes")
        if not math.isclose(got, want, rel_tol=1e-9):
            fail(check_id, _explain_peak(case, got, want))
    passed(check_id, "the predicted peaks match the model in both orders")


def _explain_peak(case, got, want):
    element, shuffle, batch, prefetch, order = case
    said = (f"for element_bytes={element}, shuffle_buffer={shuffle}, batch_size={batch}, "
            f"prefetch_buffer={prefetch}, order={order!r}: expected {want} bytes, got {got:g}")
    batch_bytes = batch * element
    held = element if order == ORDERS[0] else batch_bytes

    def close(value):
        return math.isclose(got, value, rel_tol=1e-9)

    if close(shuffle * held + (prefetch + 2) * element):
        return said + ("; the prefetch buffer sits after the batch, so it holds batches, not "
                       "images: count it (and the batches in flight) in batches")
    if close(shuffle * held + prefetch * batch_bytes):
        return said + ("; add the 2 batches in flight: the one the training loop holds and "
                       "the one being stacked")
    if order == ORDERS[1] and close(shuffle * element + (prefetch + 2) * batch_bytes):
        return said + ("; after batch(), every element the shuffle holds is a whole batch of "
                       f"{batch} images")
    if order == ORDERS[0] and close(shuffle * batch_bytes + (prefetch + 2) * batch_bytes):
        return said + ("; before the batch, the shuffle holds single images, not batches")
    if close(shuffle * held):
        return said + "; the prefetch buffer and the batches in flight hold memory too"
    return said
