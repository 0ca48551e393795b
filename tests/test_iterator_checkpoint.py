"""Resumable iterators: a checkpoint taken after any k elements, restored into a fresh iterator
of a freshly built identical pipeline, gives exactly the elements an uninterrupted run gives
after those k; stages that cannot be saved say which and why; threads still end."""

import json
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from threadkit import settle, snapshot

import feedline as fl
from feedline.data import Dataset, TFRecordDataset
from feedline.data.state import IteratorStateError
from feedline.data.state.iterators import restore_iterator, save_iterator
from feedline.io import TFRecordOptions, TFRecordWriter

pytestmark = pytest.mark.timeout(300)


# -- helpers ----------------------------------------------------------------------------------

def plain(element):
    """An element as nested Python values, with dtypes kept, for exact comparison."""
    if isinstance(element, dict):
        return {key: plain(value) for key, value in element.items()}
    if isinstance(element, tuple):
        return tuple(plain(item) for item in element)
    if isinstance(element, (np.ndarray, np.generic)):
        return (str(element.dtype), np.shape(element), np.asarray(element).tolist())
    return element


def run(iterator):
    return [plain(element) for element in iterator]


def take(iterator, k):
    return [plain(next(iterator)) for _ in range(k)]


def resumed_run(build, k):
    """The elements after the first `k`, read from a fresh iterator of a fresh pipeline that
    was restored from a state saved (and sent through JSON) after `k` elements."""
    iterator = iter(build())
    head = take(iterator, k)
    state = json.loads(json.dumps(save_iterator(iterator)))
    iterator.close()
    fresh = iter(build())
    restore_iterator(fresh, state)
    return head, run(fresh)


def assert_resumes_exactly(build, ks):
    expected = run(iter(build()))
    for k in sorted({min(k, len(expected)) for k in ks} | {0, len(expected)}):
        head, rest = resumed_run(build, k)
        assert head + rest == expected, f"k={k}"


@pytest.fixture(scope="module")
def record_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    paths = []
    for index, compression in enumerate([None, "GZIP", None]):
        path = str(folder / f"part-{index}.tfrecord")
        with TFRecordWriter(path, TFRecordOptions(compression_type=compression)) as writer:
            for record in range(5 + index):
                writer.write(f"file{index}-record{record}".encode())
        paths.append((path, compression))
    return paths


def plain_files(record_files):
    return [path for path, compression in record_files if compression is None]


# -- every stage --------------------------------------------------------------------------------

def add_one(x):
    return x + 1


STAGES = {
    "range": lambda: Dataset.range(3, 60, 4),
    "range_large": lambda: Dataset.range(10000).skip(4090).take(20),
    "from_tensors": lambda: Dataset.from_tensors({"a": np.arange(3), "b": b"x"}),
    "from_tensor_slices": lambda: Dataset.from_tensor_slices(
        ({"id": np.arange(9, dtype=np.int32)}, np.array([b"s%d" % i for i in range(9)],
                                                        dtype=object))),
    "from_tensor_slices_plain": lambda: Dataset.from_tensor_slices(np.eye(5, dtype=np.float32)),
    "map": lambda: Dataset.range(12).map(lambda x: (x, x / 2)),
    "map_parallel": lambda: Dataset.range(40).map(add_one, num_parallel_calls=3),
    "map_parallel_autotune": lambda: Dataset.range(40).map(
        add_one, num_parallel_calls=fl.data.AUTOTUNE),
    "filter": lambda: Dataset.range(30).filter(lambda x: x % 3 != 1),
    "batch": lambda: Dataset.range(23).batch(5),
    "batch_drop_remainder": lambda: Dataset.range(23).batch(5, drop_remainder=True),
    "batch_parallel": lambda: Dataset.range(23).batch(4, num_parallel_calls=2),
    "shuffle": lambda: Dataset.range(40).shuffle(7, seed=11),
    "shuffle_buffer_larger_than_data": lambda: Dataset.range(10).shuffle(100, seed=5),
    "shuffle_long_input": lambda: Dataset.range(2600).shuffle(3, seed=2).skip(2580),
    "shuffle_reshuffles_each_epoch": lambda: Dataset.range(8).shuffle(4, seed=1).repeat(3),
    "shuffle_fixed_order": lambda: Dataset.range(8).shuffle(
        4, seed=1, reshuffle_each_iteration=False).repeat(2),
    "repeat": lambda: Dataset.range(4).repeat(3),
    "repeat_forever": lambda: Dataset.range(3).repeat().take(10),
    "take": lambda: Dataset.range(20).take(7),
    "skip": lambda: Dataset.range(20).skip(7),
    "skip_all": lambda: Dataset.range(20).skip(-1),
    "interleave": lambda: Dataset.range(1, 6).interleave(
        lambda x: Dataset.range(x * 10, x * 10 + x), cycle_length=3, block_length=2),
    "interleave_parallel": lambda: Dataset.range(1, 6).interleave(
        lambda x: Dataset.range(x * 10, x * 10 + x), cycle_length=2, num_parallel_calls=2),
    "prefetch": lambda: Dataset.range(25).prefetch(3),
    "prefetch_autotune": lambda: Dataset.range(25).prefetch(fl.data.AUTOTUNE),
    "prefetch_zero": lambda: Dataset.range(25).prefetch(0),
    "with_options": lambda: Dataset.range(10).map(add_one, num_parallel_calls=2).with_options(
        fl.data.Options()),
}


