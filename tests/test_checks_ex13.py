"""The ex-13 checks accept the reference answers and reject plausible wrong ones."""


import numpy as np
import pytest

from feedline.checks import _replay, ex13
from feedline.data import Dataset
from checkkit import assert_same_verdict_when_replayed, blank, check_rejects, graded


# -- ex-13-1: the bytes in a shuffle buffer -----------------------------------------------------

def buffer_bytes(buffer_size, num_elements, element_shape, dtype):
    return min(buffer_size, num_elements) * int(np.prod(element_shape)) * \
        np.dtype(dtype).itemsize


def test_shuffle_buffer_bytes_accepts_min_times_values_times_itemsize(capsys):
    ex13.check_shuffle_buffer_bytes(buffer_bytes)
    assert capsys.readouterr().out == (
        "ex-13-1 passed: the shuffle buffer's bytes are right for every shape, dtype and "
        "size\n")


@pytest.mark.parametrize("wrong, match", [
    (lambda b, n, shape, dtype: b * int(np.prod(shape)) * np.dtype(dtype).itemsize,
     "never holds"),
    (lambda b, n, shape, dtype: min(b, n) * int(np.prod(shape)), "counts values, not bytes"),
    (lambda b, n, shape, dtype: min(b, n) * int(np.prod(shape)) * 4, "bytes per value"),
    (lambda b, n, shape, dtype: min(b, n) * shape[0] * np.dtype(dtype).itemsize,
     "every dimension counts"),
    (lambda b, n, shape, dtype: str(buffer_bytes(b, n, shape, dtype)), "as a number"),
    (blank, "NotImplementedError"),
])
def test_shuffle_buffer_bytes_rejects(wrong, match):
    check_rejects(ex13.check_shuffle_buffer_bytes, wrong, match)


# -- ex-13-2: halve the memory, keep the batches ------------------------------------------------

def shuffle_records_first(records, decode, buffer_size, batch_size, seed):
    return records.shuffle(buffer_size, seed=seed).map(decode).batch(batch_size)


def test_leaner_order_accepts_shuffling_the_records_before_the_decode(capsys):
    ex13.check_leaner_order(shuffle_records_first)
    ex13.check_leaner_order(lambda records, decode, buffer_size, batch_size, seed:
                            shuffle_records_first(records, decode, buffer_size, batch_size,
                                                  seed).prefetch(1))
    assert capsys.readouterr().out.splitlines() == [
        "ex-13-2 passed: the same batches in the same order, with less than half the peak "
        "memory"] * 2


def batches_made_ahead(records, decode, buffer_size, batch_size, seed):
    """The given batches, computed before the pipeline is read: every image at once."""
    batches = list(ex13.given_pipeline(records, decode, buffer_size, batch_size, seed))
    return Dataset.from_generator(lambda: iter(batches), output_signature=ex13.given_pipeline(
        records, decode, buffer_size, batch_size, seed).element_spec)


