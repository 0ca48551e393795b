"""The ex-11 checks accept the reference answers and reject plausible wrong ones."""

import os
import time
import uuid

import numpy as np
import pytest

from feedline.checks import ex11
from feedline.data import Dataset
from checkkit import blank, check_rejects


# -- ex-11-1: add a cache ---------------------------------------------------------------------

@pytest.mark.parametrize("answer", [
    lambda ds: ds.cache(),
    lambda ds: ds.cache().prefetch(1),
    lambda ds: ds.map(lambda x: x).cache(),
])
def test_with_cache_accepts_a_cache_after_the_slow_map(answer, capsys):
    ex11.check_with_cache(answer)
    assert capsys.readouterr().out == (
        "ex-11-1 passed: same elements every epoch; the slow map ran once per record in 5 "
        "epochs\n")


@pytest.mark.parametrize("wrong, match", [
    (lambda ds: ds, "ran \\d+ times over 5 epochs.*no cache\\(\\)"),
    (lambda ds: ds.prefetch(1), "no cache\\(\\)"),
    (lambda ds: ds.cache().take(5), "the pipeline has a take\\(\\)"),
    (lambda ds: ds.take(3).cache(), "take\\(\\) keeps only the first elements"),
    (lambda ds: ds.cache().repeat(2), "repeat\\(\\) inside the pipeline"),
    (lambda ds: ds.cache().shuffle(20, seed=1), "keep the order"),
    (lambda ds: [int(x) for x in ds], "should return a Dataset"),
    (lambda ds: Dataset.from_tensor_slices(np.array(list(ds))),
     "(?s)already run on all \\d+ records.*no cache\\(\\).*add .cache\\(\\)"),
    (blank, "NotImplementedError"),
])
def test_with_cache_rejects(wrong, match):
    check_rejects(ex11.check_with_cache, wrong, match)


def test_with_cache_names_the_partial_cache_when_take_stops_every_epoch_early():
    # Even take(all of them) stops before the end, so the cache never completes.
    with pytest.raises(AssertionError, match="never complete") as failure:
        ex11.check_with_cache(lambda ds: ds.cache().take(len(list(ds))))
    assert "do not put take() after cache()" in str(failure.value)


# -- ex-11-2: a cache within a memory budget --------------------------------------------------

def cache_between(records, decode, expand):
    return records.map(decode).cache().map(expand)


def test_cache_within_budget_accepts_the_split(capsys):
    ex11.check_cache_within_budget(cache_between)
    ex11.check_cache_within_budget(
        lambda records, decode, expand: records.map(decode).cache().map(expand).prefetch(1))
    assert capsys.readouterr().out.splitlines() == [
        "ex-11-2 passed: decode ran once per record; the cache holds the small decoded "
        "elements"] * 2


@pytest.mark.parametrize("wrong, match", [
    (lambda records, decode, expand: records.map(decode).map(expand).cache(),
     "over the budget.*expanded elements"),
    (lambda records, decode, expand: records.map(decode).cache().map(expand).cache(),
     "over the budget"),
    (lambda records, decode, expand: records.cache().map(decode).map(expand),
     "the cache is above decode"),
    (lambda records, decode, expand: records.map(decode).map(expand), "no cache\\(\\)"),
    (lambda records, decode, expand: records.map(decode).take(5).cache().map(expand),
     "take\\(\\)"),
    (lambda records, decode, expand: records.map(decode).cache(
        os.path.join("no-such-dir", "decoded")).map(expand), "file cache"),
    (lambda records, decode, expand: records.map(expand).cache().map(decode),
     "raised|should be"),
    (lambda records, decode, expand: Dataset.from_tensor_slices(
        np.stack([decode(x) for x in records])).map(expand),
     "(?s)decode had already run on all \\d+ records.*no cache\\(\\)"),
    (blank, "NotImplementedError"),
])
def test_cache_within_budget_rejects(wrong, match):
    check_rejects(ex11.check_cache_within_budget, wrong, match)


def test_cache_within_budget_says_put_the_cache_before_expand():
    with pytest.raises(AssertionError, match="between decode and expand, not after expand"):
        ex11.check_cache_within_budget(
            lambda records, decode, expand: records.map(decode).map(expand).cache())


# -- ex-11-3: predict the total ---------------------------------------------------------------

def predicted_time(n, epochs, open_s, read_s, map_s, step_s, where):
    full = open_s + n * (read_s + map_s + step_s)
    later = {"none": full, "before_map": n * (map_s + step_s), "after_map": n * step_s}[where]
    return full + (epochs - 1) * later


def test_predicted_time_accepts_the_schedule(capsys):
    ex11.check_predicted_time(predicted_time)
    assert capsys.readouterr().out.startswith("ex-11-3 passed:")


def first_epoch_free(n, epochs, open_s, read_s, map_s, step_s, where):
    if where == "after_map":
        return epochs * n * step_s
    return predicted_time(n, epochs, open_s, read_s, map_s, step_s, where)


def opens_every_epoch(n, epochs, open_s, read_s, map_s, step_s, where):
    if where == "before_map":
        return predicted_time(n, epochs, open_s, read_s, map_s, step_s, where) + \
            (epochs - 1) * open_s
    return predicted_time(n, epochs, open_s, read_s, map_s, step_s, where)


