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
# # 14 Naive vs optimized
#
# Each lesson so far fixed one kind of waiting. This one puts the fixes together on one job:
# the same files, the same decoding, the same random augmentation and the same training
# step, written twice. First the obvious way, then with every technique in its place.
#
# **What you will learn**
#
# - how the techniques fit together, and why they go in this order: parallel `interleave`,
#   `batch` before a vectorised `map`, parallel `map`, `cache`, a second `map` after the
#   cache, `prefetch` last;
# - how to predict the speed-up from the costs of the parts, before measuring it;
# - how to put two timelines on one time scale, and export them as a slide;
# - then your turn, on a pipeline with other costs.

# %%
import math
import os
import pathlib

import matplotlib.pyplot as plt

import feedline as fl
from feedline.data import AUTOTUNE, Dataset
from feedline.perf import ArtificialDataset, ExpensiveMap, benchmark

print("feedline", fl.__version__)
WORKDIR = pathlib.Path("../workdir" if pathlib.Path("../pyproject.toml").exists() else "workdir")
os.makedirs(WORKDIR, exist_ok=True)

# %% [markdown]
# ## The job
#
# The data is 4 files of 8 records. The stand-ins of lesson 07 play every part, so we know
# each cost exactly:
#
# | part | stand-in | cost |
# |---|---|---|
# | open a file | `ArtificialDataset(open_cost=...)` | 40 ms, once per file and epoch |
# | read a record | `ArtificialDataset(read_cost=...)` | 5 ms per record |
# | decode | `ExpensiveMap(0.006)` | 6 ms per call |
# | augment (random, so different each epoch) | `ExpensiveMap(0.004)` | 4 ms per call |
# | training step | `benchmark(train_step=0.015)` | 15 ms per batch of 8 |
#
# The decode and the augment cost the same per **call**, whether the call gets one record or
# a batch of 8. That is what a vectorised function is like: most of the cost of a small NumPy
# call is the call itself (Python, checking the arguments), and a whole batch in one array
# costs little more than one record. Two epochs.

# %%
FILES, RECORDS, BATCH, EPOCHS = 4, 8, 8, 2
OPEN, READ, DECODE, AUGMENT, STEP = 0.040, 0.005, 0.006, 0.004, 0.015


def open_file(file_id):
    """One of the slow files: 8 records, 40 ms to open, 5 ms per record."""
    return ArtificialDataset(RECORDS, open_cost=OPEN, read_cost=READ)


decode, augment = ExpensiveMap(DECODE), ExpensiveMap(AUGMENT)
file_ids = Dataset.range(FILES)

# %% [markdown]
# ## Measuring the pipeline as written
#
# TensorFlow 2.21 adds a `prefetch(AUTOTUNE)` at the end of a pipeline by default (the
# `inject_prefetch` rewrite; `ds.explain()` shows it, and [lesson 15](15_optimizations.ipynb)
# shows every rewrite and what it buys), and so does feedline; it also fuses a `map` with the
# `batch` after it into one stage. The naive baseline must run exactly as written, with no
# prefetch and its two maps as two stages, so this lesson switches the default rewrites off for
# it with the options below.

# %%
AS_WRITTEN = fl.data.Options()
AS_WRITTEN.experimental_optimization.apply_default_optimizations = False
example = Dataset.range(8).map(abs).batch(4)
print(example.explain(), end="\n\n")  # by default
print(example.with_options(AS_WRITTEN).explain())

# %% [markdown]
# ## The naive pipeline
#
# Read the files one after the other, decode and augment each record on its own, batch at
# the end. It is correct, and it is what most people write first:

# %%
def naive_pipeline():
    return (file_ids
            .flat_map(open_file)   # one file after another
            .map(decode)           # one record per call
            .map(augment)
            .batch(BATCH)
            .with_options(AS_WRITTEN))  # as written: nothing added, nothing fused

# %% [markdown]
# Nothing overlaps, so the total is the sum of every cost. Per epoch: 4 opens (160 ms),
# 32 reads (160 ms), 32 decodes (192 ms), 32 augments (128 ms) and 4 steps (60 ms), which
# makes 700 ms, so **1.40 s** for 2 epochs.

# %%
records = FILES * RECORDS
batches = math.ceil(records / BATCH)
predicted_naive = EPOCHS * (FILES * OPEN + records * (READ + DECODE + AUGMENT) + batches * STEP)
print(f"naive, predicted: {predicted_naive:.3f} s")

