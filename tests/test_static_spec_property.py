"""A property of every pipeline: its `element_spec`, found without reading any element, fits
every element it produces (same structure and dtypes, known sizes equal), and an empty
pipeline still has one.

The pipelines are random but seeded (one per test case): sources of random dtypes and shapes,
empty ones included, followed by a random chain of batch (with and without drop_remainder),
unbatch, padded_batch, window + flat_map, zip, map (cast, reshape, arithmetic, parsing),
filter, shuffle, take, skip and rebatch, a boolean mask whose length depends on the values.
"""

import numpy as np
import pytest

import feedline as fl
from feedline.data import structure
from feedline.data.composite_spec import RaggedTensorSpec
from feedline.data.dataset import Dataset
from feedline.data.spec import unknown_rank

DTYPES = ["int32", "int64", "float32", "float64", "bool", "uint8", "string"]


class _NoReading:
    """While active, a dataset that would read its first element to know its spec fails."""

    def __enter__(self):
        self._original = Dataset._element_spec

        def refuse(dataset):
            raise AssertionError(f"{type(dataset).__name__} read an element to find its spec")

        Dataset._element_spec = refuse
        return self

    def __exit__(self, *exc_info):
        Dataset._element_spec = self._original
        return False


def _values(rng, dtype, shape):
    if dtype == "string":
        return np.array([str(v).encode() for v in rng.integers(0, 9, size=shape).reshape(-1)],
                        dtype=object).reshape(shape)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    return rng.integers(0, 9, size=shape).astype(dtype)


def _source(rng):
    dtype = DTYPES[rng.integers(len(DTYPES))]
    count = int(rng.integers(0, 6))
    shape = tuple(int(size) for size in rng.integers(1, 4, size=rng.integers(0, 3)))
    kind = rng.integers(7)
    if kind == 0:
        return fl.data.Dataset.range(count), "range"
    if kind == 1:
        return fl.data.Dataset.from_tensor_slices(_values(rng, dtype, (count,) + shape)), \
            f"slices {dtype}{shape}x{count}"
    if kind == 2:
        return fl.data.Dataset.from_tensors(_values(rng, dtype, shape)).repeat(count), \
            f"tensors {dtype}{shape}x{count}"
    if kind == 3:
        rows = [_values(rng, dtype, (int(rng.integers(0, 3)),)) for _ in range(count)]
        spec = fl.TensorSpec((None,), dtype if dtype != "string" else fl.string)
        return fl.data.Dataset.from_generator(lambda: iter(rows), output_signature=spec), \
            f"generator {dtype} ragged x{count}"
    if kind == 4:
        left = fl.data.Dataset.from_tensor_slices(_values(rng, dtype, (count,) + shape))
        right = fl.data.Dataset.range(int(rng.integers(0, 6)))
        return fl.data.Dataset.zip((left, right)), f"zip {dtype}{shape}x{count}"
    if kind == 5:
        values = {"a": _values(rng, dtype, (count,) + shape), "b": np.arange(count)}
        return fl.data.Dataset.from_tensor_slices(values), f"dict {dtype}{shape}x{count}"
    dense = _values(rng, "int64", (3, 2)) * (rng.integers(0, 2, size=(3, 2)))
    return fl.data.Dataset.from_tensors(fl.sparse.from_dense(dense)).repeat(count), \
        f"sparse x{count}"


def _ranks(spec):
    return [None if unknown_rank(leaf.shape) else len(leaf.shape)
            for leaf in structure.flatten(spec)]


def _all_dense(spec):
    return all(isinstance(leaf, fl.TensorSpec) for leaf in structure.flatten(spec))


def _is_plain(spec):
    """A single dense component (the maps below handle that case)."""
    return isinstance(spec, fl.TensorSpec)


