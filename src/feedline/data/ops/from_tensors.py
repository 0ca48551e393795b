"""`Dataset.from_tensors` (one element) and `Dataset.from_tensor_slices` (one per row)."""

from ...errors import InvalidArgumentError
from ...io.ragged import RaggedTensor
from .. import structure
from ..dataset import Dataset
from ..spec import spec_of, unbatched_spec


class TensorsDataset(Dataset):
    _stage = "from_tensors"

    def __init__(self, element):
        self._element = structure.to_element(element)

    def _make_iterator(self):
        return _Once(self._element, 0)

    def _restore_iterator(self, state, skip):
        return _Once(self._element, int(state["taken"]) + skip)

    def _cardinality(self):
        return 1

    def _element_spec(self):
        return spec_of(self._element)


class TensorSlicesDataset(Dataset):
    _stage = "from_tensor_slices"

    def __init__(self, element):
        self._element = structure.to_element(element)
        pairs = structure.flatten_with_paths(self._element)
        sizes = {}
        for path, leaf in pairs:
            shape = structure.leaf_shape(leaf)
            if not shape:
                raise InvalidArgumentError(
                    f"from_tensor_slices: {structure.path_name(path)} is a scalar; every "
                    "component needs a first dimension to slice along")
            sizes[path] = shape[0]
        if len(set(sizes.values())) > 1:
            described = ", ".join(f"{structure.path_name(path)} has {size}"
                                  for path, size in sizes.items())
            raise InvalidArgumentError(
                "from_tensor_slices: all components must have the same size in their first "
                f"dimension, but {described}")
        self._leaves = [leaf for _, leaf in pairs]
        self._size = next(iter(sizes.values()))

    def _make_iterator(self):
        return _rows(self._element, self._leaves, self._size, 0)

    def _restore_iterator(self, state, skip):
        return _rows(self._element, self._leaves, self._size, int(state["next"]) + skip)

    def _cardinality(self):
        return self._size

    def _element_spec(self):
        return unbatched_spec(spec_of(self._element))


class _Once:
    """The one element of `from_tensors`; its state is whether it was taken."""

    def __init__(self, element, taken):
        self._element, self._taken = element, min(taken, 1)

    def __iter__(self):
        return self

    def __next__(self):
        if self._taken:
            raise StopIteration
        self._taken = 1
        return self._element

    def _save(self):
        return {"taken": self._taken}


def _rows(element, leaves, size, position):
    """The rows from index `position` on, iterated in C where the structure allows."""
    position = min(position, size)
    if not structure.is_structure(element):
        return _IndexedRows(_row_getter(element), size, position)
    if type(element) is tuple and not any(map(structure.is_structure, element)):
        return _ZippedRows(size, [map(_row_getter(leaf), range(position, size))
                                  if structure.is_composite(leaf) else iter(leaf[position:])
                                  for leaf in leaves])
    getters = [_row_getter(leaf) for leaf in leaves]

    def row_at(index):
        return structure.pack_like(element, tuple(get(index) for get in getters))
    return _IndexedRows(row_at, size, position)


def _row_getter(leaf):
    """How to take row `i` of `leaf` as a plain element part: a ragged value's `rt[i]` is an
    eager tensor for the user, its `_row(i)` the plain row a pipeline carries; a sparse
    value's rows are sparse values of one dimension less."""
    if isinstance(leaf, RaggedTensor):
        return leaf._row
    if structure.is_composite(leaf):
        return structure.unstack(leaf).__getitem__
    return leaf.__getitem__


class _IndexedRows(map):
    """`row_at(i)` for i from `position` on; its state is the next row's index."""

    def __new__(cls, row_at, size, position):
        indices = iter(range(position, size))
        self = super().__new__(cls, row_at, indices)
        self._indices, self._size = indices, size
        return self

    def _save(self):
        return {"next": self._size - self._indices.__length_hint__()}


class _ZippedRows(zip):
    """Tuples of the leaves' rows; its state is the next row's index."""

    def __new__(cls, size, columns):
        self = super().__new__(cls, *columns)
        self._first, self._size = columns[0], size
        return self

    def _save(self):
        return {"next": self._size - self._first.__length_hint__()}
