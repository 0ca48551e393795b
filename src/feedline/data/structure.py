"""Nested element structures: tuples, dicts and namedtuples of NumPy values.

An element is a *leaf* (a NumPy scalar, a NumPy array, or `bytes`) or a tuple, dict or
namedtuple of elements. Lists are not structures: like TensorFlow, a list is converted to one
array. These helpers flatten, rebuild and convert structures.

>>> flatten({"b": (1, 2), "a": 3})
[3, 1, 2]
>>> pack_like({"b": (0, 0), "a": 0}, [30, 10, 20])
{'b': (10, 20), 'a': 30}
"""

import numpy as np

from .. import dtypes


def is_namedtuple(value):
    """True for instances of classes made by `collections.namedtuple` or `typing.NamedTuple`."""
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def is_composite(value):
    """True for a SparseTensor or RaggedTensor: one leaf made of several arrays."""
    return getattr(type(value), "_is_composite_tensor", False)


def is_structure(value):
    """True for tuples (namedtuples included) and dicts: the containers of an element."""
    return isinstance(value, (tuple, dict))


def flatten(structure):
    """The leaves of `structure` in a fixed order (dict keys sorted, as TensorFlow does)."""
    leaves = []
    _flatten_into(structure, leaves)
    return leaves


def _flatten_into(structure, leaves):
    if isinstance(structure, dict):
        for key in sorted(structure):
            _flatten_into(structure[key], leaves)
    elif isinstance(structure, tuple):
        for item in structure:
            _flatten_into(item, leaves)
    else:
        leaves.append(structure)


def flatten_with_paths(structure, prefix=()):
    """Pairs `(path, leaf)`, where path is the tuple of keys/indices leading to the leaf."""
    if isinstance(structure, dict):
        return [pair for key in sorted(structure)
                for pair in flatten_with_paths(structure[key], prefix + (key,))]
    if isinstance(structure, tuple):
        return [pair for index, item in enumerate(structure)
                for pair in flatten_with_paths(item, prefix + (index,))]
    return [(prefix, structure)]


def pack_like(template, leaves):
    """Rebuild `template`'s structure around `leaves` (in `flatten` order)."""
    iterator = iter(leaves)
    result = _pack(template, iterator)
    return result


def _pack(template, leaves):
    if isinstance(template, dict):
        values = {key: _pack(template[key], leaves) for key in sorted(template)}
        return type(template)((key, values[key]) for key in template)
    if is_namedtuple(template):
        return type(template)(*(_pack(item, leaves) for item in template))
    if isinstance(template, tuple):
        return tuple(_pack(item, leaves) for item in template)
    return next(leaves)


def map_structure(fn, structure, *others):
    """Apply `fn` to every leaf (and the matching leaves of `others`), keeping the structure."""
    if not others:
        return pack_like(structure, [fn(leaf) for leaf in flatten(structure)])
    columns = [flatten(structure)] + [flatten(other) for other in others]
    lengths = {len(column) for column in columns}
    if len(lengths) != 1:
        raise ValueError("structures do not match: "
                         f"{[len(column) for column in columns]} leaves")
    return pack_like(structure, [fn(*leaves) for leaves in zip(*columns)])


def path_name(path):
    """A readable name for a component path, used in error messages: `'a'/0`, or `element`."""
    if not path:
        return "element"
    return "/".join(repr(part) if isinstance(part, str) else str(part) for part in path)


