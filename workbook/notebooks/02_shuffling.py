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
# # 02 Shuffling
#
# Gradient descent assumes that each batch is a fair sample of the data. Data on disk is
# rarely in a fair order: it was exported class by class, day by day, user by user. Feed it
# in that order and the model sees a thousand cats, then a thousand dogs, and forgets the
# cats. So we shuffle.
#
# A dataset that streams from disk cannot be permuted in memory: it may not fit, and it may
# not even end. `Dataset.shuffle` uses a **buffer** of a fixed size instead, and the size of
# that buffer decides how well it shuffles.
#
# **What you will learn**
#
# - the buffer algorithm, drawn step by step;
# - how far an element can move for a given buffer size: predicted, then measured and
#   plotted for buffers of 1 to 1000 elements;
# - what a seed fixes, what `reshuffle_each_iteration` does, and the global seed;
# - why the place of `shuffle` among `repeat` and `batch` matters;
# - why a small buffer fails on sorted data, and how shuffling the *files* and interleaving
#   them fixes it without a large buffer.

# %%
import pathlib
import shutil

import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.data import Dataset, TextLineDataset
from feedline.perf import PALETTE

print("feedline", fl.__version__)
fl.random.set_seed(None)  # no global seed until the section about it
# This lesson's files go to workdir/02_shuffling/, emptied here so that every run starts fresh.
BASE = pathlib.Path("../workdir" if pathlib.Path("../pyproject.toml").exists() else "workdir")
WORKDIR = BASE / "02_shuffling"
shutil.rmtree(WORKDIR, ignore_errors=True)
WORKDIR.mkdir(parents=True)

# %% [markdown]
# ## The buffer algorithm
#
# `ds.shuffle(buffer_size)` keeps a buffer of `buffer_size` slots:
#
# 1. it first reads `buffer_size` elements into the buffer;
# 2. then, for every element it gives out, it picks one slot at random, hands out that
#    slot's element, and reads the next input element into the freed slot;
# 3. when the input ends, it hands out what is left in the buffer, in random order.
#
# The function below does exactly that in plain Python and records every step, so that we
# can draw it. It uses NumPy's random numbers, so its order is not TensorFlow's; the rule is
# the same.

# %%
def buffer_steps(n, buffer_size, seed):
    """Shuffle range(n) with a buffer; one record per element given out."""
    rng = np.random.default_rng(seed)
    upcoming = list(range(n))
    buffer = [upcoming.pop(0) for _ in range(min(buffer_size, n))]
    steps = []
    while buffer:
        slot = int(rng.integers(len(buffer)))
        record = {"buffer": list(buffer), "slot": slot, "out": buffer[slot],
                  "waiting": list(upcoming)}
        if upcoming:
            buffer[slot] = upcoming.pop(0)  # the next input element takes the freed slot
            record["in"] = buffer[slot]
        else:
            buffer.pop(slot)  # the input has ended: the buffer shrinks
            record["in"] = None
        steps.append(record)
    return steps


steps = buffer_steps(10, 3, seed=4)
print("order given out:", [step["out"] for step in steps])

# %% [markdown]
# Each row of the picture is one step, for `range(10)` and a buffer of 3. The grey numbers on
# the left are still waiting in the input; the three boxes are the buffer; the orange box is
# the slot picked at random, whose element goes out (right). The next input element then
# moves into that box, as the next row shows. In the last three rows the input is empty and
# the buffer drains.

