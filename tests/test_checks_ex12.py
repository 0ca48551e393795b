"""The ex-12 checks accept the reference answers and reject plausible wrong ones."""

import math

import numpy as np
import pytest

from feedline.checks import _replay, ex12
from checkkit import assert_same_verdict_when_replayed, blank, check_rejects, graded


# -- ex-12-1: batch, then map -------------------------------------------------------------------

def summary_batch(rows):
    return np.stack([rows.mean(axis=1), rows.max(axis=1) - rows.min(axis=1)], axis=1)


def batch_then_map(ds, batch_size):
    return ds.batch(batch_size).map(summary_batch)


@pytest.mark.parametrize("answer", [
    batch_then_map,
    lambda ds, batch_size: ds.batch(batch_size).map(summary_batch).prefetch(1),
    lambda ds, batch_size: ds.batch(batch_size).map(  # a Python loop is slow but still right
        lambda rows: np.stack([ex12.summary(row) for row in rows])),
])
def test_batch_then_map_accepts_a_batch_wise_summary(answer, capsys):
    ex12.check_batch_then_map(answer)
    assert capsys.readouterr().out == (
        "ex-12-1 passed: batch, then one call per batch; the same batches as map then batch\n")


@pytest.mark.parametrize("wrong, match", [
    (lambda ds, batch_size: ds.map(ex12.summary).batch(batch_size), "the map runs before batch"),
    (lambda ds, batch_size: ds.batch(batch_size).map(ex12.summary),
     "reduced the whole batch to one mean"),
    (lambda ds, batch_size: ds.batch(batch_size).map(
        lambda rows: np.stack([rows.mean(axis=0), rows.max(axis=0) - rows.min(axis=0)])),
     "reduced over the batch axis"),
    (lambda ds, batch_size: ds.batch(batch_size).map(
        lambda rows: np.stack([rows.mean(axis=1), rows.max(axis=1) - rows.min(axis=1)])),
     "are rows, not columns|reduced over the batch axis|should have shape"),
    (lambda ds, batch_size: ds.batch(batch_size, drop_remainder=True).map(summary_batch),
     "the short last batch is missing"),
    (lambda ds, batch_size: ds.batch(batch_size).map(
        lambda rows: np.stack([rows.mean(axis=1), rows.max(axis=1)], axis=1)), "should be"),
    (lambda ds, batch_size: ds.batch(batch_size).map(
        lambda rows: summary_batch(rows).astype(np.float32)), "(?s)holds float32.*float64"),
    (blank, "NotImplementedError"),
])
def test_batch_then_map_rejects(wrong, match):
    check_rejects(ex12.check_batch_then_map, wrong, match)


def test_batch_then_map_says_to_keep_the_last_batch():
    with pytest.raises(AssertionError, match="do not use drop_remainder=True"):
        ex12.check_batch_then_map(
            lambda ds, batch_size: ds.batch(batch_size, drop_remainder=True).map(summary_batch))


# -- ex-12-2: vectorise a per-row normalisation ---------------------------------------------

def normalise_rows(batch):
    mean = batch.mean(axis=1, keepdims=True)
    spread = batch.std(axis=1, keepdims=True)
    safe = np.where(spread == 0, 1.0, spread)
    return np.where(spread == 0, 0.0, (batch - mean) / safe)


def test_normalise_rows_accepts_a_vectorised_version(capsys):
    ex12.check_normalise_rows(normalise_rows)
    assert capsys.readouterr().out == (
        "ex-12-2 passed: every row of every batch matches normalise_row, and faster than a "
        "Python loop\n")


def without_keepdims(batch):
    return (batch - batch.mean(axis=1)) / batch.std(axis=1)


def over_the_batch_axis(batch):
    spread = batch.std(axis=0, keepdims=True)
    return (batch - batch.mean(axis=0, keepdims=True)) / np.where(spread == 0, 1.0, spread)


