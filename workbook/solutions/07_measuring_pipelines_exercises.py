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
# # Exercises 07: measuring pipelines
#
# Four exercises on [lesson 07](../notebooks/07_measuring_pipelines.ipynb): reading how long
# the training loop waited from a timeline, predicting the total of a sequential pipeline,
# finding the stage to make faster, and a formula for a pipeline with a prefetch.
#
# Write your code where it says `# YOUR CODE HERE` (and delete the `raise
# NotImplementedError()` line), run the cell, then run the check below it. The checks that
# read timelines give your function timelines of pipelines you have not seen, with costs drawn
# at random, built the way `fl.perf.trace` records them. The others compare your formula with
# a schedule worked out element by element. No check measures time on your machine, so they
# give the same answer on a slow or a busy laptop.

# %%
import math

import matplotlib.pyplot as plt

import feedline
import feedline.checks
from feedline.perf import ArtificialDataset, ExpensiveMap, benchmark

# Like the lessons, each pipeline runs exactly as written: by default feedline (as TensorFlow
# 2.21) adds a prefetch at the end of a pipeline, which would overlap the stages.
AS_WRITTEN = feedline.data.Options()
AS_WRITTEN.experimental_optimization.inject_prefetch = False

print("feedline", feedline.__version__)

# %% [markdown]
# A traced run to practise on: 2 epochs of 6 samples, opening the file costs 20 ms, reading a
# sample 4 ms, the map 6 ms, and the training step 5 ms.

# %% tags=["nbval-ignore-output"]
practice = benchmark(ArtificialDataset(6, open_cost=0.020, read_cost=0.004)
                     .map(ExpensiveMap(0.006)).with_options(AS_WRITTEN), num_epochs=2,
                     train_step=0.005)
timeline = practice.timeline
print(timeline)
print(timeline.summary())
timeline.plot(title="Practice: 2 epochs of 6 samples", size="notebook")
plt.show()

# %% [markdown]
# A `Timeline` keeps its spans in `timeline.spans`. Each is a named tuple with the fields
# `stage`, `worker` (the thread), `start` and `end` (seconds from the start of the trace),
# `epoch`, `index` and `kind`. `timeline.of("read")` gives the spans of one stage, and
# `timeline.duration` the wall time from the first start to the last end.

# %% tags=["nbval-ignore-output"]
for span in timeline.spans[:5]:
    print(f"{span.stage:11s} {span.start * 1000:6.1f} to {span.end * 1000:6.1f} ms  "
          f"epoch {span.epoch}  {span.kind}")

# %% [markdown]
# ## Exercise 1 ★ How long did the loop wait?
#
# The training loop is always doing one of two things: training (a `train_step` span) or
# waiting for the pipeline to give it the next element. Write `consumer_wait(timeline)` that
# returns the seconds the loop spent **waiting** in the whole timeline.
#
# <details><summary>Hint</summary>
#
# Do not add up the spans of the input stages: they nest (a `map` span contains the `read`
# span of the same element, which contains the `open`), so you would count the same time
# twice or three times. Start from the wall time instead.
#
# </details>

# %%
def consumer_wait(timeline):
    """Seconds of the timeline during which the training loop waited for data."""
    ### BEGIN SOLUTION
    training = sum(span.end - span.start for span in timeline.of("train_step"))
    return timeline.duration - training
    ### END SOLUTION


# %% tags=["nbval-ignore-output"]
waited = consumer_wait(timeline)
print(f"the loop waited {waited * 1000:.0f} ms of {timeline.duration * 1000:.0f} ms "
      f"({waited / timeline.duration:.0%})")

# %% tags=["check", "ex-07-1"]
"""Check exercise 1: the waiting time read from new timelines."""
feedline.checks.ex07.check_consumer_wait(consumer_wait)

# %% [markdown]
# ## Exercise 2 ★★ Predict a sequential total
#
# A pipeline reads `n` samples from one file, maps each one, and groups them in batches:
#
# ```python
# (ArtificialDataset(n, open_cost=open_s, read_cost=read_s)
#  .map(ExpensiveMap(map_s))
#  .batch(batch_size))
# ```
#
# The training loop runs one step of `step_s` seconds per **batch**, for `epochs` epochs.
# Nothing overlaps. Write `sequential_total(n, epochs, open_s, read_s, map_s, step_s,
# batch_size)` that returns the total time in seconds. It must be right for every `n`, also
# when `n` is not a multiple of `batch_size`.
#
# <details><summary>Hint</summary>
#
# Count what happens in one epoch: one opening, `n` reads and `n` maps, and one step per
# batch. `batch` keeps a last, shorter batch, and the loop trains on it too: with 10 samples
# in batches of 4 there are 3 steps.
#
# </details>

# %%
def sequential_total(n, epochs, open_s, read_s, map_s, step_s, batch_size):
    """Seconds for `epochs` epochs of the sequential pipeline above."""
    ### BEGIN SOLUTION
    batches = math.ceil(n / batch_size)
    return epochs * (open_s + n * (read_s + map_s) + batches * step_s)
    ### END SOLUTION


