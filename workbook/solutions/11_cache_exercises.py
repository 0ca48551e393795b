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
# # Exercises 11: cache
#
# Five exercises on [lesson 11](../notebooks/11_cache.ipynb): adding a cache, placing it under
# a memory budget, predicting what it saves, keeping random augmentation random, and naming a
# file cache so that it never serves stale elements.
#
# Write your code where it says `# YOUR CODE HERE` (and delete the `raise
# NotImplementedError()` line), run the cell, then run the check below it. The checks give
# your pipeline stand-in steps that count their calls and run it for 5 epochs. They look at
# *what happened* (how often the slow step ran, what each epoch gave, how much the cache
# holds, which files it wrote), not at how many milliseconds it took, so they give the same
# answer on a slow or a busy laptop.

# %%
import collections
import os
import pathlib
import shutil
import time
import tracemalloc

import numpy as np

import feedline
import feedline.checks
from feedline.data import Dataset
from feedline.perf import ArtificialDataset, ExpensiveMap, benchmark

# Like the lessons, the timing cells run each pipeline exactly as written: by default feedline
# (as TensorFlow 2.21) adds a prefetch at the end of a pipeline, which would overlap the stages.
AS_WRITTEN = feedline.data.Options()
AS_WRITTEN.experimental_optimization.inject_prefetch = False

print("feedline", feedline.__version__)
# Files these exercises write go to workdir/11_cache_exercises/, emptied on every run.
BASE = pathlib.Path("../workdir" if pathlib.Path("../pyproject.toml").exists() else "workdir")
WORKDIR = BASE / "11_cache_exercises"
shutil.rmtree(WORKDIR, ignore_errors=True)
WORKDIR.mkdir(parents=True)

# %% [markdown]
# ## Exercise 1 ★ Compute once, train five times
#
# `parse` below takes 20 ms per record, and gives the same result every time. Write
# `with_cache(ds)` so that a training run of 5 epochs over `ds` calls the slow function only
# during the first epoch. Every epoch must still give all the elements, in the same order.
#
# <details><summary>Hint</summary>
#
# One method call. Everything *above* it in the chain runs once; everything below it runs
# every epoch.
#
# </details>

# %%
def with_cache(ds):
    """`ds` with its elements kept after the first epoch and replayed in later ones."""
    ### BEGIN SOLUTION
    return ds.cache()
    ### END SOLUTION


# %% tags=["nbval-ignore-output"]
parse_calls = 0


def parse(x):
    global parse_calls
    parse_calls += 1
    time.sleep(0.02)
    return x * 10


for name, ds in [("without cache", Dataset.range(5).map(parse)),
                 ("with_cache", with_cache(Dataset.range(5).map(parse)))]:
    parse_calls, start = 0, time.perf_counter()
    epochs = [[int(x) for x in ds] for _ in range(5)]
    print(f"{name:14s} {time.perf_counter() - start:.2f} s, parse called {parse_calls} times, "
          f"last epoch {epochs[-1]}")

# %% tags=["check", "ex-11-1"]
"""Check exercise 1: same elements every epoch; the slow map runs once per record."""
feedline.checks.ex11.check_with_cache(with_cache)

# %% [markdown]
# ## Exercise 2 ★★ A cache within a memory budget
#
# `records` is a dataset of record numbers. `decode(record)` is slow (think of decompressing
# an image) and gives a small array. `expand(decoded)` is fast, but gives an array 64 times
# larger (think of converting bytes to floats and resizing). The training loop wants
# `expand(decode(record))` for every record, in order.
#
# Write `make_pipeline(records, decode, expand)` so that over 5 epochs `decode` runs only once
# per record, **and** the cache holds no more than twice what the decoded elements weigh
# (for 100 records decoded to 1 KiB each: at most 200 KiB). Use a memory cache, `cache()`.
#
# <details><summary>Hint</summary>
#
# A cache keeps every element as it is *at the point where the cache sits*. Which point of
# the chain has small elements and no slow step below it?
#
# </details>

