"""`Dataset.ragged_batch`: batch elements of different lengths into RaggedTensors.

Which components become ragged is decided by the input's `element_spec`, as in TensorFlow: a
component whose static shape has an unknown size becomes a RaggedTensor with one row per
element, ragged up to its last unknown axis (spec `(None, 3)` gives ragged rows of 3-wide
entries, `(3, None)` rows of 3 ragged rows); a component whose shape is fully known, or whose
rank is unknown, is stacked as `batch` does; a RaggedTensor component gets one more ragged
dimension.
"""

import itertools

from ... import dtypes
from ...io.ragged import RaggedTensor, batch_rows
from .. import structure
from ..composite_spec import RaggedTensorSpec
from ..dataset import UnaryDataset
from ..spec import TensorSpec, unknown_rank
from .batch import batch_cardinality, check_batch_size


class RaggedBatchDataset(UnaryDataset):
    _stage = "ragged_batch"
    _spec_from_inputs = True  # made from its inputs' specs (see batch._known_spec)

    def __init__(self, input_dataset, batch_size, drop_remainder=False,
                 row_splits_dtype=dtypes.int64):
        super().__init__(input_dataset)
        self._batch_size = check_batch_size(batch_size)
        self._drop_remainder = bool(drop_remainder)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if self._row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"ragged_batch: row_splits_dtype must be int32 or int64, got "
                             f"{self._row_splits_dtype}")

    def _make_iterator(self):
        specs = structure.flatten(self._input.element_spec)
        elements, size = self._input._iterator(), self._batch_size
        while True:
            chunk = list(itertools.islice(elements, size))
            if not chunk or (self._drop_remainder and len(chunk) < size):
                return
            columns = zip(*(structure.flatten(element) for element in chunk))
            yield structure.pack_like(chunk[0], [
                self._batch_column(list(column), path, spec) for column, (path, _), spec in
                zip(columns, structure.flatten_with_paths(chunk[0]), specs)])

    def _batch_column(self, column, path, spec):
        rank = _ragged_rank(spec)
        if rank == "ragged":  # rows of a RaggedTensor keep its row splits dtype
            return batch_rows(column, spec.row_splits_dtype)
        if rank is None:  # a known shape (or an unknown rank): batched densely
            return structure.stack(column, path)
        if rank > 0:  # ragged inside each row too: its rows become RaggedTensors first
            column = [RaggedTensor.from_tensor(row, ragged_rank=rank,
                                               row_splits_dtype=self._row_splits_dtype)
                      for row in column]
        return batch_rows(column, self._row_splits_dtype)

    def _cardinality(self):
        return batch_cardinality(self._input._cardinality(), self._batch_size,
                                 self._drop_remainder)

    def _element_spec(self):
        batch = self._batch_size if self._drop_remainder else None
        return structure.map_structure(lambda leaf: self._batched_spec(leaf, batch),
                                       self._input.element_spec)

    def _batched_spec(self, leaf, batch):
        rank = _ragged_rank(leaf)
        if rank is None or rank == "ragged":
            return leaf._batched(batch)
        return RaggedTensorSpec((batch,) + tuple(leaf.shape), leaf.dtype, rank + 1,
                                self._row_splits_dtype)


def _ragged_rank(spec):
    """The ragged rank a component of `spec` gets before batching: its last axis of unknown
    size; None when it stays dense (a known shape, an unknown rank, a sparse component);
    "ragged" for a component that is ragged already."""
    if isinstance(spec, RaggedTensorSpec):
        return "ragged"
    if not isinstance(spec, TensorSpec) or unknown_rank(spec.shape) or None not in tuple(spec.shape):
        return None
    return max(axis for axis, size in enumerate(spec.shape) if size is None)
