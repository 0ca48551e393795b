"""The ex-16 checks accept the reference answers and reject plausible wrong ones."""

import hashlib
import json
import math

import numpy as np
import pytest

from feedline.checks import _replay, ex16
from feedline.sources import index_shuffle
from checkkit import assert_same_verdict_when_replayed, blank, check_rejects, graded


# -- ex-16-1: pick the reader ------------------------------------------------------------------

STREAMS = ("tfrecord_gzip", "csv_stream")


def choose_reader(record_format, global_shuffle, exact_resume):
    if record_format in STREAMS:
        return "dataset"
    return "random_access" if global_shuffle or exact_resume else "dataset"


def test_choose_reader_accepts_the_rule_of_the_lesson(capsys):
    ex16.check_choose_reader(choose_reader)
    assert capsys.readouterr().out == (
        "ex-16-1 passed: the right reader for all 16 combinations of format and needs\n")


@pytest.mark.parametrize("wrong, match", [
    (lambda fmt, shuffle, resume: "random_access" if shuffle or resume else "dataset",
     "can only be read from its start"),
    (lambda fmt, shuffle, resume: "random_access", "can only be read from its start"),
    (lambda fmt, shuffle, resume: "dataset" if fmt != "array_record" or not (shuffle or resume)
     else "random_access", "uncompressed TFRecord file can be read at random"),
    (lambda fmt, shuffle, resume: "dataset" if fmt in STREAMS else "random_access",
     "neither a global shuffle nor an exact resume"),
    (lambda fmt, shuffle, resume: "dataset" if fmt in STREAMS or not shuffle
     else "random_access", "a stream cannot shuffle globally nor resume"),
    (lambda fmt, shuffle, resume: "loader", "return the string 'dataset' or 'random_access'"),
    (blank, "NotImplementedError"),
])
def test_choose_reader_rejects(wrong, match):
    check_rejects(ex16.check_choose_reader, wrong, match)


# -- ex-16-2: shards ---------------------------------------------------------------------------

def contiguous_shards(num_records, shard_index, shard_count, drop_remainder):
    start = shard_index * num_records // shard_count
    end = (shard_index + 1) * num_records // shard_count
    if drop_remainder:
        end = start + num_records // shard_count
    return list(range(start, end))


