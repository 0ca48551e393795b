"""Checks of notebook 13, memory and order: shuffle buffer bytes, leaner order, peak, budget."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .buffer_bytes import check_shuffle_buffer_bytes
from .leaner_order import IMAGE_SHAPE, check_leaner_order, given_pipeline
from .predicted_peak import check_predicted_peak
from .shuffle_budget import check_largest_shuffle

# The memory model, which the unit tests use by its ex13 names.
from ._shared import ORDERS, largest_shuffle, pipeline_peak

__all__ = ["check_shuffle_buffer_bytes", "check_leaner_order", "check_predicted_peak",
           "check_largest_shuffle", "given_pipeline", "largest_shuffle", "pipeline_peak",
           "ORDERS", "IMAGE_SHAPE"]
