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
# # 00 Welcome
#
# This workbook is about one question: **how do you keep a model busy?** A training step on a
# GPU or TPU can take a few milliseconds. If reading, decoding and batching the next examples
# takes longer, the expensive chip sits idle and waits. The tools that fix this (prefetching,
# parallel reading, parallel `map`, caching, batching before mapping) are the ideas behind
# TensorFlow's `tf.data`, and you will build pipelines with all of them here.
#
# **What you will learn in this notebook**
#
# - how the workbook is organised: lessons, exercises, checks and hints;
# - why an accelerator starves when it is fed from a plain Python loop;
# - three ways to feed a training loop (from Python each step, through an input pipeline,
#   from memory), measured on a small example and drawn as a timeline.

# %%
import time

import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.data import Dataset

print("feedline", fl.__version__)

# %% [markdown]
# ## How to use the workbook
#
# The workbook has three folders of notebooks, numbered in the order you should read them:
#
# | folder | what is in it | what you do |
# |---|---|---|
# | `notebooks/` | the **lessons**, like this one, with every output already shown | read, run, change things |
# | `exercises/` | the **exercises**, with empty answer cells | write answers, run the checks |
# | `solutions/` | the same exercises with worked answers | compare, once you tried |
#
# `make lab` opens your own copy of `notebooks/` and `exercises/`, in the folder `mywork/`
# (worked answers stay in the repository's `solutions/`, outside it). Change anything: your
# work is saved in `mywork/` and never in the notebooks the workbook ships.
# `make reset NOTEBOOK=exercises/01_dataset_basics_exercises.ipynb` restores one notebook and
# keeps a backup of yours; deleting `mywork/` starts everything over.
#
# Every lesson starts with what you will learn and ends with a summary and a link to its
# exercises. Run a lesson top to bottom (*Run → Run All Cells*); each one finishes in under a
# minute on a laptop and needs no network and no TensorFlow.
#
# `feedline` is the small package the workbook runs on. It uses TensorFlow's names: what you
# write as `fl.data.Dataset.range(10).batch(4)` is `tf.data.Dataset.range(10).batch(4)` in
# TensorFlow, so what you learn carries over by changing the import.
#
# ### Predict, then run
#
# Before a cell that measures time, a lesson asks you to **predict** the result. Write your
# guess down, then run the cell. The timings on your machine will differ a little from the
# ones shown, but the shape of the result (which one is faster, by about how much) will not.

# %% [markdown]
# ### Exercises, hints and checks
#
# An exercise has a difficulty from ★ (a few minutes) to ★★★ (some thinking), a task, and a
# hint folded away like this one:
#
# <details><summary>Hint</summary>
#
# Click the little triangle to unfold a hint. Try without it first.
#
# </details>
#
# Below the task is an answer cell, usually a function with its signature and docstring written
# for you, and a body that says `# YOUR CODE HERE`. Below that is a **check cell**. A check
# calls your function on inputs you have not seen, so it tests what your code does, not one
# memorised value. Here is a check from exercise 01 run on a right answer:

# %%
def make_dataset(images, labels):
    return Dataset.from_tensor_slices({"image": images, "label": labels})


fl.checks.ex01.check_make_dataset(make_dataset)

# %% [markdown]
# and on a wrong one. A failing check raises an `AssertionError` that says what it expected
# and what it got (we catch it here only so that this notebook keeps running):

# %%
def make_dataset(images, labels):
    return Dataset.from_tensor_slices((images, labels))  # a tuple, not a dict


try:
    fl.checks.ex01.check_make_dataset(make_dataset)
except AssertionError as error:
    print("AssertionError:", error)

# %% [markdown]
# Do not edit a check cell: when an instructor grades a notebook, every check cell is put back
# as it was, and only your answer cells count.

# %% [markdown]
# ## Why accelerators starve
#
# Training repeats two things: **prepare** a batch (read it, decode it, augment it, stack it;
# this runs on the CPU) and **step** (run the model on it; this runs on the accelerator). If
# you write them one after the other in a Python loop, each waits for the other:
#
# ```
# CPU:  [prepare 0]          [prepare 1]          [prepare 2]
# GPU:             [step 0]             [step 1]             [step 2]
# ```
#
# With 10 ms to prepare and 10 ms to step, the accelerator works 10 ms out of every 20: it is
# idle **half** of the time, and buying a faster accelerator would not help at all.
#
# To see it measured, we stand in for both kinds of work with `time.sleep`. A sleeping thread
# leaves the CPU free, exactly like a Python program that has handed a batch to a GPU and is
# waiting for it. The helpers below also note when each piece of work starts and ends, so we
# can draw it.

# %%
PREPARE_S = 0.010  # preparing one batch: 10 ms of CPU work
STEP_S = 0.010     # one training step: 10 ms on the accelerator
STEPS = 20         # batches in one epoch
EPOCHS = 2

events = []  # (kind, start, end) in seconds, for the pictures


def prepare(i):
    """Make batch i (here: wait 10 ms, then return an array)."""
    start = time.perf_counter()
    time.sleep(PREPARE_S)
    events.append(("prepare", start, time.perf_counter()))
    return np.full((32, 8), i, dtype=np.float32)


