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
# # Exercises 08: prefetch
#
# Four exercises on [lesson 08](../notebooks/08_prefetch.ipynb): adding `prefetch`, putting it
# in the right place, predicting the time it saves, and simulating what the buffer does.
#
# Write your code where it says `# YOUR CODE HERE` (and delete the `raise
# NotImplementedError()` line), run the cell, then run the check below it. The first two
# checks run your pipeline against a small stand-in training loop for a fraction of a second;
# they look at *what happened* (which thread did the work, whether it overlapped the loop), not
# at how many milliseconds it took, so they give the same answer on a slow or a busy laptop.

# %%
import time

import numpy as np

import feedline
import feedline.checks
from feedline.data import AUTOTUNE, Dataset

# Like the lessons, the timing cells run each pipeline exactly as written: by default feedline
# (as TensorFlow 2.21) adds a prefetch at the end of a pipeline, which would overlap the stages
# that these exercises want to see take turns.
AS_WRITTEN = feedline.data.Options()
AS_WRITTEN.experimental_optimization.inject_prefetch = False

print("feedline", feedline.__version__)

# %% [markdown]
# ## Exercise 1 ★ Let the loop stop waiting
#
# `slow_source` makes each element in 5 ms, and the loop below spends 5 ms on each step. Write
# `with_prefetch(ds)` so that the elements of `ds` are made in the background while the loop
# works on the previous one. The elements and their order must not change.
#
# <details><summary>Hint</summary>
#
# One method call at the end of the pipeline. A buffer of one element is enough here.
#
# </details>

# %%
def with_prefetch(ds):
    """`ds` with its elements produced ahead of the consumer, in a background thread."""
    ### BEGIN SOLUTION
    return ds.prefetch(1)
    ### END SOLUTION


# %% tags=["nbval-ignore-output"]
def slow(x):
    time.sleep(0.005)
    return x


slow_source = Dataset.range(20).map(slow).with_options(AS_WRITTEN)
for name, ds in [("without prefetch", slow_source), ("with prefetch", with_prefetch(slow_source))]:
    start = time.perf_counter()
    for x in ds:
        time.sleep(0.005)  # the training step
    print(f"{name}: {time.perf_counter() - start:.3f} s")

# %% tags=["check", "ex-08-1"]
"""Check exercise 1: same elements, produced in the background."""
feedline.checks.ex08.check_with_prefetch(with_prefetch)

# %% [markdown]
# ## Exercise 2 ★★ Where the prefetch goes
#
# Build the pipeline of a small training job: `raw` is a dataset of raw records, `decode` turns
# one record into an array, and the loop wants batches of `batch_size` decoded records (the last
# batch may be shorter). Write `make_pipeline(raw, decode, batch_size)` so that **all** of the
# pipeline's work, decoding and batching, happens in the background while the loop runs.
#
# <details><summary>Hint</summary>
#
# A prefetch moves into the background only the work that comes *before* it in the chain.
# Anything after it still runs in the loop's own thread.
#
# </details>

# %%
def make_pipeline(raw, decode, batch_size):
    """Decoded records in batches of batch_size, all produced in the background."""
    ### BEGIN SOLUTION
    return raw.map(decode).batch(batch_size).prefetch(1)
    ### END SOLUTION


# %%
demo = make_pipeline(Dataset.range(7), lambda x: np.full(2, x), 3)
print([batch.tolist() for batch in demo])

# %% tags=["check", "ex-08-2"]
"""Check exercise 2: decode and batch run in the background; prefetch comes last."""
feedline.checks.ex08.check_make_pipeline(make_pipeline)

# %% [markdown]
# ## Exercise 3 ★★ Predict the total
#
# A producer makes each of `n` elements in `produce_s` seconds; the loop consumes each in
# `consume_s` seconds. Write `predicted_time(n, produce_s, consume_s, prefetch)` that returns
# the total time of one epoch in seconds:
#
# - with `prefetch=False` the two take turns;
# - with `prefetch=True` the producer works one element ahead, in the background.
#
# Your formula must be exact for any `n ≥ 1` and any costs, including when producing is
# slower than consuming and when it is faster.
#
# <details><summary>Hint</summary>
#
# Draw the timeline for `n = 3`. With prefetch, the loop cannot start before the first element
# exists, and the epoch is not over until the last element is consumed. In between, each
# element costs whichever side is slower.
#
# </details>

