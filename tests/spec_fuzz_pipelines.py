"""Seeded random pipelines for `tests/test_spec_fuzz.py`, each built beside a model of what
TensorFlow 2.21 says about it: its `element_spec` and its `cardinality()`.

`make_case(seed, folder)` builds the same pipeline for the same seed. The model follows the
rules of TensorFlow's Python ops (`tensorflow/python/data/ops/*_op.py`: the spec) and of their
kernels' `CardinalityInternal` (`tensorflow/core/kernels/data/*_op.cc`); each stage below cites
the rule it applies. Where no rule can be stated the model is None and only the consistency
checks run.
"""

import numpy as np

import feedline as fl
from feedline.data import structure
from feedline.data.spec import TensorSpec
from feedline.data.spec import unknown_rank


D = fl.data.Dataset
INF, UNK = -1, -2
NUMPY_DTYPES = ["int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64",
                "bool"]


class Case:
    """A pipeline, the spec and cardinality TensorFlow's rules give it, and how it was built.

    `together` is True while every component's first axis comes from one batch (so they can be
    unbatched together).
    """

    def __init__(self, dataset, spec, cardinality, text, together=False, folder=None):
        self.dataset, self.spec, self.cardinality = dataset, spec, cardinality
        self.text, self.together, self.folder = text, together, folder

    def then(self, dataset, spec, cardinality, text, together=False):
        return Case(dataset, spec, cardinality, f"{self.text}.{text}", together, self.folder)


def unpacked(spec, function):
    """`function(element)` as a map function: TensorFlow unpacks a top-level tuple."""
    if isinstance(spec, tuple):
        return lambda *parts: function(tuple(parts))
    return function


def leaves(spec):
    return structure.flatten(spec)


def dense(spec):
    return all(isinstance(leaf, TensorSpec) for leaf in leaves(spec))


def known_rank(spec):
    return dense(spec) and all(not unknown_rank(leaf.shape) for leaf in leaves(spec))


def fully_known(spec):
    return known_rank(spec) and all(None not in tuple(leaf.shape) for leaf in leaves(spec))


def batched(spec, size):
    return structure.map_structure(lambda s: TensorSpec((size,) + tuple(s.shape), s.dtype),
                                   spec)


def batch_count(n, size, drop):
    """batch_dataset_op.cc: ceil (or floor with drop_remainder) of a known input size."""
    if n < 0:
        return n
    return n // size if drop else -(-n // size)


# -- sources -------------------------------------------------------------------------------

def _python_values(rng, count):
    """A Python value with `count` rows and the spec of one row (TensorFlow's conversion:
    int -> int32, too big for int32 -> int64, float -> float32, str/bytes -> string)."""
    kind = int(rng.integers(7))
    width = int(rng.integers(1, 4))
    makers = [
        (lambda: int(rng.integers(-5, 9)), fl.int32),
        (lambda: int(rng.integers(2**31, 2**33)), fl.int64),
        (lambda: float(rng.integers(-8, 8)) / 4, fl.float32),
        (lambda: "ab"[:int(rng.integers(0, 3))], fl.string),
        (lambda: b"xyz"[:int(rng.integers(0, 4))], fl.string),
        (lambda: bool(rng.integers(2)), fl.bool),
    ]
    if kind < 6:
        make, dtype = makers[kind]
        if count == 0:  # an empty list holds no type: float32, as tf.constant([]) is
            return [], TensorSpec((), fl.float32)
        if rng.random() < 0.5:
            return [make() for _ in range(count)], TensorSpec((), dtype)
        return [[make() for _ in range(width)] for _ in range(count)], \
            TensorSpec((width,), dtype)
    first, first_spec = _python_values(rng, count)
    second, second_spec = _python_values(rng, count)
    if rng.random() < 0.5:
        return (first, second), (first_spec, second_spec)
    return {"b": first, "a": second}, {"b": first_spec, "a": second_spec}


