"""The ex-02 checks accept the reference answers and reject plausible wrong ones."""

import random
import re

import pytest

from feedline.checks import ex02
from feedline.data import Dataset, TextLineDataset
from checkkit import assert_same_verdict_when_replayed, blank


def check_rejects(check, answer, match):
    # The message and its hint are on two lines: `.` in a pattern may cross from one to the other.
    with pytest.raises(AssertionError, match=re.compile(match, re.DOTALL)):
        check(answer)


# -- ex-02-1: shuffle in the right place -------------------------------------------------------

def train_batches(ds, n, seed):
    return ds.shuffle(n, seed=seed).repeat(3).batch(4)


@pytest.mark.parametrize("answer", [
    train_batches,
    lambda ds, n, seed: ds.shuffle(n, seed=seed).batch(4).repeat(3),  # no batch across epochs
    lambda ds, n, seed: ds.shuffle(1000, seed=seed).repeat(3).batch(4).prefetch(2),
])
def test_train_batches_accepts_a_seeded_full_shuffle_before_repeat_and_batch(answer, capsys):
    ex02.check_train_batches(answer)
    assert capsys.readouterr().out == (
        "ex-02-1 passed: 3 epochs, each a full shuffle in a new order, in batches of 4, fixed "
        "by the seed\n")


@pytest.mark.parametrize("wrong, match", [
    (lambda ds, n, seed: ds.repeat(3).shuffle(n, seed=seed).batch(4),
     "is not the \\d+ elements once each.*shuffle before repeat"),
    (lambda ds, n, seed: ds.batch(4).shuffle(n, seed=seed).repeat(3),
     "moved whole batches.*shuffle before batch"),
    (lambda ds, n, seed: ds.shuffle(n).repeat(3).batch(4),
     "same seed gave different batches.*pass seed=seed"),
    (lambda ds, n, seed: ds.shuffle(n, seed=seed, reshuffle_each_iteration=False)
     .repeat(3).batch(4), "same order.*reshuffle_each_iteration"),
    (lambda ds, n, seed: ds.shuffle(3, seed=seed).repeat(3).batch(4),
     "holds 3 elements, fewer than.*as large as the dataset"),
    (lambda ds, n, seed: ds.shuffle(n, seed=42).repeat(3).batch(4), "argument is not used"),
    (lambda ds, n, seed: ds.repeat(3).batch(4), "nothing was shuffled"),
    (lambda ds, n, seed: ds.shuffle(n, seed=seed).batch(4), "expected 3 epochs"),
    (lambda ds, n, seed: ds.shuffle(n, seed=seed).repeat(3), "should be a batch"),
    (lambda ds, n, seed: ds.shuffle(n, seed=seed).repeat(3).batch(2),
     "hold fewer than 4.*batch\\(4\\)"),
    (blank, "NotImplementedError"),
])
def test_train_batches_rejects(wrong, match):
    check_rejects(ex02.check_train_batches, wrong, match)


# -- ex-02-2: a buffer shuffle generator -------------------------------------------------------

def buffer_shuffle(elements, buffer_size, rng):
    buffer = []
    for element in elements:
        if len(buffer) == buffer_size:
            slot = int(rng.integers(len(buffer)))
            yield buffer[slot]
            buffer[slot] = element
        else:
            buffer.append(element)
    while buffer:
        yield buffer.pop(int(rng.integers(len(buffer))))


def as_list(elements, buffer_size, rng):
    """A right answer that returns a list instead of yielding."""
    return list(buffer_shuffle(elements, buffer_size, rng))


def fills_but_never_refills(elements, buffer_size, rng):
    elements = iter(elements)
    buffer = [element for _, element in zip(range(buffer_size), elements)]
    while buffer:
        yield buffer.pop(int(rng.integers(len(buffer))))


def shuffles_the_first_buffer_then_passes_the_rest(elements, buffer_size, rng):
    elements = iter(elements)
    buffer = [element for _, element in zip(range(buffer_size), elements)]
    rng.shuffle(buffer)
    yield from buffer
    yield from elements