def train_step(batch):
    """Run the model on one batch (here: wait 10 ms)."""
    start = time.perf_counter()
    time.sleep(STEP_S)
    events.append(("step", start, time.perf_counter()))


def run(strategy):
    """Run `strategy()`; return its wall time and the events it recorded, relative to start."""
    events.clear()
    start = time.perf_counter()
    strategy()
    total = time.perf_counter() - start
    return total, [(kind, a - start, b - start) for kind, a, b in events]


# %% [markdown]
# ### Three ways to feed a loop
#
# 1. **From Python, each step.** Prepare a batch, step on it, repeat.
# 2. **Through an input pipeline.** Describe the batches as a `Dataset` and add `prefetch(1)`
#    at the end: a background thread prepares the next batch while the current step runs.
#    Lesson 08 shows how this works.
# 3. **Preloaded.** Prepare every batch once, keep them all in memory, then train from the
#    list. Only possible when the data fits in memory and does not change between epochs (no
#    random augmentation).

# %%
def from_python():
    for epoch in range(EPOCHS):
        for i in range(STEPS):
            train_step(prepare(i))


def input_pipeline():
    batches = Dataset.range(STEPS).map(prepare).prefetch(1)
    for epoch in range(EPOCHS):
        for batch in batches:
            train_step(batch)


def preloaded():
    batches = [prepare(i) for i in range(STEPS)]
    for epoch in range(EPOCHS):
        for batch in batches:
            train_step(batch)


# %% [markdown]
# **Predict, then run.** 2 epochs of 20 batches, 10 ms to prepare and 10 ms to step. How long
# does each strategy take? Work it out before you run the next cell.
#
# <details><summary>Our prediction</summary>
#
# - From Python: every batch costs prepare + step = 20 ms; 40 batches → **800 ms**.
# - Input pipeline: preparing batch *i + 1* hides behind step *i*, so each batch costs about
#   10 ms, plus one un-hidden prepare at the start of each epoch: 40 × 10 + 2 × 10 →
#   **about 420 ms**.
# - Preloaded: 20 prepares once (200 ms), then 40 steps (400 ms) → **600 ms**. It wins only
#   when there are many epochs.
#
# </details>

# %% tags=["nbval-ignore-output"]
strategies = {"from Python": from_python, "input pipeline": input_pipeline,
              "preloaded": preloaded}
results = {name: run(strategy) for name, strategy in strategies.items()}
busy = 2 * STEPS * STEP_S
for name, (total, _) in results.items():
    print(f"{name:15s} {total * 1000:5.0f} ms   accelerator busy {busy / total:4.0%}")

# %% [markdown]
# The picture makes the difference visible. Each strategy gets two lanes: orange bars are
# batches being prepared on the CPU, blue bars are training steps on the accelerator. Look for
# white gaps in the blue lane: that is the accelerator waiting for data.

# %% tags=["nbval-ignore-output"]
fig, axes = plt.subplots(len(results), 1, figsize=(10, 4.5), sharex=True)
for ax, (name, (total, recorded)) in zip(axes, results.items()):
    for kind, start, end in recorded:
        lane, color = (1, "C1") if kind == "prepare" else (0, "C0")
        ax.broken_barh([(start * 1000, (end - start) * 1000)], (lane - 0.35, 0.7),
                       facecolor=color, edgecolor="white", linewidth=0.8)
    ax.set_yticks([0, 1], ["step", "prepare"])
    ax.set_title(f"{name}: {total * 1000:.0f} ms", loc="left", fontsize=10)
axes[-1].set_xlabel("time (ms)")
fig.tight_layout()
plt.show()

# %% [markdown]
# What the picture says:
#
# - **From Python**, the two lanes never overlap: the accelerator waits during every prepare.
# - **Through a pipeline**, prepare and step overlap almost perfectly, and the blue lane is
#   nearly solid. The only gap is at the start of each epoch, while the first batch is made.
# - **Preloaded**, all preparation happens first, then the accelerator runs without gaps.
#   That wins when many epochs share one costly preparation, but it needs memory for the whole
#   dataset and gives the same batches every epoch.
#
# An input pipeline gives the solid blue lane without holding the whole dataset in memory, and
# the rest of the workbook is about making the orange lane keep up even when preparing is
# slower than stepping: reading in parallel, mapping in parallel, caching, batching first.

# %% [markdown]
# ## Summary
#
# - Lessons are in `notebooks/`, exercises in `exercises/`, worked answers in `solutions/`.
#   Check cells test your function on new inputs and print one `passed` line or raise an
#   `AssertionError` that explains what is wrong.
# - When preparing data and training take turns, the accelerator idles for the whole
#   preparation time: with equal costs, half the time.
# - An input pipeline with `prefetch` overlaps the two; preloading removes preparation from
#   the loop but costs memory and fresh randomness.
#
# **Next:** [lesson 01, dataset basics](01_dataset_basics.ipynb), then its
# [exercises](../exercises/01_dataset_basics_exercises.ipynb).