def _numpy_values(rng, dtype, shape):
    values = rng.integers(-3, 9, size=shape)
    return values % 2 == 0 if dtype == "bool" else values.astype(dtype)


def source(rng, folder):
    """A random source (range, slices, tensors, generator, files, random, counter)."""
    kind = int(rng.integers(11))
    count = int(rng.integers(0, 7))
    if kind == 10:
        return composite_source(rng, max(count, 1))
    if kind == 0:  # range_op.py: int64 scalars unless output_type; range_dataset_op.cc
        start, step = int(rng.integers(-3, 3)), int(rng.choice([1, 2, 3, -1]))
        dtype = [fl.int64, fl.int32][int(rng.integers(2))]
        stop = start + step * count
        return Case(D.range(start, stop, step, output_type=dtype), TensorSpec((), dtype),
                    len(range(start, stop, step)), f"range({start},{stop},{step},{dtype})")
    if kind == 1:  # from_tensor_slices_op.py: one row's spec; its size is the row count
        values, spec = _python_values(rng, count)
        return Case(D.from_tensor_slices(values), spec, count, f"slices(py {spec})")
    if kind == 2:  # from_tensors_op.py: the whole value's spec, one element
        values, spec = _python_values(rng, int(rng.integers(1, 4)))
        spec = batched(spec, len(structure.flatten(values)[0]))
        return Case(D.from_tensors(values), spec, 1, f"tensors(py {spec})")
    if kind in (3, 4):
        dtype = NUMPY_DTYPES[int(rng.integers(len(NUMPY_DTYPES)))]
        shape = tuple(int(s) for s in rng.integers(0, 4, size=rng.integers(0, 3)))
        if kind == 3:
            return Case(D.from_tensor_slices(_numpy_values(rng, dtype, (count,) + shape)),
                        TensorSpec(shape, dtype), count, f"slices(np {dtype}{shape}x{count})")
        return Case(D.from_tensors(_numpy_values(rng, dtype, shape)), TensorSpec(shape, dtype),
                    1, f"tensors(np {dtype}{shape})")
    if kind == 5:  # from_generator_op.py: the output_signature; cardinality unknown
        dtype = ["int32", "float32", "int64"][int(rng.integers(3))]
        if rng.random() < 0.25:  # a signature of unknown rank: scalars and vectors mixed
            rows = [np.arange(n).astype(dtype) if n % 2 else np.array(n, dtype)
                    for n in rng.integers(0, 4, size=count)]
            spec = TensorSpec(None, dtype)
            return Case(D.from_generator(lambda: iter(rows), output_signature=spec), spec,
                        UNK, f"generator({spec})")
        lengths = [int(n) for n in rng.integers(0, 4, size=count)]
        fixed = rng.random() < 0.3
        rows = [np.arange(2 if fixed else n).astype(dtype) for n in lengths]
        spec = TensorSpec((2 if fixed else None,), dtype)
        if rng.random() < 0.5:
            return Case(D.from_generator(lambda: iter(rows), output_signature=spec), spec,
                        UNK, f"generator({spec})")
        pair = (spec, TensorSpec((), fl.string))
        items = [(row, str(len(row)).encode()) for row in rows]
        return Case(D.from_generator(lambda: iter(items), output_signature=pair), pair, UNK,
                    f"generator({pair})")
    if kind == 6:  # readers.py: scalar strings; reader cardinality unknown
        path = folder / f"lines{count}.txt"
        path.write_text("".join(f"line {i}\n" for i in range(count)))
        return Case(fl.data.TextLineDataset([str(path)]), TensorSpec((), fl.string), UNK,
                    f"TextLineDataset({count})")
    if kind == 7:
        path = folder / f"records{count}.tfrecord"
        with fl.io.TFRecordWriter(str(path)) as writer:
            for i in range(count):
                writer.write(b"record %d" % i)
        return Case(fl.data.TFRecordDataset(str(path)), TensorSpec((), fl.string), UNK,
                    f"TFRecordDataset({count})")
    if kind == 8:  # random_op.py: int64 scalars forever
        return Case(D.random(seed=int(rng.integers(100))), TensorSpec((), fl.int64), INF,
                    "random()")
    dtype = [fl.int64, fl.int32][int(rng.integers(2))]  # counter_op.py: forever
    return Case(D.counter(int(rng.integers(5)), int(rng.integers(1, 3)), dtype=dtype),
                TensorSpec((), dtype), INF, f"counter({dtype})")