# %% [markdown]
# ## The optimised pipeline
#
# The same parts, with every technique in its place. Read the comments from top to bottom:
# each line answers one kind of waiting from the earlier lessons.

# %%
def optimised_pipeline():
    return (file_ids
            # all 4 files opened and read side by side, each by its own thread
            .interleave(open_file, cycle_length=FILES, num_parallel_calls=FILES)
            # batch first, so the vectorised decode runs once per 8 records
            .batch(BATCH)
            # decode batches on worker threads, several at a time
            .map(decode, num_parallel_calls=AUTOTUNE)
            # keep the decoded batches: epoch 2 skips opening, reading and decoding
            .cache()
            # the random augment after the cache, so it differs every epoch
            .map(augment, num_parallel_calls=AUTOTUNE)
            # make the next batches while the loop trains on this one
            .prefetch(AUTOTUNE))


# %% [markdown]
# Why this order, and not another:
#
# - **`interleave` first** because it makes the records; everything else works on them.
# - **`batch` before the maps**, so that each call handles 8 records: 4 decode calls per epoch
#   instead of 32.
# - **`cache` after the decode and before the augment.** Above the cache is work done once,
#   below it work done every epoch. The decode gives the same result every time, so it goes
#   above. The augment must change every epoch: cached, it would replay epoch 1's
#   augmentation forever.
# - **`prefetch` last**: it runs ahead only the work above it.
#
# Both pipelines give the same records, each once per epoch, in batches of 8. Only the order
# changes, because `interleave` takes records from the 4 files in turn. (The pipelines are
# built by functions because a cache remembers: once this check has filled the cache, the
# same dataset object would skip the reading and decoding, and the measurement below would
# flatter it. Every run gets a fresh pipeline.)

# %%
def records_of(dataset):
    return sorted(int(x) for batch in dataset for x in batch)


print("same records:", records_of(naive_pipeline()) == records_of(optimised_pipeline()))
print("first batch, naive:    ", next(iter(naive_pipeline())).tolist())
print("first batch, optimised:", next(iter(optimised_pipeline())).tolist())

# %% [markdown]
# ## Predict the speed-up from the parts
#
# Before measuring, work out the optimised time from the costs. Follow the first batch, then
# the others.
#
# **Epoch 1.** The 4 files open at the same time (40 ms), and each gives 2 records of the
# first batch (2 × 5 ms), so the batch exists at 50 ms; decoding (6 ms) and augmenting (4 ms)
# bring it to the loop at 60 ms. From then on, the 4 readers make a new batch every 10 ms,
# faster than the loop's 15 ms step, and decode and augment work on worker threads while
# the loop trains. So the loop never waits again: 60 + 4 × 15 = **120 ms**.
#
# **Epoch 2.** The cache gives the decoded batches at once. Only the first augment (4 ms)
# stands between the loop and its first batch: 4 + 4 × 15 = **64 ms**.
#
# The same reasoning as a function, so we can use it again on other costs:

# %%
def optimised_schedule(files, records_per_file, batch, open_s, read_s, decode_s, augment_s,
                       step_s, epochs):
    """Seconds for the optimised pipeline: the loop waits only for each epoch's first batch.

    Assumes the decode and augment keep up (they run on several threads), so the pace is
    set by the slower of the step and the reading of one batch."""
    per_file = math.ceil(batch / files)             # records each file gives to one batch
    steps = math.ceil(files * records_per_file / batch)
    first = open_s + per_file * read_s + decode_s + augment_s
    pace = max(step_s, per_file * read_s)
    epoch_one = first + (steps - 1) * pace + step_s
    cached_epoch = augment_s + steps * step_s
    return epoch_one + (epochs - 1) * cached_epoch


predicted_optimised = optimised_schedule(FILES, RECORDS, BATCH, OPEN, READ, DECODE, AUGMENT,
                                         STEP, EPOCHS)
print(f"optimised, predicted: {predicted_optimised * 1000:.0f} ms")
print(f"predicted speed-up: {predicted_naive / predicted_optimised:.1f}x")

# %% [markdown]
# A second prediction needs no reasoning of ours: `fl.perf.simulate` plays both pipelines on
# a virtual clock, with the rules of each stage (reader threads, worker threads, the cache's
# first pass, the prefetch buffer) and the declared costs. It also counts the small costs of
# sleeping and waking threads, so it lands a little above our function.

# %%
simulated = {"naive": fl.perf.simulate(naive_pipeline(), num_epochs=EPOCHS, train_step=STEP),
             "optimised": fl.perf.simulate(optimised_pipeline(), num_epochs=EPOCHS,
                                           train_step=STEP)}
