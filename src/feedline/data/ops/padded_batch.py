"""`Dataset.padded_batch`: batch elements of different shapes by padding them.

A padding value must have its component's dtype, as in TensorFlow, which converts the value on
its own first: a Python int becomes int32 and a float float32, so `padding_values=-1` on int64
data is rejected (write `np.int64(-1)`).
"""

import itertools

import numpy as np

from ...errors import InvalidArgumentError
from .. import structure
from ..dataset import UnaryDataset
from ..spec import TensorSpec, unknown_rank
from .batch import batch_cardinality, check_batch_size


def _per_component(template, value, is_leaf_value):
    """Give each component of `template` its entry of `value` (or `value` itself for all)."""
    if value is None or is_leaf_value(value) or not structure.is_structure(template):
        return structure.map_structure(lambda _: value, template)
    return structure.map_structure(lambda _, item: item, template, value)


def _is_shape(value):
    return isinstance(value, list) or (
        isinstance(value, tuple) and all(v is None or isinstance(v, (int, np.integer))
                                         for v in value) and not structure.is_namedtuple(value))


def _tf_dtype_name(dtype):
    return "string" if dtype == object else dtype.name


def check_padding_value(value, dtype, path):
    """Raise unless `value` (converted as TensorFlow would) is a scalar of `dtype`.

    Raises:
        ValueError: for a padding value that is not a scalar.
        TypeError: for a padding value of another dtype, saying what to write instead.
    """
    leaf = structure.to_leaf(value)
    if structure.leaf_shape(leaf) != ():
        raise ValueError(f"padded_batch: padding_values for {structure.path_name(path)} must "
                         f"be a scalar, got shape {list(structure.leaf_shape(leaf))}")
    have = structure.leaf_dtype(leaf)
    if have == dtype:
        return
    want = _tf_dtype_name(dtype)
    how = {int: " (a Python int becomes int32)", float: " (a Python float becomes float32)"}
    if want == "string":
        fix = "b''"
    else:
        plain = value.item() if isinstance(value, np.generic) else value
        fix = f"np.{want}({plain!r}) (in TensorFlow: tf.constant({plain!r}, tf.{want}))"
    raise TypeError(f"padded_batch: padding_values for {structure.path_name(path)} is "
                    f"{_tf_dtype_name(have)}{how.get(type(value), '')} but the component is "
                    f"{want}, and TensorFlow requires the same dtype; write {fix}")


def _check_all(spec_or_element, padding_values, dtype_of):
    values = _per_component(spec_or_element, padding_values,
                            lambda v: not structure.is_structure(v))
    for (path, leaf), value in zip(structure.flatten_with_paths(spec_or_element),
                                   structure.flatten(values)):
        if value is not None:
            check_padding_value(value, dtype_of(leaf), path)


def pad_and_stack(leaves, padded_shape, padding_value, path):
    """Pad every leaf to one shape (`padded_shape` entries of None/-1 mean the batch's max)."""
    if structure.is_composite(leaves[0]):  # TensorFlow refuses these too
        raise TypeError(f"padded_batch: {structure.path_name(path)} is a "
                        f"{type(leaves[0]).__name__}, which padded_batch does not batch; use "
                        "batch() (sparse tensors need no padding) or ragged_batch()")
    arrays = [np.asarray(leaf, dtype=object) if isinstance(leaf, bytes) else np.asarray(leaf)
              for leaf in leaves]
    ranks = {array.ndim for array in arrays}
    if len(ranks) != 1:
        raise InvalidArgumentError(f"padded_batch: {structure.path_name(path)} has elements of "
                                   f"different ranks {sorted(ranks)}")
    rank = ranks.pop()
    largest = [max(array.shape[axis] for array in arrays) for axis in range(rank)]
    if padded_shape is None:
        target = largest
    else:
        padded_shape = list(padded_shape)
        if len(padded_shape) != rank:
            raise InvalidArgumentError(
                f"padded_batch: padded shape {padded_shape} for {structure.path_name(path)} "
                f"does not have the elements' rank {rank}")
        target = [big if size is None or size == -1 else int(size)
                  for size, big in zip(padded_shape, largest)]
        for axis, (size, big) in enumerate(zip(target, largest)):
            if big > size:
                raise InvalidArgumentError(
                    f"padded_batch: {structure.path_name(path)} has size {big} in dimension "
                    f"{axis}, larger than the padded shape {padded_shape}")
    dtype = arrays[0].dtype
    if padding_value is None:
        padding_value = b"" if dtype == object else 0
    batch = np.full([len(arrays)] + target, padding_value, dtype=dtype)
    for index, array in enumerate(arrays):
        if rank == 0:  # a scalar goes in as its value (a 0-d object array would nest)
            batch[index] = array[()]
        else:
            batch[(index,) + tuple(slice(0, size) for size in array.shape)] = array
    return batch


