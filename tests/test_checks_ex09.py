"""The ex-09 checks accept the reference answers and reject plausible wrong ones."""

import math
import os

import pytest

from feedline.checks import ex09
from feedline.data import AUTOTUNE, Dataset, Options
from feedline.perf.provenance import interleave_order
from checkkit import assert_same_verdict_when_replayed, blank, check_rejects

pytestmark = pytest.mark.timeout(60)


# -- ex-09-1: the order of an interleave ------------------------------------------------------

def predict_order(lengths, cycle_length, block_length):
    slots = [None] * cycle_length
    next_input, slot, taken, order = 0, 0, 0, []
    while next_input < len(lengths) or any(s is not None for s in slots):
        if slots[slot] is None:
            if next_input == len(lengths):
                slot, taken = (slot + 1) % cycle_length, 0
                continue
            slots[slot] = [next_input, 0]
            next_input += 1
        position, index = slots[slot]
        if index == lengths[position]:
            slots[slot] = None
            slot, taken = (slot + 1) % cycle_length, 0
            continue
        order.append((position, index))
        slots[slot][1] += 1
        taken += 1
        if taken == block_length:
            slot, taken = (slot + 1) % cycle_length, 0
    return order


def flat_order(lengths, cycle_length, block_length):
    return [(i, k) for i, n in enumerate(lengths) for k in range(n)]


def ran_interleave(lengths, cycle_length, block_length):
    return interleave_order(lengths, cycle_length, block_length)


def stops_at_first_end(lengths, cycle_length, block_length):
    order = predict_order(lengths, cycle_length, block_length)
    first_end = min(lengths)
    return [(i, k) for i, k in order if k < first_end]


@pytest.mark.parametrize("lengths, cycle_length, block_length", [
    ([3, 3, 3, 3], 2, 2), ([4, 6, 2, 5, 3], 2, 2), ([2, 5, 3, 1], 3, 2), ([0, 2, 0, 3], 2, 1),
    ([1], 3, 1), ([5, 1, 1, 5], 2, 3), ([2, 4, 1, 3, 2, 5], 3, 1),
])
def test_the_rule_in_plain_python_matches_feedlines_interleave(lengths, cycle_length,
                                                                block_length):
    real = interleave_order(lengths, cycle_length, block_length)
    assert ex09._simulate_order(lengths, cycle_length, block_length) == real
    assert predict_order(lengths, cycle_length, block_length) == real


def test_predict_order_accepts_reference(capsys):
    ex09.check_predict_order(predict_order)
    assert capsys.readouterr().out == (
        "ex-09-1 passed: the predicted orders match interleave, uneven inputs included\n")


@pytest.mark.parametrize("wrong, match", [
    (lambda lengths, c, b: predict_order(lengths, b, c), "swapped"),
    (flat_order, "flat_map's order"),
    (lambda lengths, c, b: predict_order(lengths, c, 1), "block_length=1"),
    (lambda lengths, c, b: ex09._grouped_order(lengths, c, b), "whole group"),
    (lambda lengths, c, b: ex09._simulate_order(lengths, c, b, eager_end=True),
     "one turn too early"),
    (lambda lengths, c, b: ex09._simulate_order(lengths, c, b, refill_at_once=True),
     "one turn too early|in the same turn"),
    (stops_at_first_end, "elements themselves differ"),
    (ran_interleave, "ran feedline's interleave"),
    (lambda lengths, c, b: "A0 B0 A1", "a list of \\(input, index\\) pairs"),
    (blank, "NotImplementedError"),
])
def test_predict_order_rejects(wrong, match):
    check_rejects(ex09.check_predict_order, wrong, match)


# -- ex-09-2: read files in parallel ----------------------------------------------------------

def read_in_parallel(filenames, open_file, files_at_once):
    return filenames.interleave(open_file, cycle_length=files_at_once,
                                num_parallel_calls=files_at_once)


def test_read_in_parallel_accepts_reference(capsys):
    ex09.check_read_in_parallel(read_in_parallel)
    ex09.check_read_in_parallel(lambda files, open_file, k: files.interleave(
        open_file, cycle_length=k, block_length=1, num_parallel_calls=AUTOTUNE))
    assert capsys.readouterr().out.splitlines() == [
        "ex-09-2 passed: one record from each file in turn, and the files were read at the "
        "same time"] * 2


