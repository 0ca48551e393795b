"""The batching stages of the spec fuzzer (see `tests/spec_fuzz_stages.py`): batch,
padded_batch, unbatch, rebatch, ragged_batch and window + flat_map, each with the spec and
cardinality TensorFlow's rules give (batch_op.py, padded_batch_op.py, unbatch_op.py,
rebatch_op.py, ragged_batch_op.py, window_op.py and their kernels)."""

import numpy as np

import feedline as fl
from feedline.data import structure
from feedline.data.composite_spec import RaggedTensorSpec, SparseTensorSpec
from feedline.data.spec import TensorSpec
from feedline.data.spec import unknown_rank

from spec_fuzz_pipelines import (INF, UNK, D, batch_count, batched, fully_known, known_rank,
                                 leaves, unpacked)


def _batchable(leaf):
    """A component `batch` can stack: a fully known dense one, or a ragged or sparse one."""
    if isinstance(leaf, (RaggedTensorSpec, SparseTensorSpec)):
        return not unknown_rank(leaf.shape)
    return isinstance(leaf, TensorSpec) and not unknown_rank(leaf.shape) and None not in leaf.shape


def _batched_leaf(leaf, size):
    """batch_op.py's rule per component: `_batch(size)` of its spec (a RaggedTensorSpec gains
    a ragged dimension, a SparseTensorSpec a dimension)."""
    shape = (size,) + tuple(leaf.shape)
    if isinstance(leaf, RaggedTensorSpec):
        return RaggedTensorSpec(shape, leaf.dtype, leaf.ragged_rank + 1, leaf.row_splits_dtype)
    if isinstance(leaf, SparseTensorSpec):
        return SparseTensorSpec(shape, leaf.dtype)
    return TensorSpec(shape, leaf.dtype)


def stage_batch(rng, case):
    """batch_op.py: each component gets a leading batch_size with drop_remainder, else None."""
    if not all(_batchable(leaf) for leaf in leaves(case.spec)):
        return None
    size, drop = int(rng.integers(1, 4)), bool(rng.integers(2))
    spec = structure.map_structure(lambda leaf: _batched_leaf(leaf, size if drop else None),
                                   case.spec)
    if rng.random() < 0.3:  # apply(f) is f(dataset)
        dataset = case.dataset.apply(lambda d: d.batch(size, drop_remainder=drop))
    else:
        dataset = case.dataset.batch(size, drop_remainder=drop)
    return case.then(dataset, spec, batch_count(case.cardinality, size, drop),
                     f"batch({size},{drop})", together=True)


def stage_padded_batch(rng, case):
    """padded_batch_op.py: [batch] + the padded shape (default: the input's shape; -1/None:
    padded to the batch's longest, so unknown)."""
    if not known_rank(case.spec):
        return None
    size, drop = int(rng.integers(1, 4)), bool(rng.integers(2))
    batch = size if drop else None
    mode = int(rng.integers(3))
    if mode == 0:
        dataset, shapes = case.dataset.padded_batch(size, drop_remainder=drop), None
        spec = structure.map_structure(
            lambda s: TensorSpec((batch,) + tuple(s.shape), s.dtype), case.spec)
        text = f"padded_batch({size},{drop})"
    else:
        def padded(s):  # a larger known size, or -1 for the longest in the batch
            return [-1 if d is None or rng.random() < 0.3 else d + int(rng.integers(0, 2))
                    for d in s.shape]
        shapes = structure.map_structure(padded, case.spec)
        spec = structure.pack_like(case.spec, [
            TensorSpec((batch,) + tuple(None if d == -1 else d for d in shape), s.dtype)
            for s, shape in zip(leaves(case.spec), _flat_shapes(shapes, case.spec))])
        values = None
        if mode == 2:
            values = structure.map_structure(_padding_value, case.spec)
        dataset = case.dataset.padded_batch(size, padded_shapes=shapes,
                                            padding_values=values, drop_remainder=drop)
        text = f"padded_batch({size},{shapes},{values},{drop})"
    return case.then(dataset, spec, batch_count(case.cardinality, size, drop), text,
                     together=True)


def _flat_shapes(shapes, template):
    if isinstance(template, dict):
        return [s for key in sorted(template) for s in _flat_shapes(shapes[key], template[key])]
    if isinstance(template, tuple):
        return [s for sub, item in zip(shapes, template) for s in _flat_shapes(sub, item)]
    return [shapes]


