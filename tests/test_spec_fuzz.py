"""Random pipelines: their `element_spec` and `cardinality()` never disagree with their
elements, and are what TensorFlow's rules give.

Each seed builds one pipeline (`tests/spec_fuzz_pipelines.py`: sources of Python values,
NumPy arrays, generators, text and TFRecord files, random and counter; then one to four
stages from `tests/spec_fuzz_stages.py`), together with the spec and cardinality that
TensorFlow's Python ops and kernels give it (each stage cites its rule: the ops'
`element_spec` in tensorflow/python/data/ops/*_op.py, the kernels' `CardinalityInternal` in
tensorflow/core/kernels/data/; map functions' static shapes in `tests/spec_fuzz_ops.py` come
from the ops' documented shape rules). For every pipeline:

(a) every element has the spec's structure and dtypes, and the spec's known sizes;
(b) `cardinality()` is TensorFlow's value, and a known one is the number of elements;
(c) the spec is the same whether asked before or after iterating;
(d) the spec is TensorFlow's.
"""

import itertools

import pytest

import feedline as fl
from feedline.data import structure
from feedline.data.composite_spec import RaggedTensorSpec
from feedline.data.spec import DatasetSpec, TensorSpec, spec_of
from feedline.data.spec import unknown_rank

from spec_fuzz_pipelines import INF, UNK, make_case

SEEDS = range(800)
ENDLESS_LOOK = 12  # elements read from an endless pipeline


def _skeleton(value):
    """The containers of a structure with its leaves erased (dict keys and tuple kinds kept)."""
    if isinstance(value, dict):
        return {key: _skeleton(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return (type(value).__name__, tuple(_skeleton(item) for item in value))
    return "leaf"


def _sizes_fit(expected, actual):
    if expected is None:
        return True
    return len(expected) == len(actual) and all(
        e is None or a is None or e == a for e, a in zip(expected, actual))


def _leaf_problem(spec, value):
    """Why `value` does not fit the component spec `spec`, or None."""
    if isinstance(spec, DatasetSpec):
        if not isinstance(value, fl.data.Dataset):
            return f"expected a dataset, got {type(value).__name__}"
        return None if value.element_spec == spec.element_spec else \
            f"window spec {value.element_spec} != {spec.element_spec}"
    have = spec_of(value)
    if isinstance(spec, RaggedTensorSpec) and spec.ragged_rank == 0:
        # TensorFlow hands out a ragged_rank-0 RaggedTensor as the dense tensor it is
        have = RaggedTensorSpec(have.shape, have.dtype, 0, spec.row_splits_dtype) \
            if isinstance(have, TensorSpec) else have
    if type(have) is not type(spec):
        return f"expected a {type(spec).__name__}, got a {type(have).__name__}"
    if have.dtype != spec.dtype:
        return f"dtype {have.dtype} != spec {spec.dtype}"
    if isinstance(spec, RaggedTensorSpec) and have.ragged_rank != spec.ragged_rank:
        return f"ragged_rank {have.ragged_rank} != spec {spec.ragged_rank}"
    if not unknown_rank(spec.shape) and not _sizes_fit(tuple(spec.shape), tuple(have.shape)):
        return f"shape {tuple(have.shape)} does not fit spec {tuple(spec.shape)}"
    return None


def _element_problems(spec, element):
    if _skeleton(spec) != _skeleton(element):
        return [f"structure {_skeleton(element)} != spec {_skeleton(spec)}"]
    problems = []
    for (path, leaf_spec), value in zip(structure.flatten_with_paths(spec),
                                        structure.flatten(element)):
        problem = _leaf_problem(leaf_spec, value)
        if problem:
            problems.append(f"{structure.path_name(path)}: {problem}")
    return problems


@pytest.mark.parametrize("seed", SEEDS)
def test_spec_and_cardinality_agree_with_the_elements_and_tensorflow(seed, tmp_path):
    """(a)-(d) above for the pipeline of `seed`."""
    case = make_case(seed, tmp_path)
    dataset = case.dataset
    spec_first = dataset.element_spec
    cardinality = int(dataset.cardinality())
    elements = list(itertools.islice(iter(dataset), ENDLESS_LOOK if case.cardinality == INF
                                     else 10_000))
    where = f"seed {seed}: {case.text}"
    for index, element in enumerate(elements):
        problems = _element_problems(spec_first, element)
        assert not problems, f"{where}: element {index}: {problems}"
    if case.cardinality not in (INF, UNK):
        assert len(elements) == case.cardinality, f"{where}: model count is wrong"
    assert cardinality == case.cardinality, f"{where}: cardinality {cardinality}, " \
                                            f"TensorFlow's rule gives {case.cardinality}"
    if cardinality >= 0:
        assert len(elements) == cardinality, f"{where}"
    late = make_case(seed, tmp_path)
    list(itertools.islice(iter(late.dataset), ENDLESS_LOOK))
    assert late.dataset.element_spec == spec_first, f"{where}: spec changed by iterating"
    if case.spec is not None:
        assert spec_first == case.spec, f"{where}: spec {spec_first}, TensorFlow's rule " \
                                        f"gives {case.spec}"


@pytest.mark.parametrize("seed", range(0, 800, 13))
def test_assert_cardinality_makes_an_unknown_count_known(seed, tmp_path):
    """tf.data.experimental.assert_cardinality: the cardinality becomes the promised count
    (assert_cardinality_dataset_op.cc returns it) and the spec is kept."""
    case = make_case(seed, tmp_path)
    if case.cardinality == INF:
        pytest.skip("endless pipeline")
    count = sum(1 for _ in make_case(seed, tmp_path).dataset)
    promised = case.dataset.apply(fl.data.experimental.assert_cardinality(count))
    assert int(promised.cardinality()) == count
    assert promised.element_spec == case.dataset.element_spec
    assert sum(1 for _ in promised) == count