def to_leaf(value):
    """Convert one Python or NumPy value to an element leaf with TensorFlow's default dtypes.

    Python ints become int32 (int64 when they do not fit), floats float32, bools bool, str and
    bytes become bytes; lists become arrays by the same rules; NumPy values keep their dtype.

    >>> to_leaf(3).dtype, to_leaf(2.5).dtype, to_leaf("é"), to_leaf([[1, 2]]).shape
    (dtype('int32'), dtype('float32'), b'\\xc3\\xa9', (1, 2))
    """
    kind = type(value)
    if kind is Tensor:  # an op's result inside a map: back to the plain value, cheaply
        value = value.view(np.ndarray)
        if value.ndim == 0 and value.dtype != object:
            return value[()]
        kind = np.ndarray
    if kind is np.ndarray:
        if value.dtype.kind in "SU" or (value.dtype == object and value.size
                                         and isinstance(value.flat[0], str)):
            return _strings_to_object(value)
        if value.ndim == 0 and value.dtype == object and isinstance(value[()], bytes):
            return bytes(value[()])  # a scalar string is `bytes`, as from every other source
        return value[()] if value.ndim == 0 and value.dtype != object else value
    if isinstance(value, np.generic):
        if isinstance(value, (np.bytes_, np.str_)):
            return _to_bytes(value)
        return value
    if kind is bytes:
        return value
    if isinstance(value, bytes):  # a feedline.StringTensor a loop handed out
        return bytes(value)
    if kind is str:
        return value.encode("utf-8")
    if kind is bool or isinstance(value, np.bool_):
        return np.bool_(value)
    if kind is int:
        return np.int32(value) if -2**31 <= value < 2**31 else np.int64(value)
    if kind is float:
        return np.float32(value)
    if isinstance(value, list):
        return _list_to_array(value)
    if isinstance(value, (tuple, dict)):
        raise TypeError("a structure is not a leaf; use to_element")
    if is_composite(value):
        return value
    if isinstance(value, np.ndarray):  # a subclass, such as a feedline.Tensor from a loop
        plain = value.view(np.ndarray)
        return to_leaf(plain[()] if plain.ndim == 0 and plain.dtype == object else plain)
    if hasattr(value, "__array__"):
        return to_leaf(np.asarray(value))
    raise TypeError(f"cannot convert {type(value).__name__} to an element leaf")


def to_element(value):
    """Convert a nested Python/NumPy value to an element (structures kept, leaves converted)."""
    if type(value) is dict and not any(map(is_structure, value.values())):
        # The usual map result (parsed features): one level, converted in place of sorting
        # its keys to flatten and rebuild it.
        return {key: to_leaf(leaf) for key, leaf in value.items()}
    if isinstance(value, (tuple, dict)):
        return map_structure(to_leaf, value)
    return to_leaf(value)


def _to_bytes(value):
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def _strings_to_object(array):
    result = np.empty(array.shape, dtype=object)
    for index, item in np.ndenumerate(array):
        result[index] = _to_bytes(item)
    return result


def _list_to_array(values):
    flat = list(_iter_nested_list(values))
    if any(isinstance(item, (str, bytes, np.str_, np.bytes_)) for item in flat):
        array = np.array(values, dtype=object)
        if array.dtype != object or any(not isinstance(x, (str, bytes, np.str_, np.bytes_))
                                        for x in array.flat):
            raise ValueError("a list mixes strings and numbers")
        return _strings_to_object(array)
    try:
        array = np.array(values)
    except ValueError:  # NumPy 2 refuses rows of different lengths outright
        array = None
    if array is None or array.dtype == object:
        shown = repr(values) if len(repr(values)) < 80 else repr(values)[:77] + "..."
        raise ValueError(f"Can't convert non-rectangular Python sequence to Tensor: {shown} "
                         "has rows of different lengths; write fl.ragged.constant(...) for a "
                         "RaggedTensor, or pad the rows to one length")
    if not flat:  # an empty list holds no values to take a type from: float32, as in TF
        return array.astype(np.float32)
    if all(type(item) is bool for item in flat):
        return array.astype(np.bool_)
    if array.dtype.kind in "iu" and all(type(item) is int for item in flat):
        info = np.iinfo(np.int32)
        fits = array.size == 0 or (array.min() >= info.min and array.max() <= info.max)
        return array.astype(np.int32 if fits else np.int64)
    if array.dtype.kind == "f" and all(type(item) in (int, float) for item in flat):
        return array.astype(np.float32)
    return array


