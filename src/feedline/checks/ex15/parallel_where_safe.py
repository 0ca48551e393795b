"""Check for exercise `ex-15-2`: make parallel only the maps that are safe to run in parallel.

The check reads the learner's pipeline as written and observes which of its maps the static
rewrites made parallel.
"""

import numpy as np

from ...data import Dataset
from ...data.experimental import stateless  # noqa: F401 (the doctests use it)
from ...data.optimize import plan
from .._common import call_answer, check, fail, observe, passed, read_elements, rng


def numbered_inputs(generator):
    """The check's source, a pure `scale` and a stateful `number` (it counts its calls)."""
    values = generator.integers(0, 100, size=int(generator.integers(8, 14)))
    factor = int(generator.integers(2, 9))
    calls = [0]

    def scale(x):
        return x * factor

    def number(x):
        calls[0] += 1
        return np.int64(calls[0] - 1), x

    return Dataset.from_tensor_slices(values), scale, number, [(i, int(v) * factor)
                                                              for i, v in enumerate(values)]


def maps_as_run(dataset):
    """`[(function name, parallel, made parallel by a rewrite), ...]` for the maps of `dataset`
    as it runs, source first.

    >>> maps_as_run(Dataset.range(3).map(stateless(abs)).map(abs))
    [('abs', True, True), ('abs', False, False)]
    """
    from ...data.optimize._maps import function_name

    found, node = [], plan(dataset).dataset
    while node is not None:
        if getattr(node, "_stage", None) == "map":
            found.append((function_name(node._function), node._num_parallel_calls is not None,
                          "_written" in vars(node)))
        node = getattr(node, "_input", None)
    return found[::-1]


@check("ex-15-2", hint="wrap only the pure function: source.map(stateless(scale)).map(number)",
       replayable=True)
def check_parallel_where_safe(parallel_where_safe):
    """ex-15-2: `parallel_where_safe(source, scale, number)` lets the rewrite parallelise the
    pure map and only it, with the elements `(i, scale(x))` unchanged.

    >>> check_parallel_where_safe(lambda source, scale, number:
    ...                           source.map(stateless(scale)).map(number))
    ex-15-2 passed: scale runs in parallel by the rewrite, number stays sequential, same elements
    """
    check_id = "ex-15-2"
    source, scale, number, want = numbered_inputs(rng(check_id))
    dataset = call_answer(check_id, parallel_where_safe, source, scale, number)
    maps = observe(check_id, "maps as run", lambda: [list(m) for m in maps_as_run(dataset)])
    got = [(int(i), int(x)) for i, x in read_elements(check_id, dataset)]
    if got != want:
        fail(check_id, f"the elements as written should be (position, scale(x)): {want[:3]}..., "
                       f"got {got[:3]}...", hint="map scale first, then number")
    names = [name for name, _, _ in maps]
    if sorted(names) != ["number", "scale"]:
        fail(check_id, f"the maps as run call {names}; expected one map of scale and one of "
                       "number, the functions themselves (a lambda around them hides which is "
                       "which)")
    if any(parallel for name, parallel, _ in maps if name == "number"):
        fail(check_id, "number runs in parallel: it counts its calls, so with several calls "
                       "at once the numbers could go to the wrong elements",
             hint="declare only scale stateless; number changes state outside itself")
    for name, parallel, by_rewrite in maps:
        if name == "scale" and parallel and not by_rewrite:
            fail(check_id, "scale runs in parallel because you gave it num_parallel_calls; "
                           "this exercise asks map_parallelization to do it",
                 hint="write source.map(stateless(scale)) without num_parallel_calls")
        if name == "scale" and not parallel:
            fail(check_id, "map_parallelization did not fire: scale's map runs sequentially",
                 hint="a rewrite cannot look inside a Python function: declare it with "
                      "feedline.data.experimental.stateless(scale)")
    passed(check_id, "scale runs in parallel by the rewrite, number stays sequential, "
                     "same elements")