# %%
def make_pipeline(records, decode, expand):
    """expand(decode(record)) for every record; decode runs once; the cache stays small."""
    ### BEGIN SOLUTION
    return records.map(decode).cache().map(expand)
    ### END SOLUTION


# %% [markdown]
# Measure it, as in the lesson: after one epoch the loop keeps no element, so the memory still
# allocated is what the cache holds. Compare with the budget.

# %% tags=["nbval-ignore-output"]
def decode(record):
    time.sleep(0.001)
    return np.full(256, record, dtype=np.int32)  # 1 KiB


def expand(decoded):
    return np.repeat(decoded.astype(np.float64), 32)  # 64 KiB


def bytes_held_after_one_epoch(ds):
    tracemalloc.start()
    collections.deque(ds, maxlen=0)  # read one epoch, keeping no element
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return held


budget = 2 * 100 * decode(0).nbytes
held = bytes_held_after_one_epoch(make_pipeline(Dataset.range(100), decode, expand))
print(f"the cache holds about {held / 1024:.0f} KiB (the arrays, plus a little for the Python "
      f"objects around them); budget {budget / 1024:.0f} KiB")

# %% tags=["check", "ex-11-2"]
"""Check exercise 2: decode runs once per record, and the cache stays within the budget."""
feedline.checks.ex11.check_cache_within_budget(make_pipeline)

# %% [markdown]
# ## Exercise 3 ★★ Predict what the cache saves
#
# A source of `n` samples costs `open_s` seconds to open (once per epoch it runs) and `read_s`
# per sample; a map costs `map_s` per element and the training step `step_s`. Nothing runs in
# parallel. Write `predicted_time(n, epochs, open_s, read_s, map_s, step_s, where)`: the total
# seconds of `epochs` epochs, where `where` says where the cache is:
#
# - `"none"`: `source.map(f)`, no cache;
# - `"before_map"`: `source.cache().map(f)`;
# - `"after_map"`: `source.map(f).cache()`.
#
# Your formula must be exact for any `n ≥ 1`, `epochs ≥ 1` and any costs.
#
# <details><summary>Hint</summary>
#
# Two kinds of epochs. The first one runs everything, because the cache is still filling.
# A later one runs only what comes *after* the cache, plus the step. Does a later epoch open
# the file?
#
# </details>

# %%
def predicted_time(n, epochs, open_s, read_s, map_s, step_s, where):
    """Seconds for `epochs` epochs; `where` is "none", "before_map" or "after_map"."""
    ### BEGIN SOLUTION
    first_epoch = open_s + n * (read_s + map_s + step_s)
    later_epoch = {
        "none": first_epoch,
        "before_map": n * (map_s + step_s),
        "after_map": n * step_s,
    }[where]
    return first_epoch + (epochs - 1) * later_epoch
    ### END SOLUTION


# %% [markdown]
# Now compare your prediction with a measurement (yours will be a few percent higher: sleeping
# threads wake up a little late).

# %% tags=["nbval-ignore-output"]
def build(where, n=8, open_s=0.02, read_s=0.004, map_s=0.012):
    source = ArtificialDataset(n, open_cost=open_s, read_cost=read_s).with_options(AS_WRITTEN)
    if where == "none":
        return source.map(ExpensiveMap(map_s))
    if where == "before_map":
        return source.cache().map(ExpensiveMap(map_s))
    return source.map(ExpensiveMap(map_s)).cache()


for where in ("none", "before_map", "after_map"):
    measured = benchmark(build(where), num_epochs=4, train_step=0.003, traced=False).total
    predicted = predicted_time(8, 4, 0.02, 0.004, 0.012, 0.003, where)
    print(f"{where:11s} predicted {predicted * 1000:4.0f} ms, measured {measured * 1000:4.0f} ms")

