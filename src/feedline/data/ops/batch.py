"""`Dataset.batch`: stack consecutive elements into one."""

import itertools

from ...errors import InvalidArgumentError
from ...io.ragged import batch_rows
from .. import structure
from ..dataset import Dataset
from ..spec import batched_spec
from ..state import protocol
from . import _call, parallel_map


def batch_cardinality(size, batch_size, drop_remainder):
    """How many batches a dataset of `size` elements gives (negative sizes pass through)."""
    if size < 0:
        return size
    return size // batch_size if drop_remainder else -(-size // batch_size)


def check_batch_size(batch_size):
    """`batch_size` as an int.

    Raises:
        InvalidArgumentError: for a size below 1, as TensorFlow's kernel does.
    """
    batch_size = int(batch_size)
    if batch_size < 1:
        raise InvalidArgumentError(f"batch_size must be greater than zero, got {batch_size}")
    return batch_size


class BatchDataset(Dataset):
    _stage = "batch"
    _spec_from_inputs = True  # its spec is its input's, batched (see `_known_spec`)

    def __init__(self, input_dataset, batch_size, drop_remainder=False,
                 num_parallel_calls=None, deterministic=None):
        self._input = input_dataset
        self._inputs = (input_dataset,)
        self._batch_size = check_batch_size(batch_size)
        self._drop_remainder = bool(drop_remainder)
        self._num_parallel_calls = num_parallel_calls
        self._deterministic = deterministic

    def _make_iterator(self):
        if self._num_parallel_calls is not None:
            return parallel_map.batch_iterator(self)
        return BatchIterator(self, self._input._iterator())

    def _restore_iterator(self, state, skip):
        # Batches are consecutive runs of `batch_size` inputs: skipping k batches skips
        # k * batch_size inputs, without stacking them.
        size = self._batch_size
        if self._num_parallel_calls is not None:
            upstream = protocol.restore_from_start(self._input, state["input"],
                                                   (state["delivered"] + skip) * size)
            return parallel_map.batch_iterator(self, upstream)
        return BatchIterator(self, protocol.restore(self._input, state["input"], skip * size))

    def _cardinality(self):
        return batch_cardinality(self._input._cardinality(), self._batch_size,
                                 self._drop_remainder)

    def _element_spec(self):
        return batched_spec(self._input.element_spec,
                            self._batch_size if self._drop_remainder else None)


def _known_spec(dataset):
    """`dataset`'s element spec when it is known without calling any user function: already
    computed, or made from its inputs' specs by stages that call none (take, shuffle, zip,
    enumerate, batch, ...) down to sources. None otherwise (a map would be traced, which runs
    its function: no batch does that)."""
    if not _spec_is_free(dataset):
        return None
    try:
        return dataset.element_spec
    except Exception:  # noqa: BLE001 - unknown: every component is stacked
        return None


def _spec_is_free(node):
    """True when asking `node.element_spec` calls no user function."""
    if node.__dict__.get("_cached_spec") is not None or not node._inputs:
        return True
    if not (getattr(node, "_same_spec", False) or getattr(node, "_spec_from_inputs", False)):
        return False
    return all(_spec_is_free(dataset) for dataset in node._inputs)


def _ragged_components(dataset):
    """`{path: row splits dtype}` of the components of `dataset`'s elements that are ragged
    (rows sliced from a RaggedTensor), as far as the spec is known (see `_known_spec`)."""
    spec = _known_spec(dataset)
    if spec is None:
        return {}
    return {path: leaf.row_splits_dtype for path, leaf in structure.flatten_with_paths(spec)
            if type(leaf).__name__ == "RaggedTensorSpec"}


class BatchIterator:
    """Stacks of `batch_size` consecutive input elements; its state is its input's state.

    A fused `map_and_batch` passes `elements` (the input mapped); the state saved is still
    `upstream`'s.
    """

    def __init__(self, dataset, upstream, elements=None):
        self._dataset, self._upstream = dataset, upstream
        self._elements = upstream if elements is None else elements
        # The components that batch as ragged are those of the elements batched: for a fused
        # stage, the written batch's input (the map's output), not the fused stage's input.
        batched = getattr(dataset, "_written", dataset)._input
        self._ragged = _ragged_components(batched)

    def __iter__(self):
        return self

    def __next__(self):
        size = self._dataset._batch_size
        chunk = list(itertools.islice(self._elements, size))
        if not chunk or (self._dataset._drop_remainder and len(chunk) < size):
            raise StopIteration
        if not self._ragged:
            return structure.stack_elements(chunk)
        # Components whose spec is ragged (rows sliced from a RaggedTensor) batch into a
        # RaggedTensor, as TensorFlow batches them; the others stack.
        columns = zip(*(structure.flatten(element) for element in chunk))
        return structure.pack_like(chunk[0], [
            batch_rows(list(column), self._ragged[path]) if path in self._ragged
            else structure.stack(list(column), path)
            for column, (path, _) in zip(columns, structure.flatten_with_paths(chunk[0]))])

    def close(self):
        _call.close(self._upstream)

    def _save(self):
        return {"input": protocol.save(self._upstream, self._dataset._input)}
