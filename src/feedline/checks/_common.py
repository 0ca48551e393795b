"""Helpers shared by the checks: calling the learner's answer, reading elements, reporting.

>>> passed("ex-00-0", "an example")
ex-00-0 passed: an example
>>> fail("ex-00-0", "expected 3, got 4")
Traceback (most recent call last):
...
AssertionError: ex-00-0: expected 3, got 4
"""

import numpy as np

from ..data import Dataset


def fail(check_id, message):
    """Raise the `AssertionError` a check gives for a wrong answer, prefixed with its id."""
    raise AssertionError(f"{check_id}: {message}")


def passed(check_id, message):
    """Print the one stable line a check gives when the answer is right."""
    print(f"{check_id} passed: {message}")


def seconds(check_id, value):
    """`value` as a float; a failed check when the answer is not a number of seconds."""
    try:
        return float(value)
    except (TypeError, ValueError):
        fail(check_id, f"expected a number of seconds, got {type(value).__name__}")


def rng(check_id):
    """A generator seeded from the check id: fresh inputs, the same on every run."""
    return np.random.default_rng([ord(c) for c in check_id])


def call_answer(check_id, function, *args, want_dataset=True):
    """Call the learner's `function(*args)`, turning the usual slips into clear failures."""
    name = getattr(function, "__name__", "your function")
    if not callable(function):
        fail(check_id, f"expected a function, got {type(function).__name__}")
    try:
        result = function(*args)
    except NotImplementedError:
        fail(check_id, f"{name} still raises NotImplementedError: replace "
                       "`raise NotImplementedError()` with your answer in the cell above")
    if result is None:
        fail(check_id, f"{name} returned None: did you forget `return`?")
    if want_dataset and not isinstance(result, Dataset):
        fail(check_id, f"{name} should return a Dataset, but returned "
                       f"{type(result).__name__}")
    return result


def take_elements(check_id, dataset, limit):
    """The elements of `dataset` as a list, failing (not hanging) past `limit` elements."""
    elements = []
    for element in dataset:
        elements.append(element)
        if len(elements) > limit:
            fail(check_id, f"the dataset gave more than {limit} elements; expected far fewer "
                           "(is there a `repeat()` without a count?)")
    return elements


def describe(element):
    """A short description of an element's structure, for failure messages."""
    if isinstance(element, dict):
        return "{" + ", ".join(f"{key!r}: {describe(value)}"
                               for key, value in element.items()) + "}"
    if isinstance(element, tuple):
        return "(" + ", ".join(describe(item) for item in element) + ")"
    array = np.asarray(element)
    return f"array of shape {tuple(array.shape)} and dtype {array.dtype}"