# %%
def draw_steps(steps, buffer_size, n):
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(steps) + 1))
    for row, step in enumerate(steps):
        y = -row
        ax.text(-0.6, y, " ".join(str(x) for x in step["waiting"]), ha="right", va="center",
                color="grey", fontsize=11)
        for slot in range(buffer_size):
            picked = slot == step["slot"]
            value = step["buffer"][slot] if slot < len(step["buffer"]) else ""
            ax.add_patch(plt.Rectangle((slot, y - 0.4), 0.9, 0.8, edgecolor="black",
                                       facecolor=PALETTE[0] if picked else "white"))
            ax.text(slot + 0.45, y, str(value), ha="center", va="center", fontsize=12)
        given = [str(s["out"]) for s in steps[:row + 1]]
        ax.text(buffer_size + 0.4, y, "→ " + " ".join(given), ha="left", va="center",
                fontsize=11)
    ax.text(-0.6, 1, "input waiting", ha="right", color="grey")
    ax.text(buffer_size / 2 - 0.05, 1, "buffer", ha="center")
    ax.text(buffer_size + 0.4, 1, "given out so far", ha="left")
    ax.set_xlim(-2.2 - 0.4 * n, buffer_size + 0.5 + 0.45 * n)
    ax.set_ylim(-len(steps) + 0.3, 1.6)
    ax.axis("off")
    ax.set_title(f"shuffle(buffer_size={buffer_size}) over range({n}), one row per step")
    plt.show()


draw_steps(steps, 3, 10)

# %% [markdown]
# Two facts are already visible:
#
# - the first element out is one of 0, 1, 2: at that moment nothing else has been read;
# - an element can stay in the buffer for many rows, because every pick may pass it over.
#
# `Dataset.shuffle` follows the same rule. Its bookkeeping differs a little (it keeps the
# buffer as a ring and moves the oldest element into the freed slot), which changes *which*
# random order a seed gives, not the rule:

# %%
print([int(x) for x in Dataset.range(10).shuffle(3, seed=4)])

# %% [markdown]
# ## How far can an element move? Predict, then measure
#
# Take a dataset of N = 1000 elements and a buffer of B. Before output position p is picked,
# the shuffle has read B + p elements (B to fill the buffer, one more per output). So:
#
# - **forward**: element i cannot come out before position i − (B − 1). It moves *forward*
#   by at most B − 1 places;
# - **backward**: nothing forces an element out, so it can be passed over again and again and
#   come out much later, even last;
# - **on average**: once in the buffer, an element is picked at each step with probability
#   1/B, so it waits B steps on average. It enters the buffer B − 1 steps before its own
#   position, so on average it leaves at its own position: the mean displacement is 0, and
#   the typical displacement (the standard deviation of a wait of B steps) is
#   √(B(B − 1)), about **B**.
#
# A buffer of 10 moves elements by about ten places; to mix the whole dataset you need a
# buffer about as large as the dataset. A true random permutation of N elements gives a
# standard deviation of about N/√6 ≈ 408 for N = 1000.
#
# Now the measurement: 20 seeds for each buffer size, each element's output position minus
# its input position.

# %%
N, SEEDS = 1000, 20
SIZES = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]


def displacements(buffer_size, seed):
    """Output position minus input position, for every element of range(N)."""
    order = np.fromiter((int(x) for x in Dataset.range(N).shuffle(buffer_size, seed=seed)),
                        dtype=np.int64, count=N)
    position = np.empty(N, dtype=np.int64)
    position[order] = np.arange(N)
    return position - np.arange(N)


moves = {size: np.concatenate([displacements(size, seed) for seed in range(SEEDS)])
         for size in SIZES}
print(f"{'B':>5s} {'most forward':>13s} {'predicted':>10s} {'mean':>6s} {'std':>7s} "
      f"{'predicted':>10s}")
for size, move in moves.items():
    print(f"{size:5d} {move.min():13d} {-(size - 1):10d} {move.mean():6.1f} {move.std():7.1f} "
          f"{np.sqrt(size * (size - 1)):10.1f}")

# %% [markdown]
# The most forward move matches the prediction, −(B − 1), for every buffer up to 500. (For
# B = 1000 it would take the last element coming out first, one chance in a thousand per
# seed; 20 seeds got to −995.) The mean stays at 0, and the standard deviation is within 6%
# of √(B(B − 1)) up to B = 100, a tenth of the dataset; beyond that the ends of the dataset
# cut the long waits short, and the curve bends towards the ceiling of a true permutation,
# 408. In a picture, one seed per buffer size: each dot is an
# element, its input position across, its output position up.

