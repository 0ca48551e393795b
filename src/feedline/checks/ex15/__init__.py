"""Checks of notebook 15, optimizations: rewrites that fire, parallel where safe, doctor, split."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .rewrites import STAGES, build_chain, check_rewrites_that_fire
from .parallel_where_safe import check_parallel_where_safe, maps_as_run, numbered_inputs
from .doctor_fix import check_doctor_fix, slow_parts, slow_pipeline
from .hand_split import LIMITS, best_split, check_hand_split, simulated_seconds, split_pipeline

__all__ = ["LIMITS", "STAGES", "best_split", "build_chain", "check_doctor_fix",
           "check_hand_split", "check_parallel_where_safe", "check_rewrites_that_fire",
           "maps_as_run", "numbered_inputs", "simulated_seconds", "slow_parts", "slow_pipeline",
           "split_pipeline"]
