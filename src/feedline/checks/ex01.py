"""Checks for exercise notebook 01, dataset basics (ids `ex-01-1` to `ex-01-5`).

Every check calls the learner's function on arrays drawn from a seeded generator, so the
inputs differ from those in the notebook but the verdict is the same on every run.
"""

import numpy as np

from ..data import Dataset
from ._common import (call_answer, check, describe, fail, observe, passed, pipeline_nodes, rng,
                      take_elements)


def _check_built_on(check_id, dataset, source, what):
    """Fail when `dataset` does not read `source`: the answer read it in Python (a list, an
    array) and made a new dataset, which a real reader's data would not fit into."""
    if observe(check_id, f"built on {what}",
               lambda: any(node is source for node in pipeline_nodes(dataset))):
        return
    fail(check_id, f"the dataset you returned does not read {what}: you read it in Python "
                   "and made a new dataset from a list or an array, so the whole data set "
                   "would have to fit in memory first",
         hint=f"chain the transformations on {what} itself; they then run as it is read")


@check("ex-01-1", hint="Dataset.from_tensor_slices cuts every array of a structure along its "
                        "first axis: give it a dict whose values are the two arrays",
       replayable=True)
def check_make_dataset(make_dataset):
    """ex-01-1: `make_dataset(images, labels)` gives one `{"image", "label"}` dict per row.

    >>> check_make_dataset(lambda images, labels: Dataset.from_tensor_slices(
    ...     {"image": images, "label": labels}))
    ex-01-1 passed: one {'image', 'label'} dict per row, in order, on 3 new inputs
    """
    check_id = "ex-01-1"
    generator = rng(check_id)
    for _ in range(3):
        rows, height, width = (int(v) for v in generator.integers(2, 9, size=3))
        images = generator.integers(0, 256, size=(rows, height, width)).astype(np.uint8)
        labels = generator.integers(0, 10, size=rows)
        dataset = call_answer(check_id, make_dataset, images, labels)
        elements = take_elements(check_id, dataset, rows + 5)
        if len(elements) != rows:
            fail(check_id, f"with {rows} images expected {rows} elements (one per row), "
                           f"got {len(elements)}; from_tensor_slices cuts along the first axis")
        for index, element in enumerate(elements):
            if not isinstance(element, dict):
                fail(check_id, f"expected each element to be a dict with keys 'image' and "
                               f"'label', got {describe(element)}")
            if set(element) != {"image", "label"}:
                fail(check_id, f"expected the keys ['image', 'label'], got {sorted(element)}")
            if not np.array_equal(element["image"], images[index]):
                fail(check_id, f"element {index}: 'image' should be images[{index}] "
                               f"(shape {images[index].shape}), got {describe(element['image'])}")
            if np.asarray(element["label"]).shape != () or element["label"] != labels[index]:
                fail(check_id, f"element {index}: 'label' should be the scalar "
                               f"{labels[index]}, got {element['label']!r}")
    passed(check_id, "one {'image', 'label'} dict per row, in order, on 3 new inputs")


@check("ex-01-2", hint="chain a filter (keep label >= 0) and a map (pixels / 255); both get a "
                        "pair as two arguments, lambda x, y: ..., and map must return the pair",
       replayable=True)
def check_clean_and_scale(clean_and_scale):
    """ex-01-2: `clean_and_scale(ds)` drops label -1 and divides the pixels by 255.

    >>> check_clean_and_scale(lambda ds: ds.filter(lambda x, y: y >= 0).map(
    ...     lambda x, y: (x / 255, y)))
    ex-01-2 passed: unlabelled examples dropped, pixels scaled to [0, 1], labels kept
    """
    check_id = "ex-01-2"
    generator = rng(check_id)
    for _ in range(3):
        rows, width = int(generator.integers(8, 20)), int(generator.integers(2, 6))
        pixels = generator.integers(0, 256, size=(rows, width)).astype(np.float32)
        labels = generator.integers(0, 4, size=rows)
        labels[generator.choice(rows, size=3, replace=False)] = -1
        labels[np.flatnonzero(labels >= 0)[0]] = 0  # label 0 is a real class: it must stay
        source = Dataset.from_tensor_slices((pixels, labels))
        dataset = call_answer(check_id, clean_and_scale, source)
        elements = take_elements(check_id, dataset, rows + 5)
        keep = np.flatnonzero(labels >= 0)
        if elements and not (isinstance(elements[0], tuple) and len(elements[0]) == 2):
            fail(check_id, f"expected (pixels, label) pairs, got {describe(elements[0])}")
        got_labels = [int(label) for _, label in elements]
        if got_labels != labels[keep].tolist():
            if -1 in got_labels:
                fail(check_id, "examples with label -1 are still there: filter them out")
            if 0 not in got_labels:
                fail(check_id, "examples with label 0 are missing: 0 is a real class, only -1 "
                               "means 'no label' (keep label >= 0)")
            fail(check_id, f"expected the labels {labels[keep].tolist()}, got {got_labels}")
        for index, ((x, _), row) in enumerate(zip(elements, keep)):
            _check_scaled(check_id, index, np.asarray(x), pixels[row])
        _check_built_on(check_id, dataset, source, "ds")
    passed(check_id, "unlabelled examples dropped, pixels scaled to [0, 1], labels kept")