@pytest.mark.parametrize("wrong, match", [
    (ex13.given_pipeline, "at most half"),
    (lambda records, decode, buffer_size, batch_size, seed:
     records.map(decode).batch(batch_size).shuffle(buffer_size, seed=seed),
     "shuffle came after the batch"),
    (lambda records, decode, buffer_size, batch_size, seed:
     records.batch(batch_size).shuffle(buffer_size, seed=seed).unbatch().map(decode)
     .batch(batch_size), "other images than the given pipeline's"),
    (lambda records, decode, buffer_size, batch_size, seed:
     records.shuffle(buffer_size // 2, seed=seed).map(decode).batch(batch_size),
     "a different order"),
    (lambda records, decode, buffer_size, batch_size, seed:
     records.shuffle(buffer_size, seed=seed + 1).map(decode).batch(batch_size),
     "a different order"),
    (lambda records, decode, buffer_size, batch_size, seed:
     records.shuffle(buffer_size, seed=seed).batch(batch_size).map(decode), "raised"),
    (lambda records, decode, buffer_size, batch_size, seed:
     records.shuffle(buffer_size, seed=seed).map(decode).batch(batch_size + 1),
     "batches of shape"),
    (lambda records, decode, buffer_size, batch_size, seed:
     records.shuffle(buffer_size, seed=seed).take(20).map(decode).batch(batch_size),
     "batches of shape"),
    (batches_made_ahead, "(?s)decode had already run on all \\d+ records.*map"),
    (blank, "NotImplementedError"),
])
def test_leaner_order_rejects(wrong, match):
    check_rejects(ex13.check_leaner_order, wrong, match)


def test_leaner_order_tells_to_move_the_shuffle_above_the_decode():
    with pytest.raises(AssertionError, match="move the shuffle above the decode"):
        ex13.check_leaner_order(ex13.given_pipeline)


# -- ex-13-3: predict the peak ------------------------------------------------------------------

def test_predicted_peak_accepts_the_model(capsys):
    ex13.check_predicted_peak(ex13.pipeline_peak)
    assert capsys.readouterr().out == (
        "ex-13-3 passed: the predicted peaks match the model in both orders\n")


def prefetch_in_images(element, shuffle, batch, prefetch, order):
    held = element if order == "shuffle_then_batch" else batch * element
    return shuffle * held + (prefetch + 2) * element


def no_batches_in_flight(element, shuffle, batch, prefetch, order):
    held = element if order == "shuffle_then_batch" else batch * element
    return shuffle * held + prefetch * batch * element


def shuffle_always_images(element, shuffle, batch, prefetch, order):
    return ex13.pipeline_peak(element, shuffle, batch, prefetch, "shuffle_then_batch")


def shuffle_always_batches(element, shuffle, batch, prefetch, order):
    return ex13.pipeline_peak(element, shuffle, batch, prefetch, "batch_then_shuffle")


@pytest.mark.parametrize("wrong, match", [
    (prefetch_in_images, "holds batches, not images"),
    (no_batches_in_flight, "2 batches in flight"),
    (shuffle_always_images, "every element the shuffle holds is a whole batch"),
    (shuffle_always_batches, "the shuffle holds single images"),
    (lambda element, shuffle, batch, prefetch, order: shuffle * element,
     "hold memory too"),
    (lambda *args: None, "returned None"),
    (blank, "NotImplementedError"),
])
def test_predicted_peak_rejects(wrong, match):
    check_rejects(ex13.check_predicted_peak, wrong, match)


# -- ex-13-4: a shuffle buffer for a memory budget -----------------------------------------------

def test_largest_shuffle_accepts_the_reference_and_a_search(capsys):
    def search(budget, element, batch, prefetch, order):
        size = 0
        while ex13.pipeline_peak(element, size + 1, batch, prefetch, order) <= budget:
            size += 1
        return size

    ex13.check_largest_shuffle(ex13.largest_shuffle)
    ex13.check_largest_shuffle(search)
    assert capsys.readouterr().out.splitlines() == [
        "ex-13-4 passed: every buffer fits its budget, and one more element would not"] * 2


def held(element, batch, order):
    return element if order == "shuffle_then_batch" else batch * element


@pytest.mark.parametrize("wrong, match", [
    (lambda budget, element, batch, prefetch, order: budget // held(element, batch, order),
     "take .* bytes of the budget first"),
    (lambda budget, element, batch, prefetch, order:
     -(-(budget - (prefetch + 2) * batch * element) // held(element, batch, order)),
     "over the budget: round down"),
    (lambda budget, element, batch, prefetch, order:
     (budget - (prefetch + 2) * batch * element) // held(element, batch, order),
     "not a negative buffer"),
    (lambda budget, element, batch, prefetch, order:
     ex13.largest_shuffle(budget, element, batch, prefetch, "shuffle_then_batch"),
     "a whole batch"),
    (lambda budget, element, batch, prefetch, order:
     max(0, (budget - prefetch * batch * element) // held(element, batch, order)),
     "2 batches in flight"),
    (lambda budget, element, batch, prefetch, order:
     max(0, (budget - (prefetch + 2) * batch * element) / held(element, batch, order)),
     "round down"),
    (blank, "NotImplementedError"),
])
def test_largest_shuffle_rejects(wrong, match):
    check_rejects(ex13.check_largest_shuffle, wrong, match)


# -- the grader gives the same verdicts when it replays the records ------------------------------

@pytest.mark.parametrize("check, right, wrong", [
    (ex13.check_shuffle_buffer_bytes, buffer_bytes,
     lambda b, n, shape, dtype: b * int(np.prod(shape)) * np.dtype(dtype).itemsize),
    (ex13.check_leaner_order, shuffle_records_first, ex13.given_pipeline),
    (ex13.check_predicted_peak, ex13.pipeline_peak, no_batches_in_flight),
    (ex13.check_largest_shuffle, ex13.largest_shuffle,
     lambda budget, element, batch, prefetch, order: budget // element),
], ids=["ex-13-1", "ex-13-2", "ex-13-3", "ex-13-4"])
def test_memory_checks_replay_right_and_wrong_answers(monkeypatch, check, right, wrong):
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)


def test_a_forged_peak_cannot_pass_a_pipeline_with_other_batches(monkeypatch):
    wrong = (lambda records, decode, buffer_size, batch_size, seed:
             records.map(decode).batch(batch_size).shuffle(buffer_size, seed=seed))
    _, observation = graded(monkeypatch, ex13.check_leaner_order, wrong)
    for event in observation["events"]:
        if event["op"] == "observe" and event["name"] == "peak bytes":
            event["value"] = 1
    assert _replay.judge("ex-13-2", observation, "5eed")[0] == "failed"
