"""The stages of the spec fuzzer: each takes a `Case` and returns the next one (or None when
it does not apply), with the spec and cardinality TensorFlow's rules give.

Cardinality rules are those of the kernels' `CardinalityInternal`
(tensorflow/core/kernels/data/): map, shuffle, prefetch, cache, scan, enumerate keep it;
filter, flat_map, interleave, group_by_window, unique, take_while, rebatch and readers are
unknown; take/skip/repeat/shard/zip/concatenate/window/batch compute it; directed interleave
(sample/choose_from_datasets) is infinite when an input is, else unknown.
"""

import numpy as np

import feedline as fl
from feedline.data import structure
from feedline.data.composite_spec import RaggedTensorSpec
from feedline.data.spec import TensorSpec
from feedline.data.spec import unknown_rank

from spec_fuzz_batching import (stage_batch, stage_padded_batch, stage_ragged_batch,
                                stage_rebatch, stage_unbatch, stage_window_flat_map)
from spec_fuzz_ops import OPS, int64_key_for, predicate_for
from spec_fuzz_pipelines import (INF, UNK, D, batched, dense, fully_known,
                                 known_rank, leaves, source, unpacked)


def _first(element):
    return structure.flatten(element)[0]


def _on_first(spec, function):
    return unpacked(spec, lambda element: function(_first(element)))


def _traceable(spec):
    """False for a ragged component with a uniform size among its ragged dimensions (from
    ragged_batch of a `(3, None)` component): feedline's trace loses that size (a known gap,
    see the report of issue 15), so map and scan are not fuzzed over it."""
    return not any(isinstance(leaf, RaggedTensorSpec) and not unknown_rank(leaf.shape)
                   and any(size is not None for size in tuple(leaf.shape)[1:leaf.ragged_rank])
                   for leaf in leaves(spec))


def _through_function(spec):
    """The spec of `spec`'s values after a traced function passes them through: a
    ragged_rank-0 RaggedTensorSpec reaches the function as a dense tensor, and so leaves it
    as a TensorSpec (structured_function.py decodes each component by its spec)."""
    return structure.map_structure(
        lambda leaf: TensorSpec(leaf.shape, leaf.dtype)
        if isinstance(leaf, RaggedTensorSpec) and leaf.ragged_rank == 0 else leaf, spec)


def stage_flat_map_slices(rng, case):
    """flat_map_op.py: the returned dataset's spec (slices of a rank >= 1 element: its rows);
    flat_map's cardinality is unknown."""
    spec = case.spec
    if not isinstance(spec, TensorSpec) or not spec.shape or case.cardinality == INF:
        return None
    return case.then(case.dataset.flat_map(D.from_tensor_slices),
                     TensorSpec(tuple(spec.shape)[1:], spec.dtype), UNK, "flat_map(slices)")


def stage_zip(rng, case):
    """zip_op.py: the nested structure of the inputs' specs. zip_dataset_op.cc: unknown if
    any input is, else the smallest known size (infinite when all are infinite)."""
    if rng.random() < 0.15:  # zip_op.py: a single dataset is the structure itself
        return case.then(D.zip(case.dataset), case.spec, case.cardinality, "zip(alone)",
                         together=case.together)
    other = source(rng, case.folder)
    parts = [case.cardinality, other.cardinality]
    if rng.random() < 0.5:
        dataset, spec = D.zip((case.dataset, other.dataset)), (case.spec, other.spec)
    else:
        third = source(rng, case.folder)
        parts.append(third.cardinality)
        dataset = D.zip({"x": case.dataset, "y": (other.dataset, third.dataset)})
        spec = {"x": case.spec, "y": (other.spec, third.spec)}
    known = [n for n in parts if n >= 0]
    card = UNK if UNK in parts else (min(known) if known else INF)
    result = case.then(dataset, spec, card, f"zip({other.text})")
    result.folder = case.folder
    return result


def stage_concatenate(rng, case):
    """concatenate_op.py: the most specific common spec (sizes that differ become None).
    concatenate_dataset_op.cc: infinite if either is, unknown if either is, else the sum."""
    if not known_rank(case.spec) or case.cardinality == INF:
        return None

    def example(s):
        shape = [int(rng.integers(0, 3)) if d is None or rng.random() < 0.2 else d
                 for d in s.shape]
        value = np.zeros(shape, dtype=object if s.dtype == fl.string else s.dtype)
        if s.dtype == fl.string:
            value[...] = b"c"
        return value[()] if not shape and s.dtype != fl.string else value
    element = structure.map_structure(example, case.spec)
    spec = structure.map_structure(
        lambda s, value: TensorSpec([d if d == v else None for d, v in
                                     zip(s.shape, np.shape(value))], s.dtype),
        case.spec, element)
    n = case.cardinality
    return case.then(case.dataset.concatenate(D.from_tensors(element)), spec,
                     n if n in (INF, UNK) else n + 1, "concatenate(from_tensors)")