# %%
fig, axes = plt.subplots(1, 4, figsize=(13, 3.6), sharey=True)
for ax, size in zip(axes, [10, 100, 500, 1000]):
    order = [int(x) for x in Dataset.range(N).shuffle(size, seed=0)]
    ax.scatter(order, np.arange(N), s=2, color=PALETTE[4])
    ax.plot([0, N], [-(size - 1), N - size + 1], color=PALETTE[5], linestyle="--",
            label="earliest possible")
    ax.set_title(f"buffer_size={size}")
    ax.set_xlabel("input position")
    ax.set_xlim(0, N)
    ax.set_ylim(0, N)
axes[0].set_ylabel("output position")
axes[0].legend(loc="upper left")
fig.tight_layout()
plt.show()

# %% [markdown]
# With a buffer of 10 the dots hug the diagonal: the order is barely disturbed. With 100 the
# band is wider, but element 900 still comes out near position 900. Only a buffer as large
# as the dataset fills the square. Note the sharp lower edge of each band (the dashed line):
# no element ever gets ahead of it.
#
# The same measurement as one curve: the spread of the displacement against the buffer size,
# with the prediction and the ceiling of a true permutation.

# %%
sizes = np.array(SIZES)
fig, ax = plt.subplots(figsize=(8, 4.5))
ax.loglog(sizes[1:], [moves[s].std() for s in SIZES[1:]], "o", color=PALETTE[0],
          markersize=8, label="measured (20 seeds)")
ax.loglog(sizes[1:], np.sqrt(sizes[1:] * (sizes[1:] - 1)), color="black", linestyle="--",
          label="predicted √(B(B−1))")
ax.axhline(N / np.sqrt(6), color=PALETTE[5], linestyle=":", label="true permutation, N/√6")
ax.set_xlabel("buffer_size B")
ax.set_ylabel("std of displacement (positions)")
ax.set_title(f"How far shuffle moves elements of a dataset of {N}")
ax.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Seeds
#
# A seed fixes the random draws, so a run can be repeated exactly: the same `seed=` gives the
# same order. By default the order still changes from one **epoch** to the next (each time
# you iterate the dataset), because `reshuffle_each_iteration` is `True`; the sequence of
# epoch orders is what the seed fixes.

# %%
def epochs(ds, count=3):
    return [[int(x) for x in ds] for _ in range(count)]


shuffled = Dataset.range(8).shuffle(8, seed=42)
print("seed=42, 3 epochs:      ", epochs(shuffled))
print("rebuilt, same seed:     ", epochs(Dataset.range(8).shuffle(8, seed=42)))
frozen = Dataset.range(8).shuffle(8, seed=42, reshuffle_each_iteration=False)
print("reshuffle=False:        ", epochs(frozen))

# %% [markdown]
# Without a seed, every pipeline draws a fresh order, different on every run of this cell:

# %% tags=["nbval-ignore-output"]
print("no seed, two pipelines:", [int(x) for x in Dataset.range(8).shuffle(8)],
      [int(x) for x in Dataset.range(8).shuffle(8)])

# %% [markdown]
# `reshuffle_each_iteration=False` repeats one order every epoch, which is what you want for
# a validation set split off by `take`/`skip` after a shuffle (otherwise the split changes
# every epoch). No seed at all is fine for training, but hopeless for debugging: a run that
# went wrong cannot be run again.
#
# There is also a **global** seed, `fl.random.set_seed(s)` (TensorFlow's
# `tf.random.set_seed`). After it, each random op created *without* its own seed gets the
# next seed of a sequence fixed by `s`. So two unseeded shuffles differ from each other, but
# the whole program gives the same orders on every run, and calling `set_seed(s)` again
# starts the sequence again. An op's own `seed=` is combined with the global one.

# %%
fl.random.set_seed(7)
a, b = Dataset.range(8).shuffle(8), Dataset.range(8).shuffle(8)
print("after set_seed(7), two ops:", [int(x) for x in a], [int(x) for x in b])
fl.random.set_seed(7)
a_again = Dataset.range(8).shuffle(8)
print("set_seed(7) again:         ", [int(x) for x in a_again])
fl.random.set_seed(None)  # back to no global seed