@pytest.mark.parametrize("name", sorted(STAGES))
def test_every_stage_resumes_with_exactly_the_remaining_elements(name):
    rng = random.Random(name)
    assert_resumes_exactly(STAGES[name], [0, 1, rng.randrange(1, 30), rng.randrange(1, 30)])


def test_tfrecord_dataset_resumes_inside_a_file_and_across_files(record_files):
    build = lambda: TFRecordDataset(plain_files(record_files))  # noqa: E731
    assert_resumes_exactly(build, range(12))


def test_compressed_tfrecord_files_resume_at_the_same_record(record_files):
    gzip = [path for path, compression in record_files if compression == "GZIP"]
    assert_resumes_exactly(lambda: TFRecordDataset(gzip * 2, compression_type="GZIP"), range(13))


def test_tfrecord_with_parallel_reads_resumes(record_files):
    build = lambda: TFRecordDataset(plain_files(record_files), num_parallel_reads=2)  # noqa
    assert_resumes_exactly(build, [0, 3, 7])


def test_a_seeded_shuffle_restores_its_buffer_and_generator_mid_epoch():
    build = lambda: Dataset.range(100).shuffle(10, seed=4).batch(3)  # noqa: E731
    head, rest = resumed_run(build, 5)
    assert head + rest == run(iter(build()))
    assert len(rest) == 34 - 5


def test_restoring_twice_in_a_row_still_resumes_exactly():
    build = lambda: Dataset.range(30).shuffle(5, seed=9).map(  # noqa: E731
        add_one, num_parallel_calls=2).prefetch(2)
    expected = run(iter(build()))
    first = iter(build())
    head = take(first, 4)
    second = iter(build())
    restore_iterator(second, save_iterator(first))
    middle = take(second, 6)
    third = iter(build())
    restore_iterator(third, save_iterator(second))
    assert head + middle + run(third) == expected
    first.close()
    second.close()


# -- random compositions ----------------------------------------------------------------------

def _random_pipeline(rng):
    """A random but finite pipeline built from a seeded recipe (rebuilt identically)."""
    recipe = [("source", rng.choice(["range", "slices"]), rng.randrange(8, 30))]
    for _ in range(rng.randrange(2, 6)):
        recipe.append((rng.choice(["map", "pmap", "filter", "batch", "shuffle", "repeat",
                                   "take", "skip", "interleave", "prefetch"]),
                       rng.randrange(1, 6), rng.randrange(1000)))
    return recipe


def _build(recipe):
    _, kind, size = recipe[0]
    ds = (Dataset.range(size) if kind == "range" else
          Dataset.from_tensor_slices(np.arange(size, dtype=np.int64) * 3))
    batched = False
    for op, n, seed in recipe[1:]:
        if op == "map":
            ds = ds.map(lambda x: x * 2 + 1)
        elif op == "pmap":
            ds = ds.map(lambda x: x - 1, num_parallel_calls=n)
        elif op == "filter":
            ds = ds.filter(lambda x: np.sum(x) % 4 != 0)
        elif op == "batch" and not batched:
            ds, batched = ds.batch(n + 1), True
        elif op == "shuffle":
            ds = ds.shuffle(n + 1, seed=seed)
        elif op == "repeat":
            ds = ds.repeat(2)
        elif op == "take":
            ds = ds.take(n * 4)
        elif op == "skip":
            ds = ds.skip(n)
        elif op == "interleave" and not batched:
            ds = ds.interleave(lambda x: Dataset.from_tensors(x).repeat(2),
                               cycle_length=n, block_length=2)
        elif op == "prefetch":
            ds = ds.prefetch(n)
    return ds


