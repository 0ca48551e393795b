"""`pad_to_cardinality(cardinality, mask_key="valid")`: fill a dataset up to a size.

Evaluation often wants full batches without dropping a real example. This transformation
(TensorFlow 2.21) takes a dataset of dicts with a known, finite cardinality and appends
filler elements (every feature zeros, strings empty) until there are `cardinality` of them.
Each element gains the boolean feature `mask_key`: True on the real elements, False on the
filler, so a metric can ignore the filler.

>>> import feedline as fl
>>> ds = fl.data.Dataset.from_tensor_slices({"a": [1, 2]})
>>> ds = ds.apply(fl.data.experimental.pad_to_cardinality(3))
>>> [{k: v.item() for k, v in e.items()} for e in ds.as_numpy_iterator()]
[{'a': 1, 'valid': True}, {'a': 2, 'valid': True}, {'a': 0, 'valid': False}]
"""

from collections.abc import Mapping

import numpy as np

from ... import dtypes
from .. import structure
from ..dataset import Dataset
from ..spec import TensorSpec, unknown_rank


def pad_to_cardinality(cardinality, mask_key="valid"):
    """A function for `Dataset.apply` that pads a dataset of dicts to `cardinality` elements.

    Args:
        cardinality: the number of elements wanted (an int or a scalar tensor).
        mask_key: the name of the added boolean feature (True: real, False: filler).

    Returns:
        A function `dataset -> dataset`.

    Raises (when applied):
        ValueError: when the dataset's cardinality is unknown or infinite, when it is
            larger than `cardinality`, or when its elements are not dicts.

    >>> import feedline as fl
    >>> ds = fl.data.Dataset.from_tensor_slices({"x": [1.5, 2.5, 3.5]})
    >>> padded = ds.apply(fl.data.experimental.pad_to_cardinality(4)).batch(2)
    >>> [batch["valid"].tolist() for batch in padded]
    [[True, True], [True, False]]
    """
    target = int(cardinality)

    def apply(dataset):
        if not isinstance(dataset, Dataset):
            raise TypeError(f"pad_to_cardinality applies to a Dataset, got "
                            f"{type(dataset).__name__}")
        size = int(dataset.cardinality())
        if size < 0:
            kind = "infinite" if size == -1 else "unknown"
            raise ValueError(
                "pad_to_cardinality needs a dataset of known, finite cardinality, but this "
                f"one's is {kind} ({size}); add .apply(tf.data.experimental."
                "assert_cardinality(n)) before it when you know the size")
        if size > target:
            raise ValueError(
                f"pad_to_cardinality({target}): the dataset already has {size} elements, "
                "more than the target; pass a cardinality of at least "
                f"{size}")
        if not isinstance(dataset.element_spec, Mapping):
            raise ValueError(
                "pad_to_cardinality needs dict elements (it adds the feature "
                f"{mask_key!r}), but the elements are {dataset.element_spec!r}; map them to a "
                "dict first, e.g. .map(lambda x, y: {'x': x, 'y': y})")
        filler = _filler(dataset.element_spec, mask_key)
        real = dataset.map(lambda element: _with_mask(element, mask_key, True))
        return real.concatenate(Dataset.from_tensors(filler).repeat(target - size))

    return apply


def _with_mask(element, mask_key, value):
    marked = dict(element)
    marked[mask_key] = np.bool_(value)
    return marked


def _filler(element_spec, mask_key):
    """An element like those of `element_spec` with every value zero (strings empty)."""
    def zeros(path, spec):
        if not isinstance(spec, TensorSpec) or unknown_rank(spec.shape) or None in spec.shape:
            raise ValueError(
                f"pad_to_cardinality: cannot make a zero filler for "
                f"{structure.path_name(path)}, whose spec is {spec!r}; its shape must be "
                "fully known (batch with drop_remainder=True, or pad it to a fixed size "
                "first)")
        shape = tuple(spec.shape)
        if spec.dtype == dtypes.string:
            return np.full(shape, b"", dtype=object) if shape else b""
        value = np.zeros(shape, dtype=spec.dtype)
        return value if shape else value[()]

    pairs = structure.flatten_with_paths(element_spec)
    filler = structure.pack_like(element_spec, [zeros(path, spec) for path, spec in pairs])
    return _with_mask(filler, mask_key, False)
