"""`Dataset.from_generator`: elements from a Python generator, checked against a signature."""

import numpy as np

from ... import dtypes
from ...errors import InvalidArgumentError
from .. import structure
from ..dataset import Dataset
from ..spec import TensorSpec


class GeneratorDataset(Dataset):
    _stage = "from_generator"

    def __init__(self, generator, output_signature, args, output_types, output_shapes):
        if not callable(generator):
            raise TypeError("from_generator needs a callable that returns a generator "
                            "(pass the function, not a generator object)")
        if output_signature is None:
            if output_types is None:
                raise TypeError("from_generator needs output_signature "
                                "(or the older output_types)")
            shapes = output_shapes if output_shapes is not None else structure.map_structure(
                lambda _: None, output_types)
            output_signature = structure.map_structure(
                lambda dtype, shape: TensorSpec(shape, dtype), output_types, shapes)
        self._generator = generator
        self._args = tuple(args or ())
        self._signature = output_signature

    def _make_iterator(self):
        signature = self._signature
        specs = structure.flatten_with_paths(signature)
        for index, value in enumerate(self._generator(*self._args)):
            if structure.is_structure(signature):
                leaves = _flatten_matching(signature, value, index)
            else:
                leaves = [value]
            converted = [_conform(leaf, spec, path, index)
                         for leaf, (path, spec) in zip(leaves, specs)]
            yield (converted[0] if not structure.is_structure(signature)
                   else structure.pack_like(signature, converted))

    def _element_spec(self):
        return self._signature


def _flatten_matching(signature, value, index):
    if isinstance(signature, dict):
        if not isinstance(value, dict) or set(value) != set(signature):
            raise InvalidArgumentError(
                f"from_generator: element {index} should be a dict with keys "
                f"{sorted(signature)}, got {value!r:.80}")
    elif isinstance(signature, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(signature):
            raise InvalidArgumentError(
                f"from_generator: element {index} should be a tuple of {len(signature)} "
                f"components, got {value!r:.80}")
        return [leaf for item, spec in zip(value, signature)
                for leaf in (_flatten_matching(spec, item, index)
                             if structure.is_structure(spec) else [item])]
    return structure.flatten(value)


def _conform(value, spec, path, index):
    """Convert `value` to `spec.dtype` and check its shape, naming the element on failure."""
    try:
        if spec.dtype == dtypes.string:
            leaf = structure.to_leaf(value)
            if structure.leaf_dtype(leaf) != dtypes.string:
                raise TypeError("not a string")
        else:
            array = np.asarray(value)
            if array.dtype.kind in "SUO" or not np.can_cast(array.dtype, spec.dtype,
                                                            "same_kind"):
                if not (array.dtype.kind in "iub" and spec.dtype.kind in "iuf"):
                    raise TypeError(f"dtype {array.dtype}")
            leaf = array.astype(spec.dtype)
            leaf = leaf[()] if leaf.ndim == 0 else leaf
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"from_generator: element {index}, {structure.path_name(path)}: cannot convert "
            f"{value!r:.60} to {spec.dtype} ({error})") from None
    if not spec.is_compatible_with(TensorSpec(structure.leaf_shape(leaf), spec.dtype)):
        raise InvalidArgumentError(
            f"from_generator: element {index}, {structure.path_name(path)} has shape "
            f"{list(structure.leaf_shape(leaf))}, which does not fit the declared shape "
            f"{list(spec.shape)}")
    return leaf
