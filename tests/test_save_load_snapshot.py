"""Dataset.save / Dataset.load keep every element exactly (structure, dtype, shape, bytes);
an unfinished write is never read; snapshot writes on the first complete pass, reads after,
and writes anew when the pipeline above it changes."""

import collections
import json
import os

import numpy as np
import pytest
from threadkit import settle, snapshot

import feedline as fl
from feedline.data import Dataset
from feedline.data.state import IteratorStateError
from feedline.data.state.iterators import restore_iterator, save_iterator
from feedline.errors import DataLossError, NotFoundError

pytestmark = pytest.mark.timeout(120)

Point = collections.namedtuple("Point", ["x", "label"])
CALLS = []


def plain(element):
    if isinstance(element, dict):
        return {key: plain(value) for key, value in element.items()}
    if isinstance(element, tuple):
        return (type(element).__name__,) + tuple(plain(item) for item in element)
    if isinstance(element, (np.ndarray, np.generic)):
        return (str(element.dtype), np.shape(element), np.asarray(element).tolist())
    return (type(element).__name__, element)


def run(dataset):
    return [plain(element) for element in dataset]




def varied_dataset():
    """Nested tuples and dicts; scalar and batched strings; many dtypes and shapes."""
    def element(i):
        return ({"flag": np.bool_(i % 2), "small": np.uint8(i), "half": np.float16(i / 3)},
                (np.arange(i, dtype=np.int16).reshape(-1, 1),
                 np.full((2, 3), i, dtype=np.complex64)),
                b"text-%d" % i,
                np.array([b"a" * i, b"", b"\x00\xff"], dtype=object),
                np.float64(i) * 0.1)

    return Dataset.from_tensor_slices(np.arange(6)).map(
        lambda i: element(int(i)))


def test_save_then_load_gives_back_every_element_exactly(tmp_path):
    ds = varied_dataset()
    ds.save(str(tmp_path / "saved"))
    assert run(Dataset.load(str(tmp_path / "saved"))) == run(ds)


def test_load_keeps_namedtuples_and_int32_and_float32_values(tmp_path):
    ds = Dataset.from_tensor_slices(Point(x=[1, 2, 3], label=[0.5, 1.5, 2.5]))
    ds.save(str(tmp_path / "points"))
    loaded = list(Dataset.load(str(tmp_path / "points")))
    assert loaded[1] == Point(x=np.int32(2), label=np.float32(1.5))
    assert type(loaded[1]) is Point and loaded[1].x.dtype == np.int32


def test_load_knows_the_element_spec_and_cardinality_without_reading(tmp_path):
    ds = Dataset.range(7).batch(3).map(lambda b: {"ids": b, "name": b"x"})
    ds.save(str(tmp_path / "s"))
    loaded = Dataset.load(str(tmp_path / "s"))
    assert loaded.element_spec == {"ids": fl.data.TensorSpec((None,), np.int64),
                                   "name": fl.data.TensorSpec((), "string")}
    assert int(loaded.cardinality()) == 3


def test_load_uses_the_element_spec_it_is_given(tmp_path):
    Dataset.range(3).save(str(tmp_path / "s"))
    spec = fl.data.TensorSpec((), np.int64)
    assert Dataset.load(str(tmp_path / "s"), element_spec=spec).element_spec is spec


def test_an_empty_saved_dataset_asks_for_an_element_spec(tmp_path):
    Dataset.range(0).save(str(tmp_path / "empty"))
    loaded = Dataset.load(str(tmp_path / "empty"))
    assert list(loaded) == []
    with pytest.raises(ValueError, match="element_spec="):
        loaded.element_spec


@pytest.mark.parametrize("compression", ["GZIP", "ZLIB"])
def test_compressed_saves_round_trip_and_load_finds_the_compression(tmp_path, compression):
    ds = Dataset.range(50).map(lambda x: (x, fl.cast(x, fl.float32) * 2.0))
    ds.save(str(tmp_path / "c"), compression=compression)
    assert run(Dataset.load(str(tmp_path / "c"))) == run(ds)
    assert run(Dataset.load(str(tmp_path / "c"), compression=compression)) == run(ds)