def stage_map(rng, case):
    """map_op.py: the traced function's output spec (each op's rule in spec_fuzz_ops);
    map_dataset_op.cc keeps the cardinality."""
    paths = [index for index, s in enumerate(leaves(case.spec)) if isinstance(s, TensorSpec)]
    if not paths or not _traceable(case.spec):
        return None
    index = paths[int(rng.integers(len(paths)))]
    target = leaves(case.spec)[index]
    usable = [op for op in OPS if op[1](target)]
    name, _, function, rule = usable[int(rng.integers(len(usable)))]

    def replace(element):
        parts = structure.flatten(element)
        parts[index] = function(parts[index])
        return structure.pack_like(element, parts)
    specs = leaves(_through_function(case.spec))
    specs[index] = rule(target)
    spec = rule(target) if not structure.is_structure(case.spec) else \
        structure.pack_like(case.spec, specs)
    parallel = None if rng.random() < 0.7 else 2
    dataset = case.dataset.map(unpacked(case.spec, replace), num_parallel_calls=parallel)
    return case.then(dataset, spec, case.cardinality, f"map({name}@{index})")


def stage_filter(rng, case):
    """filter_op.py keeps the spec; filter_dataset_op.cc: cardinality unknown."""
    if case.cardinality == INF or not isinstance(leaves(case.spec)[0], TensorSpec):
        return None
    keep = predicate_for(leaves(case.spec)[0])
    return case.then(case.dataset.filter(_on_first(case.spec, keep)), case.spec, UNK,
                     "filter()", together=case.together)


def stage_take_while(rng, case):
    """take_while_op.py keeps the spec; take_while_dataset_op.cc: unknown."""
    if case.cardinality == INF or not isinstance(leaves(case.spec)[0], TensorSpec):
        return None
    keep = predicate_for(leaves(case.spec)[0])
    return case.then(case.dataset.take_while(_on_first(case.spec, keep)), case.spec, UNK,
                     "take_while()", together=case.together)


def stage_keep(rng, case):
    """Spec-keeping stages: shuffle, prefetch, cache keep the cardinality too (their kernels
    return the input's)."""
    kind = int(rng.integers(3))
    if kind == 0:
        dataset = case.dataset.shuffle(int(rng.integers(1, 5)), seed=int(rng.integers(50)))
    elif kind == 1:
        dataset = case.dataset.prefetch([1, 2, fl.data.AUTOTUNE][int(rng.integers(3))])
    else:
        dataset = case.dataset.cache()
    return case.then(dataset, case.spec, case.cardinality, ["shuffle", "prefetch", "cache"][kind],
                     together=case.together)


def stage_slice(rng, case):
    """take/skip/repeat/shard keep the spec; their kernels' cardinality rules."""
    n, kind = case.cardinality, int(rng.integers(4))
    if kind == 0:  # take_dataset_op.cc
        count = int(rng.choice([-1, 0, 1, 2, 5]))
        if n == UNK:
            card = UNK
        elif n == INF:
            card = INF if count < 0 else count
        else:
            card = n if count < 0 else min(n, count)
        return case.then(case.dataset.take(count), case.spec, card, f"take({count})",
                         together=case.together)
    if kind == 1:  # skip_dataset_op.cc
        count = int(rng.choice([-1, 0, 1, 3] if n != INF else [0, 1, 3]))  # no endless skip
        card = n if n in (INF, UNK) else (0 if count < 0 else max(0, n - count))
        return case.then(case.dataset.skip(count), case.spec, card, f"skip({count})",
                         together=case.together)
    if kind == 2:  # repeat_dataset_op.cc
        # repeat() of an input that may be empty is "infinite" but ends: not generated.
        count = int(rng.choice([0, 1, 2, -1] if n > 0 or n == INF else [0, 1, 2]))
        if count < 0:
            card = 0 if n == 0 else INF
        elif count == 0:
            card = 0
        else:
            card = n if n in (INF, UNK) else n * count
        return case.then(case.dataset.repeat(count), case.spec, card, f"repeat({count})",
                         together=case.together)
    shards, index = int(rng.integers(1, 4)), 0  # shard_dataset_op.cc
    index = int(rng.integers(shards))
    card = n if n in (INF, UNK) else n // shards + (1 if index < n % shards else 0)
    return case.then(case.dataset.shard(shards, index), case.spec, card,
                     f"shard({shards},{index})", together=case.together)


def stage_enumerate(rng, case):
    """enumerate is zip(range(start, max int64), self): (int64 scalar, element); the range is
    finite but huge, so the cardinality is the input's."""
    start = int(rng.integers(0, 5))
    return case.then(case.dataset.enumerate(start), (TensorSpec((), fl.int64), case.spec),
                     case.cardinality, f"enumerate({start})")