def fifo(elements, buffer_size, rng):
    buffer = []
    for element in elements:
        buffer.append(element)
        if len(buffer) > buffer_size - 1:
            yield buffer.pop(0)
    yield from buffer


def picks_among_one_too_many(elements, buffer_size, rng):
    buffer = []
    for element in elements:
        buffer.append(element)
        if len(buffer) == buffer_size + 1:
            yield buffer.pop(int(rng.integers(len(buffer))))
    while buffer:
        yield buffer.pop(int(rng.integers(len(buffer))))


def forgets_to_empty_the_buffer(elements, buffer_size, rng):
    buffer = []
    for element in elements:
        if len(buffer) == buffer_size:
            yield buffer.pop(int(rng.integers(len(buffer))))
        buffer.append(element)


def uses_the_random_module(elements, buffer_size, rng):
    buffer = []
    for element in elements:
        if len(buffer) == buffer_size:
            yield buffer.pop(random.randrange(len(buffer)))
        buffer.append(element)
    while buffer:
        yield buffer.pop(random.randrange(len(buffer)))


def yields_without_removing(elements, buffer_size, rng):
    buffer = []
    for element in elements:
        if len(buffer) == buffer_size:
            yield buffer[int(rng.integers(len(buffer)))]
            buffer[0] = element
        else:
            buffer.append(element)
    yield from buffer


def never_picks_the_newest_of_a_partial_buffer(elements, buffer_size, rng):
    """Right while the buffer refills; when the input is short it keeps the input order."""
    buffer = []
    for element in elements:
        if len(buffer) == buffer_size:
            yield buffer.pop(int(rng.integers(len(buffer))))
        buffer.append(element)
    if len(buffer) < buffer_size:
        yield from buffer
        return
    while buffer:
        yield buffer.pop(int(rng.integers(len(buffer))))


def empties_the_buffer_from_the_end(elements, buffer_size, rng):
    """Right while the input lasts; then `buffer.pop()` always yields the newest first."""
    buffer = []
    for element in elements:
        if len(buffer) == buffer_size:
            slot = int(rng.integers(len(buffer)))
            yield buffer[slot]
            buffer[slot] = element
        else:
            buffer.append(element)
    while buffer:
        yield buffer.pop()


@pytest.mark.parametrize("answer", [buffer_shuffle, as_list])
def test_buffer_shuffle_accepts_the_buffer_rule(answer, capsys):
    ex02.check_buffer_shuffle(answer)
    assert capsys.readouterr().out == (
        "ex-02-2 passed: every element once, none earlier than the buffer allows, random and "
        "seeded\n")


@pytest.mark.parametrize("wrong, match", [
    (fills_but_never_refills, "only the first \\d+ elements.*refill"),
    (shuffles_the_first_buffer_then_passes_the_rest, "never came out at position.*refill"),
    (fifo, "all gave the same order.*random"),
    (picks_among_one_too_many, "earliest it can leave.*before\\* reading the next"),
    (forgets_to_empty_the_buffer, "still in the buffer when the input ended"),
    (uses_the_random_module, "seeded alike gave different orders.*from `rng`"),
    (yields_without_removing, "was yielded twice|yielded.*twice"),
    (never_picks_the_newest_of_a_partial_buffer, "last element never came out first"),
    (empties_the_buffer_from_the_end, "only ever started with.*pop a random slot"),
    (lambda elements, buffer_size, rng: [str(x) for x in elements], "single integers"),
    (blank, "NotImplementedError"),
])
def test_buffer_shuffle_rejects(wrong, match):
    check_rejects(ex02.check_buffer_shuffle, wrong, match)


def test_buffer_shuffle_reference_never_moves_an_element_further_than_feedline_can():
    """The rule the check holds answers to is the rule Dataset.shuffle follows."""
    n, size = 30, 5
    for seed in range(20):
        order = [int(x) for x in Dataset.range(n).shuffle(size, seed=seed)]
        assert sorted(order) == list(range(n))
        assert all(p >= i - size + 1 for p, i in enumerate(order))


