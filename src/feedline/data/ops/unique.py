"""`Dataset.unique`: drop elements seen before (scalar integers or strings)."""

import numpy as np

from ...errors import InvalidArgumentError
from ..dataset import UnaryDataset


class UniqueDataset(UnaryDataset):
    _stage = "unique"
    _same_spec = True

    def __init__(self, input_dataset):
        super().__init__(input_dataset)

    def _make_iterator(self):
        seen = set()
        for index, element in enumerate(self._input._iterator()):
            if isinstance(element, np.integer) or isinstance(element, bytes):
                key = element if isinstance(element, bytes) else int(element)
            else:
                raise InvalidArgumentError(
                    f"unique works on scalar integer or string elements; element {index} is "
                    f"{type(element).__name__} {getattr(element, 'shape', '')}")
            if key not in seen:
                seen.add(key)
                yield element
