"""Checks for exercise notebook 12, vectorized map (ids `ex-12-1` to `ex-12-4`).

Each check draws fresh batches from a generator seeded by its id, compares the learner's
batch-wise answer with the element-wise reference on them (a batch of one and a short last
batch included), and names the usual slip when they differ: a reduction over the wrong axis,
a function that only works for one element, a lost last batch, one random draw shared by the
whole batch. Only ex-12-2 looks at time, as a loose ratio against a Python loop measured in
the same run.
"""

import math
import time

import numpy as np

from ..data import Dataset
from ._common import (call_answer, check, describe, fail, observe, passed, pipeline_nodes,
                      read_elements, rng, seconds)


# -- looking at a pipeline ---------------------------------------------------------------------

def _maps_without_batch_above(dataset):
    """How many maps of the pipeline run once per element: no batch is above them."""
    count = 0
    for node in pipeline_nodes(dataset):
        if getattr(node, "_stage", None) == "map":
            above = pipeline_nodes(node)[1:]
            if not any(getattr(other, "_stage", None) == "batch" for other in above):
                count += 1
    return count


def _short(value):
    array = np.asarray(value)
    if array.size <= 8:
        return str(np.round(array, 4).tolist())
    return f"an array of shape {array.shape} starting {np.round(array.ravel()[:3], 4).tolist()}"


def _as_array(check_id, value, what):
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        fail(check_id, f"{what} should be an array of numbers, got {type(value).__name__}")


# -- ex-12-1 ------------------------------------------------------------------------------------

def summary(row):
    """The element-wise function of exercise 1: one row of readings -> [mean, max - min]."""
    return np.array([row.mean(), row.max() - row.min()])


@check("ex-12-1", hint="batch first, then map a function that works on a (batch, readings) "
                        "array: reduce each row with axis=1 and stack the two results as "
                        "columns",
       replayable=True)
def check_batch_then_map(batch_then_map):
    """ex-12-1: `batch_then_map(ds, batch_size)` batches first and gives the same batches.

    >>> def summary_batch(rows):
    ...     return np.stack([rows.mean(axis=1), rows.max(axis=1) - rows.min(axis=1)], axis=1)
    >>> check_batch_then_map(lambda ds, batch_size: ds.batch(batch_size).map(summary_batch))
    ex-12-1 passed: batch, then one call per batch; the same batches as map then batch
    """
    check_id = "ex-12-1"
    generator = rng(check_id)
    readings = int(generator.integers(4, 9))
    size = int(generator.integers(20, 30))
    rows = np.round(generator.normal(20.0, 5.0, size=(size, readings)), 2)
    batch_sizes = [1, int(generator.integers(3, 7)), size + int(generator.integers(1, 4))]
    while size % batch_sizes[1] == 0:  # make sure one batch size leaves a short last batch
        batch_sizes[1] += 1
    for batch_size in batch_sizes:
        source = Dataset.from_tensor_slices(rows)
        dataset = call_answer(check_id, batch_then_map, source, batch_size)
        per_element = observe(check_id, "maps before batch",
                              lambda: _maps_without_batch_above(dataset))
        got = list(read_elements(check_id, dataset))
        want = [np.stack([summary(row) for row in rows[start:start + batch_size]])
                for start in range(0, size, batch_size)]
        _compare_batches(check_id, got, want, rows, batch_size)
        if per_element:
            fail(check_id, f"the batches are right, but the map runs before batch: the "
                           f"function is called once per element ({size} calls) instead of "
                           f"once per batch",
                 hint="write ds.batch(batch_size).map(...), with a function that takes a "
                      "whole batch")
    passed(check_id, "batch, then one call per batch; the same batches as map then batch")


def _compare_batches(check_id, got, want, rows, batch_size):
    """Fail unless `got` is the list of batches `want`; name the likely slip."""
    if len(got) != len(want):
        if len(got) == len(want) - 1 and len(rows) % batch_size:
            fail(check_id, f"with batch_size={batch_size}, {len(rows)} rows give {len(want)} "
                           f"batches, the last one of {len(rows) % batch_size}; got "
                           f"{len(got)}: the short last batch is missing",
                 hint="keep the last, shorter batch: do not use drop_remainder=True")
        fail(check_id, f"with batch_size={batch_size}, expected {len(want)} batches, got "
                       f"{len(got)}")
    for index, (batch, expected) in enumerate(zip(got, want)):
        if isinstance(batch, (tuple, dict)):
            fail(check_id, f"batch {index} should be one array of shape {expected.shape}, "
                           f"got {describe(batch)}")
        array = _as_array(check_id, batch, f"batch {index}")
        rows_in = rows[index * batch_size:(index + 1) * batch_size]
        if array.shape != expected.shape:
            fail(check_id, _shape_slip(array, expected, rows_in, batch_size, index))
        if not np.allclose(array, expected, rtol=1e-9, atol=1e-9):
            dtype = np.asarray(batch).dtype
            if dtype != np.float64 and np.allclose(array, expected, rtol=1e-5, atol=1e-5):
                fail(check_id, f"with batch_size={batch_size}, batch {index} holds {dtype} "
                               f"values, close to but not {_short(expected)}: summary gives "
                               "float64, and the batches must be the same",
                     hint="keep the float64 that NumPy's mean gives: no astype, no float32")
            fail(check_id, f"with batch_size={batch_size}, batch {index} should be "
                           f"{_short(expected)}, got {_short(array)}")


