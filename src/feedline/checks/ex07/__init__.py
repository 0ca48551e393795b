"""Checks of notebook 07, measuring pipelines: waiting time, sequential total, slowest stage,
total with prefetch."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .consumer_wait import check_consumer_wait
from .sequential_total import check_sequential_total
from .slowest_stage import check_slowest_stage
from .prefetched_total import check_prefetched_total

# Names the unit tests use by their ex07 names.
from ._shared import MAIN, sequential_timeline  # noqa: F401

__all__ = ["check_consumer_wait", "check_prefetched_total", "check_sequential_total",
           "check_slowest_stage", "sequential_timeline"]