def test_loading_with_another_compression_says_which_one_was_used(tmp_path):
    Dataset.range(3).save(str(tmp_path / "c"), compression="GZIP")
    with pytest.raises(ValueError, match="saved with compression 'GZIP'"):
        Dataset.load(str(tmp_path / "c"), compression="ZLIB")


def test_unknown_compression_is_named():
    with pytest.raises(ValueError, match="'LZ4'"):
        Dataset.range(3).save("/nonexistent/never", compression="LZ4")


def test_shard_func_spreads_elements_and_load_reads_shard_after_shard(tmp_path):
    Dataset.range(10).save(str(tmp_path / "s"), shard_func=lambda x: x % 3)
    names = sorted(name for name in os.listdir(tmp_path / "s") if name.startswith("shard-"))
    assert names == ["shard-00000.tfrecord", "shard-00001.tfrecord", "shard-00002.tfrecord"]
    assert [int(x) for x in Dataset.load(str(tmp_path / "s"))] == [0, 3, 6, 9, 1, 4, 7, 2, 5,
                                                                  8]


def test_reader_func_receives_the_shards_as_datasets(tmp_path):
    Dataset.range(6).save(str(tmp_path / "s"), shard_func=lambda x: x % 2)
    loaded = Dataset.load(str(tmp_path / "s"), reader_func=lambda shards: shards.interleave(
        lambda shard: shard, cycle_length=2))
    assert [int(x) for x in loaded] == [0, 1, 2, 3, 4, 5]


def test_a_negative_shard_index_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="negative shard index -1"):
        Dataset.range(3).save(str(tmp_path / "s"), shard_func=lambda x: -1)
    assert not os.path.exists(tmp_path / "s")


def test_checkpoint_args_are_refused_not_ignored(tmp_path):
    with pytest.raises(ValueError, match="checkpoint_args"):
        Dataset.range(3).save(str(tmp_path / "s"), checkpoint_args={"checkpoint_interval": 1})


def test_a_save_that_fails_halfway_leaves_nothing_behind(tmp_path):
    def explode(x):
        if x == 5:
            raise RuntimeError("bad element")
        return x
    with pytest.raises(RuntimeError, match="bad element"):
        Dataset.range(10).map(explode).save(str(tmp_path / "s"))
    assert os.listdir(tmp_path) == []


def test_a_directory_without_the_done_marker_is_not_read(tmp_path):
    Dataset.range(4).save(str(tmp_path / "s"))
    os.remove(tmp_path / "s" / "DONE")
    with pytest.raises(DataLossError, match="no DONE marker"):
        Dataset.load(str(tmp_path / "s"))


def test_loading_a_missing_path_names_it(tmp_path):
    with pytest.raises(NotFoundError, match="nothing-here"):
        Dataset.load(str(tmp_path / "nothing-here"))


def test_saving_again_replaces_an_earlier_save(tmp_path):
    Dataset.range(4).save(str(tmp_path / "s"))
    Dataset.range(2).save(str(tmp_path / "s"))
    assert [int(x) for x in Dataset.load(str(tmp_path / "s"))] == [0, 1]


