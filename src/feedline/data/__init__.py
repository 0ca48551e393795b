"""`feedline.data`: datasets and their transformations, named and behaving like `tf.data`."""

from .dataset import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset, Iterator
from .options import Options
from .spec import TensorSpec

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Dataset", "Iterator",
           "Options", "TensorSpec"]