# %% [markdown]
# Your prediction beside a measurement (expect the measurement a few percent higher: sleeps
# wake up late, and moving elements costs a little):

# %% tags=["nbval-ignore-output"]
costs = dict(n=10, epochs=2, open_s=0.020, read_s=0.004, map_s=0.006, step_s=0.012,
             batch_size=4)
measured = benchmark(ArtificialDataset(10, open_cost=0.020, read_cost=0.004)
                     .map(ExpensiveMap(0.006)).batch(4).with_options(AS_WRITTEN),
                     num_epochs=2, train_step=0.012, traced=False).total
predicted = sequential_total(**costs)
print(f"predicted {predicted * 1000:.0f} ms, measured {measured * 1000:.0f} ms "
      f"({measured / predicted:.0%})")

# %% tags=["check", "ex-07-2"]
"""Check exercise 2: the predicted totals match the schedule."""
feedline.checks.ex07.check_sequential_total(sequential_total)

# %% [markdown]
# ## Exercise 3 ★★ Which stage to make faster?
#
# Write `slowest_stage(timeline)` that returns the name of the stage of the **input
# pipeline** that does the most work in the whole timeline: the one to speed up first. The
# training step is not part of the input pipeline, so never answer `"train_step"`, even when
# the loop itself is the slowest part. `"open"` counts as a stage of its own.
#
# <details><summary>Hint</summary>
#
# The longest spans are not the answer: a stage's span includes the time it waited for the
# stages before it, so in a sequential pipeline the last stage always has the longest spans.
# `timeline.summary().stages` has one row per stage with its `busy` time, its own work only.
# `summary().bottleneck` is close, but it may name the training step.
#
# </details>

# %%
def slowest_stage(timeline):
    """The name of the input-pipeline stage with the most busy time."""
    ### BEGIN SOLUTION
    rows = [row for row in timeline.summary().stages if row.stage != "train_step"]
    return max(rows, key=lambda row: row.busy).stage
    ### END SOLUTION


# %% tags=["nbval-ignore-output"]
print("slowest input stage of the practice run:", slowest_stage(timeline))

# %% tags=["check", "ex-07-3"]
"""Check exercise 3: the slowest input stage of new timelines."""
feedline.checks.ex07.check_slowest_stage(slowest_stage)

# %% [markdown]
# ## Exercise 4 ★★★ A formula for a prefetched pipeline
#
# Now the pipeline ends with a prefetch of one element, and the loop trains on every element:
#
# ```python
# (ArtificialDataset(n, open_cost=open_s, read_cost=read_s)
#  .map(ExpensiveMap(map_s))
#  .prefetch(1))
# ```
#
# A background thread opens the file, reads and maps, at most one finished element ahead of
# the loop; the loop runs a step of `step_s` seconds per element. Each epoch makes a new
# iterator, so the background thread starts again from the opening of the file. Write
# `prefetched_total(n, epochs, open_s, read_s, map_s, step_s)` that returns the exact total
# for `epochs` epochs, whichever side is slower.
#
# <details><summary>Hint</summary>
#
# Draw one epoch for `n = 3`, once with a slow producer and once with a slow loop. The loop
# cannot start before the first element exists (the opening, then one read and one map).
# After that, each element costs whichever side is slower, and the last step runs after the
# last element arrives. Lesson 08 draws this picture.
#
# </details>

# %%
def prefetched_total(n, epochs, open_s, read_s, map_s, step_s):
    """Seconds for `epochs` epochs of the prefetched pipeline above."""
    ### BEGIN SOLUTION
    produce = read_s + map_s
    first = open_s + produce
    return epochs * (first + (n - 1) * max(produce, step_s) + step_s)
    ### END SOLUTION


# %% tags=["nbval-ignore-output"]
for step_s in (0.004, 0.015):  # first the producer is slower, then the loop
    measured = benchmark(ArtificialDataset(10, open_cost=0.020, read_cost=0.003)
                         .map(ExpensiveMap(0.005)).prefetch(1).with_options(AS_WRITTEN),
                         num_epochs=2, train_step=step_s, traced=False).total
    predicted = prefetched_total(10, 2, 0.020, 0.003, 0.005, step_s)
    print(f"step {step_s * 1000:.0f} ms: predicted {predicted * 1000:.0f} ms, "
          f"measured {measured * 1000:.0f} ms ({measured / predicted:.0%})")

# %% tags=["check", "ex-07-4"]
"""Check exercise 4: the prefetched totals match the schedule."""
feedline.checks.ex07.check_prefetched_total(prefetched_total)

# %% [markdown]
# ## Going further
#
# Trace the prefetched pipeline of exercise 4 with `benchmark(...)` and plot its timeline.
# Where does your formula's first term (the opening plus one element) show up in the picture?
# Then use `consumer_wait` on it: how much of the waiting did the prefetch remove?
