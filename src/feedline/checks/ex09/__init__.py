"""Checks of notebook 09, interleave: order, parallel reads, time, slow file, cycle_length."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .order import check_predict_order
from .parallel import check_read_in_parallel
from .total_time import check_predicted_time
from .without_waiting import check_read_without_waiting
from .cycle_length import check_choose_cycle_length

# Names the unit tests, the replay tests and the grader's docs use by their ex09 names.
from ...perf.provenance import interleave_order
from .._common import rng
from .order import _grouped_order, _simulate_order  # noqa: F401
from .total_time import _predicted_time  # noqa: F401
from .cycle_length import _choose_cycle_length  # noqa: F401

__all__ = ["check_predict_order", "check_read_in_parallel", "check_predicted_time",
           "check_read_without_waiting", "check_choose_cycle_length", "interleave_order", "rng"]
