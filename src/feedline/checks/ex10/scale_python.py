"""Check for exercise `ex-10-4`: make pure-Python work scale with worker processes.

The learner gets a function that holds the GIL and returns the id of the process that ran it;
the check asks for the input order and for calls spread over two or more worker processes.
"""

import os

import numpy as np

from ...data import Dataset
from ...data.ops.parallel_map import in_processes
from .._common import (call_answer, check, fail, observe, passed, pipeline_nodes, rng,
                       take_elements)
from ._shared import _order_message


def _maps(dataset):
    """[(runs in processes, num_parallel_calls, deterministic)] for each map in the pipeline."""
    return [[isinstance(node._function, in_processes), node._num_parallel_calls,
             node._deterministic]
            for node in pipeline_nodes(dataset) if node._stage == "map" and hasattr(node, "_function")]


class _PurePython:
    """Pure-Python work (holds the GIL) that says which process ran it: element 0 is slow.

    Defined at the top level of a module, so it can be sent to worker processes."""

    def __init__(self, scale, slow_loops=1_500_000, quick_loops=40_000):
        self.scale, self.slow_loops, self.quick_loops = scale, slow_loops, quick_loops

    def __call__(self, x):
        total = 0
        for i in range(self.slow_loops if int(x) == 0 else self.quick_loops):
            total += i & 3
        return np.int64(x * self.scale + 1 + (total & 0)), np.int64(os.getpid())

    def __repr__(self):
        return "pure_python_work"


@check("ex-10-4", hint="ds.map(in_processes(f), num_parallel_calls=2) (or AUTOTUNE): in_processes "
                        "runs f in worker processes, each with its own GIL; keep the default "
                        "deterministic=True",
       replayable=True)
def check_scale_python(scale_python):
    """ex-10-4: `scale_python(ds, f)` runs `f` in 2 or more worker processes, in order.

    >>> check_scale_python(lambda ds, f: ds.map(in_processes(f), num_parallel_calls=2))
    ex-10-4 passed: f ran in 2 or more worker processes, and the order was kept
    """
    check_id = "ex-10-4"
    generator = rng(check_id)
    size = int(generator.integers(8, 12))
    scale = int(generator.integers(2, 9))
    work = _PurePython(scale)
    dataset = call_answer(check_id, scale_python, Dataset.range(size), work)
    elements = take_elements(check_id, dataset, size + 5)
    main = observe(check_id, "main process", os.getpid)
    maps = observe(check_id, "maps", lambda: _maps(dataset))
    try:
        got = [int(value) for value, _ in elements]
        processes = [int(pid) for _, pid in elements]
    except (TypeError, ValueError):
        fail(check_id, "expected every element to be what f returns, a pair (value, process "
                       "id); apply f once, with map")
    want = [i * scale + 1 for i in range(size)]
    if got != want:
        message, hint = _order_message(got, want, "the values")
        fail(check_id, message, hint=hint)
    if not maps:
        fail(check_id, "the pipeline has no map: f ran before the dataset was made (a pool's "
                       "results turned into a dataset), so a training loop would wait for the "
                       "whole epoch first",
             hint="ds.map(in_processes(f), num_parallel_calls=2): the pipeline calls f as "
                  "the elements are read")
    others = set(processes) - {main}
    if not others:
        in_procs = [m for m in maps if m[0]]
        if in_procs and all(calls is None for _, calls, _ in in_procs):
            fail(check_id, "f ran in the notebook's own process: in_processes without "
                           "num_parallel_calls is a plain map, one call at a time, here",
                 hint="give the map num_parallel_calls=2 or more (or AUTOTUNE) as well")
        fail(check_id, f"all {size} calls ran in the notebook's own process, so they took "
                       "turns at its GIL: threads cannot run pure Python side by side",
             hint="wrap f with in_processes(f) and give the map num_parallel_calls=2 or more")
    if main in processes:
        fail(check_id, f"{processes.count(main)} of {size} calls ran in the notebook's own "
                       "process; run every call of f in the worker processes")
    if len(others) < 2:
        fail(check_id, "every call ran in a single worker process, so the calls still ran one "
                       "at a time: ask for num_parallel_calls=2 or more (or AUTOTUNE)")
    passed(check_id, "f ran in 2 or more worker processes, and the order was kept")
