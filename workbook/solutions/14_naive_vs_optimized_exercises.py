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
# # Exercises 14: naive vs optimized
#
# Four exercises on [lesson 14](../notebooks/14_naive_vs_optimized.ipynb): putting the
# techniques in order, predicting the speed-up of one change, optimising a naive pipeline
# yourself, and reading timelines to find what keeps an "optimised" pipeline slow.
#
# Write your code where it says `# YOUR CODE HERE` (and delete the `raise
# NotImplementedError()` line), run the cell, then run the check below it. The check of
# exercise 3 runs your pipeline for 2 epochs against a stand-in training loop (well under a
# second when the pipeline is fast). It looks at *what happened* first (which records came
# out, how often decode ran, which threads worked), and only then compares the time with the
# ideal time of the same costs, loosely (at most 1.5 times), so a busy laptop still passes.

# %%
import math
import time

import matplotlib.pyplot as plt
import numpy as np

import feedline
import feedline.checks
from feedline.checks.ex14 import FLAWS, traced_flaw, work_spans
from feedline.data import AUTOTUNE, Dataset
from feedline.perf import ArtificialDataset, ExpensiveMap, benchmark

# As in lesson 14, the naive pipelines run exactly as written: by default feedline (as
# TensorFlow 2.21) fuses map and batch and adds a prefetch at the end, which would overlap the
# stages these exercises time one after another.
AS_WRITTEN = feedline.data.Options()
AS_WRITTEN.experimental_optimization.apply_default_optimizations = False

print("feedline", feedline.__version__)

# %% [markdown]
# ## Exercise 1 ★ The order of the techniques
#
# Lesson 14 used six steps, named here `"interleave"`, `"batch"`, `"decode"` (a vectorised
# map), `"cache"`, `"augment"` (a random map) and `"prefetch"`. Write `in_order(steps)`: given
# some of these names in any order, return a list of the same names in the order in which
# they appear in a pipeline that works and is fast.
#
# <details><summary>Hint</summary>
#
# Ask of each pair: what must the later step receive? Batching needs elements, so it comes
# after the reading; the decode is vectorised, so it wants batches; the cache should keep
# decoded batches but not the random augment; the prefetch runs ahead only the work above it.
# Then sort by the position in one list.
#
# </details>

# %%
def in_order(steps):
    """The given technique names, in the order that works."""
    ### BEGIN SOLUTION
    order = ["interleave", "batch", "decode", "cache", "augment", "prefetch"]
    return sorted(steps, key=order.index)
    ### END SOLUTION


# %%
print(in_order(["prefetch", "cache", "batch", "augment"]))

# %% tags=["check", "ex-14-1"]
"""Check exercise 1: the techniques in the right order."""
feedline.checks.ex14.check_in_order(in_order)

# %% [markdown]
# ## Exercise 2 ★★ Predict the speed-up of batching first
#
# A pipeline reads `n` elements (`read_s` each), maps each one, then batches, and the loop
# trains once per batch (`step_s`). Nothing overlaps. The map is vectorised: one call costs
# `call_s` (the fixed cost of calling it: Python, dispatch) plus `item_s` per element it
# handles, whether it gets one element or a batch of them.
#
# The change: move `batch(batch_size)` **before** the map, so the map gets whole batches.
# Write `predicted_speedup(n, read_s, call_s, item_s, step_s, batch_size)` that returns
# *time before / time after* for one epoch. `n` need not be a multiple of `batch_size`.
#
# <details><summary>Hint</summary>
#
# Before: every element pays a read, a call and an item. After: every element pays a read and
# an item, and every batch pays one call. Both pay one step per batch. With 10 elements in
# batches of 4 there are 3 batches, and the last one has 2 items.
#
# </details>

# %%
def predicted_speedup(n, read_s, call_s, item_s, step_s, batch_size):
    """Time of one epoch with the map per element, over its time with batch before map."""
    ### BEGIN SOLUTION
    batches = math.ceil(n / batch_size)
    before = n * (read_s + call_s + item_s) + batches * step_s
    after = n * (read_s + item_s) + batches * (call_s + step_s)
    return before / after
    ### END SOLUTION


# %% [markdown]
# Beside a measurement: a map whose call sleeps 2 ms plus 0.05 ms per element.

# %% tags=["nbval-ignore-output"]
def vectorised(batch):
    time.sleep(0.002 + 0.00005 * np.size(batch))
    return batch


source = ArtificialDataset(100, open_cost=0.0, read_cost=0.0005).with_options(AS_WRITTEN)
before = benchmark(source.map(vectorised).batch(32), num_epochs=1, train_step=0.01,
                   traced=False).total
after = benchmark(source.batch(32).map(vectorised), num_epochs=1, train_step=0.01,
                  traced=False).total
print(f"predicted speed-up {predicted_speedup(100, 0.0005, 0.002, 0.00005, 0.01, 32):.2f}, "
      f"measured {before / after:.2f} ({before * 1000:.0f} ms -> {after * 1000:.0f} ms)")

# %% tags=["check", "ex-14-2"]
"""Check exercise 2: the predicted speed-ups match the schedule."""
feedline.checks.ex14.check_predicted_speedup(predicted_speedup)

