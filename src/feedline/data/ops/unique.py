"""`Dataset.unique`: drop elements seen before (scalar integers or strings)."""

import numpy as np

from ...errors import InvalidArgumentError
from ..dataset import Dataset


class UniqueDataset(Dataset):
    _stage = "unique"

    def __init__(self, input_dataset):
        self._input = input_dataset
        self._inputs = (input_dataset,)

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

    def _element_spec(self):
        return self._input.element_spec
