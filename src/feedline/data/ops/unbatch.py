"""`Dataset.unbatch`: split every element along its first axis.

Sparse components split into sparse rows and ragged ones into their rows, as in TensorFlow.
"""

from ...errors import InvalidArgumentError
from .. import structure
from ..dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, UnaryDataset
from ..spec import unbatched_spec, unknown_rank


class UnbatchDataset(UnaryDataset):
    _stage = "unbatch"
    _spec_from_inputs = True  # made from its inputs' specs (see batch._known_spec)

    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        try:
            spec = input_dataset.element_spec
        except Exception:  # noqa: BLE001 - not known now: the rows are checked as they come
            return
        _check_spec(spec)

    def _make_iterator(self):
        for element in self._input._iterator():
            if not structure.is_structure(element):
                yield from structure.unstack(element)
                continue
            leaves = structure.flatten(element)
            if not any(structure.is_composite(leaf) for leaf in leaves):
                _check_sizes(leaves, [len(leaf) if not isinstance(leaf, bytes) and leaf.ndim
                                      else None for leaf in leaves])
                for row in zip(*leaves):
                    yield structure.pack_like(element, row)
                continue
            columns = [structure.unstack(leaf) if structure.is_composite(leaf)
                       or structure.leaf_shape(leaf) else None for leaf in leaves]
            _check_sizes(leaves, [None if column is None else len(column)
                                  for column in columns])
            for row in zip(*columns):
                yield structure.pack_like(element, row)

    def _cardinality(self):
        """TensorFlow's rule: the input's size times the static first size of the first
        component (in flattened order) that has one; unknown when that size is unknown or 0,
        whatever the other components say (they must agree when it runs)."""
        size = self._input._cardinality()
        if size in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY):
            return size
        try:
            leaves = structure.flatten(self._input.element_spec)
        except ValueError:  # the spec is not known
            return UNKNOWN_CARDINALITY
        firsts = [leaf.shape[0] for leaf in leaves if getattr(leaf, "shape", None)]
        rows = next((first for first in firsts if first is not None), None)
        return size * rows if rows else UNKNOWN_CARDINALITY

    def _element_spec(self):
        return unbatched_spec(self._input.element_spec)


def _check_spec(spec):
    """Refuse, as TensorFlow does when the dataset is built, scalar components and
    components whose static first sizes differ.

    Raises:
        ValueError: naming the component and saying what to do instead.
    """
    known = None
    for path, leaf in structure.flatten_with_paths(spec):
        shape = getattr(leaf, "shape", None)
        if unknown_rank(shape):  # unknown rank, or a dataset: nothing to check statically
            continue
        if len(shape) == 0:
            raise ValueError(f"unbatch: {structure.path_name(path)} is a scalar, and scalar "
                             "components have no rows to split; batch() the dataset first, "
                             "or leave unbatch() out")
        if shape[0] is not None and known is not None and shape[0] != known:
            raise ValueError(f"unbatch: the components' first sizes differ ({known} and "
                             f"{shape[0]} at {structure.path_name(path)}); every component "
                             "must have the same number of rows")
        known = shape[0] if shape[0] is not None else known


def _check_sizes(leaves, sizes):
    if len(set(sizes)) != 1 or None in sizes:
        raise InvalidArgumentError(
            "unbatch: every component needs the same first dimension, got sizes "
            f"{[structure.leaf_shape(leaf)[:1] for leaf in leaves]}")