def _step(rng, dataset):
    spec = dataset.element_spec
    ranks = _ranks(spec)
    kind = int(rng.integers(21))
    size = int(rng.integers(1, 4))
    drop = bool(rng.integers(2))
    if kind == 0:
        return dataset.batch(size, drop_remainder=drop), f"batch({size}, {drop})"
    if kind == 1 and ranks and all(rank for rank in ranks):
        return dataset.unbatch(), "unbatch"
    if kind == 2 and all(rank is not None for rank in ranks) and _all_dense(spec):
        return dataset.padded_batch(size, drop_remainder=drop), f"padded_batch({size}, {drop})"
    if kind == 3 and _is_plain(spec):
        return dataset.window(size, shift=1, drop_remainder=drop).flat_map(
            lambda window: window.batch(size)), f"window({size}, {drop}).flat_map(batch)"
    if kind == 4 and _is_plain(spec) and spec.dtype != fl.string:
        return dataset.map(lambda x: fl.cast(x, fl.float32) * 2), "map(cast * 2)"
    if kind == 5 and _is_plain(spec) and not unknown_rank(spec.shape):
        return dataset.map(lambda x: fl.reshape(x, [-1])), "map(reshape -1)"
    if kind == 6:
        return dataset.filter(lambda *x: True), "filter"
    if kind == 7:
        return dataset.shuffle(4, seed=1), "shuffle"
    if kind == 8:
        return dataset.take(size), f"take({size})"
    if kind == 9:
        return dataset.skip(size), f"skip({size})"
    if kind == 10 and ranks and all(rank for rank in ranks) and _all_dense(spec):
        return dataset.rebatch(size, drop_remainder=drop), f"rebatch({size}, {drop})"
    if kind == 11:
        return fl.data.Dataset.zip((dataset, fl.data.Dataset.range(3))), "zip(range)"
    if kind == 12:
        return dataset.concatenate(dataset.take(1)), "concatenate(take 1)"
    if kind == 13:
        return dataset.enumerate(), "enumerate"
    if kind == 14:
        return dataset.repeat(2).prefetch(1).cache(), "repeat(2).prefetch.cache"
    if kind == 15 and _is_plain(spec):
        return dataset.interleave(lambda x: fl.data.Dataset.from_tensors(x).repeat(2),
                                  cycle_length=2), "interleave(from_tensors x2)"
    if kind == 16 and _is_plain(spec):
        return dataset.map(lambda x: fl.io.parse_tensor(fl.io.serialize_tensor(x),
                                                        spec.dtype)), "map(parse_tensor)"
    if kind == 17 and _is_plain(spec):
        return dataset.map(lambda x: {"value": x, "size": fl.size(x)}), "map(dict)"
    if kind == 18 and _is_plain(spec) and spec.dtype != fl.string:
        return dataset.map(lambda x: fl.py_function(lambda v: v, [x], spec.dtype)), \
            "map(py_function)"
    if kind == 19 and all(rank is not None for rank in ranks):
        return dataset.ragged_batch(size, drop_remainder=drop), f"ragged_batch({size}, {drop})"
    if kind == 20 and _is_plain(spec) and spec.dtype not in (fl.string, fl.bool):
        def positive(x):
            flat = fl.reshape(x, [-1])
            return flat[flat > 1]
        return dataset.map(positive), "map(boolean mask)"
    return dataset, "-"


def _pipeline(seed):
    rng = np.random.default_rng(seed)
    dataset, description = _source(rng)
    steps = [description]
    for _ in range(int(rng.integers(1, 5))):
        dataset, step = _step(rng, dataset)
        steps.append(step)
    return dataset, " -> ".join(steps)


def _leaf_fits(spec, value):
    if isinstance(spec, RaggedTensorSpec) and spec.ragged_rank <= 0:
        # TensorFlow's spec of an unbatched ragged batch: its values are dense tensors
        # (ragged_rank 0, or below after unbatching again).
        return fl.TensorSpec(spec.shape, spec.dtype).is_compatible_with(value)
    return spec.is_compatible_with(value)


def _fits(spec, element):
    leaves = structure.flatten(spec)
    values = structure.flatten(structure.to_element(element))
    if len(leaves) != len(values):
        return False
    return all(_leaf_fits(leaf, value) for leaf, value in zip(leaves, values))


def _elements(dataset):
    """The elements produced before the pipeline stops, and whether it stopped on the error
    TensorFlow raises too (batching rows of different shapes, which random pipelines do)."""
    produced = []
    try:
        for element in dataset.as_numpy_iterator():
            produced.append(element)
    except fl.errors.InvalidArgumentError as error:
        assert "shape" in str(error), error
    return produced


@pytest.mark.parametrize("seed", range(400))
def test_the_static_spec_fits_every_element(seed):
    dataset, description = _pipeline(seed)
    with _NoReading():
        spec = dataset.element_spec
    for element in _elements(dataset):
        assert _fits(spec, element), f"{description}: {spec} does not fit {element!r}"


FEATURES = {"x": fl.io.FixedLenFeature([2], fl.float32),
            "n": fl.io.FixedLenFeature([], fl.int64, default_value=0),
            "tags": fl.io.VarLenFeature(fl.string)}


def _records(count):
    def example(index):
        return fl.train.Example(features=fl.train.Features(feature={
            "x": fl.train.Feature(float_list=fl.train.FloatList(value=[index, 1.0])),
            "tags": fl.train.Feature(bytes_list=fl.train.BytesList(
                value=[b"t"] * (index % 3)))})).SerializeToString()
    return fl.data.Dataset.from_tensor_slices([example(i) for i in range(count)] or
                                              np.array([], dtype=object))


@pytest.mark.parametrize("count", [0, 1, 5])
@pytest.mark.parametrize("batch, drop", [(None, False), (2, False), (2, True)])
def test_parsing_maps_have_static_specs_that_fit_the_parsed_elements(count, batch, drop):
    records = _records(count)
    if batch is None:
        dataset = records.map(lambda r: fl.io.parse_single_example(r, FEATURES))
    else:
        dataset = records.batch(batch, drop_remainder=drop).map(
            lambda r: fl.io.parse_example(r, FEATURES))
    dataset = dataset.map(lambda parsed: (parsed["x"] * 2, parsed["n"], parsed["tags"]))
    with _NoReading():
        spec = dataset.element_spec
    for element in dataset.as_numpy_iterator():
        assert _fits(spec, element), f"{spec} does not fit {element!r}"
