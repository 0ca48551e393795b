"""Checks of notebook 16, random access: choose a reader, shards, permutation per epoch, resume."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .choose_reader import check_choose_reader
from .shards import check_shard_indices
from .permutation import check_permuted_index
from .resume import check_resume

# Names the unit tests use by their ex16 names.
from .shards import _shard_cases  # noqa: F401

__all__ = ["check_choose_reader", "check_shard_indices", "check_permuted_index", "check_resume"]
