"""Check for exercise `ex-13-2`: reorder a pipeline so that it needs half the memory.

The learner's pipeline and the given one both run on fresh records; the check compares their
batches, then their peaks measured with `tracemalloc` as written (no rewrites). No time is
measured.
"""

import numpy as np

from ...data import Dataset
from ...data.optimize import without_rewrites
from ...perf.memory import peak_bytes
from .._common import call_answer, check, fail, observe, passed, rng, take_elements


IMAGE_SHAPE = (16, 16, 3)  # float32: 3 KiB per decoded image


def _decode(record):
    """The stand-in decode: a float32 image whose every value is the record's number."""
    return np.full(IMAGE_SHAPE, float(record), dtype=np.float32)


def given_pipeline(records, decode, buffer_size, batch_size, seed):
    """The pipeline exercise 2 starts from: decode, then shuffle, then batch."""
    return records.map(decode).shuffle(buffer_size, seed=seed).batch(batch_size)


def _ids(batches):
    """The record number of each image, batch by batch."""
    return [[int(image.flat[0]) for image in np.asarray(batch)] for batch in batches]


@check("ex-13-2", hint="shuffle the small records before the decode, with the same buffer size "
                        "and seed: records.shuffle(buffer_size, seed=seed).map(decode)"
                        ".batch(batch_size)",
       replayable=True)
def check_leaner_order(leaner_pipeline):
    """ex-13-2: `leaner_pipeline(records, decode, buffer_size, batch_size, seed)` gives the same
    batches as `given_pipeline` with at most half its peak memory.

    >>> check_leaner_order(lambda records, decode, buffer_size, batch_size, seed:
    ...     records.shuffle(buffer_size, seed=seed).map(decode).batch(batch_size))
    ex-13-2 passed: the same batches in the same order, with less than half the peak memory
    """
    check_id = "ex-13-2"
    generator = rng(check_id)
    size = int(generator.integers(100, 140))
    records = generator.permutation(np.arange(1000, 1000 + 4 * size))[:size].astype(np.int64)
    buffer_size, batch_size = int(generator.integers(64, 97)), int(generator.integers(4, 7))
    seed = int(generator.integers(1, 1 << 30))
    want = list(given_pipeline(Dataset.from_tensor_slices(records), _decode, buffer_size,
                               batch_size, seed))
    decoded = []  # one entry per call of decode, to see when the learner's pipeline decodes

    def decode(record):
        decoded.append(1)
        return _decode(record)

    dataset = call_answer(check_id, leaner_pipeline, Dataset.from_tensor_slices(records),
                          decode, buffer_size, batch_size, seed)
    early = observe(check_id, "decodes before reading", lambda: len(decoded))
    if early >= size:
        # The peak is measured while the pipeline is read: images made before it are not
        # counted, but they are all in memory at once.
        fail(check_id, f"decode had already run on all {size} records when leaner_pipeline "
                       "returned: the images were made ahead and held in memory together, "
                       "which costs more than any shuffle buffer",
             hint="build the pipeline only; decode runs in it, with map, as it is read")
    got = take_elements(check_id, dataset, len(want) + 5)
    _compare_batches(check_id, got, want, records.tolist(), buffer_size, batch_size)
    # Both measured as written: an injected prefetch would hold batches of its own.
    given_peak = peak_bytes(without_rewrites(given_pipeline(
        Dataset.from_tensor_slices(records), _decode, buffer_size, batch_size, seed)))
    peak = observe(check_id, "peak bytes", lambda: peak_bytes(without_rewrites(dataset)))
    if peak > given_peak / 2:
        fail(check_id, f"the batches are right, but the peak memory is {peak} bytes, against "
                       f"{given_peak} for the given pipeline: it must be at most half "
                       f"({given_peak // 2})",
             hint="the shuffle buffer holds decoded images of "
                  f"{_decode(0).nbytes} bytes; move the shuffle above the decode so it holds "
                  "the small records instead")
    passed(check_id, "the same batches in the same order, with less than half the peak memory")


def _compare_batches(check_id, got, want, records, buffer_size, batch_size):
    """Fail unless `got` is `want`, batch by batch; name what changed when not."""
    shapes = sorted(tuple(np.shape(batch)) for batch in got)
    if shapes != sorted(tuple(np.shape(batch)) for batch in want):
        fail(check_id, f"expected {len(want)} batches of shape "
                       f"{tuple(np.shape(want[0]))} (the last one may be smaller), got "
                       f"{len(got)} of shapes {sorted(set(shapes))[:3]}",
             hint="decode every record, then batch: the elements must not change")
    if all(np.shape(a) == np.shape(b) and np.array_equal(a, b) for a, b in zip(got, want)):
        return
    got_ids, want_ids = _ids(got), _ids(want)
    if sorted(sum(got_ids, [])) != sorted(sum(want_ids, [])):
        fail(check_id, "the batches hold other images than the given pipeline's (some "
                       "records are missing or repeated)")
    if [sorted(batch) for batch in got_ids] != [sorted(batch) for batch in want_ids]:
        position = {record: index for index, record in enumerate(records)}
        runs = all([position[record] for record in batch] == list(range(
            position[batch[0]], position[batch[0]] + len(batch))) for batch in got_ids)
        if runs:
            fail(check_id, "each of your batches holds records in their input order: the "
                           "shuffle came after the batch, so it moved whole batches and the "
                           "batches hold other images (a coarser shuffle, and a buffer of "
                           f"{buffer_size} batches of {batch_size} images)",
                 hint="keep the shuffle before the batch; move only the decode")
        fail(check_id, "the batches hold other images than the given pipeline's: the "
                       "shuffle picked a different order",
             hint="use the same buffer_size and seed=seed: then shuffling the records picks "
                  "the same order as shuffling the images")
    fail(check_id, "the batches hold the right images, but in another order inside a batch",
         hint="use the same buffer_size and seed=seed, and batch right after the shuffle and "
              "decode")
