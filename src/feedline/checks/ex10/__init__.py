"""Checks of notebook 10, parallel map: parallelise, num_parallel_calls, time, pure Python."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .parallelise import check_parallelise
from .choose_parallel_calls import KINDS, check_choose_parallel_calls
from .predicted_time import check_predicted_time
from .scale_python import check_scale_python

# Helpers the unit tests call by their ex10 names.
from .choose_parallel_calls import _choose_parallel_calls  # noqa: F401
from .predicted_time import _closed_form, _schedule  # noqa: F401

__all__ = ["check_parallelise", "check_choose_parallel_calls", "check_predicted_time",
           "check_scale_python", "KINDS"]
