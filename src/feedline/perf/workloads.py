"""Artificial workloads with declared costs, for benchmarks whose ideal time is known.

The costs are `time.sleep` calls: like I/O or an accelerator, a sleeping thread releases the
GIL, so overlap shows up as it would in a real pipeline. Each cost is recorded as a span when
a trace is active.

>>> import numpy as np
>>> ds = ArtificialDataset(num_samples=3, open_cost=0.0, read_cost=0.0)
>>> [int(x) for x in ds]
[0, 1, 2]
"""

import time

import numpy as np

from ..data.dataset import Dataset
from ..data.spec import TensorSpec
from .trace import span


class ArtificialDataset(Dataset):
    """A source that costs `open_cost` seconds to open and `read_cost` per sample.

    Opening happens at the first `next` (recorded as a span named "open"); each sample is the
    int64 index of the sample. This dataset's own spans are named "read".
    """

    _stage = "read"

    def __init__(self, num_samples=3, open_cost=0.03, read_cost=0.015):
        self.num_samples = int(num_samples)
        self.open_cost, self.read_cost = float(open_cost), float(read_cost)

    def _make_iterator(self):
        with span("open"):
            time.sleep(self.open_cost)
        for sample in range(self.num_samples):
            time.sleep(self.read_cost)
            yield np.int64(sample)

    def _cardinality(self):
        return self.num_samples

    def _element_spec(self):
        return TensorSpec((), np.int64)


class ExpensiveMap:
    """A map function that costs `cost` seconds per call and returns its input unchanged.

    Picklable, so it also runs under `in_processes`."""

    def __init__(self, cost=0.03):
        self.cost = float(cost)

    def __call__(self, *element):
        time.sleep(self.cost)
        return element[0] if len(element) == 1 else element

    def __repr__(self):
        return f"ExpensiveMap(cost={self.cost})"


class TrainStep:
    """A stand-in training step: `cost` seconds per call (per element or per batch),
    recorded as a span named "train_step"."""

    def __init__(self, cost=0.01, name="train_step"):
        self.cost, self.name = float(cost), name

    def __call__(self, element=None):
        with span(self.name):
            time.sleep(self.cost)

    def __repr__(self):
        return f"TrainStep(cost={self.cost})"


class PythonWork:
    """Pure-Python CPU work (a loop of `iterations` additions): holds the GIL, so threads
    cannot run it in parallel but processes can. Picklable."""

    def __init__(self, iterations=200_000):
        self.iterations = int(iterations)

    def __call__(self, x):
        total = 0
        for i in range(self.iterations):
            total += i & 7
        return x + (total & 0)

    def __repr__(self):
        return f"PythonWork(iterations={self.iterations})"