class PaddedBatchDataset(UnaryDataset):
    _stage = "padded_batch"
    _spec_from_inputs = True  # made from its inputs' specs (see batch._known_spec)

    def __init__(self, input_dataset, batch_size, padded_shapes=None, padding_values=None,
                 drop_remainder=False):
        super().__init__(input_dataset)
        self._batch_size = check_batch_size(batch_size)
        self._padded_shapes = padded_shapes
        self._padding_values = padding_values
        self._drop_remainder = bool(drop_remainder)
        try:
            spec = input_dataset.element_spec
        except Exception:  # noqa: BLE001 - not known now: checked on the first batch
            spec = None
        if spec is not None:  # TensorFlow refuses these when the dataset is built
            for path, leaf in structure.flatten_with_paths(spec):
                if type(leaf).__name__ in ("RaggedTensorSpec", "SparseTensorSpec"):
                    raise TypeError(
                        f"padded_batch: {structure.path_name(path)} is a "
                        f"{type(leaf).__name__[:-4]}, which padded_batch does not batch; use "
                        "batch() (sparse tensors need no padding) or ragged_batch()")
        if padding_values is not None and spec is not None:
            _check_all(spec, padding_values, lambda leaf: leaf.dtype)
        if spec is not None:
            _check_shapes(spec, padded_shapes)

    def _make_iterator(self):
        elements, size = self._input._iterator(), self._batch_size
        while True:
            chunk = list(itertools.islice(elements, size))
            if not chunk or (self._drop_remainder and len(chunk) < size):
                return
            template = chunk[0]
            shapes = _per_component(template, self._padded_shapes, _is_shape)
            values = _per_component(template, self._padding_values,
                                    lambda v: not structure.is_structure(v))
            if self._padding_values is not None:
                _check_all(template, self._padding_values, structure.leaf_dtype)
            columns = zip(*(structure.flatten(element) for element in chunk))
            pieces = zip(columns, structure.flatten_with_paths(template),
                         _flat(shapes, template), structure.flatten(values))
            yield structure.pack_like(template, [
                pad_and_stack(list(column), shape, value, path)
                for column, (path, _), shape, value in pieces])

    def _cardinality(self):
        return batch_cardinality(self._input._cardinality(), self._batch_size,
                                 self._drop_remainder)

    def _element_spec(self):
        """Padded shapes where given (-1 or None: unknown), else the input's known sizes."""
        spec = self._input.element_spec
        shapes = _per_component(spec, self._padded_shapes, _is_shape)
        batch = self._batch_size if self._drop_remainder else None
        return structure.pack_like(spec, [
            _padded_spec(leaf, shape, batch)
            for leaf, shape in zip(structure.flatten(spec), _flat(shapes, spec))])


def _check_shapes(spec, padded_shapes):
    """Refuse what TensorFlow refuses when the dataset is built: a component of unknown rank
    without a padded shape, and a padded shape of another rank or smaller than a known size.

    Raises:
        ValueError: naming the component and saying what to write instead.
    """
    shapes = _per_component(spec, padded_shapes, _is_shape)
    for (path, leaf), shape in zip(structure.flatten_with_paths(spec), _flat(shapes, spec)):
        where = structure.path_name(path)
        if shape is None:
            if unknown_rank(leaf.shape):
                raise ValueError(f"padded_batch: {where} has unknown rank, so its padded shape "
                                 "cannot be read from the dataset; give padded_shapes (a "
                                 "list of sizes, -1 or None to pad to the longest)")
            continue
        sizes = [None if size is None or int(size) == -1 else int(size) for size in shape]
        if unknown_rank(leaf.shape):
            continue
        if len(sizes) != len(leaf.shape) or any(
                want is not None and have is not None and want < have
                for want, have in zip(sizes, leaf.shape)):
            raise ValueError(f"padded_batch: the padded shape {list(shape)} of {where} does "
                             f"not fit its shape {list(leaf.shape)}: give one size per axis, "
                             "each at least the component's size (-1 pads to the longest)")


def _padded_spec(leaf, padded_shape, batch):
    if padded_shape is not None:
        shape = [None if size is None or int(size) == -1 else int(size) for size in padded_shape]
    elif unknown_rank(leaf.shape):
        return TensorSpec(None, leaf.dtype)
    else:
        shape = list(leaf.shape)
    return TensorSpec([batch] + shape, leaf.dtype)


def _flat(shapes, template):
    """Flatten a structure of shapes without descending into the shapes themselves."""
    if isinstance(template, dict):
        return [shape for key in sorted(template) for shape in _flat(shapes[key], template[key])]
    if isinstance(template, tuple):
        return [shape for item, sub in zip(template, shapes) for shape in _flat(sub, item)]
    return [shapes]
