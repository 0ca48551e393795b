"""Check for exercise `ex-12-1`: batch first, then map a function that works on a batch."""

import numpy as np

from ...data import Dataset
from .._common import (call_answer, check, describe, fail, observe, passed, pipeline_nodes,
                       read_elements, rng)
from ._shared import _as_array, _short


def _maps_without_batch_above(dataset):
    """How many maps of the pipeline run once per element: no batch is above them."""
    count = 0
    for node in pipeline_nodes(dataset):
        if getattr(node, "_stage", None) == "map":
            above = pipeline_nodes(node)[1:]
            if not any(getattr(other, "_stage", None) == "batch" for other in above):
                count += 1
    return count


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