# %%
def predicted_time(n, produce_s, consume_s, prefetch):
    """Seconds for one epoch of n elements, with or without a prefetch of one element."""
    ### BEGIN SOLUTION
    if not prefetch:
        return n * (produce_s + consume_s)
    return produce_s + (n - 1) * max(produce_s, consume_s) + consume_s
    ### END SOLUTION


# %% [markdown]
# Now compare your prediction with a measurement (your numbers will differ a little: sleeping
# threads wake up a fraction of a millisecond late).

# %% tags=["nbval-ignore-output"]
def measure(n, produce_s, consume_s, prefetch):
    ds = Dataset.range(n).map(lambda x: (time.sleep(produce_s), x)[1]).with_options(AS_WRITTEN)
    if prefetch:
        ds = ds.prefetch(1)
    start = time.perf_counter()
    for _ in ds:
        time.sleep(consume_s)
    return time.perf_counter() - start


for prefetch in (False, True):
    print(f"prefetch={prefetch}: predicted {predicted_time(20, 0.008, 0.005, prefetch):.3f} s, "
          f"measured {measure(20, 0.008, 0.005, prefetch):.3f} s")

# %% tags=["check", "ex-08-3"]
"""Check exercise 3: the predicted totals match the schedule."""
feedline.checks.ex08.check_predicted_time(predicted_time)

# %% [markdown]
# ## Exercise 4 ★★★ Simulate the buffer
#
# Real producers are not steady. Reading from files, most elements come quickly, but the first
# element of each new file is slow. A larger prefetch buffer lets the producer work further
# ahead during the quick stretches, so the slow elements are hidden.
#
# Write `simulate_prefetch(produce_costs, consume_s, buffer_size)`: the total time of one epoch
# when element `i` takes `produce_costs[i]` seconds to produce, each takes `consume_s` seconds
# to consume, and the prefetch buffer holds up to `buffer_size ≥ 1` elements. The rules, as
# feedline's `prefetch` follows them:
#
# - the producer makes elements one at a time, in order, starting the next as soon as the
#   previous one is done, **unless** the buffer is full: it then waits until the loop takes
#   an element out;
# - the buffer holds the elements that are finished and not yet taken by the loop;
# - the loop takes element `i` as soon as it exists and it has finished consuming element
#   `i - 1`; the epoch ends when the last element has been consumed.
#
# <details><summary>Hint</summary>
#
# Walk through the elements in order and keep, for each one, the time it was *taken* by the
# loop. The producer may start element `i` once element `i - 1` is finished and, if
# `i ≥ buffer_size`, once element `i - buffer_size` has been taken (then at most
# `buffer_size - 1` finished elements are waiting, so there is room for element `i`). Check
# yourself: with steady costs your answer must equal exercise 3's formula for every buffer size.
#
# </details>

# %%
def simulate_prefetch(produce_costs, consume_s, buffer_size):
    """Seconds for one epoch through a prefetch buffer of buffer_size elements."""
    ### BEGIN SOLUTION
    finished = 0.0
    taken = []
    for i, cost in enumerate(produce_costs):
        start = finished if i < buffer_size else max(finished, taken[i - buffer_size])
        finished = start + cost
        taken.append(finished if i == 0 else max(finished, taken[-1] + consume_s))
    return taken[-1] + consume_s
    ### END SOLUTION


# %%
bursty = [0.03 if i % 6 == 0 else 0.002 for i in range(24)]
for size in (1, 2, 6):
    print(f"buffer_size={size}: {simulate_prefetch(bursty, 0.01, size):.3f} s")

# %% tags=["check", "ex-08-4"]
"""Check exercise 4: the simulated totals match for steady and bursty producers."""
feedline.checks.ex08.check_simulate_prefetch(simulate_prefetch)

# %% [markdown]
# ## Going further
#
# Measure the bursty producer for real, `Dataset.range(24).map(...)` with those sleeps and a
# `prefetch(size)`, and compare with your simulation for a few buffer sizes. Why does a buffer
# larger than 6 not help any more? (Think about how much time the quick elements save between
# two slow ones.)