def _shape_slip(array, expected, rows_in, batch_size, index):
    said = (f"with batch_size={batch_size}, batch {index} should have shape {expected.shape} "
            f"(one [mean, max - min] per row), got {array.shape}")
    if array.shape == (2,):
        return said + ("; the function reduced the whole batch to one mean and one range: "
                       "reduce each row with axis=1")
    if array.shape == (2, rows_in.shape[1]):
        return said + ("; the function reduced over the batch axis (axis=0), giving one "
                       "value per reading instead of one per row")
    if array.shape == (expected.shape[1], expected.shape[0]):
        return said + "; the two results are rows, not columns: stack them with axis=1"
    return said


# -- ex-12-2 ------------------------------------------------------------------------------------

def normalise_row(row):
    """The per-element function of exercise 2, with Python loops and an `if`."""
    mean = sum(row) / len(row)
    spread = (sum((value - mean) ** 2 for value in row) / len(row)) ** 0.5
    out = np.zeros(len(row))
    if spread == 0:  # a constant row has no spread: it becomes zeros
        return out
    for i, value in enumerate(row):
        out[i] = (value - mean) / spread
    return out


def _rows(generator, count, width):
    """`count` random rows of `width` values, one in five of them constant (small integers,
    so that every way of computing their mean gives exactly the value)."""
    rows = np.round(generator.normal(0.0, 3.0, size=(count, width)) + 10.0, 3)
    for index in range(count):
        if generator.random() < 0.2:
            rows[index] = float(generator.integers(-5, 6))
    return rows


def _loop_seconds_ratio(function, batch):
    """Best-of-3 seconds of the element-wise loop over `batch`, divided by `function`'s."""
    def best(run):
        times = []
        for _ in range(3):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        return min(times)

    loop = best(lambda: np.stack([normalise_row(row) for row in batch]))
    theirs = best(lambda: function(batch))
    return loop / max(theirs, 1e-9)


@check("ex-12-2", hint="compute the mean and the spread of every row at once with axis=1 and "
                        "keepdims=True, and replace the `if` with np.where",
       replayable=True)
def check_normalise_rows(normalise_rows):
    """ex-12-2: `normalise_rows(batch)` equals `normalise_row` on every row, and is vectorised.

    >>> def normalise_rows(batch):
    ...     mean = batch.mean(axis=1, keepdims=True)
    ...     spread = batch.std(axis=1, keepdims=True)
    ...     safe = np.where(spread == 0, 1.0, spread)
    ...     return np.where(spread == 0, 0.0, (batch - mean) / safe)
    >>> check_normalise_rows(normalise_rows)
    ex-12-2 passed: every row of every batch matches normalise_row, and faster than a Python loop
    """
    check_id = "ex-12-2"
    generator = rng(check_id)
    width = int(generator.integers(5, 9))
    for count in (1, 2, int(generator.integers(5, 12)), width, 32):
        batch = _rows(generator, count, width)
        if count >= 2:
            batch[int(generator.integers(0, count))] = 4.0  # always one constant row
        got = call_answer(check_id, normalise_rows, batch.copy(), want_dataset=False)
        _compare_normalised(check_id, got, batch)
    # In a pipeline: the last batch is shorter than the others.
    rows = _rows(generator, int(generator.integers(3, 6)) * 8 + int(generator.integers(1, 8)),
                 width)
    pipeline = Dataset.from_tensor_slices(rows).batch(8).map(normalise_rows)
    got = list(read_elements(check_id, pipeline))
    if len(got) != math.ceil(len(rows) / 8):
        fail(check_id, f"the pipeline of {len(rows)} rows in batches of 8 gave {len(got)} "
                       f"batches, expected {math.ceil(len(rows) / 8)}")
    for index, batch in enumerate(got):
        _compare_normalised(check_id, batch, rows[index * 8:(index + 1) * 8],
                            where=f"in the pipeline, batch {index}")
    big = _rows(generator, 2000, width)
    ratio = observe(check_id, "loop seconds / yours",
                    lambda: _loop_seconds_ratio(normalise_rows, big))
    if ratio < 3:
        fail(check_id, f"on a batch of 2000 rows your function took {1 / ratio:.2f} times "
                       "as long as the Python loop over rows: it gives the right numbers, "
                       "but it still works row by row",
             hint="no Python loop over the rows: NumPy's reductions take axis=1, and np.where "
                  "chooses per row")
    passed(check_id, "every row of every batch matches normalise_row, and faster than a "
                     "Python loop")