for name, formula in (("naive", predicted_naive), ("optimised", predicted_optimised)):
    print(f"{name:10s} formula {formula * 1000:5.0f} ms, "
          f"simulated {simulated[name].total * 1000:5.0f} ms")
print(f"simulated speed-up: {simulated['naive'].total / simulated['optimised'].total:.1f}x")

# %% [markdown]
# ### Predict, then run
#
# The prediction says about **7.6 times** faster. The training step alone needs
# 8 × 15 = 120 ms, so the optimised pipeline cannot beat 120 ms; it loses only the 64 ms of
# the two first batches. Will the measurement agree? Guess how far off it will be, then run
# the cell.

# %% tags=["nbval-ignore-output"]
results = {
    "naive": benchmark(naive_pipeline(), num_epochs=EPOCHS, train_step=STEP),
    "optimised": benchmark(optimised_pipeline(), num_epochs=EPOCHS, train_step=STEP),
}
predicted = {"naive": predicted_naive, "optimised": predicted_optimised}
print(f"{'':10s}{'formula':>10s}{'simulated':>12s}{'measured':>11s}")
for name, result in results.items():
    print(f"{name:10s}{predicted[name] * 1000:7.0f} ms{simulated[name].total * 1000:9.0f} ms"
          f"{result.total * 1000:8.0f} ms ({result.total / predicted[name]:.0%} of the formula)")
speedup = results["naive"].total / results["optimised"].total
print(f"speed-up: predicted {predicted_naive / predicted_optimised:.1f}x, simulated "
      f"{simulated['naive'].total / simulated['optimised'].total:.1f}x, "
      f"measured {speedup:.1f}x")

# %% [markdown]
# Both measurements land above the formula: a few percent for the naive run, which pays the
# usual lateness of its 200 sleeps, and up to about 15 % for the optimised one, which also
# pays for starting its threads and handing batches between them (more on a busy machine).
# The simulation lands close to both measurements. It counts the lateness of the sleeps, and
# it follows one rule of the parallel `interleave` that our function left out: when the
# loop's side needs a file no reader thread has started on, it reads a whole block of that
# file itself (here all 8 records) before handing over the first one, so the first batch of
# epoch 1 comes about 17 ms later than we assumed (its first step starts near 77 ms, not
# 60). The speed-up comes out between about 7x and 8x. The shorter the run, the more these
# fixed costs weigh. Still, the predictions were close,
# and they came before the run.

# %% [markdown]
# ## Two timelines, one time scale
#
# Drawn on the same time axis, the difference needs no numbers. On top, one bar at a time,
# row after row. At the bottom, the whole run fits under the first fifth of the naive one.

# %% tags=["nbval-ignore-output"]
STAGES = ["open", "read", "map", "map#2", "train_step"]


def draw_pair(results, size, figsize=(12, 8)):
    fig, axes = plt.subplots(2, 1, figsize=figsize)
    longest = max(result.total for result in results.values())
    for ax, (name, result) in zip(axes, results.items()):
        result.timeline.plot(ax=ax, title=f"{name}: {result.total:.2f} s", legend=False,
                             stages=STAGES, size=size, time_axis=longest)
    fig.tight_layout()
    return fig


draw_pair(results, size="notebook")
plt.show()

# %% [markdown]
# How to read them:
#
# - **`open`**: in the naive run, four separate bars per epoch; in the optimised one, four
#   bars stacked in lanes, one per reader thread, all at the same time, and none at all in
#   the second epoch (the cache replays).
# - **`map` and `map#2`** are the two maps, numbered from the source down: `map` is the
#   decode (in the optimised run it works in epoch 1 only) and `map#2` the augment (it works
#   in both epochs). The naive run has 64 tiny calls of each; the optimised one 4 decodes
#   and 8 augments, and they run on worker threads.
# - **`train_step`**: in the naive run, short bars with long gaps. In the optimised one,
#   after the first batch of each epoch, bar follows bar: the loop is the bottleneck, as it
#   should be.
#
# The summary says the same in numbers:

# %% tags=["nbval-ignore-output"]
print(results["optimised"].timeline.summary())

# %% [markdown]
# The optimised run is short, so here it is alone, zoomed in, under its simulation on the
# same time axis. Look for the gap before the first step of each epoch: that is all the
# waiting left, in the simulation and in the measurement.

