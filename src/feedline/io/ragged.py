"""`RaggedTensor`: rows of different lengths stored as flat `values` plus `row_splits`.

Row `i` is `values[row_splits[i]:row_splits[i + 1]]`; `values` may itself be ragged.

>>> rt = RaggedTensor.from_row_splits(np.array([1, 2, 3]), [0, 2, 2, 3])
>>> rt.to_list(), rt.row_lengths().tolist()
([[1, 2], [], [3]], [2, 0, 1])
"""

import numpy as np


class RaggedTensor:
    """See the module docstring."""

    __slots__ = ("values", "row_splits")

    def __init__(self, values, row_splits):
        self.values = values
        self.row_splits = np.asarray(row_splits)
        if self.row_splits.dtype.kind != "i":
            self.row_splits = self.row_splits.astype(np.int64)

    @classmethod
    def from_row_splits(cls, values, row_splits):
        splits = np.asarray(row_splits)
        if splits.ndim != 1 or len(splits) == 0 or splits[0] != 0 or np.any(np.diff(splits) < 0):
            raise ValueError(f"row_splits must start at 0 and never decrease, got {splits}")
        if splits[-1] != len(values):
            raise ValueError(f"row_splits ends at {splits[-1]} but there are {len(values)} "
                             "values")
        return cls(values, splits)

    @property
    def nested_row_splits(self):
        inner = self.values.nested_row_splits if isinstance(self.values, RaggedTensor) else ()
        return (self.row_splits,) + inner

    @property
    def flat_values(self):
        return self.values.flat_values if isinstance(self.values, RaggedTensor) else self.values

    @property
    def dtype(self):
        return self.flat_values.dtype

    def row_lengths(self):
        return np.diff(self.row_splits)

    def __len__(self):
        return len(self.row_splits) - 1

    def __getitem__(self, index):
        """Row `index` (negative counts from the end) as a slice of `values`."""
        index = range(len(self))[index]
        return self.values[self.row_splits[index]:self.row_splits[index + 1]]

    def to_list(self):
        """Nested Python lists of the values."""
        values = self.values.to_list() if isinstance(self.values, RaggedTensor) \
            else self.values.tolist()
        splits = self.row_splits.tolist()
        return [values[start:stop] for start, stop in zip(splits[:-1], splits[1:])]

    def __eq__(self, other):
        return (isinstance(other, RaggedTensor)
                and np.array_equal(self.row_splits, other.row_splits)
                and self.to_list() == other.to_list())

    __hash__ = None

    def __repr__(self):
        return f"<RaggedTensor {self.to_list()!r}>"