@pytest.mark.parametrize("case", range(30))
def test_random_compositions_resume_exactly(case):
    rng = random.Random(1000 + case)
    recipe = _random_pipeline(rng)
    expected_length = len(run(iter(_build(recipe))))
    ks = [rng.randrange(0, expected_length + 1) for _ in range(2)]
    assert_resumes_exactly(lambda: _build(recipe), ks)


# -- fl.train.Checkpoint ----------------------------------------------------------------------

def test_checkpoint_save_numbers_the_files_and_latest_checkpoint_finds_the_last(tmp_path):
    iterator = iter(Dataset.range(10))
    checkpoint = fl.train.Checkpoint(iterator=iterator)
    first = checkpoint.save(str(tmp_path / "ckpt"))
    next(iterator)
    second = checkpoint.save(str(tmp_path / "ckpt"))
    assert (first, second) == (str(tmp_path / "ckpt-1"), str(tmp_path / "ckpt-2"))
    assert fl.train.latest_checkpoint(str(tmp_path)) == second
    assert fl.train.latest_checkpoint(str(tmp_path / "nothing-here")) is None


def test_checkpoint_restore_puts_the_iterator_back_where_it_was_saved(tmp_path):
    build = lambda: Dataset.range(20).shuffle(6, seed=3).batch(4)  # noqa: E731
    iterator = iter(build())
    next(iterator)
    path = fl.train.Checkpoint(it=iterator).save(str(tmp_path / "ckpt"))
    expected = run(iterator)
    other = iter(build())
    fl.train.Checkpoint(it=other).restore(path).assert_consumed()
    assert run(other) == expected


def test_checkpoint_write_and_read_use_the_exact_path(tmp_path):
    iterator = iter(Dataset.range(5))
    next(iterator)
    path = fl.train.Checkpoint(it=iterator).write(str(tmp_path / "exact"))
    assert path == str(tmp_path / "exact")
    assert (tmp_path / "exact.json").exists()
    again = iter(Dataset.range(5))
    fl.train.Checkpoint(it=again).read(path)
    assert [int(x) for x in again] == [1, 2, 3, 4]


def test_checkpoint_file_is_json_not_pickle(tmp_path):
    iterator = iter(Dataset.range(8).shuffle(4, seed=1))
    next(iterator)
    path = fl.train.Checkpoint(it=iterator).write(str(tmp_path / "c"))
    content = json.loads((tmp_path / "c.json").read_text())
    assert content["objects"]["it"]["iterator"]["stage"] == "shuffle"
    assert path


def test_checkpoint_restore_without_a_saved_name_names_it(tmp_path):
    path = fl.train.Checkpoint(a=iter(Dataset.range(3))).write(str(tmp_path / "c"))
    with pytest.raises(ValueError, match="no state for b"):
        fl.train.Checkpoint(b=iter(Dataset.range(3))).read(path)


def test_assert_consumed_reports_saved_states_nothing_restored(tmp_path):
    path = fl.train.Checkpoint(a=iter(Dataset.range(3)), b=iter(Dataset.range(3))).write(
        str(tmp_path / "c"))
    status = fl.train.Checkpoint(a=iter(Dataset.range(3))).read(path)
    with pytest.raises(AssertionError, match="b"):
        status.assert_consumed()


def test_checkpoint_rejects_objects_without_state():
    with pytest.raises(TypeError, match="Checkpoint\\(model=...\\)"):
        fl.train.Checkpoint(model=object())


