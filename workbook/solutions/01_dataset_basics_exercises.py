# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Exercises 01: dataset basics
#
# Five exercises on the ideas of [lesson 01](../notebooks/01_dataset_basics.ipynb): building a
# dataset from arrays, `filter` and `map`, `batch`, `unbatch` and `repeat`.
#
# **How this notebook works.** Each exercise has a difficulty (★ easy, ★★ medium, ★★★ harder),
# a task, a hint you can unfold, an answer cell and a check cell. Write your code in the answer
# cell where it says `# YOUR CODE HERE` (delete the `raise NotImplementedError()` line), run it,
# then run the check cell below it. A check calls your function on *new* inputs, not the ones
# shown here, and either prints `ex-01-N passed: ...` or stops with an `AssertionError` that
# says what it expected. Do not edit the check cells: when your work is graded they are
# replaced by the original ones.

# %%
import numpy as np

import feedline
import feedline.checks
from feedline.data import Dataset

print("feedline", feedline.__version__)

# %% [markdown]
# ## Exercise 1 ★ From arrays to named elements
#
# You have 5 tiny grey images, each 4 × 4 pixels, in one array of shape `(5, 4, 4)`, and their
# 5 class labels in another. Write `make_dataset(images, labels)` so that it returns a dataset
# with **one element per image**, each element a dict with the keys `"image"` (a `(4, 4)`
# array) and `"label"` (a scalar). It must work for any number and size of images.
#
# <details><summary>Hint</summary>
#
# `Dataset.from_tensor_slices` cuts every array in a structure along its first axis. Give it a
# dict whose values are the two arrays.
#
# </details>

# %%
def make_dataset(images, labels):
    """A dataset of {"image": images[i], "label": labels[i]}, one element per row."""
    ### BEGIN SOLUTION
    return Dataset.from_tensor_slices({"image": images, "label": labels})
    ### END SOLUTION


# %%
images = np.arange(5 * 4 * 4, dtype=np.uint8).reshape(5, 4, 4)
labels = np.array([3, 1, 4, 1, 5])
for element in make_dataset(images, labels).take(2):
    print(element["image"].shape, int(element["label"]))

# %% tags=["check", "ex-01-1"]
"""Check exercise 1: one dict per row with the keys image and label."""
feedline.checks.ex01.check_make_dataset(make_dataset)

# %% [markdown]
# ## Exercise 2 ★ Drop what you cannot use, then scale
#
# Each element of the dataset `ds` is a pair `(pixels, label)`: `pixels` holds values from 0 to
# 255, `label` is a class number. Some examples were never labelled; their label is `-1`.
# Write `clean_and_scale(ds)` that removes the unlabelled examples and divides the pixels by
# 255, so they lie between 0 and 1. Keep the pairs, in their order. Careful: `0` is a real
# class.
#
# <details><summary>Hint</summary>
#
# Chain a `filter` and a `map`. Both receive a pair as two arguments, `lambda x, y: ...`. The
# function given to `map` must return the pair again.
#
# </details>

# %%
def clean_and_scale(ds):
    """Keep the (pixels, label) pairs with a label, pixels divided by 255."""
    ### BEGIN SOLUTION
    return ds.filter(lambda x, y: y >= 0).map(lambda x, y: (x / 255, y))
    ### END SOLUTION


# %%
pixels = np.array([[0.0, 255.0], [51.0, 102.0], [255.0, 255.0]], dtype=np.float32)
example = Dataset.from_tensor_slices((pixels, np.array([2, -1, 0])))
for x, y in clean_and_scale(example):
    print(x, int(y))

# %% tags=["check", "ex-01-2"]
"""Check exercise 2: unlabelled examples dropped, pixels scaled, labels kept."""
feedline.checks.ex01.check_clean_and_scale(clean_and_scale)

