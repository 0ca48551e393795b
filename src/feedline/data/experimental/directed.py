"""`choose_from_datasets` and `sample_from_datasets`: merge datasets by a stream of choices.

Both read one input at a time, picked by a selector: a dataset of int64 indices for
`choose_from_datasets`, random draws by weight for `sample_from_datasets`. When the picked
input is exhausted, the merge ends if `stop_on_empty_dataset`; otherwise that input is
dropped (later choices of it are skipped; random draws go to the others in proportion to their
weights), and the merge ends once every input is exhausted (or the selector ends).

>>> import feedline as fl
>>> choice = fl.data.Dataset.from_tensor_slices(np.array([1, 0, 1], np.int64))
>>> ds = choose_from_datasets([fl.data.Dataset.range(3), fl.data.Dataset.range(10, 13)], choice)
>>> [int(x) for x in ds]
[10, 0, 11]
"""

import numpy as np

from ... import dtypes
from ...errors import InvalidArgumentError
from ...random.ops import running_sums
from ...random.stateless import first_uniform_doubles
from .. import structure
from ..dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset
from ..spec import TensorSpec

_DRAWS = 256  # random picks made at once


def _check_datasets(datasets, caller):
    if isinstance(datasets, Dataset):
        raise TypeError(f"{caller}: datasets must be a list of datasets, got one Dataset; "
                        "write [dataset, ...]")
    datasets = list(datasets)
    if not datasets:
        raise ValueError(f"{caller}: datasets is empty; give at least one dataset")
    for index, dataset in enumerate(datasets):
        if not isinstance(dataset, Dataset):
            raise TypeError(f"{caller}: datasets[{index}] is a {type(dataset).__name__}, "
                            "not a Dataset")
    return datasets


def common_spec(datasets, caller):
    """The element spec all `datasets` share (sizes that differ become `None`).

    Raises:
        TypeError: naming the first dataset whose structure or dtypes differ from the first's.
    """
    first = datasets[0].element_spec
    first_pairs = structure.flatten_with_paths(first)
    merged = [spec for _, spec in first_pairs]
    for index, dataset in enumerate(datasets[1:], start=1):
        pairs = structure.flatten_with_paths(dataset.element_spec)
        if [path for path, _ in pairs] != [path for path, _ in first_pairs]:
            raise TypeError(f"{caller}: datasets[{index}] has elements structured as "
                            f"{dataset.element_spec}, unlike datasets[0]: {first}")
        for position, (path, spec) in enumerate(pairs):
            if spec.dtype != merged[position].dtype:
                raise TypeError(
                    f"{caller}: datasets[{index}] has dtype {spec.dtype.name} at "
                    f"{structure.path_name(path)} where datasets[0] has "
                    f"{merged[position].dtype.name}; cast them to one dtype with map")
            merged[position] = merged[position].most_specific_common(spec)
    return structure.pack_like(first, merged)


class DirectedInterleaveDataset(Dataset):
    """Elements of `datasets`, each taken from the input the next choice names."""

    _stage = "directed_interleave"
    _spec_from_inputs = True  # its spec is made from the inputs' specs (see batch._known_spec)

    def __init__(self, datasets, choices, stop_on_empty_dataset, caller):
        self._datasets = datasets
        # A function of the list of which inputs are still active (kept up to date while
        # the merge runs) returning a fresh iterator of indices.
        self._choices = choices
        self._stop_on_empty = bool(stop_on_empty_dataset)
        self._caller = caller
        self._inputs = tuple(datasets)

    def _cardinality(self):
        # TensorFlow's rule: any endless input makes the merge endless, otherwise unknown.
        sizes = [dataset._cardinality() for dataset in self._datasets]
        return INFINITE_CARDINALITY if INFINITE_CARDINALITY in sizes else UNKNOWN_CARDINALITY

    def _element_spec(self):
        return common_spec(self._datasets, self._caller)

    def _make_iterator(self):
        self.element_spec  # noqa: B018 - mismatched inputs fail before any element
        iterators = [dataset._iterator() for dataset in self._datasets]
        active = len(iterators)
        count = len(iterators)
        is_active = [True] * count
        try:
            for position, index in enumerate(self._choices(is_active)):
                if not 0 <= index < count:
                    raise InvalidArgumentError(
                        f"{self._caller}: choice {position} is {index}, outside 0..{count - 1}"
                        f" (there are {count} datasets)")
                iterator = iterators[index]
                if iterator is None:
                    continue
                try:
                    element = next(iterator)
                except StopIteration:
                    if self._stop_on_empty:
                        return
                    iterators[index] = None
                    is_active[index] = False
                    active -= 1
                    if active == 0:
                        return
                    continue
                yield element
        finally:
            for iterator in iterators:
                close = getattr(iterator, "close", None)
                if close is not None:
                    close()


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """Elements of `datasets` in the order the int64 scalars of `choice_dataset` name.

    Args:
        datasets: a non-empty list of datasets with the same structure and dtypes.
        choice_dataset: a dataset of int64 scalars in `0 .. len(datasets) - 1`.
        stop_on_empty_dataset: end when a chosen dataset is exhausted (default), rather than
            skipping the choices of exhausted datasets.

    Returns:
        A `Dataset` that ends when `choice_dataset` does (or as above).

    Raises:
        TypeError: if `choice_dataset` does not hold int64 scalars, or the datasets differ.
        InvalidArgumentError: while iterating, for a choice outside the range of datasets.

    >>> import feedline as fl
    >>> labels = [fl.data.Dataset.from_tensors(b"cat").repeat(),
    ...           fl.data.Dataset.from_tensors(b"dog").repeat()]
    >>> list(choose_from_datasets(labels, fl.data.Dataset.range(2).repeat(2)).as_numpy_iterator())
    [b'cat', b'dog', b'cat', b'dog']
    """
    datasets = _check_datasets(datasets, "choose_from_datasets")
    if not isinstance(choice_dataset, Dataset):
        raise TypeError("choose_from_datasets: choice_dataset must be a Dataset of int64 "
                        f"scalars, got {type(choice_dataset).__name__}; write "
                        "fl.data.Dataset.from_tensor_slices(np.array([...], np.int64))")
    spec = choice_dataset.element_spec
    if spec != TensorSpec((), dtypes.int64):
        raise TypeError("choose_from_datasets: choice_dataset must hold int64 scalars, but "
                        f"its element_spec is {spec}; cast with .map(lambda i: "
                        "np.int64(i)) or build it with Dataset.range")

    def choices(_active):
        return (int(index) for index in choice_dataset._iterator())

    return DirectedInterleaveDataset(datasets, choices, stop_on_empty_dataset,
                                     "choose_from_datasets")


