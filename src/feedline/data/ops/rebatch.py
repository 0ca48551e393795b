"""`Dataset.rebatch`: re-cut batches into new sizes, joining rows across input batches."""

import itertools

import numpy as np

from .. import structure
from ..dataset import UnaryDataset
from ..spec import TensorSpec, batched_spec, unbatched_spec


class RebatchDataset(UnaryDataset):
    _stage = "rebatch"
    _spec_from_inputs = True  # made from its inputs' specs (see batch._known_spec)

    def __init__(self, input_dataset, batch_size, drop_remainder=False):
        sizes = [int(batch_size)] if np.ndim(batch_size) == 0 else [int(s) for s in batch_size]
        if not sizes or any(size < 0 for size in sizes):
            raise ValueError(f"rebatch needs non-negative batch sizes, got {batch_size}")
        if not any(sizes):
            raise ValueError(f"rebatch needs at least one positive batch size, got {batch_size}"
                             " (only zeros would give empty batches forever)")
        super().__init__(input_dataset)
        self._sizes = sizes
        self._drop_remainder = bool(drop_remainder)

    def _make_iterator(self):
        _check_dense(self._input.element_spec)
        return self._batches()

    def _batches(self):
        # A size of 0 gives an empty batch (no rows, the input's other dimensions) in its turn.
        columns, available, template = [], 0, None
        inputs = self._input._iterator()
        for wanted in itertools.cycle(self._sizes):
            pending = [columns] if template is not None else []
            while available < wanted or template is None:
                batch = next(inputs, None)
                if batch is None:
                    break
                template = batch
                pending.append([np.asarray(leaf) for leaf in structure.flatten(batch)])
                available += len(pending[-1][0])
            if template is None or (available < wanted and
                                    (self._drop_remainder or available == 0)):
                return
            columns = [_joined(column) for column in zip(*pending)]
            take = min(wanted, available)
            yield structure.pack_like(template, [column[:take] for column in columns])
            columns, available = [column[take:] for column in columns], available - take
            if available == 0 and take < wanted:
                return

    def _element_spec(self):
        """Rows keep the input's shape. The new batch size is known when the sizes are one
        constant and no batch can come out short: with drop_remainder, or when the input's
        known batch sizes are one multiple of it (TensorFlow's rule)."""
        spec = self._input.element_spec
        sizes = set(self._sizes)
        batch = sizes.pop() if len(sizes) == 1 else None
        if batch is not None and not self._drop_remainder:
            known = {leaf.shape[0] for leaf in structure.flatten(spec)
                     if isinstance(leaf, TensorSpec) and leaf.shape and leaf.shape[0] is not None}
            if len(known) != 1 or batch == 0 or known.pop() % batch:
                batch = None
        return batched_spec(unbatched_spec(spec), batch)


def _joined(parts):
    """The rows of `parts` in one array; rows of different shapes are TensorFlow's error."""
    try:
        return np.concatenate(parts)
    except ValueError:
        from ...errors import InvalidArgumentError

        shapes = sorted({tuple(part.shape[1:]) for part in parts})
        raise InvalidArgumentError(f"rebatch: the input batches have rows of different shapes "
                                   f"{[list(shape) for shape in shapes]}; rows joined into one "
                                   "batch must have one shape (pad them first with "
                                   "padded_batch)") from None


def _check_dense(spec):
    """Rows are cut from dense arrays; a sparse or ragged component gets a clear error."""
    for path, leaf in structure.flatten_with_paths(spec):
        if not isinstance(leaf, TensorSpec):
            kind = type(leaf).__name__.replace("Spec", "")
            where = structure.path_name(path) if path else "the element"
            raise TypeError(f"rebatch: {where} is a {kind}; feedline's rebatch cuts dense "
                            "components only: unbatch() then batch() instead")
