"""What the ex-11 pipeline checks share: stand-in steps that count their calls, and reading a
pipeline for 5 epochs.
"""

import time
import warnings

import numpy as np

from .._common import fail, observe, pipeline_nodes, take_elements


EPOCHS = 5


def _stages(dataset):
    return {node._stage for node in pipeline_nodes(dataset)}


def _caches(dataset):
    return [node for node in pipeline_nodes(dataset) if node._stage == "cache"]


class _Counted:
    """A stand-in step that counts its calls and sleeps `cost` seconds per call."""

    def __init__(self, function, cost=0.0, name="step"):
        self.function, self.cost, self.calls = function, cost, 0
        self.__name__ = name

    def __call__(self, *args):
        self.calls += 1
        if self.cost:
            time.sleep(self.cost)
        return self.function(*args)


def _read_epochs(check_id, dataset, size, epochs=EPOCHS):
    """`epochs` epochs of `dataset` as lists, and whether a partial cache was discarded."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [take_elements(check_id, dataset, 3 * size + 5) for _ in range(epochs)]
    partial = any("partial cache" in str(warning.message) for warning in caught)
    return got, observe(check_id, "partial cache warned", lambda: partial)


_PARTIAL_HINT = ("an epoch that stops before the end never completes the cache, so it is "
                 "thrown away and the next epoch computes again; do not put take() after "
                 "cache()")


def _check_counts(check_id, got, size, dataset, partial):
    """Fail unless every epoch has `size` elements, naming the likely cause when not."""
    for epoch, elements in enumerate(got, start=1):
        if len(elements) == size:
            continue
        stages = observe(check_id, "stages", lambda: sorted(_stages(dataset)))
        message = (f"epoch {epoch} gave {len(elements)} elements, expected {size} (one per "
                   "input record)")
        if len(elements) < size and "take" in stages:
            hint = (_PARTIAL_HINT if partial else
                    "take() keeps only the first elements of every epoch; cache all of them")
            fail(check_id, message + "; the pipeline has a take()", hint=hint)
        if len(elements) > size and "repeat" in stages:
            fail(check_id, message + "; a repeat() inside the pipeline makes every epoch "
                                     "longer, and the training loop runs the epochs itself",
                 hint="remove the repeat(): the check iterates the dataset once per epoch")
        fail(check_id, message)


def _check_order(check_id, got, want, same, what):
    """Fail unless each epoch's elements match `want` in order (`same(a, b)` compares two)."""
    for epoch, elements in enumerate(got, start=1):
        for index, (element, expected) in enumerate(zip(elements, want)):
            if same(element, expected):
                continue
            if any(same(element, other) for other in want):
                fail(check_id, f"epoch {epoch}: element {index} is {what} of another record; "
                               "the cache must keep the order of the records (no shuffle "
                               "here)")
            fail(check_id, f"epoch {epoch}: element {index} should be {what} of record "
                           f"{index}, {_short(expected)}, got {_short(element)}")


def _short(value):
    array = np.asarray(value)
    if array.size <= 6:
        return str(array.tolist())
    return f"an array of shape {array.shape} starting {array.ravel()[:3].tolist()}"


def _recomputed(check_id, step, calls, size, dataset, partial):
    """Fail because `step` ran `calls` times instead of once per record; name the cause."""
    message = (f"{step} ran {calls} times over {EPOCHS} epochs of {size} records, expected "
               f"{size}: the epochs after the first computed it again")
    caches = observe(check_id, "cache count", lambda: len(_caches(dataset)))
    if not caches:
        fail(check_id, message + "; the pipeline has no cache()",
             hint="add .cache() right after the slow step, so epochs 2 to 5 replay its "
                  "results")
    if partial:
        fail(check_id, message + "; the cache was never complete", hint=_PARTIAL_HINT)
    fail(check_id, message + f"; the cache is above {step}, so it stores what goes into "
                             f"{step} and {step} still runs every epoch",
         hint=f"a cache saves only the work above it: put it after {step}")


def _check_not_precomputed(check_id, dataset, step, calls_before_reading, size):
    """Fail when `step` ran on every record before the check read an element, and the
    pipeline has no cache: the results were computed ahead and turned into a new dataset."""
    if calls_before_reading < size:
        return
    if observe(check_id, "cache count", lambda: len(_caches(dataset))):
        return  # a cache warmed by one epoch inside the answer is still a cache
    fail(check_id, f"{step} had already run on all {size} records when your function "
                   "returned, and the pipeline has no cache(): the results were computed "
                   "ahead, into a list or array, and made into a new dataset; a real dataset "
                   "may not fit in memory that way",
         hint=f"keep {step} in the pipeline (map) and add .cache() after it: the first "
              "epoch fills the cache")