# %% [markdown]
# feedline's seeds are not just "some reproducible order": they follow TensorFlow's rules for
# combining the global and the op seed, and drive the same random generator (Philox), so a
# seeded `shuffle` gives **exactly TensorFlow's order**, epoch by epoch. The repository's
# test `tests/test_shuffle_parity.py` compares feedline with orders recorded from TensorFlow
# for 35 pipelines. For example, TensorFlow gives `[1, 4, 2, 3, 5, 0, 6, 8, 7, 9]` as the
# first epoch of this one:

# %%
print([int(x) for x in Dataset.range(10).shuffle(4, seed=42)])

# %% [markdown]
# ## Shuffle before or after `repeat` and `batch`?
#
# Where `shuffle` sits in the chain changes what it mixes. Three versions of a small example,
# 2 epochs of `range(10)` in batches of 7, with a buffer of 4:
#
# - **A** `range(10).repeat(2).shuffle(4, seed=42).batch(7)`: shuffle after repeat;
# - **B** `range(10).shuffle(4, seed=42).repeat(2).batch(7)`: shuffle before repeat;
# - **C** `range(10).repeat(2).batch(7).shuffle(4, seed=42)`: shuffle after batch.
#
# Predict before you run: in which version can an element of epoch 2 come out before the
# last element of epoch 1? In which one does a batch always hold consecutive numbers?

# %%
pipelines = {
    "A repeat, shuffle, batch": Dataset.range(10).repeat(2).shuffle(4, seed=42).batch(7),
    "B shuffle, repeat, batch": Dataset.range(10).shuffle(4, seed=42).repeat(2).batch(7),
    "C repeat, batch, shuffle": Dataset.range(10).repeat(2).batch(7).shuffle(4, seed=42),
}
for name, ds in pipelines.items():
    print(f"{name}: {[batch.tolist() for batch in ds]}")

# %% [markdown]
# To see the epochs, we tag every element with its position in `range(10).repeat(2)`
# (`enumerate`) before anything moves it; positions 0–9 are epoch 1, 10–19 epoch 2. The shuffle
# picks by position, never by value, so the tag does not change the order. Colour = epoch;
# thick lines = batch boundaries.

# %%
tagged = {
    "A repeat, shuffle, batch":
        Dataset.range(10).repeat(2).enumerate().shuffle(4, seed=42).batch(7),
    "B shuffle, repeat, batch":
        Dataset.range(10).shuffle(4, seed=42).repeat(2).enumerate().batch(7),
    "C repeat, batch, shuffle":
        Dataset.range(10).repeat(2).enumerate().batch(7).shuffle(4, seed=42),
}
fig, ax = plt.subplots(figsize=(11, 2.8))
for row, (name, ds) in enumerate(tagged.items()):
    column = 0
    for positions, values in ds:
        for position, value in zip(positions.tolist(), values.tolist()):
            epoch = position // 10 if not name.startswith("B") else column // 10
            ax.add_patch(plt.Rectangle((column, -row - 0.4), 0.95, 0.8, edgecolor="black",
                                       facecolor=PALETTE[1] if epoch == 0 else PALETTE[0]))
            ax.text(column + 0.47, -row, str(value), ha="center", va="center")
            column += 1
        ax.plot([column - 0.03] * 2, [-row - 0.5, -row + 0.5], color="black", linewidth=3)
    ax.text(-0.5, -row, name, ha="right", va="center")
ax.add_patch(plt.Rectangle((0, 0), 0, 0, color=PALETTE[1], label="epoch 1"))
ax.add_patch(plt.Rectangle((0, 0), 0, 0, color=PALETTE[0], label="epoch 2"))
ax.set_xlim(-8, 20.5)
ax.set_ylim(-2.6, 1.2)
ax.axis("off")
ax.legend(loc="upper right", ncol=2)
plt.show()