def _files_at_once():
    return int(ex09.rng("ex-09-2").integers(3, 5))


@pytest.mark.parametrize("wrong, match", [
    (lambda files, open_file, k: files.flat_map(open_file), "one after another"),
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=k),
     "loop's own thread"),
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                  num_parallel_calls=1), "at most 1 file"),
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                  num_parallel_calls=2), "at most 2 file"),
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=k, block_length=k,
                                                  num_parallel_calls=k),
     "order of cycle_length=[34], block_length=[34]"),
    (lambda files, open_file, k: files.interleave(open_file, block_length=k,
                                                  num_parallel_calls=k),
     "order of cycle_length=\\d+, block_length=[34]"),
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                  num_parallel_calls=k).take(5), "exactly once"),
    (lambda files, open_file, k: files.map(open_file), "whole files \\(datasets\\)"),
    # the number this run draws, written in instead of the argument
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=_files_at_once(),
                                                  num_parallel_calls=_files_at_once()),
     "(?s)called with files_at_once=[45], the pipeline keeps [34] files open.*use the argument"),
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                  num_parallel_calls=_files_at_once()),
     "(?s)called with files_at_once=[45].*num_parallel_calls=[34].*use the argument"),
    (blank, "NotImplementedError"),
])
def test_read_in_parallel_rejects(wrong, match):
    check_rejects(ex09.check_read_in_parallel, wrong, match)


@pytest.mark.skipif(os.cpu_count() == _files_at_once(),
                    reason="the default cycle_length happens to be right on this machine")
def test_read_in_parallel_names_the_default_cycle_length():
    check_rejects(ex09.check_read_in_parallel,
                  lambda files, open_file, k: files.interleave(open_file, num_parallel_calls=k),
                  "left at its default: one per CPU core")


# -- ex-09-3: predict the total ---------------------------------------------------------------

def predicted_time(num_files, records_per_file, open_s, read_s, cycle_length, parallel):
    per_file = open_s + records_per_file * read_s
    if not parallel:
        return num_files * per_file
    return math.ceil(num_files / cycle_length) * per_file


def test_predicted_time_accepts_reference(capsys):
    ex09.check_predicted_time(predicted_time)
    assert capsys.readouterr().out == ("ex-09-3 passed: the predicted totals match the "
                                       "schedule, one by one and in parallel\n")


def per_file(o, r, n):
    return o + n * r


@pytest.mark.parametrize("wrong, match", [
    (lambda f, n, o, r, c, parallel: f * per_file(o, r, n) / c, "not the time"),
    (lambda f, n, o, r, c, parallel: (f * per_file(o, r, n) / c if parallel
                                      else f * per_file(o, r, n)), "round up"),
    (lambda f, n, o, r, c, parallel: f * per_file(o, r, n), "at the same time"),
    (lambda f, n, o, r, c, parallel: (math.ceil(f / c) * o + f * n * r if parallel
                                      else f * per_file(o, r, n)), "not only their opens"),
    (lambda f, n, o, r, c, parallel: per_file(o, r, n) if parallel else f * per_file(o, r, n),
     "rounds"),
    (lambda f, n, o, r, c, parallel: (math.ceil(f / c) * n * r if parallel
                                      else f * n * r), "expected"),
    (lambda f, n, o, r, c, parallel: "fast", "a number of seconds"),
    (blank, "NotImplementedError"),
])
def test_predicted_time_rejects(wrong, match):
    check_rejects(ex09.check_predicted_time, wrong, match)


# -- ex-09-4: do not wait for a slow file -----------------------------------------------------

def read_without_waiting(filenames, open_file, files_at_once):
    return filenames.interleave(open_file, cycle_length=files_at_once,
                                num_parallel_calls=files_at_once, deterministic=False)


def test_read_without_waiting_accepts_reference(capsys):
    ex09.check_read_without_waiting(read_without_waiting)
    ex09.check_read_without_waiting(lambda files, open_file, k: files.interleave(
        open_file, cycle_length=k, num_parallel_calls=k).with_options(
            Options(deterministic=False)))
    assert capsys.readouterr().out.splitlines() == [
        "ex-09-4 passed: all records, and the loop got the other files' records while the slow "
        "one opened"] * 2


def _slow_files_at_once():
    return int(ex09.rng("ex-09-4").integers(2, 4))