# -- ex-02-3: how far can an element move ------------------------------------------------------

def reach(i, n, buffer_size):
    if buffer_size == 1:
        return i, i
    return max(0, i - buffer_size + 1), n - 1


def test_reach_accepts_the_reference(capsys):
    ex02.check_reach(reach)
    assert capsys.readouterr().out == (
        "ex-02-3 passed: the earliest and latest positions are right for every buffer size\n")


def test_reach_reference_matches_what_feedline_shuffle_does():
    n, size = 10, 3
    seen = {i: set() for i in range(n)}
    for seed in range(400):
        for p, i in enumerate(int(x) for x in Dataset.range(n).shuffle(size, seed=seed)):
            seen[i].add(p)
    for i in range(n):
        assert (min(seen[i]), max(seen[i])) == reach(i, n, size)


@pytest.mark.parametrize("wrong, match", [
    (lambda i, n, b: (max(0, i - b), n - 1), "one too far forward"),
    (lambda i, n, b: (i - b + 1, n - 1) if b > 1 else (i, i), "never negative"),
    (lambda i, n, b: (max(0, i - b + 1), min(n - 1, i + b - 1)) if b > 1 else (i, i),
     "can stay in the buffer"),
    (lambda i, n, b: (max(0, i - b + 1), n - 1), "buffer of one element keeps the order"),
    (lambda i, n, b: (i, n - 1) if b > 1 else (i, i), "before its own position"),
    (lambda i, n, b: (max(0, i - b + 1), n) if b > 1 else (i, i), "count from 0"),
    (lambda i, n, b: max(0, i - b + 1), "two integers"),
    (blank, "NotImplementedError"),
])
def test_reach_rejects(wrong, match):
    check_rejects(ex02.check_reach, wrong, match)


# -- ex-02-4: mixed labels from label-sorted files ---------------------------------------------

def mixed_batches(pattern, parse_line, seed):
    files = Dataset.list_files(pattern, shuffle=True, seed=seed)
    rows = files.interleave(TextLineDataset, cycle_length=8, block_length=1)
    return rows.map(parse_line).shuffle(64, seed=seed).batch(32)


def test_mixed_batches_accepts_shuffled_files_interleaved_and_a_small_buffer(capsys):
    ex02.check_mixed_batches(mixed_batches)
    ex02.check_mixed_batches(  # the reader's own parallel reads are an interleave too
        lambda pattern, parse_line, seed: TextLineDataset(
            Dataset.list_files(pattern, seed=seed), num_parallel_reads=8)
        .map(parse_line).shuffle(32, seed=seed).batch(32))
    assert capsys.readouterr().out.splitlines() == [
        "ex-02-4 passed: the first batches of every epoch mix many labels; buffers stay "
        "within 64 rows and 8 files"] * 2


def sorted_files_small_buffer(pattern, parse_line, seed):
    files = Dataset.list_files(pattern, shuffle=False)
    return files.flat_map(TextLineDataset).map(parse_line).shuffle(64, seed=seed).batch(32)


def shuffled_files_one_at_a_time(pattern, parse_line, seed):
    files = Dataset.list_files(pattern, shuffle=True, seed=seed)
    return files.flat_map(TextLineDataset).map(parse_line).shuffle(64, seed=seed).batch(32)


def sorted_files_interleaved(pattern, parse_line, seed):
    files = Dataset.list_files(pattern, shuffle=False)
    rows = files.interleave(TextLineDataset, cycle_length=8, block_length=1)
    return rows.map(parse_line).shuffle(64, seed=seed).batch(32)


def whole_dataset_buffer(pattern, parse_line, seed):
    files = Dataset.list_files(pattern, shuffle=False)
    return files.flat_map(TextLineDataset).map(parse_line).shuffle(640, seed=seed).batch(32)