# %% [markdown]
# - **A** (the usual textbook chain): the shuffle sees one stream of 20 elements, so near the
#   boundary the epochs mix: epoch 1's 7 comes out after six elements of epoch 2, and the
#   last batch holds 7 twice, one from each epoch. For long training runs this hardly
#   matters, and it avoids a pause at each epoch boundary.
# - **B**: each epoch is shuffled on its own, so every run of 10 elements holds 0 to 9 once.
#   (In B we colour by output position: the shuffle happens before `repeat`, so the
#   `enumerate` tag comes after it.) Choose this when "one epoch" must mean every example
#   exactly once.
# - **C**: the shuffle sees *batches*: whole batches move (here the second and third swap
#   places), and each still holds consecutive elements of the stream. The model then sees the same neighbours together every epoch. Shuffle before
#   `batch`, not after.

# %% [markdown]
# ## A small buffer over sorted data
#
# Now the case that bites in practice. 2000 examples with 10 labels, exported class by class
# into 20 CSV files of 100 rows: `label-0-a.csv`, `label-0-b.csv` hold label 0, and so on.
# Every line is `label,example_id`.

# %%
LABELS, FILES_PER_LABEL, ROWS = 10, 2, 100
SHARDS = WORKDIR / "sorted"
SHARDS.mkdir()
for label in range(LABELS):
    for part in "ab"[:FILES_PER_LABEL]:
        ids = range(label * 1000 + (part == "b") * ROWS, label * 1000 + (part == "b") * ROWS
                    + ROWS)
        (SHARDS / f"label-{label}-{part}.csv").write_text(
            "".join(f"{label},{i}\n" for i in ids))
print(len(list(SHARDS.iterdir())), "files, for example",
      (SHARDS / "label-3-b.csv").read_text().splitlines()[:2])


def parse(line):
    label, example_id = fl.io.decode_csv(line, [[0], [0]])
    return label, example_id


PATTERN = str(SHARDS / "label-*.csv")
TOTAL, BATCH, BUFFER = LABELS * FILES_PER_LABEL * ROWS, 32, 100

# %% [markdown]
# Three pipelines, batches of 32:
#
# 1. **files in order, buffer of 100**: read the files one after another, `shuffle(100)`;
# 2. **shuffled files, interleaved, buffer of 100**: list the files in a random order
#    (`list_files(..., shuffle=True, seed=...)`, a new order each epoch), read 8 of them at
#    once with `interleave` taking one line from each in turn, then `shuffle(100)`;
# 3. **buffer of 2000**: files in order, but a buffer holding the whole dataset.
#
# **Predict** how many different labels the first batches of each hold.
#
# <details><summary>Our prediction</summary>
#
# 1. The first 200 rows are all label 0, and label 1 enters the buffer only when row 200 is
#    read, that is after 100 outputs. So batches 0, 1 and 2 (outputs 0–95) hold **label 0
#    only**.
# 2. The interleave hands the buffer one row from each of 8 random files in turn, so every
#    batch holds rows of the 8 open files. Two files may share a label: 8 files out of 20
#    (two per label) cover **6.5 labels on average**, anywhere from 4 to 8 depending on the
#    draw.
# 3. A full shuffle draws 32 rows from 10 equal classes: about 10 × (1 − 0.9³²) ≈ **9.7
#    labels** per batch, at the price of 2000 rows in memory.
#
# </details>

# %%
def files_in_order():
    files = Dataset.list_files(PATTERN, shuffle=False)
    return files.flat_map(TextLineDataset).map(parse).shuffle(BUFFER, seed=1).batch(BATCH)


def files_shuffled_and_interleaved():
    files = Dataset.list_files(PATTERN, shuffle=True, seed=1)
    rows = files.interleave(TextLineDataset, cycle_length=8, block_length=1)
    return rows.map(parse).shuffle(BUFFER, seed=1).batch(BATCH)


def whole_dataset_buffer():
    files = Dataset.list_files(PATTERN, shuffle=False)
    return files.flat_map(TextLineDataset).map(parse).shuffle(TOTAL, seed=1).batch(BATCH)


FIRST = 10  # batches to look at
pipelines = {"files in order, buffer 100": files_in_order(),
             "shuffled files + interleave, buffer 100": files_shuffled_and_interleaved(),
             "buffer 2000": whole_dataset_buffer()}