def _constant_logits(datasets, weights):
    """TensorFlow's handling of fixed weights: `(datasets, logits)` with the datasets of
    non-positive weight left out (all of them: one empty dataset), logits `log(weights)` as a
    `[1, n]` row (None for the default, equal chances)."""
    count = len(datasets)
    if weights is None:
        return datasets, np.ones((1, count), np.float32)
    if len(weights) != count:
        raise ValueError(f"sample_from_datasets: weights must hold one weight per dataset: "
                         f"got len(weights)={len(weights)} vs. len(datasets)={count}")
    array = np.asarray(weights)
    if array.dtype.kind != "f":
        raise TypeError(f"sample_from_datasets: weights must be floats (float16, float32 or "
                        f"float64), got {array.dtype}; write e.g. weights=[0.5, 0.5]")
    keep = array > 0
    if not keep.any():  # no input may be picked: TensorFlow's result is empty
        return [datasets[0].take(0)], np.zeros((1, 1), array.dtype)
    if not keep.all():
        datasets = [dataset for dataset, kept in zip(datasets, keep) if kept]
        array = array[keep]
    with np.errstate(divide="ignore"):
        return datasets, np.log(array)[None]


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    """Elements of `datasets` drawn at random, each input picked with probability by weight.

    The draws follow TensorFlow's algorithm: a `Dataset.random(seed)` stream taken in pairs,
    each pair the seed of a one-sample `stateless_categorical` over `log(weights)` (see
    `feedline.random.stateless`). A pick of an exhausted input is skipped (or ends the
    dataset with `stop_on_empty_dataset=True`). Inputs whose fixed weight is not positive are
    left out from the start. The random streams follow TensorFlow's kernels step by step;
    the orders have not been compared with TensorFlow's own output (no fixture has them).

    Args:
        datasets: a non-empty list of datasets with the same structure and dtypes.
        weights: one float weight per dataset (default: equal), or a dataset whose elements
            are such weight vectors, one per pick.
        seed: the op seed of the draws (with the global seed, as for `shuffle`).
        stop_on_empty_dataset: end at the first pick of an exhausted dataset, rather than
            (the default) skipping that pick and going on until all are exhausted.
        rerandomize_each_iteration: draw afresh every epoch; by default a seeded dataset
            repeats its draws every epoch.

    Returns:
        A `Dataset` (the single input itself when only one has a positive weight).

    Raises:
        ValueError: when the number of weights differs from the number of datasets.
        TypeError: for weights that are not floats (`[1, 2]`: write `[1.0, 2.0]`).

    >>> import feedline as fl
    >>> ds = sample_from_datasets([fl.data.Dataset.range(3), fl.data.Dataset.range(10, 13)],
    ...                           weights=[0.5, 0.5], seed=7)
    >>> sorted(int(x) for x in ds)
    [0, 1, 2, 10, 11, 12]
    """
    from ..ops.random_ import RandomDataset  # noqa: PLC0415 - that module imports Dataset

    datasets = _check_datasets(datasets, "sample_from_datasets")
    weight_dataset = weights if isinstance(weights, Dataset) else None
    sums = None
    if weight_dataset is None:
        datasets, logits = _constant_logits(datasets, weights)
        if len(datasets) == 1:
            return datasets[0]
        sums = running_sums(logits)[0]
    pairs_source = RandomDataset(seed, rerandomize_each_iteration).batch(2 * _DRAWS)

    def choices(_active):
        pairs = (np.asarray(chunk).reshape(-1, 2) for chunk in pairs_source._iterator())
        rows = None if weight_dataset is None else weight_dataset._iterator()
        for chunk in pairs:
            draws = first_uniform_doubles(chunk).tolist()
            if rows is None:
                picks = np.searchsorted(sums, np.asarray(draws) * sums[-1], side="right")
                yield from picks.tolist()
                continue
            for draw in draws:
                row = next(rows, None)
                if row is None:
                    return
                with np.errstate(divide="ignore"):
                    row_sums = running_sums(np.log(np.asarray(row))[None])[0]
                yield int(np.searchsorted(row_sums, draw * row_sums[-1], side="right"))

    return DirectedInterleaveDataset(datasets, choices, stop_on_empty_dataset,
                                     "sample_from_datasets")