@pytest.mark.parametrize("wrong, match", [
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                  num_parallel_calls=k), "waited for"),
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                  deterministic=False),
     "only matters for a parallel interleave"),
    (lambda files, open_file, k: files.flat_map(open_file), "loop's own thread"),
    (lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                  num_parallel_calls=k,
                                                  deterministic=False).skip(1), "exactly once"),
    (lambda files, open_file, k: files.interleave(
        open_file, cycle_length=_slow_files_at_once(), num_parallel_calls=_slow_files_at_once(),
        deterministic=False), "called with files_at_once=[34], the pipeline keeps [23] files"),
    (lambda files, open_file, k: files.interleave(
        open_file, cycle_length=5, num_parallel_calls=5, deterministic=False),
     "called with files_at_once=[23], the pipeline keeps 5 files"),
    (blank, "NotImplementedError"),
])
def test_read_without_waiting_rejects(wrong, match):
    check_rejects(ex09.check_read_without_waiting, wrong, match)


# -- ex-09-5: choose cycle_length -------------------------------------------------------------

def choose_cycle_length(num_files, records_per_file, open_s, read_s, step_s, max_open):
    per_file = open_s + records_per_file * read_s
    training = num_files * records_per_file * step_s
    largest = min(num_files, max_open)
    for cycle_length in range(1, largest + 1):
        if math.ceil(num_files / cycle_length) * per_file <= training:
            return cycle_length
    return largest


def test_choose_cycle_length_accepts_reference(capsys):
    ex09.check_choose_cycle_length(choose_cycle_length)
    assert capsys.readouterr().out == ("ex-09-5 passed: the smallest cycle_length that keeps "
                                       "up, within the files and the limit\n")


def no_file_cap(f, n, o, r, s, max_open):
    """Forgets that a cycle longer than the number of files has nothing more to read."""
    for cycle_length in range(1, max_open + 1):
        if math.ceil(f / cycle_length) * (o + n * r) <= f * n * s:
            return cycle_length
    return max_open


def per_round_formula(f, n, o, r, s, max_open):
    """Enough files for the steady rate, forgetting that rounds are whole."""
    return max(1, min(f, max_open, math.ceil((o + n * r) / (n * s))))


@pytest.mark.parametrize("wrong, match", [
    (per_round_formula, "the rounds are whole"),
    (lambda f, n, o, r, s, m: max(1, min(f, m, math.ceil(r / s))), "the loop would wait"),
    (lambda f, n, o, r, s, m: min(f, m), "already keeps up"),
    (lambda f, n, o, r, s, m: choose_cycle_length(f, n, o, r, s, 10**6),
     "at most max_open"),
    (lambda f, n, o, r, s, m: choose_cycle_length(f, n, o, r, s, m) + 1, "already keeps up|only"),
    (no_file_cap, "there are only"),
    (lambda f, n, o, r, s, m: (o + n * r) / (n * s), "whole number"),
    (blank, "NotImplementedError"),
])
def test_choose_cycle_length_rejects(wrong, match):
    check_rejects(ex09.check_choose_cycle_length, wrong, match)


def test_choose_cycle_length_names_the_case_where_nothing_keeps_up():
    def give_up(f, n, o, r, s, m):
        answer = choose_cycle_length(f, n, o, r, s, m)
        keeps_up = math.ceil(f / answer) * (o + n * r) <= f * n * s
        return answer if keeps_up else 1

    check_rejects(ex09.check_choose_cycle_length, give_up, "no cycle_length up to")


def yielded_pairs(order):
    """`order` as a generator function, which is how many would write predict_order."""
    def predict(lengths, cycle_length, block_length):
        yield from order(lengths, cycle_length, block_length)

    return predict


def test_predict_order_as_a_generator_gets_the_same_verdict_when_replayed(monkeypatch):
    assert_same_verdict_when_replayed(monkeypatch, ex09.check_predict_order,
                                      yielded_pairs(predict_order), yielded_pairs(flat_order))


def test_the_checks_run_quickly():
    import time
    for check, answer in [(ex09.check_predict_order, predict_order),
                          (ex09.check_read_in_parallel, read_in_parallel),
                          (ex09.check_predicted_time, predicted_time),
                          (ex09.check_read_without_waiting, read_without_waiting),
                          (ex09.check_choose_cycle_length, choose_cycle_length)]:
        start = time.perf_counter()
        check(answer)
        assert time.perf_counter() - start < 2.0, check.__name__