predicted = {"files in order, buffer 100": "1, 1, 1, then 2",
             "shuffled files + interleave, buffer 100": "about 6.5 (4 to 8)",
             "buffer 2000": "about 9.7"}
counts = {}
print(f"{'':40s} {'labels in batches 0-4':22s} predicted")
for name, ds in pipelines.items():
    table = np.zeros((FIRST, LABELS), dtype=int)  # rows of each label in each batch
    for number, (labels, _) in zip(range(FIRST), ds):
        table[number] = np.bincount(labels, minlength=LABELS)
    counts[name] = table
    measured = ", ".join(str(int((t > 0).sum())) for t in table[:5])
    print(f"{name:40s} {measured:22s} {predicted[name]}")

# %% [markdown]
# As predicted: the first three batches of pipeline 1 are all label 0, and label 1 appears in
# batch 3. Pipeline 2 gives each batch several labels with the same small buffer: 5 with
# this seed's file order (the 8 open files happen to hold only 5 labels; the next epoch's
# order gives 7, below). The big buffer gives nearly all 10. The
# picture shows every label count of the first 10 batches (darker = more rows of that label).

# %%
fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharey=True)
for ax, (name, table) in zip(axes, counts.items()):
    ax.imshow(table, cmap="Blues", vmin=0, vmax=BATCH, aspect="auto")
    for (row, column), count in np.ndenumerate(table):
        if count:
            ax.text(column, row, count, ha="center", va="center", fontsize=8,
                    color="white" if count > BATCH / 2 else "black")
    ax.set_title(name, fontsize=10)
    ax.set_xlabel("label")
    ax.set_xticks(range(LABELS))
axes[0].set_ylabel("batch")
axes[0].set_yticks(range(FIRST))
fig.suptitle("Rows of each label in the first 10 batches of 32")
fig.tight_layout()
plt.show()

# %% [markdown]
# Pipeline 2 mixes in three layers, each cheap: the file order is shuffled (a buffer of 20
# file *names*), the interleave takes one row from each of 8 files in turn (8 open files),
# and the buffer of 100 rows mixes what arrives. Its memory is 100 rows, not 2000. On a real
# dataset of millions of rows in hundreds of files, that is the difference between a few
# megabytes and not fitting in memory at all.
#
# It is not a perfect shuffle: a batch holds rows from the 8 files currently open, never
# from the other 12. With many files and a modest buffer that is usually good enough; more
# open files (`cycle_length`) or a bigger buffer brings it closer to the full shuffle.
# And each epoch lists the files in a new order, so the mix changes from epoch to epoch:

# %%
ds = files_shuffled_and_interleaved()
for epoch in (1, 2):
    first_batch_labels, _ = next(iter(ds))
    print(f"epoch {epoch}: first batch holds labels {sorted(set(first_batch_labels.tolist()))}")

# %% [markdown]
# ## Summary
#
# - `shuffle(buffer_size)` fills a buffer, then repeatedly hands out a random slot and refills
#   it from the input. An element can move **forward by at most `buffer_size − 1`** places,
#   but backward without limit; the typical move is about `buffer_size` places. Only a buffer
#   as large as the dataset gives a true permutation.
# - `seed=` fixes the order of every epoch; `reshuffle_each_iteration=True` (the default)
#   gives each epoch a new order, `False` repeats one. `fl.random.set_seed` seeds the ops
#   created after it that have no seed of their own. feedline's seeded shuffles give
#   TensorFlow's exact orders.
# - Shuffle **before `batch`** (after it, whole batches move). Shuffle **before `repeat`** to
#   keep every epoch a complete pass; after `repeat`, epochs blend at their boundaries.
# - Over data sorted by label a small buffer gives batches of one label. Shuffle the **file
#   names**, **interleave** several files, then shuffle with a modest buffer: mixed batches in
#   bounded memory.
#
# **Now practise:** [exercises 02](../exercises/02_shuffling_exercises.ipynb).