def test_checkpoint_of_a_missing_file_names_the_path(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.json"):
        fl.train.Checkpoint(a=iter(Dataset.range(3))).read(str(tmp_path / "nope"))


def test_checkpoint_also_saves_a_loader_iterator(tmp_path):
    from feedline.sources import DataLoader, IndexSampler, RangeDataSource

    def loader():
        return DataLoader(data_source=RangeDataSource(0, 6), sampler=IndexSampler(6))
    iterator = iter(loader())
    next(iterator)
    path = fl.train.Checkpoint(loader=iterator).write(str(tmp_path / "c"))
    again = iter(loader())
    fl.train.Checkpoint(loader=again).read(path)
    assert [int(x) for x in again] == [1, 2, 3, 4, 5]


_PIPELINE_MODULE = '''
import numpy as np
from feedline.data import Dataset

def double(x):
    return x * 2

def build():
    return (Dataset.range(50).shuffle(8, seed=21).map(double, num_parallel_calls=2)
            .filter(lambda x: x % 3 != 0).batch(4).prefetch(2))
'''


def test_a_checkpoint_restores_in_a_new_process(tmp_path):
    (tmp_path / "resume_pipeline.py").write_text(_PIPELINE_MODULE)
    sys.path.insert(0, str(tmp_path))
    try:
        import resume_pipeline
    finally:
        sys.path.remove(str(tmp_path))
    iterator = iter(resume_pipeline.build())
    take(iterator, 3)
    path = fl.train.Checkpoint(it=iterator).save(str(tmp_path / "ckpt"))
    expected = [batch.tolist() for batch in iterator]
    script = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(tmp_path)!r})
        import feedline as fl
        import resume_pipeline
        iterator = iter(resume_pipeline.build())
        fl.train.Checkpoint(it=iterator).restore(fl.train.latest_checkpoint({str(tmp_path)!r}))
        print(json.dumps([batch.tolist() for batch in iterator]))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert json.loads(result.stdout) == expected
    assert path.endswith("ckpt-1")


# -- errors -------------------------------------------------------------------------------------

def _generator():
    yield from range(5)


def test_saving_through_from_generator_names_the_stage_and_what_to_do():
    ds = Dataset.from_generator(
        _generator, output_signature=fl.data.TensorSpec((), np.int64)).map(add_one).batch(2)
    iterator = iter(ds)
    next(iterator)
    with pytest.raises(IteratorStateError, match="`from_generator` stage") as caught:
        save_iterator(iterator)
    assert "Dataset.save" in str(caught.value)


def test_saving_a_parallel_map_above_from_generator_raises_the_same_error():
    ds = Dataset.from_generator(
        _generator, output_signature=fl.data.TensorSpec((), np.int64)).map(
            add_one, num_parallel_calls=2)
    with iter(ds) as iterator:
        next(iterator)
        with pytest.raises(IteratorStateError, match="from_generator"):
            save_iterator(iterator)


def test_a_stage_without_state_is_named_in_the_error():
    iterator = iter(Dataset.range(6).window(2).flat_map(lambda w: w))
    with pytest.raises(IteratorStateError, match="`flat_map` stage"):
        save_iterator(iterator)


def test_nondeterministic_parallel_map_cannot_be_saved():
    ds = Dataset.range(10).map(add_one, num_parallel_calls=2, deterministic=False)
    with iter(ds) as iterator:
        next(iterator)
        with pytest.raises(IteratorStateError, match="deterministic=False"):
            save_iterator(iterator)


def test_restoring_into_a_different_pipeline_fails_clearly():
    iterator = iter(Dataset.range(10).map(lambda x: x + 1))
    next(iterator)
    state = save_iterator(iterator)
    with pytest.raises(IteratorStateError, match="different pipeline"):
        restore_iterator(iter(Dataset.range(10).map(lambda x: x + 2)), state)
    with pytest.raises(IteratorStateError, match="different pipeline"):
        restore_iterator(iter(Dataset.range(11).map(lambda x: x + 1)), state)


def test_restoring_something_that_is_not_a_state_fails_clearly():
    with pytest.raises(IteratorStateError, match="not a saved feedline iterator"):
        restore_iterator(iter(Dataset.range(3)), {"next": 1})


# -- threads ------------------------------------------------------------------------------------

def test_restoring_stops_the_old_iterators_threads_and_the_new_ones_end_too():
    build = lambda: Dataset.range(10**6).map(  # noqa: E731
        add_one, num_parallel_calls=3).prefetch(2).batch(3, num_parallel_calls=2).take(50)
    baseline = snapshot()
    iterator = iter(build())
    take(iterator, 4)
    state = save_iterator(iterator)
    fresh = iter(build())
    next(fresh)
    restore_iterator(fresh, state)
    iterator.close()
    assert len(run(fresh)) == 46
    assert settle(baseline) == []


def test_saving_does_not_start_or_leave_threads():
    baseline = snapshot()
    iterator = iter(Dataset.range(100).prefetch(2).map(add_one, num_parallel_calls=2))
    next(iterator)
    save_iterator(iterator)
    iterator.close()
    assert settle(baseline) == []
