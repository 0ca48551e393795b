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
# # 09 Interleave
#
# Large datasets are stored as many files, often called *shards*: a few hundred files of a few
# hundred megabytes each, on a disk or in cloud storage. Every file has to be opened before
# its first record arrives, and on cloud storage one open can take tens of milliseconds.
# Reading the files one after another adds up all of those waits. `interleave` reads several
# files at once.
#
# **What you will learn**
#
# - what reading many files costs: one open per file, plus one read per record;
# - how `interleave` takes elements from several inputs in turn (`cycle_length`,
#   `block_length`, and what happens when an input runs out), drawn as a grid;
# - that `interleave` on its own only changes the *order*; `num_parallel_calls` is what reads
#   files at the same time;
# - how to predict the total time, measure it, and read the timeline; sliders to try it;
# - what `deterministic=False` buys when one file is slow;
# - how to read real CSV shards in parallel with `list_files` and `TextLineDataset`.

# %%
import os
import pathlib
import time

import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.data import Dataset, TextLineDataset
from feedline.perf import ArtificialDataset, benchmark
from feedline.perf.provenance import format_order, interleave_order, plot_provenance

print("feedline", fl.__version__)
WORKDIR = pathlib.Path("../workdir" if pathlib.Path("../pyproject.toml").exists() else "workdir")
os.makedirs(WORKDIR, exist_ok=True)
rng = np.random.default_rng(9)  # the CSV shards' contents, the same on every run

# %% [markdown]
# ## Measuring the pipeline as written
#
# TensorFlow 2.21 adds a `prefetch(AUTOTUNE)` at the end of a pipeline by default (the
# `inject_prefetch` rewrite; `ds.explain()` shows it, and [lesson 15](15_optimizations.ipynb)
# shows every rewrite and what it buys), and so does feedline. That prefetch would move the
# reading of a sequential pipeline out of the loop's own thread, so this lesson switches it off
# for the sequential pipelines with the options below: they then run exactly as written.

# %%
AS_WRITTEN = fl.data.Options()
AS_WRITTEN.experimental_optimization.inject_prefetch = False
example = Dataset.range(3).map(abs)
print(example.explain(), end="\n\n")  # by default
print(example.with_options(AS_WRITTEN).explain())

# %% [markdown]
# ## Many files cost many opens
#
# Our stand-in for a shard is `ArtificialDataset` from lesson 07. Opening it costs 30 ms, a
# plausible round trip to cloud storage. After that, each of its 4 records costs 5 ms to read.
# There are 8 shards.
#
# `Dataset.range(8)` stands for the list of file names. `flat_map(open_shard)` turns each name
# into that file's dataset and gives all of its records before it opens the next file. That is
# what a plain loop over files would do.
#
# One file costs 30 + 4 × 5 = 50 ms, and the 8 files cost **400 ms**. 240 ms of that is spent
# opening files: the loop waits for the network for most of the time, and the CPU does nothing.
# The loop below does nothing with the records (`train_step=None`), so we measure reading only.

# %% tags=["nbval-ignore-output"]
FILES, RECORDS, OPEN, READ = 8, 4, 0.030, 0.005
PER_FILE = OPEN + RECORDS * READ


def open_shard(name):
    """One shard: OPEN seconds before the first record, then READ seconds per record."""
    return ArtificialDataset(RECORDS, open_cost=OPEN, read_cost=READ)


one_by_one = Dataset.range(FILES).flat_map(open_shard).with_options(AS_WRITTEN)
result = benchmark(one_by_one, num_epochs=1, train_step=None)
print(f"predicted {FILES * PER_FILE * 1000:.0f} ms, measured {result.total * 1000:.0f} ms, "
      f"{result.num_elements} records")

# %% [markdown]
# In the timeline, one row has a bar at a time. Each long `open` bar is a file being opened,
# and no records are read while it lasts.

# %% tags=["nbval-ignore-output"]
fig, ax = plt.subplots(figsize=(11, 4))
result.timeline.plot(ax=ax, title="8 files read one after another (flat_map)")
ax.title.set_fontsize(16)
plt.show()

