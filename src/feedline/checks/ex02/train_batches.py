"""Check for exercise `ex-02-1`: shuffle, repeat and batch, in that order.

The check looks at orders, never at times: it runs the learner's pipeline on fresh inputs, several
times and with several seeds, and tests the properties a buffer shuffle must have.
"""

import numpy as np

from ...data import Dataset
from .._common import call_answer, check, fail, observe, passed, rng, take_elements
from ._shared import _shuffle_buffers


BATCH, EPOCHS = 4, 3


@check("ex-02-1", hint="ds.shuffle(n, seed=seed) first, then repeat(3), then batch(4): "
                        "shuffle before repeat keeps the epochs apart, before batch mixes "
                        "single elements",
       replayable=True)
def check_train_batches(train_batches):
    """ex-02-1: `train_batches(ds, n, seed)` gives 3 shuffled epochs of batches of 4.

    >>> check_train_batches(lambda ds, n, seed: ds.shuffle(n, seed=seed).repeat(3).batch(4))
    ex-02-1 passed: 3 epochs, each a full shuffle in a new order, in batches of 4, fixed by the seed
    """
    check_id = "ex-02-1"
    generator = rng(check_id)
    n = int(generator.integers(13, 24))
    while n % BATCH == 0:
        n += 1
    values = generator.choice(1000, size=n, replace=False).astype(np.int64)
    seed, other_seed = (int(s) for s in generator.choice(10_000, size=2, replace=False))

    def run(seed):
        dataset = call_answer(check_id, train_batches, Dataset.from_tensor_slices(values), n,
                              seed)
        batches = take_elements(check_id, dataset, EPOCHS * n + 5)
        return dataset, batches

    dataset, batches = run(seed)
    stream = _check_batches(check_id, batches, n)
    _check_epochs(check_id, stream, values, n)
    _check_not_whole_batches(check_id, batches, values)
    buffers = observe(check_id, "shuffle buffers", lambda: _shuffle_buffers(dataset))
    if not buffers:
        fail(check_id, "the pipeline has no shuffle() but the elements came out shuffled",
             hint="use Dataset.shuffle, with a buffer as large as the dataset")
    if max(buffers) < n:
        fail(check_id, f"the shuffle buffer holds {max(buffers)} elements, fewer than the {n} "
                       "of the dataset: an element can then move forward by at most "
                       f"{max(buffers) - 1} places, so the epoch is not a full shuffle",
             hint="shuffle(n, ...): a buffer as large as the dataset can put any element "
                  "anywhere")
    _, again = run(seed)
    if [np.asarray(b).tolist() for b in again] != [np.asarray(b).tolist() for b in batches]:
        fail(check_id, "two calls with the same seed gave different batches",
             hint="pass seed=seed to shuffle(); without a seed every run draws a new order")
    _, other = run(other_seed)
    if [np.asarray(b).tolist() for b in other] == [np.asarray(b).tolist() for b in batches]:
        fail(check_id, f"seed={seed} and seed={other_seed} gave the same batches: the seed "
                       "argument is not used",
             hint="pass the function's own `seed` argument to shuffle(), not a constant")
    passed(check_id, "3 epochs, each a full shuffle in a new order, in batches of 4, fixed by "
                     "the seed")


def _check_batches(check_id, batches, n):
    """The elements of the batches, in order; fails unless they are batches of up to 4."""
    stream = []
    for index, batch in enumerate(batches):
        array = np.asarray(batch)
        if array.ndim != 1 or not 1 <= len(array) <= BATCH:
            fail(check_id, f"element {index} should be a batch of at most {BATCH} numbers, "
                           f"got an array of shape {array.shape}",
                 hint="end the pipeline with batch(4)")
        stream.extend(int(x) for x in array)
    # batch(4) leaves at most one short batch per epoch (none across epochs); batch(2) more.
    short = [len(np.asarray(batch)) for batch in batches if len(np.asarray(batch)) < BATCH]
    if len(short) > EPOCHS:
        fail(check_id, f"{len(short)} of the {len(batches)} batches hold fewer than {BATCH} "
                       f"numbers (e.g. {short[0]}); only the last batch of an epoch may be short",
             hint="batch(4): batches of 4 elements")
    if len(stream) != EPOCHS * n:
        fail(check_id, f"the batches hold {len(stream)} elements, expected {EPOCHS} epochs of "
                       f"{n} = {EPOCHS * n}",
             hint="repeat(3) gives the three epochs")
    return stream


def _check_epochs(check_id, stream, values, n):
    """Fail unless each run of n elements is a permutation, and the epochs differ."""
    want = sorted(int(v) for v in values)
    epochs = [stream[k * n:(k + 1) * n] for k in range(EPOCHS)]
    for number, epoch in enumerate(epochs, start=1):
        if sorted(epoch) != want:
            counts = {value: epoch.count(value) for value in set(epoch)}
            twice = sorted(value for value, count in counts.items() if count > 1)
            fail(check_id, f"epoch {number} (elements {(number - 1) * n} to {number * n - 1}) "
                           f"is not the {n} elements once each"
                           + (f": {twice[0]} appears twice" if twice else ""),
                 hint="shuffle before repeat: a shuffle after repeat() mixes the epochs, so "
                      "an element can come twice before another comes once")
    if epochs[0] == [int(v) for v in values]:
        fail(check_id, "the first epoch is in the order of the dataset: nothing was shuffled")
    if all(epoch == epochs[0] for epoch in epochs):
        fail(check_id, "all 3 epochs came in the same order",
             hint="leave reshuffle_each_iteration at its default (True): each epoch then "
                  "draws a new order, still fixed by the seed")


def _check_not_whole_batches(check_id, batches, values):
    """Fail when every full batch is a run of consecutive elements of the dataset."""
    position = {int(v): i for i, v in enumerate(values)}
    full = [np.asarray(b).tolist() for b in batches if len(np.asarray(b)) == BATCH]
    runs = [[position[x] for x in batch] for batch in full]
    if runs and all(run == list(range(run[0], run[0] + BATCH)) for run in runs):
        fail(check_id, "every batch holds 4 consecutive elements of the dataset in their "
                       "original order: the shuffle moved whole batches",
             hint="shuffle before batch: after batch() the shuffle sees batches, not "
                  "elements")
