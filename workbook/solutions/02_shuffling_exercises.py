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
# # Exercises 02: shuffling
#
# Four exercises on [lesson 02](../notebooks/02_shuffling.ipynb): putting `shuffle` in the
# right place, writing the buffer algorithm yourself, predicting how far it can move an
# element, and mixing the labels of label-sorted files with a small buffer.
#
# Write your code where it says `# YOUR CODE HERE` (and delete the `raise
# NotImplementedError()` line), run the cell, then run the check below it. The checks run
# your code on inputs you have not seen, with several seeds, and look at the *orders* it
# gives: no check measures time.

# %%
import pathlib
import shutil

import numpy as np

import feedline
import feedline.checks
from feedline.data import Dataset, TextLineDataset

print("feedline", feedline.__version__)
# Files these exercises write go to workdir/02_shuffling_exercises/, emptied on every run.
BASE = pathlib.Path("../workdir" if pathlib.Path("../pyproject.toml").exists() else "workdir")
WORKDIR = BASE / "02_shuffling_exercises"
shutil.rmtree(WORKDIR, ignore_errors=True)
WORKDIR.mkdir(parents=True)

# %% [markdown]
# ## Exercise 1 ★ Shuffle in the right place
#
# `ds` holds `n` numbers. Write `train_batches(ds, n, seed)`: the data for **3 epochs** of
# training, in **batches of 4**, such that
#
# - every epoch (each run of `n` consecutive elements, once you take the batches apart) holds
#   each of the `n` numbers exactly once;
# - the shuffle can move any element anywhere (its buffer holds the whole dataset);
# - each epoch comes in a new order, and the batches mix single elements, not runs of 4;
# - calling `train_batches` again with the same `seed` gives exactly the same batches.
#
# <details><summary>Hint</summary>
#
# Three calls: `shuffle`, `repeat` and `batch`. Which one must come first so that the epochs
# stay apart, and so that single elements (not whole batches) get mixed? Which argument of
# `shuffle` makes a run repeatable, and which one (left at its default) gives every epoch a
# new order?
#
# </details>

# %%
def train_batches(ds, n, seed):
    """3 epochs of `ds` in batches of 4, each epoch a new full shuffle fixed by `seed`."""
    ### BEGIN SOLUTION
    return ds.shuffle(n, seed=seed).repeat(3).batch(4)
    ### END SOLUTION


# %%
for batch in train_batches(Dataset.range(6), 6, seed=7):
    print(batch.tolist())

# %% tags=["check", "ex-02-1"]
"""Check exercise 1: three full shuffles, in a new order each, batched by 4, fixed by the seed."""
feedline.checks.ex02.check_train_batches(train_batches)

# %% [markdown]
# ## Exercise 2 ★★ The buffer, by hand
#
# Write the generator `buffer_shuffle(elements, buffer_size, rng)`, which yields the items of
# the iterable `elements` in an order a shuffle buffer of `buffer_size` slots could give:
#
# 1. read elements into the buffer until it holds `buffer_size` of them (or the input ends);
# 2. while the input lasts: yield an element of the buffer picked at random, and put the next
#    input element in its place;
# 3. when the input ends, yield the remaining elements in random order.
#
# Draw every random number from `rng` (a `numpy.random.Generator`: `rng.integers(k)` is a
# whole number from 0 to k - 1), so that the caller's seed fixes the order. Read `elements`
# one at a time: it may be an iterator. Your order will not be TensorFlow's exact one (that
# needs TensorFlow's random numbers), but it must follow the same rule; the check tests that
# rule: every element once, none before the buffer could hold it, each slot equally likely.
#
# <details><summary>Hint</summary>
#
# A list is enough for the buffer. `buffer[slot]` is the element to yield; assign the new
# element to `buffer[slot]`. At the end, `buffer.pop(slot)` removes the element you yield.
# With `buffer_size=1` your generator should give the input unchanged.
#
# </details>

# %%
def buffer_shuffle(elements, buffer_size, rng):
    """Yield `elements` in the order a shuffle buffer of `buffer_size` slots picks them."""
    ### BEGIN SOLUTION
    buffer = []
    for element in elements:
        if len(buffer) < buffer_size:
            buffer.append(element)
            continue
        slot = int(rng.integers(len(buffer)))
        yield buffer[slot]
        buffer[slot] = element
    while buffer:
        yield buffer.pop(int(rng.integers(len(buffer))))
    ### END SOLUTION


# %%
for size in (1, 3, 10):
    order = list(buffer_shuffle(range(10), size, np.random.default_rng(0)))
    print(f"buffer_size={size:2d}: {order}")

# %% tags=["check", "ex-02-2"]
"""Check exercise 2: every element once, never earlier than the buffer allows, random and seeded."""
feedline.checks.ex02.check_buffer_shuffle(buffer_shuffle)