def composite_source(rng, count):
    """A ragged or sparse source (from_tensor_slices_op.py: a RaggedTensor's rows have
    ragged_rank one less, ragged_rank 0 being delivered as dense tensors; a SparseTensor's
    rows are SparseTensors of one dimension less; from_tensors_op.py keeps the value's spec)."""
    from feedline.data.composite_spec import RaggedTensorSpec, SparseTensorSpec

    kind = int(rng.integers(4))
    if kind < 2:
        rows = [[int(v) for v in rng.integers(0, 9, size=rng.integers(0, 4))]
                for _ in range(count)]
        ragged = fl.ragged.constant(rows)
        dtype = fl.int32 if any(rows) else fl.float32  # no values: float32, as in TF
        if kind == 0:
            spec = RaggedTensorSpec((None,), dtype, 0, fl.int64)
            return Case(D.from_tensor_slices(ragged), spec, count, f"slices(ragged x{count})")
        spec = RaggedTensorSpec((count, None), dtype, 1, fl.int64)
        return Case(D.from_tensors(ragged), spec, 1, f"tensors(ragged {count})")
    dense = rng.integers(0, 3, size=(count, 3)) * (rng.random((count, 3)) < 0.5)
    sparse = fl.sparse.from_dense(dense.astype(np.int64))
    if kind == 2:
        return Case(D.from_tensor_slices(sparse), SparseTensorSpec((3,), fl.int64), count,
                    f"slices(sparse x{count})")
    return Case(D.from_tensors(sparse), SparseTensorSpec((count, 3), fl.int64), 1,
                f"tensors(sparse {count})")


def window_case(rng, case):
    """window_op.py: a structure of datasets, each of the input's component spec.
    window_dataset_op.cc: with drop_remainder, one window per shift that fits whole, else
    ceil(n / shift)."""
    from feedline.data.spec import DatasetSpec

    size, shift = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    stride, drop = int(rng.integers(1, 3)), bool(rng.integers(2))
    n = case.cardinality
    if n in (INF, UNK):
        card = n
    elif drop:
        rest = n - ((size - 1) * stride + 1)
        card = 0 if rest < 0 else rest // shift + 1
    else:
        card = -(-n // shift)
    return case.then(case.dataset.window(size, shift, stride, drop),
                     structure.map_structure(DatasetSpec, case.spec), card,
                     f"window({size},{shift},{stride},{drop})")


def make_case(seed, folder):
    """The pipeline of `seed` (the same one every call), reading files under `folder`."""
    from spec_fuzz_stages import STAGES

    rng = np.random.default_rng(seed)
    case = source(rng, folder)
    case.folder = folder
    weights = np.array([weight for _, weight in STAGES], dtype=float)
    for _ in range(int(rng.integers(1, 5))):
        if case.cardinality == INF and rng.random() < 0.5:
            count = int(rng.integers(0, 6))  # take_dataset_op.cc: k of an endless input
            case = case.then(case.dataset.take(count), case.spec, count, f"take({count})",
                             together=case.together)
        for _attempt in range(8):
            stage = STAGES[rng.choice(len(STAGES), p=weights / weights.sum())][0]
            following = stage(rng, case)
            if following is not None:
                case = following
                break
    if rng.random() < 0.08 and case.cardinality != INF:
        case = window_case(rng, case)
    return case