def _check_scaled(check_id, index, got, pixels):
    """Element `index`'s pixels must be `pixels / 255`; say which slip it looks like."""
    want = pixels / 255
    if got.shape != want.shape:
        fail(check_id, f"element {index}: expected pixels of shape {want.shape}, got "
                       f"{got.shape}")
    if np.allclose(got, want):
        return
    wrong = int(np.flatnonzero(~np.isclose(got, want))[0])
    detail = (f"element {index}: pixel {wrong} was {pixels[wrong]:g}, so it should become "
              f"{pixels[wrong]:g} / 255 = {want[wrong]:.4f}, got {float(got[wrong]):.4f}")
    if np.allclose(got, pixels):
        fail(check_id, f"{detail}: the pixels were not scaled", hint="map each pair to "
             "(x / 255, y)")
    if np.allclose(got, pixels // 255):
        fail(check_id, f"{detail}: `//` is integer division and turns every pixel below "
                       "255 into 0", hint="divide with `/`, not `//`")
    if pixels.max() > 0 and np.allclose(got, pixels / pixels.max()):
        fail(check_id, f"{detail}: the pixels were divided by the largest pixel of the "
                       "image, not by 255", hint="divide by the constant 255, the largest "
                                                 "value a pixel can take")
    fail(check_id, detail)


@check("ex-01-3", hint="make a dataset of (features, labels) pairs, then batch it with "
                        "drop_remainder=True",
       replayable=True)
def check_full_batches(make_batches):
    """ex-01-3: `make_batches(features, labels, batch_size)` gives only full batches, in order.

    >>> check_full_batches(lambda f, l, b: Dataset.from_tensor_slices((f, l)).batch(
    ...     b, drop_remainder=True))
    ex-01-3 passed: every batch holds exactly batch_size rows, in order, on 4 new inputs
    """
    check_id = "ex-01-3"
    generator = rng(check_id)
    cases = [(int(generator.integers(3, 6)), None) for _ in range(3)] + [(4, 12)]
    for batch_size, rows in cases:
        if rows is None:  # a size that leaves a remainder
            # Six or more batches, so that shuffling whole batches cannot leave them in order
            # by chance (a few batches often come out of a seeded shuffle unchanged).
            rows = (batch_size * int(generator.integers(6, 10))
                    + int(generator.integers(1, batch_size)))
        features = generator.normal(size=(rows, 3))
        labels = generator.integers(0, 5, size=rows)
        dataset = call_answer(check_id, make_batches, features, labels, batch_size)
        batches = take_elements(check_id, dataset, rows + 5)
        expected = rows // batch_size
        sizes = [len(np.asarray(batch[0])) if isinstance(batch, tuple) else None
                 for batch in batches]
        if None in sizes:
            fail(check_id, f"expected (features, labels) batches, got {describe(batches[0])}")
        if any(size != batch_size for size in sizes):
            fail(check_id, f"with {rows} rows and batch_size={batch_size} expected {expected} "
                           f"batches of {batch_size}, got batch sizes {sizes}"
                           + ("; drop the short last batch (drop_remainder=True)"
                              if sizes[:-1] == [batch_size] * (len(sizes) - 1) else ""))
        if len(batches) != expected:
            fail(check_id, f"with {rows} rows and batch_size={batch_size} expected {expected} "
                           f"batches, got {len(batches)}")
        _check_batch_order(check_id, [np.asarray(x) for x, _ in batches],
                           [features[i * batch_size:(i + 1) * batch_size]
                            for i in range(expected)], features)
        for index, (x, y) in enumerate(batches):
            rows_here = slice(index * batch_size, (index + 1) * batch_size)
            if not (np.allclose(x, features[rows_here]) and np.array_equal(y, labels[rows_here])):
                fail(check_id, f"batch {index} should hold rows {rows_here.start} to "
                               f"{rows_here.stop - 1} of the input, in order")
    passed(check_id, "every batch holds exactly batch_size rows, in order, on 4 new inputs")


@check("ex-01-4", hint="the chunks have different lengths, so they cannot be batched as they "
                        "are: unbatch() them into single rows first, then batch(size), and keep "
                        "the short last batch",
       replayable=True)
def check_rebatch_rows(rebatch_rows):
    """ex-01-4: `rebatch_rows(chunks, size)` turns chunks of any length into batches of `size`.

    >>> check_rebatch_rows(lambda chunks, size: chunks.unbatch().batch(size))
    ex-01-4 passed: chunks of any length re-cut into batches of size rows, none lost
    """
    check_id = "ex-01-4"
    generator = rng(check_id)
    for _ in range(3):
        size = int(generator.integers(3, 7))
        lengths = generator.integers(1, 9, size=int(generator.integers(3, 7)))
        total = int(lengths.sum())
        if total % size == 0:  # make sure there is a short last batch to keep
            lengths[-1] += 1
            total += 1
        rows = np.arange(total * 2, dtype=np.int64).reshape(total, 2) * 10
        pieces = np.split(rows, np.cumsum(lengths)[:-1])
        chunks = Dataset.from_generator(lambda: iter(pieces), output_signature=
                                        _chunk_signature())
        dataset = call_answer(check_id, rebatch_rows, chunks, size)
        batches = [np.asarray(batch) for batch in take_elements(check_id, dataset, total + 5)]
        if batches and batches[0].ndim != 2:
            fail(check_id, f"expected batches of rows, shape (size, 2), got shape "
                           f"{batches[0].shape}; split the chunks into rows first (unbatch)")
        sizes = [len(batch) for batch in batches]
        want = [size] * (total // size) + [total % size]
        if sizes != want:
            hint = ""
            if sizes == want[:-1]:
                hint = "; the short last batch is missing: keep it (no drop_remainder)"
            elif sizes == lengths.tolist():
                hint = "; these are the original chunks: unbatch before you batch"
            fail(check_id, f"with chunks of lengths {lengths.tolist()} and size={size} "
                           f"expected batch sizes {want}, got {sizes}{hint}")
        if not np.array_equal(np.concatenate(batches), rows):
            fail(check_id, "the rows should come out in their original order, none lost")
        _check_built_on(check_id, dataset, chunks, "chunks")
    passed(check_id, "chunks of any length re-cut into batches of size rows, none lost")


def _check_batch_order(check_id, batches, expected, input_rows):
    """Name the shuffles: whole batches reordered, or rows taken out of their order."""
    if [len(batch) for batch in batches] == [len(batch) for batch in expected] and all(
            np.array_equal(got, want) for got, want in zip(batches, expected)):
        return
    if len(batches) == len(expected) and sorted(_rows(b) for b in batches) == sorted(
            _rows(b) for b in expected):
        fail(check_id, "every batch holds the right rows, but the batches come in another "
                       "order: you shuffled whole batches (a shuffle after batch)",
             hint="this exercise keeps the rows in their order, so leave shuffle out; when "
                  "you do shuffle examples, shuffle before batch")
    position = {row: index for index, row in enumerate(_rows(input_rows))}
    got_rows = [row for batch in batches for row in _rows(batch)]
    # Going back to row 0 is a new epoch (after repeat); any other step back is a shuffle.
    if all(row in position for row in got_rows) and any(
            position[b] < position[a] and position[b] != 0
            for a, b in zip(got_rows, got_rows[1:])):
        fail(check_id, "the batches hold rows of the input, but not in their original order, "
                       "so each batch mixes rows from different places",
             hint="leave shuffle out: this exercise keeps the rows in order")


def _rows(array):
    """The rows of `array` as hashable tuples (a 1-D array's items as 1-tuples)."""
    array = np.asarray(array)
    return [tuple(np.atleast_1d(row).tolist()) for row in array]


def _chunk_signature():
    from ..data import TensorSpec

    return TensorSpec(shape=(None, 2), dtype=np.int64)


@check("ex-01-5", hint="batch first, then repeat: repeating first lets one batch reach across "
                        "the end of an epoch",
       replayable=True)
def check_epochs_of_batches(epochs_of_batches):
    """ex-01-5: `epochs_of_batches(features, batch_size, epochs)`: no batch spans two epochs.

    >>> check_epochs_of_batches(lambda f, b, e: Dataset.from_tensor_slices(f).batch(b).repeat(e))
    ex-01-5 passed: each epoch is cut into its own batches, every row once per epoch
    """
    check_id = "ex-01-5"
    generator = rng(check_id)
    for _ in range(3):
        batch_size = int(generator.integers(3, 6))
        rows = batch_size * int(generator.integers(1, 4)) + int(generator.integers(1, batch_size))
        epochs = int(generator.integers(2, 4))
        features = generator.permutation(100)[:rows]
        dataset = call_answer(check_id, epochs_of_batches, features, batch_size, epochs)
        one_epoch = [features[start:start + batch_size] for start in range(0, rows, batch_size)]
        expected = one_epoch * epochs
        batches = [np.asarray(b) for b in take_elements(check_id, dataset, len(expected) + 5)]
        sizes = [len(batch) for batch in batches]
        want_sizes = [len(batch) for batch in expected]
        flat = np.concatenate(batches) if batches else np.array([])
        _check_batch_order(check_id, batches, expected, features)
        if sizes != want_sizes:
            if np.array_equal(flat, np.tile(features, epochs)):
                fail(check_id, f"some batches mix the end of one epoch with the start of the "
                               f"next (batch sizes {sizes}, expected {want_sizes}); batch "
                               "each epoch before repeating")
            fail(check_id, f"with {rows} rows, batch_size={batch_size} and epochs={epochs} "
                           f"expected batch sizes {want_sizes}, got {sizes}")
        for index, (got, want) in enumerate(zip(batches, expected)):
            if not np.array_equal(got, want):
                fail(check_id, f"batch {index} should be {want.tolist()}, got {got.tolist()} "
                               "(keep the rows in order, no shuffling)")
    passed(check_id, "each epoch is cut into its own batches, every row once per epoch")
