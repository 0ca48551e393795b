"""Checks of notebook 14, naive vs optimized: step order, speed-up, optimised pipeline, flaws."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .order import ORDER, check_in_order
from .speedup import check_predicted_speedup
from .optimised import check_optimised
from .diagnose import FLAWS, check_diagnose, flawed_pipeline, traced_flaw, work_spans

# Helpers the unit tests call by their ex14 names.
from .optimised import _check_threads, _check_work  # noqa: F401

__all__ = ["FLAWS", "ORDER", "check_diagnose", "check_in_order", "check_optimised",
           "check_predicted_speedup", "flawed_pipeline", "traced_flaw", "work_spans"]