def before_like_after(n, epochs, open_s, read_s, map_s, step_s, where):
    where = "after_map" if where == "before_map" else where
    return predicted_time(n, epochs, open_s, read_s, map_s, step_s, where)


def after_like_before(n, epochs, open_s, read_s, map_s, step_s, where):
    where = "before_map" if where == "after_map" else where
    return predicted_time(n, epochs, open_s, read_s, map_s, step_s, where)


def one_epoch_only(n, epochs, open_s, read_s, map_s, step_s, where):
    return open_s + n * (read_s + map_s + step_s)


@pytest.mark.parametrize("wrong, match", [
    (first_epoch_free, "the first epoch is not cheaper"),
    (opens_every_epoch, "does not open the file again"),
    (before_like_after, "the map still runs every epoch"),
    (after_like_before, "saves the map too"),
    (one_epoch_only, "every one of the \\d+ epochs costs the same"),
    (lambda *args: "fast", "a number"),
    (blank, "NotImplementedError"),
])
def test_predicted_time_rejects(wrong, match):
    check_rejects(ex11.check_predicted_time, wrong, match)


# -- ex-11-4: random augmentation after the cache ---------------------------------------------

def augment_after_cache(records, decode, augment):
    return records.map(decode).cache().map(augment)


def test_augment_after_cache_accepts_the_reference(capsys):
    ex11.check_augment_after_cache(augment_after_cache)
    assert capsys.readouterr().out == (
        "ex-11-4 passed: decode ran once per record; the augmentation was drawn again every "
        "epoch\n")


@pytest.mark.parametrize("wrong, match", [
    (lambda records, decode, augment: records.map(decode).map(augment).cache(),
     "same augmented elements as epoch 1.*replays them"),
    (lambda records, decode, augment: records.map(decode).cache().map(augment).cache(),
     "same augmented elements"),
    (lambda records, decode, augment: records.map(decode).map(augment), "no cache\\(\\)"),
    (lambda records, decode, augment: records.cache().map(decode).map(augment),
     "the cache is above decode"),
    (lambda records, decode, augment: records.map(decode).cache(),
     "augment was never applied"),
    (lambda records, decode, augment: records.map(augment).map(decode).cache(),
     "should be augment\\(decode\\(record\\)\\)"),
    (lambda records, decode, augment: Dataset.from_tensor_slices(
        np.stack([decode(x) for x in records])).map(augment),
     "(?s)decode had already run on all \\d+ records.*no cache\\(\\)"),
    (blank, "NotImplementedError"),
])
def test_augment_after_cache_rejects(wrong, match):
    check_rejects(ex11.check_augment_after_cache, wrong, match)


def test_augment_after_cache_hint_says_a_cache_freezes_what_is_above_it():
    with pytest.raises(AssertionError, match="a cache freezes everything above it"):
        ex11.check_augment_after_cache(
            lambda records, decode, augment: records.map(decode).map(augment).cache())


# -- ex-11-5: a versioned file cache ----------------------------------------------------------

def versioned(records, transform, version, directory):
    return records.map(transform).cache(os.path.join(directory, f"transformed-{version}"))


def test_versioned_file_cache_accepts_a_name_with_the_version(capsys):
    ex11.check_versioned_file_cache(versioned)
    ex11.check_versioned_file_cache(  # a file name as a pathlib.Path works too
        lambda records, transform, version, directory: records.map(transform).cache(
            f"{directory}/{version}"))
    assert capsys.readouterr().out.splitlines() == [
        "ex-11-5 passed: each version has its own cache file in the directory, reused by "
        "later runs"] * 2


def test_versioned_file_cache_leaves_no_file_behind(tmp_path, monkeypatch):
    monkeypatch.setattr(ex11.file_cache.tempfile, "tempdir", str(tmp_path))
    ex11.check_versioned_file_cache(versioned)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("wrong, match", [
    (lambda records, transform, version, directory:
     records.map(transform).cache(os.path.join(directory, "transformed")),
     "stale elements of version"),
    (lambda records, transform, version, directory: records.map(transform).cache(),
     "no file cache"),
    (lambda records, transform, version, directory: records.map(transform).cache(
        os.path.join(directory, f"{version}-{uuid.uuid4().hex}")),
     "a later run of version .* called transform"),
    (lambda records, transform, version, directory: records.map(transform).cache(
        os.path.join(directory, f"{version}-{time.perf_counter_ns()}")),
     "no random or time part"),
    (lambda records, transform, version, directory: records.cache(
        os.path.join(directory, version)).map(transform), "the cache is above transform"),
    (blank, "NotImplementedError"),
])
def test_versioned_file_cache_rejects(wrong, match):
    check_rejects(ex11.check_versioned_file_cache, wrong, match)


def test_versioned_file_cache_rejects_a_file_outside_the_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AssertionError, match="written somewhere else"):
        ex11.check_versioned_file_cache(
            lambda records, transform, version, directory:
            records.map(transform).cache(f"transformed-{version}"))


def test_versioned_file_cache_says_to_put_the_version_in_the_name():
    with pytest.raises(AssertionError, match="put the version in the file name"):
        ex11.check_versioned_file_cache(
            lambda records, transform, version, directory:
            records.map(transform).cache(os.path.join(directory, "transformed")))