# %% tags=["nbval-ignore-output"]
simulated["optimised"].plot_beside(results["optimised"], title="optimised, zoomed in")
plt.show()

# %% [markdown]
# ## A slide
#
# The same two panels in the slide style, saved as SVG and PNG with `save_slide` (in
# `workdir/`). The same figure always gives the same bytes, so a slide in version control
# changes only when the picture does.

# %% tags=["nbval-ignore-output"]
with fl.perf.slide_style():  # the slide's type sizes for the whole figure, ticks included
    fig = draw_pair(results, size="slide", figsize=(13.33, 7.5))
    fig.suptitle(f"Same work, {speedup:.1f}x faster (predicted "
                 f"{predicted_naive / predicted_optimised:.1f}x)")
    fig.tight_layout()
    svg, png = fl.perf.save_slide(fig, WORKDIR / "14_naive_vs_optimized")
print("saved", svg.name, "and", png.name)
plt.close(fig)

# %% [markdown]
# ## Your turn
#
# A new job with other costs: 6 files of 6 records, slow to open (60 ms) and quick to read
# (2 ms per record); a cheap decode (3 ms per call) and an expensive random augment (12 ms
# per call); a training step of 10 ms per batch of 6. The cell below holds the naive
# pipeline.
#
# 1. Predict the naive total for 2 epochs, and the optimised total with
#    `optimised_schedule`. Which costs does the optimised pipeline hide, and which one is
#    left? (Careful: the augment costs more than the step. Does our function still hold when
#    the augment runs on only 2 threads?)
# 2. Replace the naive pipeline with your optimised one, run the cell, and compare.
#
# <details><summary>Our answer</summary>
#
# Naive: per epoch 6 × 60 + 36 × (2 + 3 + 12) + 6 × 10 = 1032 ms, so 2.06 s. The optimised
# pipeline is this lesson's pipeline with `cycle_length=6, num_parallel_calls=6`. The augment
# costs 12 ms per batch against a 10 ms step, but with at least 2 threads it handles a batch
# every 6 ms, so the step still sets the pace. `optimised_schedule` gives about 210 ms: a
# speed-up near 10.
#
# </details>

# %% tags=["nbval-ignore-output"]
TURN = dict(files=6, records_per_file=6, batch=6, open_s=0.060, read_s=0.002,
            decode_s=0.003, augment_s=0.012, step_s=0.010, epochs=2)


def turn_file(file_id):
    return ArtificialDataset(TURN["records_per_file"], open_cost=TURN["open_s"],
                             read_cost=TURN["read_s"])


turn_decode, turn_augment = ExpensiveMap(TURN["decode_s"]), ExpensiveMap(TURN["augment_s"])

# Replace this naive pipeline with your optimised one.
mine = (Dataset.range(TURN["files"])
        .flat_map(turn_file)
        .map(turn_decode)
        .map(turn_augment)
        .batch(TURN["batch"])
        .with_options(AS_WRITTEN))  # as written, like naive_pipeline: nothing added or fused

mine_simulated = fl.perf.simulate(mine, num_epochs=TURN["epochs"], train_step=TURN["step_s"])
measured = benchmark(mine, num_epochs=TURN["epochs"], train_step=TURN["step_s"], traced=False)
print(f"yours: simulated {mine_simulated.total * 1000:.0f} ms, measured "
      f"{measured.total * 1000:.0f} ms; optimised_schedule predicts "
      f"{optimised_schedule(**TURN) * 1000:.0f} ms for the optimised pipeline")

# %% [markdown]
# ## Summary
#
# - The naive pipeline pays every cost one after another: its time is the sum of the parts.
# - The optimised one, in this order: `interleave(num_parallel_calls=...)` to read files side
#   by side, `batch` before a vectorised `map` to pay each call once per batch, parallel
#   `map`s, `cache` after the deterministic work and before the random work, `prefetch` last.
#   Its time is the training steps plus the wait for each epoch's first batch.
# - Work out both totals from the costs first: the measurements landed a few percent (naive)
#   to about 15 % (optimised) above them, and the speed-up, 7.6x predicted, near it.
#   `fl.perf.simulate` predicts both without a formula, and draws the schedule it predicts.
# - Timelines on one time scale (`time_axis=`) show the difference at a glance; `save_slide`
#   exports them.
#
# **Now practise:** [exercises 14](../exercises/14_naive_vs_optimized_exercises.ipynb): put
# the techniques in order, predict the speed-up of batching first, optimise a naive pipeline
# yourself, and name what keeps an "optimised" pipeline slow from its timeline.