# %% [markdown]
# ## Exercise 3 ★★ Optimise it yourself
#
# Here is a naive pipeline over 4 files of 6 records. `open_file(i)` gives file `i` (opening
# costs 30 ms, each record 4.5 ms); `decode` takes 15 ms per call and `augment` 9 ms per call,
# and both work on one record or on a whole batch alike (they are vectorised); `augment` adds
# random noise, different each epoch.
#
# ```python
# file_ids.flat_map(open_file).map(decode).map(augment).batch(batch_size)
# ```
#
# Write `optimise(file_ids, open_file, decode, augment, batch_size)` that gives the same
# records (each epoch, every record once, decoded and freshly augmented, in batches of
# `batch_size`; the order may change), fast. The check trains for 2 epochs with a step of
# 12 ms per batch. It passes when the files are read side by side, `decode` runs once per
# batch over the whole run (epoch 2 must not read or decode again), and the time is at most
# 1.5 times the ideal: the loop waits only for the first batch of each epoch.
#
# <details><summary>Hint</summary>
#
# Lesson 14's optimised pipeline, with these functions: read the 4 files side by side
# (`interleave` with `cycle_length` and `num_parallel_calls`), batch, decode with
# `num_parallel_calls`, cache, augment with `num_parallel_calls`, and prefetch last.
#
# </details>

# %%
def optimise(file_ids, open_file, decode, augment, batch_size):
    """The naive pipeline's records, in batches, with every technique of lesson 14."""
    ### BEGIN SOLUTION
    return (file_ids
            .interleave(open_file, cycle_length=4, num_parallel_calls=4)
            .batch(batch_size)
            .map(decode, num_parallel_calls=AUTOTUNE)
            .cache()
            .map(augment, num_parallel_calls=AUTOTUNE)
            .prefetch(AUTOTUNE))
    ### END SOLUTION


# %% tags=["check", "ex-14-3"]
"""Check exercise 3: right records, every technique, near the ideal time."""
feedline.checks.ex14.check_optimised(optimise)

# %% [markdown]
# ## Exercise 4 ★★★ What keeps it slow?
#
# Each pipeline below looks optimised but has at most one flaw. `traced_flaw(flaw)` builds
# one (3 files of 4 records, batches of 4, 2 epochs) and returns its `Timeline`. The flaws,
# and the names to answer with:
#
# | name | the mistake |
# |---|---|
# | `"none"` | no flaw: lesson 14's order |
# | `"sequential_reads"` | `interleave` without `num_parallel_calls` |
# | `"map_before_batch"` | the decode maps single elements, then `batch` |
# | `"no_cache"` | no `cache()` at all |
# | `"cache_before_decode"` | `batch().cache().map(decode, ...)`: the cache is too early |
# | `"cache_after_augment"` | `...map(augment, ...).cache()`: the augmentation is frozen |
# | `"prefetch_before_map"` | `...prefetch(AUTOTUNE).map(augment)`: the prefetch is too early |
#
# Write `diagnose(timeline)` that returns the name. Use only the timeline: its `summary()`,
# its spans, and `work_spans(timeline, stage, epoch=None)`, given above, which returns the
# spans in which a stage did its own work (for a parallel stage, its workers' spans; for
# others, its `next` spans; for `train_step`, the steps). Epochs are numbered from 0. The
# map stages are named `"map"` and `"map#2"`, but which one is the decode depends on the
# pipeline, so do not rely on it.
#
# <details><summary>Hint</summary>
#
# Look at the "none" timeline first and write down what you see, then find the one symptom
# each flaw adds. Ask of every stage: how many workers does the summary give it, in which
# epochs does it work, how often compared with the training steps, and on which thread?
# Some flaws show more than one symptom, so think about the order of your tests.
#
# </details>

# %% tags=["nbval-ignore-output"]
healthy = traced_flaw("none")
print(healthy.summary())
for stage in healthy.stages:
    spans = work_spans(healthy, stage)
    print(f"{stage:11s} own work per epoch: {[sum(s.epoch == e for s in spans) for e in (0, 1)]}"
          f", threads: {sorted({s.worker for s in spans})}")


# %%
def diagnose(timeline):
    """The name of the one flaw of the traced pipeline, or "none"."""
    ### BEGIN SOLUTION
    workers = {row.stage: row.workers for row in timeline.summary().stages}
    maps = [stage for stage in timeline.stages if stage.startswith("map")]
    steps = len(work_spans(timeline, "train_step", epoch=0))
    if workers["read"] < 2:
        return "sequential_reads"
    if work_spans(timeline, "read", epoch=1):
        return "no_cache"
    if any(len(work_spans(timeline, stage, epoch=0)) > steps for stage in maps):
        return "map_before_batch"
    working = [stage for stage in maps if work_spans(timeline, stage, epoch=1)]
    if not working:
        return "cache_after_augment"
    if len(working) > 1:
        return "cache_before_decode"
    on_main = [span for stage in maps for span in work_spans(timeline, stage)
               if span.worker == "MainThread"]
    return "prefetch_before_map" if on_main else "none"
    ### END SOLUTION


# %% tags=["nbval-ignore-output"]
for flaw in FLAWS:
    print(f"{flaw:20s} -> {diagnose(traced_flaw(flaw))}")

# %% [markdown]
# Two of them side by side, on one time scale: the flaw is often visible at a glance.

# %% tags=["nbval-ignore-output"]
fig, axes = plt.subplots(2, 1, figsize=(11, 9))
pair = [healthy, traced_flaw("prefetch_before_map")]
longest = max(timeline.duration for timeline in pair)
for ax, name, timeline in zip(axes, ["none", "prefetch_before_map"], pair):
    timeline.plot(ax=ax, title=f"{name}: {timeline.duration * 1000:.0f} ms", legend=False,
                  time_axis=longest, size="notebook")
fig.tight_layout()
plt.show()

# %% tags=["check", "ex-14-4"]
"""Check exercise 4: the flaw of new traced pipelines named."""
feedline.checks.ex14.check_diagnose(diagnose)

# %% [markdown]
# ## Going further
#
# Give `traced_flaw` larger costs, for example `traced_flaw("no_cache", decode_s=0.02)`, and
# compare the wall times of all seven pipelines. Which flaw costs the most here, and would
# the ranking change if the files were slower to open?
