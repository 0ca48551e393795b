"""`Dataset.group_by_window` and `bucket_by_sequence_length`.

Elements go to a window by an int64 key. A full window is handed to `reduce_func(key, window)`,
whose dataset's elements are yielded. When the input ends, windows still open are reduced in
increasing key order (tf.data keeps its groups sorted by key).
"""

import numpy as np

from ...errors import InvalidArgumentError
from ...tensor import as_tensors
from .. import structure
from ..dataset import UnaryDataset
from ..spec import DatasetSpec, TensorSpec, unknown_rank
from . import _call, _trace
from .flat_map import dataset_from
from .padded_batch import _flat, _is_shape, _per_component
from .window import ListDataset


class GroupByWindowDataset(UnaryDataset):
    _stage = "group_by_window"

    def __init__(self, input_dataset, key_func, reduce_func, window_size=None,
                 window_size_func=None):
        if (window_size is None) == (window_size_func is None):
            raise ValueError("give exactly one of window_size and window_size_func")
        super().__init__(input_dataset)
        self._key_func = key_func
        self._reduce_func = reduce_func
        self._window_size_func = window_size_func or (lambda key: window_size)

    def _key(self, element):
        key = np.asarray(_call.call(self._key_func, element))
        if key.ndim != 0 or key.dtype.kind not in "iu":
            raise InvalidArgumentError(f"key_func must return an integer scalar, got dtype "
                                       f"{key.dtype} and shape {list(key.shape)}")
        return int(key)

    def _reduce(self, key, elements):
        # One dataset of whole elements (TensorFlow's window here), not `window()`'s
        # structure of one dataset per component.
        window = ListDataset(elements, lambda: self._input.element_spec)
        return dataset_from(lambda w: self._reduce_func(as_tensors(np.int64(key)), w), (window,),
                            "group_by_window")._iterator()

    def _element_spec(self):
        # `reduce_func` traced on a placeholder key and window (see `_trace`), as TensorFlow
        # traces it; a function the placeholders cannot run reads the first element instead.
        window = DatasetSpec(self._input.element_spec)
        spec = _trace.spec_or_none(self._reduce_func, (TensorSpec((), np.int64), window))
        if isinstance(spec, DatasetSpec):
            return spec.element_spec
        return super()._element_spec()

    def _make_iterator(self):
        groups = {}
        for element in self._input._iterator():
            key = self._key(element)
            group = groups.setdefault(key, [])
            group.append(element)
            size = int(self._window_size_func(as_tensors(np.int64(key))))
            if size < 1:
                raise InvalidArgumentError(f"window size for key {key} must be positive, "
                                           f"got {size}")
            if len(group) >= size:
                del groups[key]
                yield from self._reduce(key, group)
        for key in sorted(groups):
            yield from self._reduce(key, groups[key])


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries,
                              bucket_batch_sizes, padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """Bucket elements by length: bucket i holds lengths in [boundaries[i-1], boundaries[i])."""
    boundaries = [int(b) for b in bucket_boundaries]
    sizes = [int(s) for s in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError(f"bucket_batch_sizes needs len(bucket_boundaries) + 1 = "
                         f"{len(boundaries) + 1} entries, got {len(sizes)}")
    if boundaries != sorted(boundaries):
        raise ValueError(f"bucket_boundaries must be increasing, got {boundaries}")

    def bucket(*element):
        length = int(element_length_func(*element))
        return np.int64(np.searchsorted(boundaries, length, side="right"))

    def batch_bucket(key, window):
        # Real keys are bucket numbers; clipping only matters for the trace's placeholder keys.
        key = min(int(key), len(boundaries))
        if no_padding:
            return window.batch(sizes[key], drop_remainder=drop_remainder)
        shapes = padded_shapes
        if pad_to_bucket_boundary:
            if key == len(boundaries):
                raise InvalidArgumentError("pad_to_bucket_boundary: an element is longer "
                                           "than the last boundary allows")
            shapes = structure.map_structure(
                lambda spec: [boundaries[key] - 1] + [None] * (len(spec.shape) - 1),
                window.element_spec)
        return window.padded_batch(sizes[key], shapes, padding_values, drop_remainder)

    return BucketDataset(dataset, bucket, batch_bucket,
                         window_size_func=lambda key: sizes[int(key)],
                         padded_shapes=None if no_padding else padded_shapes)


class BucketDataset(GroupByWindowDataset):
    """`bucket_by_sequence_length`'s grouping, whose spec is TensorFlow's rule rather than a
    trace: the batch size and the boundary padding are looked up by bucket at run time, so the
    batch dimension is unknown, and so is every size padded to a boundary; sizes known in the
    input (or given in `padded_shapes`) stay known."""

    _stage = "bucket_by_sequence_length"

    def __init__(self, input_dataset, key_func, reduce_func, window_size_func, padded_shapes):
        super().__init__(input_dataset, key_func, reduce_func,
                         window_size_func=window_size_func)
        self._padded_shapes = padded_shapes

    def _element_spec(self):
        spec = self._input.element_spec
        if self._padded_shapes is None:
            shapes = structure.map_structure(lambda leaf: leaf.shape, spec)
        else:
            shapes = _per_component(spec, self._padded_shapes, _is_shape)
        return structure.pack_like(spec, [
            TensorSpec(None if unknown_rank(shape) else
                       (None,) + tuple(None if size is None or int(size) == -1 else int(size)
                                       for size in shape), leaf.dtype)
            for leaf, shape in zip(structure.flatten(spec), _flat(shapes, spec))])