def _compare_normalised(check_id, got, batch, where=None):
    where = where or ("for a batch of one row" if len(batch) == 1
                      else f"for a batch of {len(batch)} rows")
    want = np.stack([normalise_row(row) for row in batch])
    array = _as_array(check_id, got, "the result")
    if array.shape != want.shape:
        said = f"{where} of {batch.shape[1]} values: expected shape {want.shape}, got {array.shape}"
        if array.shape in ((1, batch.shape[1]), (batch.shape[1],)) and len(batch) > 1:
            fail(check_id, said + ": the function only handles one row (a batch of size 1)",
                 hint="work on the whole (batch, values) array; never pick batch[0]")
        fail(check_id, said)
    constant = np.array([np.all(row == row[0]) for row in batch])
    if len(batch) == 1 and not constant[0] and (np.isnan(array).all() or np.allclose(array, 0)):
        fail(check_id, f"{where}, the row {_short(batch[0])} should become {_short(want[0])}, "
                       f"got {_short(array[0])}: the mean and spread were taken down the "
                       "columns (axis=0, across the batch), not along each row (axis=1)")
    if np.isnan(array).any():
        rows_with_nan = sorted(set(np.argwhere(np.isnan(array))[:, 0].tolist()))
        if all(constant[rows_with_nan]):
            fail(check_id, f"{where}, the constant row {rows_with_nan[0]} became nan; "
                           "normalise_row makes a constant row zeros",
                 hint="the `if spread == 0` branch of the loop becomes np.where(spread == 0, "
                      "0.0, ...), with a spread that is never 0 in the division")
        fail(check_id, f"{where}, row {rows_with_nan[0]} became nan")
    if np.allclose(array, want, rtol=1e-7, atol=1e-9):
        return
    row = int(np.argmax(np.abs(array - want).max(axis=1)))
    said = (f"{where}, row {row} {_short(batch[row])} should become {_short(want[row])}, "
            f"got {_short(array[row])}")
    sample = batch.std(axis=1, ddof=1, keepdims=True) if batch.shape[1] > 1 else None
    if sample is not None and np.allclose(
            array, np.where(sample == 0, 0.0, (batch - batch.mean(axis=1, keepdims=True))
                            / np.where(sample == 0, 1.0, sample)), atol=1e-9):
        fail(check_id, said + ": the spread divides by n - 1 (ddof=1); normalise_row divides "
                              "by n, as np.std does by default (ddof=0)")
    whole = batch.std()
    if whole > 0 and np.allclose(array, (batch - batch.mean()) / whole, atol=1e-9):
        fail(check_id, said + ": one mean and one spread for the whole batch; each row needs "
                              "its own")
    spread = batch.std(axis=0, keepdims=True)
    by_column = (batch - batch.mean(axis=0, keepdims=True)) / np.where(spread == 0, 1, spread)
    if np.allclose(array[~constant], by_column[~constant], atol=1e-9):
        fail(check_id, said + ": the mean and spread were taken down the columns (axis=0, "
                              "across the batch), not along each row (axis=1)")
    fail(check_id, said)


# -- ex-12-3 ------------------------------------------------------------------------------------

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


# -- ex-12-4 ------------------------------------------------------------------------------------

def _images(generator, count, height, width):
    """Random images whose rows and columns all differ, so no flip leaves one unchanged."""
    return generator.permutation(count * height * width).reshape(count, height, width) / 10.0


def _kind_of(output, image, batch, index):
    """What the learner's output is, as seen from the input image."""
    if np.array_equal(output, image):
        return "kept"
    if np.array_equal(output, image[:, ::-1]):
        return "mirrored"
    if np.array_equal(output, image[::-1, :]):
        return "upside down"
    if any(np.array_equal(output, other) or np.array_equal(output, other[:, ::-1])
           for position, other in enumerate(batch) if position != index):
        return "another image"
    return "changed"


@check("ex-12-4", hint="draw one number per image with rng.random(len(images)), turn it into a "
                        "mask, and choose per image with np.where(mask[:, None, None], "
                        "images[:, :, ::-1], images)",
       replayable=True)