def strided_shards(num_records, shard_index, shard_count, drop_remainder):
    stop = shard_count * (num_records // shard_count) if drop_remainder else num_records
    return range(shard_index, stop, shard_count)  # a range, not a list: also fine


@pytest.mark.parametrize("answer", [contiguous_shards, strided_shards])
def test_shard_indices_accepts_contiguous_and_strided_shards(answer, capsys):
    ex16.check_shard_indices(answer)
    assert capsys.readouterr().out.startswith("ex-16-2 passed: shards are disjoint")


def overlapping_shards(num_records, shard_index, shard_count, drop_remainder):
    per = math.ceil(num_records / shard_count)
    return list(range(shard_index * per - shard_index, min(num_records,
                                                          (shard_index + 1) * per)))


def remainder_lost(num_records, shard_index, shard_count, drop_remainder):
    per = num_records // shard_count
    return list(range(shard_index * per, (shard_index + 1) * per))


def drop_remainder_ignored(num_records, shard_index, shard_count, drop_remainder):
    return contiguous_shards(num_records, shard_index, shard_count, False)


def remainder_to_the_last_shard(num_records, shard_index, shard_count, drop_remainder):
    per = num_records // shard_count
    if drop_remainder:
        return list(range(shard_index * per, (shard_index + 1) * per))
    end = num_records if shard_index == shard_count - 1 else (shard_index + 1) * per
    return list(range(shard_index * per, end))


@pytest.mark.parametrize("wrong, match", [
    (overlapping_shards, "is in shard \\d+ and in shard \\d+"),
    (remainder_lost, "is in no shard"),
    (drop_remainder_ignored, "drop_remainder gives every shard the same number"),
    (remainder_to_the_last_shard, "differ by more than one record"),
    (lambda n, i, c, drop: list(range(n)), "is in shard 0 and in shard 1"),
    (lambda n, i, c, drop: None, "returned None"),
    (blank, "NotImplementedError"),
])
def test_shard_indices_rejects(wrong, match):
    check_rejects(ex16.check_shard_indices, wrong, match)


# -- ex-16-3: a permutation per epoch ----------------------------------------------------------

def affine_permutation(index, size, seed, epoch):
    generator = np.random.default_rng([seed, epoch])
    a = int(generator.integers(1, size + 1))
    while math.gcd(a, size) != 1:
        a += 1
    return (a * index + int(generator.integers(size))) % size


def feistel_permutation(index, size, seed, epoch):
    return index_shuffle(index, size, seed, epoch)


@pytest.mark.parametrize("answer", [affine_permutation, feistel_permutation])
def test_permuted_index_accepts_affine_and_feistel_permutations(answer, capsys):
    ex16.check_permuted_index(answer)
    assert capsys.readouterr().out.startswith("ex-16-3 passed: a different permutation")


def same_every_epoch(index, size, seed, epoch):
    return affine_permutation(index, size, seed, 0)


def hashed(index, size, seed, epoch):
    digest = hashlib.blake2b(f"{seed}:{epoch}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") % size


def multiplier_not_coprime(index, size, seed, epoch):
    return (2 * index + seed + epoch) % size


def shuffled_table(index, size, seed, epoch):
    return int(np.random.default_rng([seed, epoch]).permutation(size)[index])


@pytest.mark.parametrize("wrong, match", [
    (same_every_epoch, "epoch 1 gave the same order as epoch 0"),
    (hashed, "both go to record"),
    (multiplier_not_coprime, "both go to record"),
    (shuffled_table, "allocated .* MB"),
    (lambda index, size, seed, epoch: index, "nothing was shuffled"),
    (lambda index, size, seed, epoch: affine_permutation(index, size, 0, epoch),
     "gave the same order"),
    (lambda index, size, seed, epoch: (index + 1) % (size + 1), "outside 0"),
    # a shift by the seed and the epoch: a new order each time, but nothing mixed
    (lambda index, size, seed, epoch: (index + seed + epoch) % size,
     "(?s)every order was range\\(size\\) rotated.*mix the index"),
    (blank, "NotImplementedError"),
])
def test_permuted_index_rejects(wrong, match):
    check_rejects(ex16.check_permuted_index, wrong, match)


# -- ex-16-4: resume exactly -------------------------------------------------------------------

def resume(loader, batches_consumed, batch_size):
    iterator = iter(loader)
    iterator.set_state({"next_position": batches_consumed * batch_size})
    return iterator


def resume_at(offset):
    def wrong(loader, batches_consumed, batch_size):
        iterator = iter(loader)
        iterator.set_state({"next_position": batches_consumed * batch_size + offset})
        return iterator
    return wrong


def resume_counting_batches(loader, batches_consumed, batch_size):
    iterator = iter(loader)
    iterator.set_state({"next_position": batches_consumed})
    return iterator


def resume_by_skipping(loader, batches_consumed, batch_size):
    iterator = iter(loader)
    for _ in range(batches_consumed):
        next(iterator)
    return iterator


def test_resume_accepts_setting_the_state(capsys):
    ex16.check_resume(resume)
    assert capsys.readouterr().out == (
        "ex-16-4 passed: every resumed loader gave exactly the remaining batches and read no "
        "record twice\n")


def test_resume_accepts_the_remaining_batches_as_a_list():
    ex16.check_resume(lambda loader, k, b: list(resume(loader, k, b)))


@pytest.mark.parametrize("wrong, match", [
    (resume_at(1), "resumed 1 record\\(s\\) late, losing them"),
    (resume_at(-1), "resumed 1 record\\(s\\) early, repeating them"),
    (resume_counting_batches, "early, repeating them"),
    (lambda loader, k, b: iter(loader), "started again from the first batch"),
    (resume_by_skipping, "read the consumed batches again"),
    (lambda loader, k, b: 3, "cannot be iterated"),
    (lambda loader, k, b: None, "returned None"),
    (blank, "NotImplementedError"),
])
def test_resume_rejects(wrong, match):
    check_rejects(ex16.check_resume, wrong, match)


# -- the grader judges them again --------------------------------------------------------------

@pytest.mark.parametrize("check, right, wrong", [
    (ex16.check_choose_reader, choose_reader, lambda fmt, s, r: "random_access"),
    (ex16.check_shard_indices, strided_shards, remainder_lost),
    (ex16.check_permuted_index, affine_permutation, shuffled_table),
    (ex16.check_resume, resume, resume_by_skipping),
], ids=["ex-16-1", "ex-16-2", "ex-16-3", "ex-16-4"])
def test_random_access_checks_give_the_same_verdict_when_replayed(monkeypatch, check, right,
                                                                  wrong):
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)


def test_a_forged_resume_record_fails_in_the_grader(monkeypatch):
    """A right record whose batches are rewritten to lose the first one fails."""
    _, observation = graded(monkeypatch, ex16.check_resume, resume)
    forged = json.loads(json.dumps(observation))
    event = next(event for event in forged["events"]
                 if event["op"] == "observe" and event["name"] == "resumed batches")
    event["value"] = event["value"][1:]
    assert _replay.judge("ex-16-4", forged, "5eed")[0] == "failed"


def test_the_random_shard_cases_always_leave_a_remainder():
    for seed in range(20):
        cases = ex16._shard_cases(np.random.default_rng(seed))
        assert all(n % c for n, c, _ in cases if (n, c) != (7, 7))