# %% [markdown]
# ## Exercise 3 ★★ Only full batches
#
# Some models need every batch to have the same size. Write `make_batches(features, labels,
# batch_size)` that returns a dataset of `(features_batch, labels_batch)` pairs, each with
# exactly `batch_size` rows, in the original order. With 10 rows and `batch_size=4` that is
# 2 batches: the last 2 rows are left out.
#
# <details><summary>Hint</summary>
#
# Start from a dataset of pairs. `batch` has a parameter that throws away a last batch that is
# too short.
#
# </details>

# %%
def make_batches(features, labels, batch_size):
    """(features, labels) batches of exactly batch_size rows; a short last batch is dropped."""
    ### BEGIN SOLUTION
    return Dataset.from_tensor_slices((features, labels)).batch(batch_size,
                                                                drop_remainder=True)
    ### END SOLUTION


# %%
for x, y in make_batches(np.arange(20.0).reshape(10, 2), np.arange(10), 4):
    print(x.shape, y)

# %% tags=["check", "ex-01-3"]
"""Check exercise 3: every batch holds exactly batch_size rows."""
feedline.checks.ex01.check_full_batches(make_batches)

# %% [markdown]
# ## Exercise 4 ★★ Re-cut uneven chunks
#
# A reader gives you rows in chunks of uneven length: each element of `chunks` is an array of
# shape `(n, 2)`, and `n` changes from chunk to chunk. Write `rebatch_rows(chunks, size)` that
# returns batches of `size` rows each (shape `(size, 2)`), keeping every row in its order; only
# the last batch may be shorter.
#
# <details><summary>Hint</summary>
#
# `batch` cannot stack arrays of different lengths. First turn the chunks back into single
# rows, then batch the rows.
#
# </details>

# %%
def rebatch_rows(chunks, size):
    """Batches of `size` rows cut from chunks of any length; the last may be shorter."""
    ### BEGIN SOLUTION
    return chunks.unbatch().batch(size)
    ### END SOLUTION


# %%
pieces = [np.array([[0, 0], [1, 1], [2, 2]]), np.array([[3, 3]]),
          np.array([[4, 4], [5, 5], [6, 6], [7, 7], [8, 8]])]
chunks = Dataset.from_generator(
    lambda: iter(pieces),
    output_signature=feedline.data.TensorSpec(shape=(None, 2), dtype=np.int64))
print([batch.shape for batch in rebatch_rows(chunks, 4)])

# %% tags=["check", "ex-01-4"]
"""Check exercise 4: chunks re-cut into batches of size rows, none lost."""
feedline.checks.ex01.check_rebatch_rows(rebatch_rows)

# %% [markdown]
# ## Exercise 5 ★★★ Epochs that do not blur
#
# You train for `epochs` passes over `features` (a 1-D array), in batches of `batch_size`. You
# want every epoch to be cut into its own batches: no batch may hold the last rows of one epoch
# together with the first rows of the next (so you can, say, evaluate between epochs). Write
# `epochs_of_batches(features, batch_size, epochs)`. With 7 rows, `batch_size=3` and
# `epochs=2` the batch sizes are `3, 3, 1, 3, 3, 1`. Keep the rows in order.
#
# <details><summary>Hint</summary>
#
# You need `batch` and `repeat`. Try both orders on the example below and look at the batch
# sizes: which order lets a batch reach across the end of an epoch?
#
# </details>

# %%
def epochs_of_batches(features, batch_size, epochs):
    """`epochs` passes over `features` in batches; no batch spans two epochs."""
    ### BEGIN SOLUTION
    return Dataset.from_tensor_slices(features).batch(batch_size).repeat(epochs)
    ### END SOLUTION


# %%
for batch in epochs_of_batches(np.arange(7), 3, 2):
    print(batch)

# %% tags=["check", "ex-01-5"]
"""Check exercise 5: each epoch is cut into its own batches."""
feedline.checks.ex01.check_epochs_of_batches(epochs_of_batches)

# %% [markdown]
# ## Done
#
# All five checks passed? Then you can build, reshape and batch datasets. Next:
# [lesson 02, shuffling](../notebooks/02_shuffling.ipynb).