# %% [markdown]
# ## `interleave`: several inputs in turn
#
# `ds.interleave(open_file, cycle_length=2, block_length=1)` also turns each element of `ds`
# into a dataset, but it keeps several of them open at once. It has `cycle_length` *slots*
# for open datasets. It visits the slots in turn, round and round, and takes `block_length`
# elements from each before moving on.
#
# To see the order, give every input's elements a name: input A gives A0, A1, ...; input B
# gives B0, B1, .... `interleave_order(lengths, cycle_length, block_length)` (from
# `feedline.perf.provenance`) runs a real `interleave` over inputs of the given lengths and
# returns the pairs (input, index) in the order the loop receives them; `format_order` writes
# them as text.

# %%
print("flat_map               ", format_order(interleave_order([3, 3, 3, 3], cycle_length=1)))
print("cycle 2, block 1       ", format_order(interleave_order([3, 3, 3, 3], cycle_length=2)))
print("cycle 2, block 2       ", format_order(interleave_order([3, 3, 3, 3], 2, 2)))
print("cycle 4, block 1       ", format_order(interleave_order([3, 3, 3, 3], 4, 1)))

# %% [markdown]
# With `cycle_length=1` there is only one slot, so `interleave` behaves like `flat_map`. With
# `cycle_length=2`, A and B share the turns until both are used up, then C and D take over
# their slots.
#
# A picture shows it better. Time runs from left to right. The top strip is the output, one
# box per element, coloured by the input it came from. Below it, each input has its own row,
# and each box sits at the position where that element was handed out.

# %%
ax = plot_provenance(interleave_order([3, 3, 3, 3], 2, 2),
                     title="4 inputs of 3 elements, cycle_length=2, block_length=2")
plt.show()

# %% [markdown]
# ## When an input runs out
#
# Real files do not all have the same number of records. Two more rules settle what happens
# when an input ends:
#
# - **Cut short.** When the dataset in a slot ends, its block ends there too, even if fewer
#   than `block_length` elements were taken. The slot becomes empty and the turn passes to
#   the *next* slot.
# - **Replaced.** When the turn comes back to an empty slot, the next input is opened there.
#   Once no inputs are left, empty slots are skipped. The output ends when every slot is empty.
#
# Here are five inputs of lengths 4, 6, 2, 5 and 3 with `cycle_length=2, block_length=2`.
# Follow it in the picture. A ends after A3, so its slot is empty. The turn passes to B, which
# gives B4 and B5. Back at A's slot, the next input, C, is opened there and gives C0 C1. Then
# B ends, and so does C: on the next round, D takes B's old slot and E takes C's. E ends at E2,
# so its block is cut short after one element, and D finishes alone.

# %%
lengths = [4, 6, 2, 5, 3]
ax = plot_provenance(interleave_order(lengths, 2, 2),
                     title=f"lengths {lengths}, cycle_length=2, block_length=2")
plt.show()

# %% [markdown]
# ### Predict, then run: an order
#
# Four inputs of lengths 2, 5, 3 and 1, with `cycle_length=3` and `block_length=2`. **Write
# the order the loop receives.** The first six elements are given; replace the string with
# your whole prediction, then run the cell after it.
#
# <details><summary>Our prediction</summary>
#
# `A0 A1 B0 B1 C0 C1 B2 B3 C2 D0 B4`. A ends after its first block, but its slot only finds out
# on its next turn: the turn passes to B, and only then to C. C ends after C2, and the turn
# moves on to A's empty slot, where D opens. D ends after one element, B gives its last
# element, and nothing is left to open.
#
# </details>

# %%
my_order = "A0 A1 B0 B1 C0 C1"

# %%
actual = format_order(interleave_order([2, 5, 3, 1], cycle_length=3, block_length=2))
print("your prediction:", my_order)
print("interleave gave:", actual)
mine, real = my_order.split(), actual.split()
agree = next((i for i, (a, b) in enumerate(zip(mine, real)) if a != b), min(len(mine), len(real)))
if mine == real:
    print("all", len(real), "elements agree")