def check_random_flip_batch(random_flip_batch):
    """ex-12-4: `random_flip_batch(images, rng)` mirrors each image on its own draw.

    >>> def random_flip_batch(images, rng):
    ...     flip = rng.random(len(images)) < 0.5
    ...     return np.where(flip[:, None, None], images[:, :, ::-1], images)
    >>> check_random_flip_batch(random_flip_batch)
    ex-12-4 passed: each image mirrored on its own draw, about half of them, the same for the same seed
    """
    check_id = "ex-12-4"
    generator = rng(check_id)
    height, width = int(generator.integers(3, 6)), int(generator.integers(3, 6))
    seeds = [int(seed) for seed in generator.integers(0, 2**31, size=14)]
    sizes = [16] * 12 + [1, 3]  # twelve full batches, a batch of one, a short last batch
    patterns = []
    for seed, size in zip(seeds, sizes):
        images = _images(generator, size, height, width)
        first = _flips(check_id, random_flip_batch, images, seed)
        again = _flips(check_id, random_flip_batch, images, seed)
        if first != again:
            fail(check_id, f"two calls with a generator made from the same seed ({seed}) "
                           f"flipped {_pattern(first)} and then {_pattern(again)}; the "
                           "flips must come from `rng` only",
                 hint="draw from the `rng` argument (rng.random, rng.integers), not from "
                      "np.random or a generator of your own")
        patterns.append(first)
    full = patterns[:12]
    flipped = sum(sum(pattern) for pattern in full)
    total = sum(len(pattern) for pattern in full)
    if all(len(set(pattern)) == 1 for pattern in full):
        fail(check_id, f"in every batch of 16 all the images were flipped the same way "
                       f"({', '.join(_pattern(p) for p in full[:3])}, ...): one draw for the "
                       "whole batch",
             hint="draw len(images) numbers, one per image, and choose per image with a "
                  "mask")
    if len({tuple(pattern) for pattern in full}) == 1:
        fail(check_id, f"every generator, whatever its seed, gave the same flips "
                       f"({_pattern(full[0])}): the draws do not come from `rng`")
    # Independent draws give exactly 8 of 16 in a batch about one time in 5; in all twelve
    # batches, about once in 3e8 runs: that is a fixed half (rng.choice without replacement).
    if all(sum(pattern) == len(pattern) // 2 for pattern in full):
        fail(check_id, f"every batch of 16 had exactly 8 images mirrored "
                       f"({', '.join(_pattern(p) for p in full[:3])}, ...): a fixed half of "
                       "the batch was chosen, so the images' flips depend on each other",
             hint="one independent draw per image: rng.random(len(images)) < 0.5, not a "
                  "choice of half the positions")
    if not 0.3 <= flipped / total <= 0.7:
        fail(check_id, f"{flipped} of {total} images were mirrored; each should be mirrored "
                       "with probability 1/2, so about half of them",
             hint="mirror an image when its draw rng.random() is below 0.5")
    passed(check_id, "each image mirrored on its own draw, about half of them, the same for "
                     "the same seed")


def _flips(check_id, random_flip_batch, images, seed):
    """Call the answer with a fresh generator; a list of booleans, True where mirrored."""
    got = call_answer(check_id, random_flip_batch, images.copy(), np.random.default_rng(seed),
                      want_dataset=False)
    array = _as_array(check_id, got, "the result")
    if array.shape != images.shape:
        said = f"for {len(images)} images of shape {images.shape[1:]} expected shape " \
               f"{images.shape}, got {array.shape}"
        if len(images) > 1 and array.shape == images.shape[1:]:
            fail(check_id, said + ": the function handles one image, not a batch",
                 hint="the first axis is the batch: flip along the last axis, images[:, :, "
                      "::-1]")
        fail(check_id, said)
    flips = []
    for index, (output, image) in enumerate(zip(array, images)):
        kind = _kind_of(output, image, images, index)
        if kind == "upside down":
            fail(check_id, f"image {index} of {len(images)} was turned upside down (its rows "
                           "reversed); a mirror reverses the columns, the last axis",
                 hint="for a batch of shape (batch, height, width) the columns are axis 2: "
                      "images[:, :, ::-1]")
        if kind == "another image":
            fail(check_id, f"image {index} of {len(images)} came back as another image of the "
                           "batch: the flip reversed the batch axis (axis 0)",
                 hint="for a batch of shape (batch, height, width) the columns are axis 2: "
                      "images[:, :, ::-1]")
        if kind == "changed":
            fail(check_id, f"image {index} of {len(images)} came back as "
                           f"{_short(output)}, neither the image {_short(image)} nor its "
                           "mirror")
        flips.append(kind == "mirrored")
    return flips


def _pattern(flips):
    return "".join("M" if flip else "." for flip in flips)
