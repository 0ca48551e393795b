"""Checks of notebook 12, vectorized map: batch then map, normalise rows, time, random flips."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .batch_then_map import check_batch_then_map, summary
from .normalise_rows import check_normalise_rows, normalise_row
from .time_per_element import check_time_per_element
from .random_flip import check_random_flip_batch

__all__ = ["check_batch_then_map", "check_normalise_rows", "check_time_per_element",
           "check_random_flip_batch", "normalise_row", "summary"]