def stage_interleave(rng, case):
    """interleave_op.py: the spec of the datasets the function returns; unknown cardinality."""
    if case.cardinality == INF or not dense(case.spec):
        return None
    repeat, parallel = int(rng.integers(1, 3)), [None, 2][int(rng.integers(2))]
    if isinstance(case.spec, tuple):
        function = lambda *parts: D.from_tensors(parts).repeat(repeat)  # noqa: E731
    else:
        function = lambda element: D.from_tensors(element).repeat(repeat)  # noqa: E731
    dataset = case.dataset.interleave(function, cycle_length=2,
                                      block_length=int(rng.integers(1, 3)),
                                      num_parallel_calls=parallel)
    return case.then(dataset, case.spec, UNK, f"interleave(x{repeat}, {parallel})")


def stage_scan(rng, case):
    """scan_op.py: the output part of the function's result; scan_dataset_op.cc keeps the
    cardinality."""
    if not _traceable(case.spec):
        return None
    dataset = case.dataset.scan(np.int64(0), lambda state, element: (state + 1,
                                                                      (state, element)))
    return case.then(dataset, (TensorSpec((), fl.int64), _through_function(case.spec)),
                     case.cardinality, "scan(count)")


def stage_group_by_window(rng, case):
    """group_by_window_op.py: the reduce function's dataset spec (here a batch of the
    window: [None] + shape); group_by_window_dataset_op.cc: unknown."""
    if not fully_known(case.spec) or case.cardinality == INF:
        return None
    size = int(rng.integers(1, 4))
    key = _on_first(case.spec, int64_key_for(leaves(case.spec)[0]))
    dataset = case.dataset.group_by_window(key, lambda _, window: window.batch(size),
                                           window_size=size)
    return case.then(dataset, batched(case.spec, None), UNK, f"group_by_window({size})",
                     together=True)


def stage_bucket(rng, case):
    """bucket_by_sequence_length: group_by_window whose windows are padded_batch-ed with a
    batch size chosen per bucket (a tensor), so [None] + the input's shape; unknown size."""
    if not isinstance(case.spec, TensorSpec) or unknown_rank(case.spec.shape) \
            or len(case.spec.shape) != 1 or case.cardinality == INF:
        return None
    dataset = case.dataset.bucket_by_sequence_length(
        lambda x: fl.shape(x)[0], [2, 4], [2, 2, 3], drop_remainder=bool(rng.integers(2)))
    spec = TensorSpec((None,) + tuple(case.spec.shape), case.spec.dtype)
    return case.then(dataset, spec, UNK, "bucket_by_sequence_length()", together=True)


def stage_unique(rng, case):
    """unique_op.py: int32/int64/string scalars only, spec kept; unique_dataset_op.cc:
    unknown."""
    spec = case.spec
    if not isinstance(spec, TensorSpec) or spec.shape != () or case.cardinality == INF \
            or not (spec.dtype == fl.string or spec.dtype in (fl.int32, fl.int64)):
        return None
    return case.then(case.dataset.unique(), spec, UNK, "unique()")


def stage_directed(rng, case):
    """sample_from_datasets / choose_from_datasets (directed_interleave_op.py): the common
    spec of the inputs; directed_interleave_dataset_op.cc: infinite when an input is, else
    unknown."""
    others = [case.dataset, case.dataset.skip(1)]
    card = INF if case.cardinality == INF else UNK
    if rng.random() < 0.5:
        dataset = D.sample_from_datasets(others, weights=[0.5, 0.5],
                                         seed=int(rng.integers(50)))
        return case.then(dataset, case.spec, card, "sample_from_datasets")
    choice = D.range(int(rng.integers(card == INF, 6))).map(lambda i: i % 2)
    if card == INF:  # an endless choice too, so that the pipeline really is endless
        choice = choice.repeat().take(-1) if rng.random() < 0.5 else D.range(2).repeat()
    dataset = D.choose_from_datasets(others, choice, stop_on_empty_dataset=False)
    return case.then(dataset, case.spec, card, "choose_from_datasets")


STAGES = [
    (stage_map, 6), (stage_batch, 3), (stage_padded_batch, 2), (stage_unbatch, 2),
    (stage_rebatch, 1), (stage_ragged_batch, 1), (stage_window_flat_map, 1), (stage_zip, 1),
    (stage_concatenate, 1), (stage_filter, 1), (stage_take_while, 1), (stage_keep, 2),
    (stage_slice, 3), (stage_enumerate, 1), (stage_interleave, 1), (stage_scan, 1),
    (stage_group_by_window, 1), (stage_flat_map_slices, 1), (stage_bucket, 1),
    (stage_unique, 1), (stage_directed, 1),
]
