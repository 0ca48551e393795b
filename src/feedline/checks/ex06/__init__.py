"""Checks of notebook 06, preprocessing layers: normalizer, OOV lookup, collisions, mixed table."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .normalizer import check_normalizer
from .lookup import check_lookup_with_oov
from .collisions import check_collision_formula
from .mixed_table import check_mixed_table

# Names the unit tests use by their ex06 names.
from .._common import rng
from .mixed_table import _tables  # noqa: F401

__all__ = ["check_normalizer", "check_lookup_with_oov", "check_collision_formula",
           "check_mixed_table", "rng"]
