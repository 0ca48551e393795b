"""The memory model the ex-13 checks compare with, and what they share.

A shuffle buffer holds single images or whole batches depending on where it sits; a prefetch
buffer after the batch holds batches, and two more batches are in flight while one is made.
`pipeline_peak` and `largest_shuffle` state that model; `_model_cases` draws the pipelines the
last two checks ask about.
"""

import numpy as np

from .._common import fail


ORDERS = ("shuffle_then_batch", "batch_then_shuffle")


def pipeline_peak(element_bytes, shuffle_buffer, batch_size, prefetch_buffer, order):
    """The model's peak bytes of `images.shuffle(S).batch(b).prefetch(p)` (or batch first).

    >>> pipeline_peak(1000, 100, 10, 2, "shuffle_then_batch")  # 100 images + 4 batches
    140000
    >>> pipeline_peak(1000, 100, 10, 2, "batch_then_shuffle")  # 100 batches + 4 batches
    1040000
    """
    batch = batch_size * element_bytes
    held = element_bytes if order == "shuffle_then_batch" else batch
    return shuffle_buffer * held + (prefetch_buffer + 2) * batch


def largest_shuffle(budget, element_bytes, batch_size, prefetch_buffer, order):
    """The largest shuffle buffer whose `pipeline_peak` fits in `budget`; 0 when none does.

    >>> largest_shuffle(140000, 1000, 10, 2, "shuffle_then_batch")
    100
    >>> largest_shuffle(30000, 1000, 10, 2, "shuffle_then_batch")
    0
    """
    batch = batch_size * element_bytes
    held = element_bytes if order == "shuffle_then_batch" else batch
    return max(0, (budget - (prefetch_buffer + 2) * batch) // held)


def _number(check_id, value, what):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        fail(check_id, f"expected {what} as a number, got {type(value).__name__}")
    return float(value)


def _model_cases(generator, count):
    cases = []
    for k in range(count):
        element = int(generator.choice([3072, 12288, 49152, 150528, 602112]))
        cases.append((element, int(generator.integers(2, 2000)), int(generator.integers(2, 129)),
                      int(generator.integers(1, 9)), ORDERS[k % 2]))
    return cases