# %% [markdown]
# ## Exercise 3 ★★ How far can an element move?
#
# A dataset of `n` elements goes through `shuffle(buffer_size)`. The element at input
# position `i` (counting from 0) comes out at some output position. Write
# `reach(i, n, buffer_size)`, returning the pair `(earliest, latest)`: the smallest and the
# largest output positions that element can reach, over all possible random draws.
#
# Try it on paper first: with `range(10)` and `buffer_size=3`, where can element 5 go? And
# element 0?
#
# <details><summary>Hint</summary>
#
# Before output position `p` is picked, how many input elements have been read? An element
# can only be picked once it has been read. And is anything forcing an element *out* of the
# buffer? Treat `buffer_size=1` on its own.
#
# </details>

# %%
def reach(i, n, buffer_size):
    """(earliest, latest) output positions of the input element at position i."""
    ### BEGIN SOLUTION
    if buffer_size == 1:
        return i, i  # one slot: every element leaves as soon as it comes in
    # Before output p is picked, buffer_size + p elements have been read; nothing forces an
    # element out, so every pick may pass it over until it is the last one left.
    return max(0, i - buffer_size + 1), n - 1
    ### END SOLUTION


# %% [markdown]
# Compare with what `Dataset.shuffle` does over 300 seeds:

# %%
n, size = 10, 3
seen = {i: [] for i in range(n)}
for seed in range(300):
    for position, element in enumerate(Dataset.range(n).shuffle(size, seed=seed)):
        seen[int(element)].append(position)
for i in (0, 5, 9):
    print(f"element {i}: reach says {reach(i, n, size)}, 300 shuffles gave positions "
          f"{min(seen[i])} to {max(seen[i])}")

# %% tags=["check", "ex-02-3"]
"""Check exercise 3: the earliest and latest positions, for every buffer size."""
feedline.checks.ex02.check_reach(reach)

# %% [markdown]
# ## Exercise 4 ★★★ Mixed labels from label-sorted files
#
# A dataset of 640 rows is stored as 16 CSV files, one per label: `label-00.csv` holds the 40
# rows of label 0, `label-01.csv` those of label 1, and so on. Each line is `label,row_id`,
# and `parse_line(line)` turns a line into the pair `(label, row_id)`.
#
# Write `mixed_batches(pattern, parse_line, seed)`: one epoch of all the rows in batches of
# 32, with these properties:
#
# - each of the first 3 batches of every epoch holds **at least 5 different labels**;
# - the first batches hold **different labels from one epoch to the next**;
# - the memory stays bounded: no shuffle buffer holds more than **64** rows, and at most **8**
#   files are open at once;
# - the same `seed` gives the same batches.
#
# The check writes its own files and iterates your dataset twice, once per epoch (so no
# `repeat()`).
#
# <details><summary>Hint</summary>
#
# A buffer of 64 rows over files read one after another only ever sees one or two labels.
# Mix before the rows reach the buffer: what decides the order of the files, and how many of
# them are read at once? Lesson 02's "A small buffer over sorted data" mixes at both levels.
#
# </details>

# %%
def parse_line(line):
    """`label,row_id` as two integers."""
    label, row_id = feedline.io.decode_csv(line, [[0], [0]])
    return label, row_id


def mixed_batches(pattern, parse_line, seed):
    """Batches of 32 rows of the files matching `pattern`, with labels mixed from the start."""
    ### BEGIN SOLUTION
    files = Dataset.list_files(pattern, shuffle=True, seed=seed)
    rows = files.interleave(TextLineDataset, cycle_length=8, block_length=1)
    return rows.map(parse_line).shuffle(64, seed=seed).batch(32)
    ### END SOLUTION


# %% [markdown]
# Write the files (sorted by label, as they often are when data is exported class by class),
# and look at the labels of the first three batches of two epochs:

# %%
for label in range(16):
    lines = [f"{label},{label * 1000 + row}\n" for row in range(40)]
    (WORKDIR / f"label-{label:02d}.csv").write_text("".join(lines))

pattern = str(WORKDIR / "label-*.csv")
batches = mixed_batches(pattern, parse_line, seed=11)
for epoch in (1, 2):
    for number, (labels, _) in zip(range(3), batches):
        print(f"epoch {epoch}, batch {number}: {len(set(labels.tolist()))} labels, "
              f"{sorted(set(labels.tolist()))}")

# %% tags=["check", "ex-02-4"]
"""Check exercise 4: the first batches mix at least 5 labels, with a buffer of at most 64 rows."""
feedline.checks.ex02.check_mixed_batches(mixed_batches)

# %% [markdown]
# ## Going further
#
# In exercise 4, what happens to the label mix if the 16 files hold 400 rows each instead of
# 40 (try it)? Why does it not change much? And if you had 3 files instead of 16, which of
# the three tools (shuffled file names, interleave, shuffle buffer) would stop helping?