def over_the_whole_batch(batch):
    return (batch - batch.mean()) / batch.std()


def first_row_only(batch):
    return ex12.normalise_row(batch[0])[None, :]


def no_constant_branch(batch):
    with np.errstate(invalid="ignore", divide="ignore"):
        return (batch - batch.mean(axis=1, keepdims=True)) / batch.std(axis=1, keepdims=True)


def sample_spread(batch):
    """np.std with ddof=1, as pandas' std does by default."""
    mean = batch.mean(axis=1, keepdims=True)
    spread = batch.std(axis=1, ddof=1, keepdims=True)
    return np.where(spread == 0, 0.0, (batch - mean) / np.where(spread == 0, 1.0, spread))


def python_loop(batch):
    return np.stack([ex12.normalise_row(row) for row in batch])


def apply_along_axis(batch):
    return np.apply_along_axis(ex12.normalise_row, 1, batch)


@pytest.mark.parametrize("wrong, match", [
    (without_keepdims, "raised|should become"),
    (over_the_batch_axis, "down the columns \\(axis=0"),
    (over_the_whole_batch, "one mean and one spread for the whole batch"),
    (first_row_only, "only handles one row"),
    (no_constant_branch, "constant row \\d+ became nan"),
    (python_loop, "still works row by row"),
    (apply_along_axis, "still works row by row"),
    (lambda batch: batch.tolist(), "should become"),
    (sample_spread, "divides by n - 1 \\(ddof=1\\)"),
    (blank, "NotImplementedError"),
])
def test_normalise_rows_rejects(wrong, match):
    check_rejects(ex12.check_normalise_rows, wrong, match)


def test_normalise_rows_hint_names_np_where_for_the_constant_rows():
    with pytest.raises(AssertionError, match="np.where\\(spread == 0"):
        ex12.check_normalise_rows(no_constant_branch)


# -- ex-12-3: predict the time per element ----------------------------------------------------

def time_per_element(overhead_s, work_s, batch_size, num_elements):
    calls = math.ceil(num_elements / batch_size)
    return (calls * overhead_s + num_elements * work_s) / num_elements


def test_time_per_element_accepts_the_formula(capsys):
    ex12.check_time_per_element(time_per_element)
    assert capsys.readouterr().out.startswith("ex-12-3 passed:")