else:
    print(f"the first {agree} elements agree; then you wrote "
          f"{mine[agree] if agree < len(mine) else 'nothing'}, and interleave gave "
          f"{real[agree] if agree < len(real) else 'nothing'}")

# %% [markdown]
# ## Interleaving alone does not save time
#
# Now use `interleave` with `cycle_length=4` over our 8 shards. Four files are open at once,
# so maybe the opens overlap? They do not. Without `num_parallel_calls`, `interleave` does
# all its work in the loop's own thread. It opens a file when the file's turn comes, waits
# the full 30 ms, and then reads one record at a time. Every open and every read still happens
# one after another. The order changes, but the total stays at 8 × 50 = 400 ms.

# %% tags=["nbval-ignore-output"]
in_turn = Dataset.range(FILES).interleave(open_shard, cycle_length=4).with_options(AS_WRITTEN)
result = benchmark(in_turn, num_epochs=1, train_step=None)
print(f"interleave, cycle_length=4: measured {result.total * 1000:.0f} ms "
      f"(flat_map: {FILES * PER_FILE * 1000:.0f} ms predicted)")

# %% [markdown]
# ## Reading in parallel: `num_parallel_calls`
#
# With `num_parallel_calls=k`, each open dataset in the cycle gets its own reader thread, and
# up to `k` of them may open or read at the same time. The inputs that come next are opened
# ahead too. The *order* of the output does not change: the loop still receives the elements
# in the order of the rules above. Only the waiting overlaps.
#
# ### Predict, then run
#
# Take `cycle_length=4, num_parallel_calls=4`. The 8 files are then read in rounds of 4 at
# once. Each round costs as much as one file, 50 ms, because its 4 files are opened and read
# side by side. **Predict the total for 8 files, and for `cycle_length=2,
# num_parallel_calls=2`.**
#
# <details><summary>Our prediction</summary>
#
# With 4 at once: 8 / 4 = 2 rounds of 50 ms, **100 ms**. With 2 at once: 4 rounds, **200 ms**.
# In general, with *F* files of cost *T* each and *c* files at a time, the time is
# ⌈*F* / *c*⌉ · *T*. The rounding up matters: 9 files in rounds of 4 need 3 rounds, and the
# last one, with its single file, costs a whole *T*.
#
# </details>

# %% [markdown]
# Besides the formula, `fl.perf.simulate` predicts each total by playing the pipeline on a
# virtual clock, with the real rules of `interleave` (the slots, the files opened ahead, the
# reader threads) and the costs `ArtificialDataset` declares. It sleeps not at all, so its
# figures are the same on every run; it adds a few microseconds per sleep and per hand-over
# between threads, which puts it a little above the formula.

# %%
def parallel(cycle_length):
    return Dataset.range(FILES).interleave(open_shard, cycle_length=cycle_length,
                                           num_parallel_calls=cycle_length)


