"""The ex-01 checks accept the reference answers and reject plausible wrong ones."""

import numpy as np
import pytest

from feedline.checks import ex01
from feedline.data import Dataset
from checkkit import blank, check_rejects


# -- ex-01-1: arrays to dict elements ---------------------------------------------------------

def make_dataset(images, labels):
    return Dataset.from_tensor_slices({"image": images, "label": labels})


def test_make_dataset_accepts_reference(capsys):
    ex01.check_make_dataset(make_dataset)
    assert capsys.readouterr().out.startswith("ex-01-1 passed:")


@pytest.mark.parametrize("wrong, match", [
    (lambda images, labels: Dataset.from_tensor_slices((images, labels)), "dict"),
    (lambda images, labels: Dataset.from_tensor_slices({"x": images, "y": labels}), "keys"),
    (lambda images, labels: Dataset.from_tensor_slices({"image": labels, "label": images}),
     "image"),
    (lambda images, labels: Dataset.from_tensors({"image": images, "label": labels}),
     "one per row"),
    (lambda images, labels: {"image": images, "label": labels}, "should return a Dataset"),
    (blank, "NotImplementedError"),
])
def test_make_dataset_rejects(wrong, match):
    check_rejects(ex01.check_make_dataset, wrong, match)


# -- ex-01-2: filter and map ------------------------------------------------------------------

def clean_and_scale(ds):
    return ds.filter(lambda x, y: y != -1).map(lambda x, y: (x / 255.0, y))


def cleaned_in_python(ds):
    """The right pairs, computed in a Python loop and made into a new dataset."""
    kept = [(x / 255, y) for x, y in ds if y >= 0]
    return Dataset.from_tensor_slices((np.stack([x for x, _ in kept]),
                                       np.array([y for _, y in kept])))


def test_clean_and_scale_accepts_reference(capsys):
    ex01.check_clean_and_scale(clean_and_scale)
    assert capsys.readouterr().out.startswith("ex-01-2 passed:")


