"""Checks for exercise notebook 13, memory and order (ids `ex-13-1` to `ex-13-4`).

Three checks compare the learner's numbers with a model of what the buffers hold: a shuffle
buffer holds `min(buffer_size, elements)` elements, a prefetch buffer after a batch holds
batches, and while a batch is made two more batches are in flight (the one the training loop
holds, and the new one, which briefly exists as a list of elements and as the stacked array).
The reordering check measures: it runs the learner's pipeline and the given one under
`tracemalloc` on fresh records, and compares their elements and their peaks. No check
measures time.
"""

import math

import numpy as np

from ..data import Dataset
from ..data.optimize import without_rewrites
from ..perf.memory import peak_bytes
from ._common import call_answer, check, fail, observe, passed, rng, take_elements

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


# -- ex-13-1 ------------------------------------------------------------------------------------

@check("ex-13-1", hint="bytes = (elements the buffer holds) x (values per element) x (bytes per "
                        "value); a buffer never holds more elements than the dataset has",
       replayable=True)
def check_shuffle_buffer_bytes(shuffle_buffer_bytes):
    """ex-13-1: `shuffle_buffer_bytes(buffer_size, num_elements, element_shape, dtype)`.

    >>> import numpy as np
    >>> check_shuffle_buffer_bytes(lambda buffer_size, num_elements, element_shape, dtype:
    ...     min(buffer_size, num_elements) * int(np.prod(element_shape))
    ...     * np.dtype(dtype).itemsize)
    ex-13-1 passed: the shuffle buffer's bytes are right for every shape, dtype and size
    """
    check_id = "ex-13-1"
    generator = rng(check_id)
    dtypes = ["float32", "uint8", "float64", "int16", "int32", "float16"]
    cases = []
    for k in range(8):
        shape = tuple(int(d) for d in generator.integers(2, 40, size=int(generator.integers(1, 4))))
        buffer_size = int(generator.integers(8, 2000))
        num_elements = (int(generator.integers(buffer_size * 2, buffer_size * 5)) if k % 3
                        else int(generator.integers(1, buffer_size)))
        cases.append((buffer_size, num_elements, shape, dtypes[k % len(dtypes)]))
    for buffer_size, num_elements, shape, dtype in cases:
        values = int(np.prod(shape))
        want = min(buffer_size, num_elements) * values * np.dtype(dtype).itemsize
        got = _number(check_id, call_answer(check_id, shuffle_buffer_bytes, buffer_size,
                                            num_elements, shape, dtype, want_dataset=False),
                      "a number of bytes")
        if got == want:
            continue
        said = (f"shuffle({buffer_size}) over {num_elements} elements of shape {shape} and "
                f"dtype {dtype}: expected {want} bytes, got {got:g}")
        held = min(buffer_size, num_elements)
        if got == buffer_size * values * np.dtype(dtype).itemsize:
            fail(check_id, said + f"; the dataset has only {num_elements} elements, so the "
                                  f"buffer never holds {buffer_size}",
                 hint="a buffer holds min(buffer_size, number of elements)")
        if got == held * values:
            fail(check_id, said + f"; that counts values, not bytes: each {dtype} value "
                                  f"takes {np.dtype(dtype).itemsize} bytes",
                 hint="multiply by np.dtype(dtype).itemsize")
        if got == held * values * 4 or got == held * values * 8:
            fail(check_id, said + f"; {dtype} takes {np.dtype(dtype).itemsize} bytes per "
                                  "value, whatever the dtype of other examples",
                 hint="use np.dtype(dtype).itemsize rather than a fixed size")
        if got in (held * shape[0] * np.dtype(dtype).itemsize,
                   held * sum(shape) * np.dtype(dtype).itemsize):
            fail(check_id, said + "; an element has the product of its dimensions as "
                                  "values (every dimension counts)",
                 hint="values per element = np.prod(element_shape)")
        fail(check_id, said)
    passed(check_id, "the shuffle buffer's bytes are right for every shape, dtype and size")


# -- ex-13-2 ------------------------------------------------------------------------------------

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


# -- ex-13-3 ------------------------------------------------------------------------------------

def _model_cases(generator, count):
    cases = []
    for k in range(count):
        element = int(generator.choice([3072, 12288, 49152, 150528, 602112]))
        cases.append((element, int(generator.integers(2, 2000)), int(generator.integers(2, 129)),
                      int(generator.integers(1, 9)), ORDERS[k % 2]))
    return cases


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


# -- ex-13-4 ------------------------------------------------------------------------------------

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