def _iter_nested_list(values):
    # Tuples inside a list nest like lists (TensorFlow packs `[[(1, 2)]]` into one array).
    for item in values:
        if isinstance(item, (list, tuple)):
            yield from _iter_nested_list(item)
        else:
            yield item


def leaf_dtype(leaf):
    """The dtype of a leaf (`string` for bytes)."""
    if isinstance(leaf, bytes):
        return dtypes.string
    return leaf.dtype


def leaf_shape(leaf):
    """The shape of a leaf (`()` for scalars and bytes)."""
    if isinstance(leaf, bytes):
        return ()
    return leaf.shape


def stack(values, path=()):
    """Stack equal-shaped leaves along a new first axis (a batch).

    Raises:
        InvalidArgumentError: naming the component and both shapes when shapes differ.
    """
    first = values[0]
    if is_composite(first):
        return _stack_composite(values, path)
    if isinstance(first, bytes):
        array = np.empty(len(values), dtype=object)
        array[:] = values
        if all(isinstance(value, bytes) for value in values):
            return array
    else:
        try:
            array = np.array(values, dtype=first.dtype)
        except ValueError:  # ragged: NumPy refuses to build it
            array = None
        # An object dtype accepts ragged input silently, so the shape is checked too.
        if array is not None and array.shape == (len(values),) + first.shape:
            return array
    first_shape = leaf_shape(first)
    for index, value in enumerate(values):
        if leaf_shape(value) != first_shape:
            from ..errors import InvalidArgumentError
            raise InvalidArgumentError(
                f"cannot batch {path_name(path)}: elements in one batch must have the same "
                f"shape, but element 0 has shape {list(first_shape)} and element {index} has "
                f"shape {list(leaf_shape(value))}. The usual causes: the elements are "
                f"already batches (chunks) of different lengths, so call unbatch() first "
                f"to get single rows and then batch them; or each element really has its "
                f"own length (a sentence, a sequence), so use padded_batch to pad them to "
                f"the longest one in the batch")
    return np.stack([np.asarray(value) for value in values])


def _stack_composite(values, path):
    """A batch of SparseTensors (one of rank + 1) or RaggedTensors (one more ragged rank)."""
    from ..errors import InvalidArgumentError
    from ..io.ragged import RaggedTensor, batch_rows
    from ..io.sparse import SparseTensor, batch_sparse

    kind = type(values[0])
    if not all(type(value) is kind for value in values):
        raise InvalidArgumentError(f"cannot batch {path_name(path)}: it is a {kind.__name__} "
                                   "in some elements and not in others")
    if kind is SparseTensor:
        return batch_sparse(values)
    assert kind is RaggedTensor
    return batch_rows(values, values[0].row_splits.dtype)


def stack_elements(elements, path=()):
    """Batch a list of elements with the same structure into one element."""
    template = elements[0]
    if isinstance(template, dict):
        return type(template)((key, stack_elements([element[key] for element in elements],
                                                   path + (key,)))
                              for key in template)
    if isinstance(template, tuple):
        columns = [stack_elements(list(column), path + (index,))
                   for index, column in enumerate(zip(*elements))]
        return type(template)(*columns) if is_namedtuple(template) else tuple(columns)
    return stack(elements, path)


def unstack(leaf):
    """Split a leaf along its first axis into its rows (scalars come out as NumPy scalars).

    A SparseTensor gives sparse rows; a RaggedTensor its rows (arrays, or RaggedTensors).
    """
    if is_composite(leaf):
        return leaf.rows() if hasattr(leaf, "rows") else _sparse_rows(leaf)
    if isinstance(leaf, bytes) or leaf.ndim == 0:
        raise ValueError("cannot unbatch a scalar: elements need a leading dimension")
    return list(leaf)


def _sparse_rows(leaf):
    from ..io.sparse import unbatch_sparse

    return unbatch_sparse(leaf)


# Imported last: `tensor` imports `spec`, which imports this module.
from ..tensor import Tensor  # noqa: E402