def rounds(files_at_once):
    return -(-FILES // files_at_once)  # ceil(FILES / files_at_once), in whole numbers


pipelines = {
    "flat_map": (one_by_one, FILES * PER_FILE),
    "interleave, cycle 4": (in_turn, FILES * PER_FILE),
    "cycle 2, 2 parallel calls": (parallel(2), rounds(2) * PER_FILE),
    "cycle 4, 4 parallel calls": (parallel(4), rounds(4) * PER_FILE),
}
simulated = {name: fl.perf.simulate(pipeline, num_epochs=1, train_step=None)
             for name, (pipeline, _) in pipelines.items()}
for name, (pipeline, formula) in pipelines.items():
    print(f"{name:27s} formula {formula * 1000:4.0f} ms, "
          f"simulated {simulated[name].total * 1000:4.0f} ms")

# %% [markdown]
# Now measure them:

# %% tags=["nbval-ignore-output"]
results = {}
for name, (pipeline, formula) in pipelines.items():
    results[name] = benchmark(pipeline, num_epochs=1, train_step=None)
    measured = results[name].total
    print(f"{name:27s} formula {formula * 1000:4.0f} ms, simulated "
          f"{simulated[name].total * 1000:4.0f} ms, measured {measured * 1000:4.0f} ms "
          f"({measured / simulated[name].total:.0%} of the simulation)")

# %% [markdown]
# The one-by-one pipelines land within a few percent of the simulation, as in lesson 07. On
# a quiet machine the parallel ones do too; on a busy one they can land up to about 20 %
# above it: the simulation starts and wakes threads on time, while real threads wait for a
# free core, and the readers of the files opened ahead sometimes take a turn to read while a
# file of the current round waits. The speed-up is still close to the number of files read
# at once.
#
# The timelines of the `open` and `read` rows, on one time scale, show why. At the top, one
# bar at a time: file A is opened when its turn first comes, and its first record read, then
# B, C and D the same way; then the other reads of the four files in turn; then the next four
# files the same way. At the bottom, each reader thread has its own lane in a row: four opens run at the same
# time, then the reads of four files overlap, and the second round starts while the first
# one is still being read.

# %% tags=["nbval-ignore-output"]
fig, axes = plt.subplots(2, 1, figsize=(11, 7))
shown = ["interleave, cycle 4", "cycle 4, 4 parallel calls"]
longest = max(results[name].total for name in shown)
for ax, name in zip(axes, shown):
    results[name].timeline.plot(ax=ax, stages=["open", "read"],
                                title=f"{name}: {results[name].total * 1000:.0f} ms")
    ax.title.set_fontsize(16)
    ax.set_xlim(0, longest * 1.02)  # the same scale, so the lengths compare
fig.tight_layout()
plt.show()

# %% [markdown]
# The simulated timeline of the same pipeline draws the rounds as they would be on an idle
# machine: above, the simulation; below, the measurement, on one time axis. Where the
# measured bars start later than the simulated ones, a thread waited to be scheduled.

# %% tags=["nbval-ignore-output"]
name = "cycle 4, 4 parallel calls"
simulated[name].plot_beside(results[name], title=name)
plt.show()

# %% [markdown]
# ### Try it: sliders
#
# Now add a training step of 5 ms per record and move the two sliders. Both stay in the range
# 1 to 4, and `num_parallel_calls` is capped at `cycle_length`: more parallel calls than open
# files would only read ahead into files that are not yet in the cycle, and the picture would
# be harder to read.
#
# Things to try:
#
# - Keep `num_parallel_calls=1` and raise `cycle_length`. The time does not drop: there is
#   still only one read at a time. (It even rises a little, because the readers of the files
#   opened ahead take turns with the files the loop is waiting for.)
# - Keep `cycle_length=1` and raise `num_parallel_calls`. Nothing changes: with one file open,
#   `make_pipeline` caps the parallel calls at 1.
# - Raise both together. The 32 steps need 32 × 5 = 160 ms. Reading needs ⌈8 / *c*⌉ × 50 ms.
#   At which *c* does reading stop being the bottleneck, so that the `train_step` row has no
#   more gaps?

# %% tags=["nbval-ignore-output"]
def make_pipeline(cycle_length, num_parallel_calls):
    calls = min(num_parallel_calls, cycle_length)
    return Dataset.range(FILES).interleave(open_shard, cycle_length=cycle_length,
                                           num_parallel_calls=calls)


sliders = fl.perf.benchmark_sliders(make_pipeline, num_epochs=1, train_step=0.005,
                                    cycle_length=(1, 4), num_parallel_calls=(1, 4))
sliders

# %% [markdown]
# With `cycle_length=3` (3 rounds, 150 ms of reading against 160 ms of steps) the step is
# just busy all the time; 4 gains almost nothing more. Exercise 5 asks you to choose the
# smallest such `cycle_length` for other files and steps.
#
# ## `deterministic=False`: a slow file no longer holds back the others
#
# The parallel interleave keeps the order of the rules, so the loop must wait whenever the
# slot whose turn it is has nothing ready. If one file is slow, say a 150 ms open on a busy
# server, the loop waits for it even though the other files are ready.
#
# `deterministic=False` lets the parallel interleave break the order: when the current slot
# has nothing ready, it hands out an element from any slot that does. A slot whose file has
# ended is given to the next input at once, not when its turn comes.
#
# Below, 6 files of 5 records go through `cycle_length=3, num_parallel_calls=3`, with a 5 ms
# step per record. File A takes 150 ms to open, the others 20 ms. We record when each element
# arrives in the loop.

# %% tags=["nbval-ignore-output"]
SLOW_OPEN, STEP = 0.150, 0.005


def shard_with_slow_first(position):
    position = int(position)
    opening = SLOW_OPEN if position == 0 else 0.020
    records = ArtificialDataset(5, open_cost=opening, read_cost=READ)
    return records.map(lambda index: (position, index))  # say which file each record is from


def arrivals(deterministic):
    """The (input, index) order the loop receives, and the time each element arrived."""
    files = Dataset.range(6).interleave(shard_with_slow_first, cycle_length=3,
                                        num_parallel_calls=3, deterministic=deterministic)
    order, times, start = [], [], time.perf_counter()
    for position, index in files:
        times.append(time.perf_counter() - start)
        order.append((int(position), int(index)))
        time.sleep(STEP)  # the training step
    return order, times


runs = {deterministic: arrivals(deterministic) for deterministic in (True, False)}
for deterministic, (order, times) in runs.items():
    print(f"deterministic={deterministic!s:5}: first element after {times[0] * 1000:3.0f} ms, "
          f"all 30 after {times[-1] * 1000:3.0f} ms")

# %% [markdown]
# With the default, nothing arrives for the first 150 ms: the loop waits for A0, while B and
# C have their first records ready. With `deterministic=False` the loop starts on B and C at
# once. When they end, D and E take their slots. A's records come in among the others as soon
# as A is open. The loop idles less, and the epoch ends earlier.
#
# The curve on the left counts the elements received so far. The grids on the right show the
# two orders: A is the slow file.

# %% tags=["nbval-ignore-output"]
fig = plt.figure(figsize=(13, 6.5))
curve = fig.add_subplot(1, 3, 1)
for deterministic, (order, times) in runs.items():
    curve.step([0] + [t * 1000 for t in times], range(len(times) + 1), where="post",
               label=f"deterministic={deterministic}", linewidth=2.5)
curve.axvline(SLOW_OPEN * 1000, color="0.4", linestyle=":")
curve.text(SLOW_OPEN * 1000 + 5, 1, "A is open", fontsize=11)
curve.set_xlabel("time (ms)")
curve.set_ylabel("elements received")
curve.legend(fontsize=10, loc="upper left")
for row, deterministic in enumerate((True, False)):
    grid = fig.add_subplot(2, 3, (3 * row + 2, 3 * row + 3))
    plot_provenance(runs[deterministic][0], ax=grid, title=f"deterministic={deterministic}")
fig.tight_layout()
plt.show()

# %% [markdown]
# What it costs: the order now depends on timing. Two runs may give different orders, so a
# run is harder to reproduce exactly, even with fixed seeds. The set of elements is the same,
# and the records of each file still come in their own order. For training on shuffled data
# that is usually fine, and it is often worth the speed. You can also switch it off for the
# whole pipeline instead of on each transformation: `options = fl.data.Options()`, then
# `options.deterministic = False` and `ds = ds.with_options(options)` (TensorFlow's
# `Options()` takes no arguments, so set the attribute).

# %% [markdown]
# ## Real shards
#
# Last, the same with real files. We write 6 small CSV shards into
# `../workdir/09_interleave/`. Each line holds the shard number, the row number and a value,
# and each file has a header line. The shards have different numbers of rows.

# %%
SHARDS = WORKDIR / "09_interleave"
SHARDS.mkdir(parents=True, exist_ok=True)
shard_rows = [6, 9, 4, 8, 5, 7]
for shard, rows in enumerate(shard_rows):
    values = rng.normal(size=rows).round(3)
    lines = ["shard,row,value"] + [f"{shard},{row},{value}" for row, value in enumerate(values)]
    (SHARDS / f"shard-{shard}.csv").write_text("\n".join(lines) + "\n")
print(sorted(path.name for path in SHARDS.glob("shard-*.csv")))
print((SHARDS / "shard-0.csv").read_text())

# %% [markdown]
# `Dataset.list_files(pattern)` gives the matching file names. In training you keep its
# default `shuffle=True`, so the file order changes every epoch; here `shuffle=False` keeps it
# sorted, so the picture is easy to follow. `interleave` opens each file as a
# `TextLineDataset` and skips its header line. `decode_csv` then splits every line into its
# columns.

# %%
def read_shard(path):
    return TextLineDataset(path).skip(1)  # skip the header line


def decode(line):
    shard, row, value = fl.io.decode_csv(line, [[0], [0], [0.0]])
    return shard, row, value


files = Dataset.list_files(str(SHARDS / "shard-*.csv"), shuffle=False)
rows = files.interleave(read_shard, cycle_length=3, block_length=2, num_parallel_calls=3)
rows = rows.map(decode)
order = [(int(shard), int(row)) for shard, row, _ in rows]
print(len(order), "rows from", len(shard_rows), "shards")
ax = plot_provenance(order, title="6 CSV shards, cycle_length=3, block_length=2, "
                                  "3 parallel calls")
plt.show()

# %% [markdown]
# Shard 0 is A, shard 1 is B, and so on. The rows come in the order of the rules, with the
# same cut-short and replacement you saw earlier. Shard C (4 rows) ends first, and when its
# slot's turn comes round, D opens there. A ends next, and E takes its slot. B's last block is
# cut short at B8.
#
# On a local disk these files open in microseconds, so the threads save almost nothing here.
# On cloud storage every open is a network round trip. To mimic that, make each shard wait
# 20 ms before its first line. The wait runs in the reader thread, where a real network wait
# would happen.

# %% tags=["nbval-ignore-output"]
def remote_shard(path, latency=0.020):
    """A shard as if it were far away: `latency` seconds before its first line arrives."""
    waited = Dataset.from_tensors(path).map(lambda p: (time.sleep(latency), p)[1])
    return waited.flat_map(read_shard)


for calls in (None, 3):
    remote = files.interleave(remote_shard, cycle_length=3, num_parallel_calls=calls)
    result = benchmark(remote, num_epochs=1, train_step=None)
    print(f"num_parallel_calls={calls!s:4}: {result.total * 1000:4.0f} ms for "
          f"{result.num_elements} rows (6 opens of 20 ms: 120 ms one by one, 40 ms 3 at a time)")

# %% [markdown]
# The file readers have this built in: `TextLineDataset(files, num_parallel_reads=3)` and
# `TFRecordDataset(files, num_parallel_reads=3)` are the same parallel interleave with
# `block_length=1`.
#
# ## Summary
#
# - Reading many files costs one open per file plus one read per record. Read one after
#   another, every open is a wait: *F* · (open + *R* · read).
# - `interleave(f, cycle_length, block_length)` keeps `cycle_length` inputs open and takes
#   `block_length` elements from each in turn. An input that ends cuts its block short, and
#   its slot goes to the next input when the slot's turn comes round again.
# - On its own, `interleave` changes only the order. With `num_parallel_calls`, the open files
#   are opened and read by their own threads: *c* files at a time take about
#   ⌈*F* / *c*⌉ · (open + *R* · read). The order stays the same. `fl.perf.simulate` plays
#   such a schedule on a virtual clock and predicts it without a formula.
# - `deterministic=False` lets a slow file fall behind without stopping the others, at the
#   price of an order that depends on timing.
# - `list_files(...).interleave(TextLineDataset or TFRecordDataset, cycle_length=...,
#   num_parallel_calls=...)` reads real shards in parallel; `num_parallel_reads` does the same.
#
# **Now practise:** [exercises 09](../exercises/09_interleave_exercises.ipynb).
