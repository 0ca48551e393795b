"""Check for exercise `ex-12-2`: normalise every row of a batch at once.

The only ex-12 check that looks at time, as a loose ratio against a Python loop measured in the
same run.
"""

import math
import time

import numpy as np

from ...data import Dataset
from .._common import call_answer, check, fail, observe, passed, read_elements, rng
from ._shared import _as_array, _short


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