@pytest.mark.parametrize("wrong, match", [
    (lambda overhead_s, work_s, batch_size, num_elements: overhead_s / batch_size + work_s,
     "the short last batch pays the whole overhead too"),
    (lambda overhead_s, work_s, batch_size, num_elements:
     (num_elements // batch_size) * overhead_s / num_elements + work_s,
     "the short last batch is a call too"),
    (lambda overhead_s, work_s, batch_size, num_elements: overhead_s + work_s / batch_size,
     "shared by the batch; the work is paid by every element"),
    (lambda overhead_s, work_s, batch_size, num_elements:
     (overhead_s + work_s) / batch_size, "every element still does its work"),
    (lambda overhead_s, work_s, batch_size, num_elements:
     time_per_element(overhead_s, work_s, batch_size, num_elements) * num_elements,
     "divide by num_elements"),
    (lambda overhead_s, work_s, batch_size, num_elements: overhead_s + work_s,
     "one call per batch"),
    (lambda *args: "fast", "a number"),
    (blank, "NotImplementedError"),
])
def test_time_per_element_rejects(wrong, match):
    check_rejects(ex12.check_time_per_element, wrong, match)


# -- ex-12-4: a random flip per image ---------------------------------------------------------

def random_flip_batch(images, rng):
    flip = rng.random(len(images)) < 0.5
    return np.where(flip[:, None, None], images[:, :, ::-1], images)


@pytest.mark.parametrize("answer", [
    random_flip_batch,
    lambda images, rng: np.stack([image[:, ::-1] if draw else image  # a loop is right too
                                  for image, draw in zip(images, rng.integers(0, 2, len(images)))]),
])
def test_random_flip_batch_accepts_one_draw_per_image(answer, capsys):
    ex12.check_random_flip_batch(answer)
    assert capsys.readouterr().out == (
        "ex-12-4 passed: each image mirrored on its own draw, about half of them, the same "
        "for the same seed\n")


def one_draw_for_the_batch(images, rng):
    return images[:, :, ::-1] if rng.random() < 0.5 else images


def upside_down(images, rng):
    flip = rng.random(len(images)) < 0.5
    return np.where(flip[:, None, None], images[:, ::-1, :], images)


def along_the_batch_axis(images, rng):
    flip = rng.random(len(images)) < 0.5
    return np.where(flip[:, None, None], images[::-1], images)


def global_random_state(images, rng):
    flip = np.random.random(len(images)) < 0.5
    return np.where(flip[:, None, None], images[:, :, ::-1], images)


def own_fixed_generator(images, rng):
    return random_flip_batch(images, np.random.default_rng(0))


def always_flip(images, rng):
    return images[:, :, ::-1]


def flip_one_in_ten(images, rng):
    flip = rng.random(len(images)) < 0.1
    return np.where(flip[:, None, None], images[:, :, ::-1], images)


def a_fixed_half(images, rng):
    """Mirrors a random half of the batch: about half, but not one draw per image."""
    out = images.copy()
    chosen = rng.choice(len(images), len(images) // 2, replace=False)
    out[chosen] = images[chosen][:, :, ::-1]
    return out


def one_image_only(images, rng):
    return images[0, :, ::-1] if rng.random() < 0.5 else images[0]


@pytest.mark.parametrize("wrong, match", [
    (one_draw_for_the_batch, "one draw for the whole batch"),
    (always_flip, "one draw for the whole batch"),
    (upside_down, "upside down"),
    (along_the_batch_axis, "reversed the batch axis"),
    (global_random_state, "the same seed .* must come from `rng` only"),
    (own_fixed_generator, "whatever its seed, gave the same flips"),
    (flip_one_in_ten, "about half"),
    (one_image_only, "handles one image, not a batch"),
    (lambda images, rng: images + 1, "neither the image .* nor its mirror"),
    (a_fixed_half, "(?s)exactly 8 images mirrored.*one independent draw per image"),
    (blank, "NotImplementedError"),
])
def test_random_flip_batch_rejects(wrong, match):
    check_rejects(ex12.check_random_flip_batch, wrong, match)


def test_random_flip_batch_hint_says_one_number_per_image():
    with pytest.raises(AssertionError, match="draw len\\(images\\) numbers, one per image"):
        ex12.check_random_flip_batch(one_draw_for_the_batch)


# -- replay: the grader gives the same verdict outside the kernel -----------------------------

REPLAY_CASES = [
    (ex12.check_batch_then_map, batch_then_map,
     lambda ds, batch_size: ds.map(ex12.summary).batch(batch_size)),
    (ex12.check_normalise_rows, normalise_rows, over_the_batch_axis),
    (ex12.check_normalise_rows, normalise_rows, python_loop),
    (ex12.check_time_per_element, time_per_element,
     lambda overhead_s, work_s, batch_size, num_elements: overhead_s / batch_size + work_s),
    (ex12.check_random_flip_batch, random_flip_batch, one_draw_for_the_batch),
]


@pytest.mark.parametrize("case", range(len(REPLAY_CASES)))
def test_vectorised_map_checks_replay_right_and_wrong_answers(monkeypatch, case):
    check, right, wrong = REPLAY_CASES[case]
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)


def test_a_forged_flip_record_fails_in_the_grader(monkeypatch):
    """A wrong answer whose recorded outputs are edited to claim a pass still fails."""
    _, observation = graded(monkeypatch, ex12.check_random_flip_batch, one_draw_for_the_batch)
    observation["verdict"] = "passed"
    assert _replay.judge("ex-12-4", observation, "5eed")[0] == "failed"