@pytest.mark.parametrize("wrong, match", [
    (lambda ds: ds.map(lambda x, y: (x / 255, y)), "label -1"),
    (lambda ds: ds.filter(lambda x, y: y > 0).map(lambda x, y: (x / 255, y)), "label 0"),
    (lambda ds: ds.filter(lambda x, y: y >= 0), "not scaled"),
    (lambda ds: ds.filter(lambda x, y: y >= 0).map(lambda x, y: x / 255), "pairs"),
    (lambda ds: None, "return"),
    (cleaned_in_python, "(?s)does not read ds.*chain the transformations on ds"),
    (blank, "NotImplementedError"),
    (lambda ds: ds.filter(lambda x, y: y >= 0).map(lambda x, y: (x / x.max(), y)),
     "divided by the largest pixel"),
    (lambda ds: ds.filter(lambda x, y: y >= 0).map(lambda x, y: (x // 255, y)),
     "integer division"),
    (lambda ds: ds.filter(lambda x, y: y >= 0).map(lambda x, y: (x / 256, y)),
     r"should become \d+ / 255 = 0\.\d{4}, got 0\.\d{4}"),
])
def test_clean_and_scale_rejects(wrong, match):
    check_rejects(ex01.check_clean_and_scale, wrong, match)


# -- ex-01-3: full batches --------------------------------------------------------------------

def make_batches(features, labels, batch_size):
    return Dataset.from_tensor_slices((features, labels)).batch(batch_size, drop_remainder=True)


def test_full_batches_accepts_reference(capsys):
    ex01.check_full_batches(make_batches)
    assert capsys.readouterr().out.startswith("ex-01-3 passed:")


@pytest.mark.parametrize("wrong, match", [
    (lambda f, l, b: Dataset.from_tensor_slices((f, l)).batch(b), "drop_remainder"),
    (lambda f, l, b: Dataset.from_tensor_slices((f, l)).batch(b + 1, drop_remainder=True),
     "batch sizes"),
    (lambda f, l, b: Dataset.from_tensor_slices((f, l)).batch(b - 1, drop_remainder=True),
     "batch sizes"),
    (lambda f, l, b: Dataset.from_tensor_slices((f, l)).skip(1).batch(b, drop_remainder=True),
     "in order"),
    (lambda f, l, b: Dataset.from_tensor_slices(f).batch(b, drop_remainder=True),
     "(features, labels)"),
    (blank, "NotImplementedError"),
    (lambda f, l, b: Dataset.from_tensor_slices((f, l)).batch(b, drop_remainder=True)
     .shuffle(10, seed=3), "you shuffled whole batches"),
    (lambda f, l, b: Dataset.from_tensor_slices((f, l)).shuffle(100, seed=3)
     .batch(b, drop_remainder=True), "not in their original order"),
])
def test_full_batches_rejects(wrong, match):
    check_rejects(ex01.check_full_batches, wrong, match)


# -- ex-01-4: unbatch then batch --------------------------------------------------------------

def rebatch_rows(chunks, size):
    return chunks.unbatch().batch(size)


def test_rebatch_rows_accepts_reference(capsys):
    ex01.check_rebatch_rows(rebatch_rows)
    assert capsys.readouterr().out.startswith("ex-01-4 passed:")


@pytest.mark.parametrize("wrong, match", [
    (lambda chunks, size: chunks.unbatch().batch(size, drop_remainder=True), "short last"),
    (lambda chunks, size: chunks, "unbatch before"),
    (lambda chunks, size: chunks.unbatch(), "batches of rows"),
    (lambda chunks, size: chunks.unbatch().batch(size + 1), "expected batch sizes"),
    (lambda chunks, size: Dataset.from_tensor_slices(np.concatenate(list(chunks))).batch(size),
     "(?s)does not read chunks.*chain the transformations on chunks"),
    (blank, "NotImplementedError"),
])
def test_rebatch_rows_rejects(wrong, match):
    check_rejects(ex01.check_rebatch_rows, wrong, match)


def test_rebatch_rows_answers_batching_the_chunks_directly_with_its_unbatch_hint():
    # The library refuses to stack chunks of different lengths; the check shows its own hint.
    check_rejects(ex01.check_rebatch_rows, lambda chunks, size: chunks.batch(size),
                  r"raised InvalidArgumentError(.|\n)*Hint: .*unbatch\(\) them into single rows")


# -- ex-01-5: batch before repeat -------------------------------------------------------------

def epochs_of_batches(features, batch_size, epochs):
    return Dataset.from_tensor_slices(features).batch(batch_size).repeat(epochs)


def test_epochs_of_batches_accepts_reference(capsys):
    ex01.check_epochs_of_batches(epochs_of_batches)
    assert capsys.readouterr().out.startswith("ex-01-5 passed:")


@pytest.mark.parametrize("wrong, match", [
    (lambda f, b, e: Dataset.from_tensor_slices(f).repeat(e).batch(b), "mix the end"),
    (lambda f, b, e: Dataset.from_tensor_slices(f).batch(b, drop_remainder=True).repeat(e),
     "batch sizes"),
    (lambda f, b, e: Dataset.from_tensor_slices(f).batch(b).repeat(), "more than"),
    (lambda f, b, e: Dataset.from_tensor_slices(f).batch(b).repeat(e + 1), "batch sizes"),
    (lambda f, b, e: Dataset.from_tensor_slices(f).shuffle(100, seed=1).batch(b).repeat(e),
     "in order"),
    (lambda f, b, e: Dataset.from_tensor_slices(f).batch(b).shuffle(10, seed=2).repeat(e),
     "you shuffled whole batches"),
    (blank, "NotImplementedError"),
])
def test_epochs_of_batches_rejects(wrong, match):
    check_rejects(ex01.check_epochs_of_batches, wrong, match)


def test_checks_print_one_stable_line(capsys):
    for _ in range(2):
        ex01.check_epochs_of_batches(epochs_of_batches)
    first, second = capsys.readouterr().out.splitlines()
    assert first == second
    assert not any(ch.isdigit() for ch in first.split(":", 1)[1])