# %% tags=["check", "ex-11-3"]
"""Check exercise 3: the predicted totals match the schedule for every cache position."""
feedline.checks.ex11.check_predicted_time(predicted_time)

# %% [markdown]
# ## Exercise 4 ★★★ Keep the augmentation random
#
# `decode(record)` is slow and deterministic: the same record always gives the same image.
# `augment(image)` is random: it adds a little noise, different on every call, so that the
# model sees a slightly different version of each image in every epoch.
#
# Write `augmented(records, decode, augment)` so that over 5 epochs `decode` runs once per
# record, and every epoch gets **freshly drawn** augmentations of the decoded images, in the
# order of the records.
#
# <details><summary>Hint</summary>
#
# A cache replays exactly what reached it in the first epoch, random draws included. Which
# of the two steps can have its results replayed without changing what the model sees?
#
# </details>

# %%
def augmented(records, decode, augment):
    """augment(decode(record)) per record; decode cached, augment drawn anew each epoch."""
    ### BEGIN SOLUTION
    return records.map(decode).cache().map(augment)
    ### END SOLUTION


# %%
noise = np.random.default_rng(0)


def decode_image(record):
    time.sleep(0.001)
    pixel = feedline.cast(record, feedline.float64) * 10.0  # a map gets tensors: cast first
    return feedline.stack([pixel, pixel + 1])


def add_noise(image):
    return np.round(image + noise.uniform(-0.4, 0.4, size=image.shape), 2)


demo = augmented(Dataset.range(3), decode_image, add_noise)
for epoch in range(1, 4):
    print(f"epoch {epoch}:", [element.tolist() for element in demo])

# %% tags=["check", "ex-11-4"]
"""Check exercise 4: decode runs once per record; the augmentation differs every epoch."""
feedline.checks.ex11.check_augment_after_cache(augmented)

# %% [markdown]
# ## Exercise 5 ★★★ A file cache that never serves stale elements
#
# A file cache is found by its file name alone: change the function above it and keep the
# name, and the next run serves the old elements (the lesson showed it). Write
# `cached_pipeline(records, transform, version, directory)`: `transform` is a slow step, and
# `version` is a string you are told changes whenever `transform` changes. The pipeline must
# give `transform(record)` for each record, and cache the results in a file inside
# `directory`, so that:
#
# - a later run with the **same** version (a new pipeline, maybe a new process) reads the
#   file and does not call `transform` at all;
# - a run with a **new** version never serves an older version's elements.
#
# <details><summary>Hint</summary>
#
# `cache(path)` writes `path + ".cache"` (feedline's naming; TensorFlow writes `path.index`
# and `path.data-...` files). Build `path` with `os.path.join(directory, ...)`
# from something that stays the same for the same version and changes with it.
#
# </details>

# %%
def cached_pipeline(records, transform, version, directory):
    """transform(record) for each record, cached in a file of `directory` named per version."""
    ### BEGIN SOLUTION
    return records.map(transform).cache(os.path.join(directory, f"transformed-{version}"))
    ### END SOLUTION


# %%
def times_two(x):
    return x * 2


def times_three(x):
    return x * 3


for transform, version in [(times_two, "v1"), (times_two, "v1"), (times_three, "v2")]:
    ds = cached_pipeline(Dataset.range(4), transform, version, str(WORKDIR))
    print(f"{version} ({transform.__name__}):", [int(x) for x in ds])
print("files:", sorted(os.listdir(WORKDIR)))

# %% tags=["check", "ex-11-5"]
"""Check exercise 5: one cache file per version, in the directory, reused by later runs."""
feedline.checks.ex11.check_versioned_file_cache(cached_pipeline)

# %% [markdown]
# ## Going further
#
# In exercise 5 the version is given to you. Could you derive it instead, say from the
# source code of `transform` (`inspect.getsource`) and its settings, hashed with `hashlib`?
# What would such a name still miss? (Think of a function that `transform` calls, or a data
# file it reads.)
