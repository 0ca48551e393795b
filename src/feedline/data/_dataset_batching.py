"""The transformations of `Dataset` that group elements or split them: `batch` and its
padded, ragged and sparse kinds, `unbatch`, `rebatch`, `window`, `group_by_window` and
`bucket_by_sequence_length`.

`Dataset` takes these methods from `BatchingMixin`. Each builds the dataset of its module under
`feedline.data.ops`; those modules subclass `Dataset`, which is built from this mixin, so this
module gets them, and `Dataset` itself, only once `Dataset` exists: `feedline.data.dataset`
then calls `_import_late()`.
"""

import numpy as np

from . import debug_mode


class BatchingMixin:
    """The batching transformations of `Dataset` (see the module docstring)."""

    # -- batching ----------------------------------------------------------------------------

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        """Stack `batch_size` consecutive elements into one (the last batch may be smaller).

        >>> [b.tolist() for b in Dataset.range(5).batch(2)]
        [[0, 1], [2, 3], [4]]
        """
        if debug_mode.DEBUG_MODE:  # sequential and in order (see data.debug_mode)
            num_parallel_calls = deterministic = None
        return batch.BatchDataset(self, batch_size, drop_remainder, num_parallel_calls,
                                  deterministic)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        """Batch elements of different shapes, padding each component to a common shape."""
        return padded_batch.PaddedBatchDataset(self, batch_size, padded_shapes,
                                               padding_values, drop_remainder)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=np.int64,
                     name=None):
        """Batch elements of different lengths: each component of rank >= 1 becomes a
        `RaggedTensor` with one row per element (scalars are stacked as by `batch`).

        >>> ds = Dataset.range(4).map(lambda x: np.arange(x)).ragged_batch(3)
        >>> [batch.to_list() for batch in ds]
        [[[], [0], [0, 1]], [[0, 1, 2]]]
        """
        from .ops.ragged_batch import RaggedBatchDataset

        return RaggedBatchDataset(self, batch_size, drop_remainder, row_splits_dtype)

    def sparse_batch(self, batch_size, row_shape, name=None):
        """Batch dense elements of different shapes into a `SparseTensor` of dense shape
        `[elements] + row_shape` (-1 in `row_shape`: the batch's largest size).

        >>> ds = Dataset.range(1, 4).map(lambda x: np.full([x], x)).sparse_batch(2, [3])
        >>> [batch.to_dense().tolist() for batch in ds]
        [[[1, 0, 0], [2, 2, 0]], [[3, 3, 3]]]
        """
        from .ops.sparse_batch import SparseBatchDataset

        return SparseBatchDataset(self, batch_size, row_shape)

    def unbatch(self, name=None):
        """Split every element along its first axis into rows.

        >>> [int(x) for x in Dataset.range(5).batch(2).unbatch()]
        [0, 1, 2, 3, 4]
        """
        return unbatch.UnbatchDataset(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        """Re-cut batches to `batch_size` rows (an int, or a list of sizes used in turn)."""
        return rebatch.RebatchDataset(self, batch_size, drop_remainder)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """Windows of `size` elements, each a dataset, starting every `shift` elements."""
        return window.WindowDataset(self, size, shift, stride, drop_remainder)

    def group_by_window(self, key_func, reduce_func, window_size=None,
                        window_size_func=None, name=None):
        """Group elements by `key_func` into windows and reduce each window to a dataset."""
        return group_by_window.GroupByWindowDataset(self, key_func, reduce_func, window_size,
                                                    window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None,
                                  padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        """Batch elements of similar length together, padding within each bucket."""
        return group_by_window.bucket_by_sequence_length(
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
            padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


def _import_late():
    """Import `Dataset` (the examples above use it) and the transformation modules the methods
    build datasets of: those import `feedline.data.dataset`, so this module can import them only
    once `Dataset` exists."""
    global Dataset, batch, group_by_window, padded_batch, rebatch, unbatch, window
    from .dataset import Dataset
    from .ops import batch, group_by_window, padded_batch, rebatch, unbatch, window
