"""Checks of notebook 11, cache: cache a slow map, memory budget, time, augment, file cache."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .with_cache import check_with_cache
from .budget import check_cache_within_budget
from .predicted_time import check_predicted_time
from .augment import check_augment_after_cache
from .file_cache import check_versioned_file_cache

__all__ = ["check_with_cache", "check_cache_within_budget", "check_predicted_time",
           "check_augment_after_cache", "check_versioned_file_cache"]