def test_saving_over_a_directory_that_is_not_a_saved_dataset_is_refused(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(FileExistsError, match="not a dataset written by Dataset.save"):
        Dataset.range(3).save(str(tmp_path / "mine"))
    assert (tmp_path / "mine" / "notes.txt").exists()


def test_the_done_marker_is_json_naming_count_and_shards(tmp_path):
    Dataset.range(5).save(str(tmp_path / "s"))
    done = json.loads((tmp_path / "s" / "DONE").read_text())
    assert (done["count"], done["shards"]) == (5, ["shard-00000.tfrecord"])


def test_a_loaded_dataset_iterator_can_be_checkpointed(tmp_path):
    Dataset.range(20).save(str(tmp_path / "s"))
    iterator = iter(Dataset.load(str(tmp_path / "s")).shuffle(5, seed=2))
    head = [int(next(iterator)) for _ in range(7)]
    state = save_iterator(iterator)
    rest = [int(x) for x in iterator]
    fresh = iter(Dataset.load(str(tmp_path / "s")).shuffle(5, seed=2))
    restore_iterator(fresh, state)
    assert [int(x) for x in fresh] == rest
    assert sorted(head + rest) == list(range(20))


def test_saving_a_threaded_pipeline_leaves_no_thread(tmp_path):
    baseline = snapshot()
    Dataset.range(100).map(lambda x: x + 1, num_parallel_calls=3).prefetch(2).save(
        str(tmp_path / "s"))
    assert settle(baseline) == []


# -- snapshot -----------------------------------------------------------------------------------

def traced_double(x):
    CALLS.append(int(x))
    return x * 2


def snapshotted(path, function=traced_double, size=6):
    return Dataset.range(size).map(function).snapshot(str(path))


def test_snapshot_writes_on_the_first_pass_and_reads_afterwards(tmp_path):
    CALLS.clear()
    ds = snapshotted(tmp_path)
    assert [int(x) for x in ds] == [0, 2, 4, 6, 8, 10]
    assert len(CALLS) == 6
    assert [int(x) for x in ds] == [0, 2, 4, 6, 8, 10]
    assert [int(x) for x in snapshotted(tmp_path)] == [0, 2, 4, 6, 8, 10]  # a new pipeline
    assert len(CALLS) == 6


def test_a_snapshot_pass_interrupted_halfway_is_rebuilt_not_read(tmp_path):
    CALLS.clear()
    ds = snapshotted(tmp_path)
    iterator = iter(ds)
    assert [int(next(iterator)) for _ in range(3)] == [0, 2, 4]
    iterator.close()
    assert os.listdir(tmp_path) == []
    assert [int(x) for x in ds] == [0, 2, 4, 6, 8, 10]
    assert len(CALLS) == 3 + 6
    assert [int(x) for x in ds] == [0, 2, 4, 6, 8, 10]
    assert len(CALLS) == 9


def test_changing_the_map_function_above_a_snapshot_writes_a_new_one(tmp_path):
    first = [int(x) for x in snapshotted(tmp_path, lambda x: x + 1)]
    second = [int(x) for x in snapshotted(tmp_path, lambda x: x + 100)]
    assert (first, second) == ([1, 2, 3, 4, 5, 6], [100, 101, 102, 103, 104, 105])
    assert len(os.listdir(tmp_path)) == 2
    assert [int(x) for x in snapshotted(tmp_path, lambda x: x + 1)] == first


def test_changing_an_argument_above_a_snapshot_writes_a_new_one(tmp_path):
    assert len(list(snapshotted(tmp_path, size=4))) == 4
    assert len(list(snapshotted(tmp_path, size=5))) == 5
    assert len(os.listdir(tmp_path)) == 2


def test_a_compressed_snapshot_reads_back_the_same_elements(tmp_path):
    ds = Dataset.range(30).map(lambda x: (x, b"s")).snapshot(str(tmp_path), compression="GZIP")
    assert run(ds) == run(ds) == run(Dataset.range(30).map(lambda x: (x, b"s")))


def test_a_snapshot_being_written_cannot_be_checkpointed_but_a_read_one_can(tmp_path):
    ds = snapshotted(tmp_path, size=10)
    with iter(ds) as writing:
        next(writing)
        with pytest.raises(IteratorStateError, match="`snapshot` stage"):
            save_iterator(writing)
    list(ds)
    reading = iter(snapshotted(tmp_path, size=10))
    head = [int(next(reading)) for _ in range(4)]
    state = save_iterator(reading)
    fresh = iter(snapshotted(tmp_path, size=10))
    restore_iterator(fresh, state)
    assert head + [int(x) for x in fresh] == list(range(0, 20, 2))


def test_a_snapshot_of_a_threaded_pipeline_stopped_early_leaves_no_thread(tmp_path):
    baseline = snapshot()
    ds = Dataset.range(10**6).map(lambda x: x, num_parallel_calls=3).prefetch(2).snapshot(
        str(tmp_path))
    for x in ds:
        if x >= 5:
            break
    assert settle(baseline) == []
    assert os.listdir(tmp_path) == []
