"""Checks of notebook 02, shuffling: shuffle-repeat-batch, buffer shuffle, reach, mixed batches."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .train_batches import BATCH, EPOCHS, check_train_batches
from .buffer_shuffle import check_buffer_shuffle
from .reach import check_reach
from .mixed_batches import (BIG_BATCH, FIRST_BATCHES, LABELS, MAX_BUFFER, MAX_CYCLE, MIN_LABELS,
                            ROWS, check_mixed_batches, parse_line)

__all__ = ["check_train_batches", "check_buffer_shuffle", "check_reach", "check_mixed_batches",
           "parse_line", "BATCH", "EPOCHS", "LABELS", "ROWS", "BIG_BATCH", "MAX_BUFFER",
           "MAX_CYCLE", "MIN_LABELS", "FIRST_BATCHES"]
