"""`Dataset`'s methods take TensorFlow 2.21's argument names, so code written for
`tf.data.Dataset` runs as written (tensorflow.org/api_docs/python/tf/data/Dataset: almost
every method ends with `name=None`; `from_tensors`/`from_tensor_slices` call their argument
`tensors`; `map` has `synchronous` and `use_unbounded_threadpool`, map_op.py)."""

import inspect

import numpy as np
import pytest

import feedline as fl

Dataset = fl.data.Dataset

TENSORFLOW_ARGUMENTS = {
    "batch": ["batch_size", "drop_remainder", "num_parallel_calls", "deterministic", "name"],
    "bucket_by_sequence_length": [
        "element_length_func", "bucket_boundaries", "bucket_batch_sizes", "padded_shapes",
        "padding_values", "pad_to_bucket_boundary", "no_padding", "drop_remainder", "name"],
    "cache": ["filename", "name"], "concatenate": ["dataset", "name"],
    "enumerate": ["start", "name"], "filter": ["predicate", "name"],
    "flat_map": ["map_func", "name"],
    "from_generator": ["generator", "output_types", "output_shapes", "args",
                       "output_signature", "name"],
    "from_tensor_slices": ["tensors", "name"], "from_tensors": ["tensors", "name"],
    "group_by_window": ["key_func", "reduce_func", "window_size", "window_size_func", "name"],
    "ignore_errors": ["log_warning", "name"],
    "interleave": ["map_func", "cycle_length", "block_length", "num_parallel_calls",
                   "deterministic", "name"],
    "map": ["map_func", "num_parallel_calls", "deterministic", "synchronous",
            "use_unbounded_threadpool", "name"],
    "padded_batch": ["batch_size", "padded_shapes", "padding_values", "drop_remainder",
                     "name"],
    "prefetch": ["buffer_size", "name"],
    "ragged_batch": ["batch_size", "drop_remainder", "row_splits_dtype", "name"],
    "rebatch": ["batch_size", "drop_remainder", "name"],
    "reduce": ["initial_state", "reduce_func", "name"], "repeat": ["count", "name"],
    "scan": ["initial_state", "scan_func", "name"], "shard": ["num_shards", "index", "name"],
    "shuffle": ["buffer_size", "seed", "reshuffle_each_iteration", "name"],
    "skip": ["count", "name"], "take": ["count", "name"], "take_while": ["predicate", "name"],
    "unbatch": ["name"], "unique": ["name"],
    "window": ["size", "shift", "stride", "drop_remainder", "name"],
    "with_options": ["options", "name"], "zip": ["datasets", "name"],
    "load": ["path", "element_spec", "compression", "reader_func", "wait"],
}


@pytest.mark.parametrize("method", sorted(TENSORFLOW_ARGUMENTS))
def test_dataset_methods_take_tensorflows_argument_names(method):
    have = inspect.signature(getattr(Dataset, method)).parameters
    missing = [name for name in TENSORFLOW_ARGUMENTS[method] if name not in have]
    assert not missing, f"Dataset.{method} lacks {missing}"


def test_a_pipeline_written_with_names_and_keywords_runs():
    ds = (Dataset.from_tensor_slices(tensors=np.arange(6), name="source")
          .map(lambda x: x * 2, synchronous=True, name="double")
          .filter(lambda x: x > 0, name="positive")
          .batch(2, name="pairs")
          .unbatch(name="rows")
          .take(3, name="first"))
    assert [int(x) for x in ds] == [2, 4, 6]
    assert Dataset.from_tensors(tensors=(1, b"a"), name="one").element_spec == (
        fl.TensorSpec((), fl.int32), fl.TensorSpec((), fl.string))


def test_synchronous_map_with_parallel_calls_is_refused_as_in_tensorflow():
    with pytest.raises(ValueError, match="synchronous"):
        Dataset.range(3).map(lambda x: x, num_parallel_calls=2, synchronous=True)