def _padding_value(spec):
    if spec.dtype == fl.string:
        return b"?"
    return np.array(1, dtype=spec.dtype)[()]


def stage_unbatch(rng, case):
    """unbatch_op.py: drop the first axis. unbatch_dataset_op.cc: n * the first component's
    static first size (in flattened order) when one is known and positive, else unknown."""
    specs = leaves(case.spec)
    if not known_rank(case.spec) or any(len(s.shape) == 0 for s in specs):
        return None
    if len(specs) > 1 and not case.together:
        return None
    spec = structure.map_structure(lambda s: TensorSpec(tuple(s.shape)[1:], s.dtype),
                                   case.spec)
    first = next((s.shape[0] for s in specs if s.shape[0] is not None), None)
    n = case.cardinality
    if n == INF and not first:  # endless batches that may hold no rows: it might never yield
        return None
    card = n if n in (INF, UNK) else (n * first if first else UNK)
    return case.then(case.dataset.unbatch(), spec, card, "unbatch()")


def stage_rebatch(rng, case):
    """rebatch_op.py: rows keep their shape; the new batch size is known when the sizes are
    one constant and either drop_remainder or every input batch size is a known multiple of
    it. rebatch_dataset_op.cc (V2) has no cardinality: unknown."""
    specs = leaves(case.spec)
    if not known_rank(case.spec) or any(len(s.shape) == 0 or None in tuple(s.shape)[1:]
                                        for s in specs):
        return None
    if len(specs) > 1 and not case.together:
        return None
    if case.cardinality == INF and not specs[0].shape[0]:  # maybe endless empty batches
        return None
    sizes = [int(rng.integers(1, 4))] * int(rng.integers(1, 3))
    if rng.random() < 0.3:
        sizes = [1, 2]
    drop = bool(rng.integers(2))
    new = sizes[0] if len(set(sizes)) == 1 else None
    firsts = {s.shape[0] for s in specs if s.shape[0] is not None}
    if new is not None and not drop and not (firsts and firsts.pop() % new == 0):
        new = None
    spec = structure.map_structure(lambda s: TensorSpec((new,) + tuple(s.shape)[1:], s.dtype),
                                   case.spec)
    argument = sizes if len(sizes) > 1 else sizes[0]
    return case.then(case.dataset.rebatch(argument, drop_remainder=drop), spec, UNK,
                     f"rebatch({argument},{drop})", together=True)


def stage_ragged_batch(rng, case):
    """ragged_batch_op.py: a TensorSpec whose shape is fully known batches densely; one with
    an unknown size becomes a RaggedTensorSpec of ragged_rank (last unknown axis) + 1."""
    if not known_rank(case.spec):
        return None
    size, drop = int(rng.integers(1, 4)), bool(rng.integers(2))
    batch = size if drop else None

    def rule(s):
        shape = tuple(s.shape)
        if None not in shape:
            return TensorSpec((batch,) + shape, s.dtype)
        ragged_rank = max(axis for axis, d in enumerate(shape) if d is None) + 1
        return RaggedTensorSpec((batch,) + shape, s.dtype, ragged_rank, fl.int64)
    spec = structure.map_structure(rule, case.spec)
    return case.then(case.dataset.ragged_batch(size, drop_remainder=drop), spec,
                     batch_count(case.cardinality, size, drop), f"ragged_batch({size},{drop})")


def stage_window_flat_map(rng, case):
    """window_op.py: each window component is a dataset of the input's spec; flat_map of
    `w.batch(size)` gives [None] + shape (or [size] with drop_remainder); flat_map's
    cardinality is unknown."""
    if not fully_known(case.spec) or case.cardinality == INF:
        return None
    size, shift = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    stride, drop, inner = int(rng.integers(1, 3)), bool(rng.integers(2)), bool(rng.integers(2))
    windows = case.dataset.window(size, shift=shift, stride=stride, drop_remainder=drop)

    def batch_windows(window_structure):
        batches = structure.map_structure(
            lambda w: w.batch(size, drop_remainder=inner), window_structure)
        return batches if isinstance(batches, D) else D.zip(batches)
    spec = batched(case.spec, size if inner else None)
    text = f"window({size},{shift},{stride},{drop}).flat_map(batch {inner})"
    return case.then(windows.flat_map(unpacked(case.spec, batch_windows)), spec, UNK, text,
                     together=True)