def every_file_open(pattern, parse_line, seed):
    files = Dataset.list_files(pattern, shuffle=True, seed=seed)
    rows = files.interleave(TextLineDataset, cycle_length=16, block_length=1)
    return rows.map(parse_line).batch(32)


def unseeded(pattern, parse_line, seed):
    files = Dataset.list_files(pattern, shuffle=True)
    rows = files.interleave(TextLineDataset, cycle_length=8, block_length=1)
    return rows.map(parse_line).shuffle(64).batch(32)


def long_blocks(pattern, parse_line, seed):
    files = Dataset.list_files(pattern, shuffle=True, seed=seed)
    rows = files.interleave(TextLineDataset, cycle_length=2, block_length=20)
    return rows.map(parse_line).shuffle(16, seed=seed).batch(32)


def shuffles_batches(pattern, parse_line, seed):
    """A buffer of 64 *batches* holds every row: shuffle after batch breaks the budget."""
    files = Dataset.list_files(pattern, shuffle=True, seed=seed)
    rows = files.interleave(TextLineDataset, cycle_length=8, block_length=1)
    return rows.map(parse_line).batch(32).shuffle(64, seed=seed)


def unseeded_shuffle_in_each_file(pattern, parse_line, seed):
    """The labels come in a seeded order, but the rows of each file do not."""
    files = Dataset.list_files(pattern, shuffle=True, seed=seed)
    rows = files.interleave(lambda name: TextLineDataset(name).shuffle(40), cycle_length=8)
    return rows.map(parse_line).batch(32)


@pytest.mark.parametrize("wrong, match", [
    (sorted_files_small_buffer, "holds [12] labels?.*one after another.*interleave"),
    (shuffled_files_one_at_a_time, "one after another"),
    (sorted_files_interleaved, "same labels.*shuffle=True"),
    (whole_dataset_buffer, "holds 640 elements.*memory budget"),
    (every_file_open, "keeps 16 files open"),
    (unseeded, "same seed gave different batches.*seed=seed"),
    (long_blocks, "interleave over 2 files"),
    (shuffles_batches, "after batch\\(32\\) holds up to 64 batches.*before batch"),
    (unseeded_shuffle_in_each_file, "same seed gave different batches"),
    (lambda pattern, parse_line, seed: mixed_batches(pattern, parse_line, seed).repeat(2),
     "gave 1280 rows.*no repeat\\(\\)"),
    (lambda pattern, parse_line, seed: mixed_batches(pattern, parse_line, seed).unbatch(),
     "should be a pair|shape"),
    (blank, "NotImplementedError"),
])
def test_mixed_batches_rejects(wrong, match):
    check_rejects(ex02.check_mixed_batches, wrong, match)


# -- replayed by the grader -------------------------------------------------------------------

@pytest.mark.parametrize("check, right, wrong", [
    (ex02.check_train_batches, train_batches,
     lambda ds, n, seed: ds.repeat(3).shuffle(n, seed=seed).batch(4)),
    (ex02.check_buffer_shuffle, buffer_shuffle, fifo),
    (ex02.check_reach, reach, lambda i, n, b: (max(0, i - b), n - 1)),
    # A pair given as a generator or a map(...) passes in the kernel; the grader must agree.
    (ex02.check_reach, lambda i, n, b: (x for x in reach(i, n, b)),
     lambda i, n, b: (x for x in (max(0, i - b), n - 1))),
    (ex02.check_reach, lambda i, n, b: map(int, reach(i, n, b)),
     lambda i, n, b: map(int, (max(0, i - b), n - 1))),
    (ex02.check_mixed_batches, mixed_batches, sorted_files_small_buffer),
], ids=["ex-02-1", "ex-02-2", "ex-02-3", "ex-02-3-generator", "ex-02-3-map", "ex-02-4"])
def test_shuffling_checks_give_the_same_verdict_when_replayed(monkeypatch, check, right, wrong):
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)
