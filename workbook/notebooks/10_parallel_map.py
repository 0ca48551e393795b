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
# # 10 Parallel map
#
# In lesson 08 `prefetch` hid the pipeline behind the training step, but it could not make the
# pipeline itself faster: one element was still made after another. Most of that time is
# usually spent in `map` (decoding, parsing, augmenting). `map(f, num_parallel_calls=k)` runs
# up to `k` calls of `f` at the same time.
#
# **What you will learn**
#
# - how `num_parallel_calls` runs calls side by side, and how to predict the time: the ideal
#   *n · c / k*, and the whole rounds ⌈*n* / *k*⌉ · *c*; a slider to try it;
# - why threads speed up waiting and NumPy but not pure Python (the GIL), and how
#   `in_processes` runs pure Python in worker processes, at a start-up cost;
# - why more workers than cores helps waiting and does nothing for CPU work;
# - what `deterministic=False` does to the order of the elements;
# - what `AUTOTUNE` chooses, and why, read from its report.
#
# This machine has few cores, and the numbers below were measured on it. Where the result
# depends on the cores, the text says so.

# %% tags=["nbval-ignore-output"]
import os
import time

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import display

import feedline as fl
from feedline.data import AUTOTUNE, Dataset, autotune, in_processes
from feedline.perf import ExpensiveMap, PythonWork, benchmark

CORES = autotune.cores()
print("feedline", fl.__version__, "|", CORES, "cores")

# %% [markdown]
# ## One call at a time, then several
#
# `ds.map(f)` calls `f` on one element, hands the result over, and only then calls `f` on the
# next one. With `num_parallel_calls=k`, the map keeps `k` worker threads. Each takes the next
# element that nobody is working on, calls `f`, and stores the result. The map still hands
# the results out in the order of the input.

# %%
def square(x):
    return x * x


print([int(x) for x in Dataset.range(8).map(square, num_parallel_calls=4)])

# %% [markdown]
# ### Predict, then run
#
# Take *n* = 16 elements and a map that costs *c* = 25 ms per call. Our stand-in for the call
# is `ExpensiveMap(0.025)` from `feedline.perf`: it sleeps 25 ms, like a call waiting for a
# disk or the network. No training step, so we measure the map alone.
#
# **Predict the time with `num_parallel_calls` = 1, 4, 5 and 16.**
#
# <details><summary>Our prediction</summary>
#
# One at a time: 16 × 25 = **400 ms**. With *k* workers the ideal is *n · c / k*: 100 ms for
# 4 and 25 ms for 16. But the calls come in whole *rounds* of *k* at once, so the time is
# ⌈*n* / *k*⌉ · *c*. For 5 workers that is 4 rounds, **100 ms**, not 80 ms: the fourth round
# has only one call, and it still takes 25 ms.
#
# </details>
#
# A formula is one way to predict. Another is to let the computer play the schedule:
# `fl.perf.simulate(ds, ...)` runs the pipeline on a virtual clock, with the same rules as the
# real map (k workers, each taking the next element nobody works on), and the costs that
# `ExpensiveMap` declares. It sleeps not at all, so it answers at once, and its numbers are
# the same on every run. It adds a small fixed cost per sleep and per hand-over between
# threads (tens of microseconds), so it lands slightly above the formula.

# %%
N, COST = 16, 0.025


def sleepy_map(num_parallel_calls):
    calls = None if num_parallel_calls == 1 else num_parallel_calls
    return Dataset.range(N).map(ExpensiveMap(COST), num_parallel_calls=calls)


def rounds_time(n, cost, k):
    return -(-n // k) * cost  # ceil(n / k) rounds of one call each


workers = np.arange(1, 17)
simulated = {k: fl.perf.simulate(sleepy_map(k), num_epochs=1, train_step=None).total
             for k in workers}
for k in (1, 4, 5, 16):
    print(f"num_parallel_calls={k:2d}: ideal {N * COST / k * 1000:5.1f} ms, "
          f"rounds {rounds_time(N, COST, k) * 1000:5.1f} ms, "
          f"simulated {simulated[k] * 1000:5.1f} ms")

# %% [markdown]
# Now measure, beside the simulation:

# %% tags=["nbval-ignore-output"]
measured = {}
for k in workers:
    measured[k] = benchmark(sleepy_map(k), num_epochs=1, train_step=None, traced=False).total
for k in (1, 4, 5, 16):
    print(f"num_parallel_calls={k:2d}: rounds {rounds_time(N, COST, k) * 1000:5.1f} ms, "
          f"simulated {simulated[k] * 1000:5.1f} ms, measured {measured[k] * 1000:5.1f} ms")

# %% [markdown]
# The measurements sit a few milliseconds above the rounds and the simulation: starting and
# waking threads costs a little, more with many workers on a busy machine. Drawn for every *k*
# from 1 to 16: the ideal curve *n · c / k*, the rounds as steps, the simulation as crosses
# and the measurements as dots. From 8 to 15 workers the rounds do not change, two either
# way, so neither does the time (the dots wander by some milliseconds when the machine is
# busy).

# %% tags=["nbval-ignore-output"]
fig, ax = plt.subplots(figsize=(9, 4.5))
fine = np.linspace(1, 16, 200)
ax.plot(fine, N * COST / fine * 1000, color="0.5", label="ideal n·c/k")
ax.step(workers, [rounds_time(N, COST, k) * 1000 for k in workers], where="mid",
        color="tab:blue", label="whole rounds ⌈n/k⌉·c")
ax.plot(workers, [simulated[k] * 1000 for k in workers], "x", color="black", markersize=9,
        label="simulated")
ax.plot(workers, [measured[k] * 1000 for k in workers], "o", color="tab:orange",
        label="measured")
ax.set_xlabel("num_parallel_calls (k)")
ax.set_ylabel("time for 16 calls of 25 ms (ms)")
ax.set_xticks(workers)
ax.legend()
plt.show()

# %% [markdown]
# ## The timeline
#
# `benchmark` records a timeline with `feedline.perf.trace`, as in lesson 07. A parallel map
# gives each worker thread its own lane in the `map` row. On the same time scale: one lane
# with 16 bars in a row, then 4 lanes with 4 bars each.

# %% tags=["nbval-ignore-output"]
fig, axes = plt.subplots(2, 1, figsize=(11, 6))
traced = {k: benchmark(sleepy_map(k), num_epochs=1, train_step=None) for k in (1, 4)}
for ax, (k, result) in zip(axes, traced.items()):
    result.timeline.plot(ax=ax, stages=["map"], legend=False,
                         title=f"num_parallel_calls={k}: {result.total * 1000:.0f} ms")
    ax.title.set_fontsize(15)
    ax.set_xlim(0, traced[1].total * 1.02)  # one scale, so that the lengths compare
fig.tight_layout()
plt.show()

# %% [markdown]
# The simulation draws its schedule as the same kind of timeline. With 5 workers it predicts
# the fourth round: one lane busy for 25 ms, four lanes idle. Simulated on top, measured
# below, on one time axis:

# %% tags=["nbval-ignore-output"]
five = fl.perf.simulate(sleepy_map(5), num_epochs=1, train_step=None)
five.plot_beside(benchmark(sleepy_map(5), num_epochs=1, train_step=None),
                 title="num_parallel_calls=5: three full rounds and one call")
plt.show()

# %% [markdown]
# ### Try it: a slider
#
# Move the slider from 1 to 16. The benchmark runs again when you let go and redraws the
# timeline. The time axis stays at the length of the first run (1 worker, 400 ms), so fewer
# rounds show as a shorter picture. Under the timeline, every run you made is a dot on the
# ideal curve's axes, which do not move either; the ringed dot is the latest. Try 7 workers
# (3 rounds, 75 ms), then 8 and 15 (2 rounds each, the same time).

# %% tags=["nbval-ignore-output"]
sliders = fl.perf.benchmark_sliders(sleepy_map, num_epochs=1, train_step=None,
                                    num_parallel_calls=(1, 16))
slider_runs = {}  # num_parallel_calls -> the latest measured seconds


def draw_against_ideal(change=None):
    """Below the timeline: the slider's runs so far against the ideal, on fixed axes."""
    k, total = sliders.values["num_parallel_calls"], sliders.result.total
    slider_runs[k] = total
    figure, ax = plt.subplots(figsize=(8, 2.6))
    ax.plot(fine, N * COST / fine * 1000, color="0.5", label="ideal n·c/k")
    ax.step(workers, [rounds_time(N, COST, k) * 1000 for k in workers], where="mid",
            color="tab:blue", label="whole rounds")
    ax.plot(list(slider_runs), [t * 1000 for t in slider_runs.values()], "o",
            color="tab:orange", label="your runs")
    ax.plot([k], [total * 1000], "o", markersize=13, markerfacecolor="none",
            markeredgecolor="black")
    ax.set_xlim(0.5, 16.5)
    ax.set_ylim(0, 450)
    ax.set_xticks(workers)
    ax.set_xlabel("num_parallel_calls")
    ax.set_ylabel("ms")
    ax.legend(fontsize=8, loc="upper right")
    figure.tight_layout()
    with sliders.output:  # the sliders' own output area, under their timeline
        display(figure)
    plt.close(figure)


sliders.sliders["num_parallel_calls"].observe(draw_against_ideal, names="value")
draw_against_ideal()
sliders

# %% [markdown]
# ## Threads, the GIL, and processes
#
# Sleeping is easy to run in parallel. Real map functions compute. The workers of a parallel
# map are **threads** of one Python process, and CPython lets only one thread at a time run
# Python code: it holds a lock, the *global interpreter lock* (GIL). A thread gives the GIL up
# while it waits (sleep, reading a file, a network call) and while NumPy works inside one of
# its C loops on a large array. So:
#
# - a NumPy-heavy function can run on two cores at once from two threads;
# - a pure-Python function (loops, dicts, string handling) runs one thread at a time, however
#   many workers you give it;
# - `in_processes(f)` (from `feedline.data`) runs `f` in separate worker **processes**, each
#   with its own interpreter and its own GIL. Each element and result is copied to and from
#   the process, and starting the processes takes time.
#
# Three functions of 10 to 15 ms a call on an idle machine: `numpy_work` sorts an array,
# `python_work` is `PythonWork` from `feedline.perf` (a loop of additions), and the third
# runs `python_work` in processes. 8 elements each, with 1 and with 2 workers.
#
# **Predict on this 2-core machine: which of the three gets about twice as fast with 2
# workers?**
#
# <details><summary>Our prediction</summary>
#
# `numpy_work` in threads: about 2×, since the sort runs without the GIL. `python_work` in
# threads: no faster at all, about 1×. `python_work` in processes: close to 2×, less the
# start-up of the processes, which is paid on every new iteration of the dataset. If other
# programs use the cores while you run this, the CPU-bound speed-ups drop towards 1×: a
# parallel map cannot use a core that is busy.
#
# </details>

# %% tags=["nbval-ignore-output"]
DATA = np.random.default_rng(10).random(200_000)


def numpy_work(x):
    np.sort(DATA)  # NumPy's sort releases the GIL while it runs
    return x


python_work = PythonWork(400_000)
functions = {"numpy_work, threads": numpy_work, "python_work, threads": python_work,
             "python_work, processes": in_processes(python_work)}


def seconds_per_call(function, repeats=5):
    start = time.perf_counter()
    for _ in range(repeats):
        function(0)
    return (time.perf_counter() - start) / repeats


def best_of(make_dataset, repeats=2):
    """The fastest of a few runs: the least disturbed by other programs on the machine."""
    return min(benchmark(make_dataset(), num_epochs=1, train_step=None, traced=False).total
               for _ in range(repeats))


alone = {"numpy_work": seconds_per_call(numpy_work), "python_work": seconds_per_call(python_work)}
print(f"one call alone: numpy_work {alone['numpy_work'] * 1000:.0f} ms, "
      f"python_work {alone['python_work'] * 1000:.0f} ms")
speedups = {}
for name, function in functions.items():
    one = best_of(lambda: Dataset.range(8).map(function, num_parallel_calls=1))
    two = best_of(lambda: Dataset.range(8).map(function, num_parallel_calls=2))
    speedups[name] = one / two
    print(f"{name:23s} 1 worker {one * 1000:4.0f} ms, 2 workers {two * 1000:4.0f} ms: "
          f"{one / two:.1f}× faster")
if speedups["python_work, processes"] < 1.5:
    print("Processes gained less than 1.5× this time: other programs were probably using the "
          "cores, which lowers the NumPy threads' speed-up too. Run the cell again to see how "
          "much the numbers move.")

# %% [markdown]
# What to expect on an idle 2-core machine: `numpy_work` in threads and `python_work` in
# processes come close to 2× (processes a little less: the pool has to start, and every
# element and result is copied), and `python_work` in threads stays near 1×. Sorting in two
# threads on this machine, with nothing else running, took 1.8× less time than one after the
# other. The machine is shared, though, and while these outputs were made other programs were
# using its cores: that pushes the CPU-bound numbers towards 1×, and can even make extra
# threads look useful, because more threads win a bigger share of a busy CPU. Run the cell
# again and the numbers change. What holds everywhere is the GIL, and the timeline below
# shows it.

# %% [markdown]
# ### Seeing the GIL in a timeline
#
# The timeline shows where the time goes. Below, both maps run with 2 worker threads. A second
# number comes with each: the CPU time the notebook's process used during the run (the time
# its threads spent running on a core, added up), divided by the run's wall time. That is how
# many cores the process kept busy on average.
#
# - Pure Python in threads can never keep more than **1** core busy: only the thread holding
#   the GIL runs. Its bars overlap, but on an idle machine each is about twice as long as a
#   call alone, since each thread holds the GIL half of the time. This holds on any machine.
# - NumPy in threads can keep **2** cores busy here, with bars as long as a call alone, when
#   both cores are free. When other programs use the cores, it gets less.

# %% tags=["nbval-ignore-output"]
def traced_run(function):
    """The traced benchmark of 8 calls in 2 threads, and the cores it kept busy on average."""
    cpu = time.process_time()
    result = benchmark(Dataset.range(8).map(function, num_parallel_calls=2), num_epochs=1,
                       train_step=None)
    return result, (time.process_time() - cpu) / result.total


fig, axes = plt.subplots(2, 1, figsize=(11, 5.5))
runs = {name: traced_run(function) for name, function in
        {"numpy_work": numpy_work, "python_work": python_work}.items()}
longest = max(result.total for result, _ in runs.values())
for ax, (name, (result, busy)) in zip(axes, runs.items()):
    calls = result.timeline.of("map", kind="work")
    mean_call = np.mean([span.end - span.start for span in calls])
    result.timeline.plot(ax=ax, stages=["map"], legend=False,
                         title=f"{name} in 2 threads: {busy:.1f} cores busy on average, "
                               f"a call took {mean_call / alone[name]:.1f}× as long as alone")
    ax.title.set_fontsize(15)
    ax.set_xlim(0, longest * 1.02)
fig.tight_layout()
plt.show()

# %% [markdown]
# ### Who ran the call, and what starting the processes costs
#
# A function that returns the id of the process it ran in tells us which executor ran it.
# With threads every call runs in the notebook's own process; with `in_processes` the calls
# run in 2 other processes. The function must be defined at the top level of the notebook
# (or a module), so that it can be sent to the processes; a `lambda` is refused with a clear
# error.

# %%
def process_id(x):
    time.sleep(0.02)  # long enough that both workers get calls
    return os.getpid()


in_threads = {int(pid) for pid in Dataset.range(6).map(process_id, num_parallel_calls=2)}
in_procs = {int(pid) for pid in Dataset.range(6).map(in_processes(process_id),
                                                     num_parallel_calls=2)}
print("threads:   every call ran in this notebook's process:", in_threads == {os.getpid()})
print("processes: the calls ran in", len(in_procs), "other processes;",
      "this notebook's among them:", os.getpid() in in_procs)

# %% [markdown]
# The start-up cost: the time until the first element arrives, for a function that does
# nothing. A thread starts in microseconds; a pool of processes takes milliseconds, and the
# pool is started again for every epoch (every new iterator). Above, with 8 calls of about
# 15 ms, it ate a good part of what the second process saved. Processes pay off for many
# calls, or expensive ones; for calls of 0.1 ms the start-up and the copying would cost more
# than the work itself.

# %% tags=["nbval-ignore-output"]
def first_element_after(dataset, repeats=3):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        iterator = iter(dataset)
        next(iterator)
        times.append(time.perf_counter() - start)
        iterator.close()
    return min(times)


nothing = ExpensiveMap(0.0)
startup_threads = first_element_after(Dataset.range(4).map(nothing, num_parallel_calls=2))
startup_procs = first_element_after(Dataset.range(4).map(in_processes(nothing),
                                                         num_parallel_calls=2))
print(f"first element: threads {startup_threads * 1000:.2f} ms, "
      f"processes {startup_procs * 1000:.1f} ms")

# %% [markdown]
# ## More workers than cores
#
# A sleeping worker uses no core, so 16 workers on this 2-core machine made 16 waits at
# once: the curve at the top went down to 25 ms. Work that needs a core stops at the number
# of cores: a third thread has no free core to run on.
#
# **Predict** the speed-up of `numpy_work` (8 calls) with 1, 2, 4 and 8 workers, next to
# the sleeping map.
#
# <details><summary>Our prediction</summary>
#
# Sleeping: *k*× up to the rounds (16 calls: 2×, 4×, 8×). `numpy_work`: 2× with 2 workers
# (on an idle machine), and then no more: 4 or 8 threads share the same 2 cores, each call
# takes longer, and the total stays the same or gets a little worse.
#
# </details>

# %% tags=["nbval-ignore-output"]
ks = [1, 2, 4, 8]
numpy_times = {k: best_of(lambda: Dataset.range(8).map(numpy_work, num_parallel_calls=k))
               for k in ks}
fig, ax = plt.subplots(figsize=(8, 4.5))
ax.plot(ks, [measured[1] / measured[k] for k in ks], "o-", label="sleep (waiting)")
ax.plot(ks, [numpy_times[1] / numpy_times[k] for k in ks], "s-", label="numpy_work (CPU)")
ax.axhline(CORES, color="0.5", linestyle=":")
ax.text(1.1, CORES + 0.2, f"{CORES} cores", color="0.3")
ax.set_xticks(ks)
ax.set_xlabel("num_parallel_calls")
ax.set_ylabel("speed-up over 1 worker")
ax.legend()
plt.show()
for k in ks:
    print(f"k={k}: sleep {measured[1] / measured[k]:.1f}×, numpy_work "
          f"{numpy_times[1] / numpy_times[k]:.1f}×")

# %% [markdown]
# The sleeping map scales with the workers whatever else runs on the machine. The NumPy curve
# flattens at the cores on an idle machine; on a busy one it is lower and less regular,
# because the other programs take their share of the same 2 cores.
#
# So the rule of thumb: for waiting (files on a network disk, a remote service) use many more
# workers than cores; for computation, about one per core. More threads than that do not make
# CPU work faster, and each one holds elements in memory.
#
# ## `deterministic`: the order of the elements
#
# Calls do not all take the same time. By default the map waits for the *oldest* call and
# hands the results out in input order, so one slow element holds back the results behind it
# even when they are ready. `deterministic=False` hands each result out as soon as it is ready.
#
# Below, element 0 costs 60 ms and element 4 costs 30 ms; the others 5 ms. 3 workers.
# **Predict the order with `deterministic=False`.**
#
# <details><summary>Our prediction</summary>
#
# Element 0 is still being made while the other two workers finish 1, 2, 3, 5, 6, ... Element
# 4 takes 30 ms, so a few more overtake it too, and 0 comes last or nearly. With the default
# the order is simply 0 to 9, and nothing arrives before 60 ms.
#
# </details>

# %% tags=["nbval-ignore-output"]
COSTS = [0.060, 0.005, 0.005, 0.005, 0.030, 0.005, 0.005, 0.005, 0.005, 0.005]


def uneven(x):
    time.sleep(COSTS[int(x)])
    return x


for deterministic in (True, False):
    start = time.perf_counter()
    order, first = [], None
    for x in Dataset.range(10).map(uneven, num_parallel_calls=3, deterministic=deterministic):
        first = first or time.perf_counter() - start
        order.append(int(x))
    print(f"deterministic={deterministic!s:5}: {order}, first element after "
          f"{first * 1000:3.0f} ms, all after {(time.perf_counter() - start) * 1000:3.0f} ms")

# %% [markdown]
# The elements are the same; only the order changes, and it depends on timing, so two runs
# can differ. Keep the default when the order matters (evaluation, anything you want to
# reproduce exactly); `deterministic=False` is usually fine for training on shuffled data.
# `options.deterministic = False` on an `fl.data.Options()`, applied with `with_options`,
# sets it for every stage of a pipeline, as in lesson 09.
#
# ## What `AUTOTUNE` chooses
#
# `num_parallel_calls=AUTOTUNE` leaves the number to feedline. Like tf.data, feedline keeps a
# small model of the running pipeline (`src/feedline/data/autotune/`):
#
# - every call on a worker is timed twice, by the wall clock and by the thread's CPU clock.
#   A call that sleeps or waits uses almost no CPU; a pure-Python call uses CPU all the time;
# - about every 50 ms the tuner predicts how long the loop would wait with more workers, and
#   adds workers where the wait drops most for the CPU they would use;
# - a CPU budget caps the sum, over stages, of workers × the CPU share of one call
#   (`Options().autotune.cpu_budget`, the core count by default): waiting work may get many
#   workers, CPU work about one per core;
# - after a change it measures whether the pipeline got faster, and undoes it if not;
# - it starts again with every new iterator, so every epoch. A map with `in_processes` and
#   `AUTOTUNE` uses one process per core, fixed.
#
# [Lesson 15](15_optimizations.ipynb) plots these decisions over time and sets the budget.
#
# **Predict** before running: for the sleeping map of 25 ms per call, and for `python_work`,
# how many workers will the tuner end with?

# %% tags=["nbval-ignore-output"]
def autotuned(function, n):
    iterator = iter(Dataset.range(n).map(function, num_parallel_calls=AUTOTUNE))
    start = time.perf_counter()
    for _ in iterator:
        pass
    return fl.perf.autotune_report(iterator), time.perf_counter() - start


for name, function, n in [("sleep 25 ms", ExpensiveMap(COST), 32),
                          ("python_work", python_work, 32)]:
    report, total = autotuned(function, n)
    print(f"{name}: {n} calls in {total * 1000:.0f} ms")
    print(report)
    print()

# %% [markdown]
# Each line is one decision with its reason. For the sleeping map the calls use about 2% of a
# core, so the CPU budget (the core count) allows many workers: the tuner doubles them while the
# loop keeps waiting, up to its cap. 32 calls take far less than the 800 ms of one worker,
# though more than the 100 ms of 8 workers from the start, since it begins with 2. For
# `python_work` two workers keep only about one core busy: they take turns at the GIL. The
# tuner tries one worker, finds it no slower, and keeps it. (It needs a few rounds of
# measurements to see that, which is why this cell gives it 32 calls; with a handful it may
# stop before it has decided, and on a busy machine a round can mislead it.) For pure
# Python, use `in_processes` with about one process per core.
#
# ## Summary
#
# - `map(f, num_parallel_calls=k)` keeps *k* calls of `f` running. For *n* calls of *c*
#   seconds: ideally *n · c / k*; in whole rounds ⌈*n* / *k*⌉ · *c*. A timeline shows one
#   lane per worker. `fl.perf.simulate` plays the same schedule on a virtual clock, for
#   predictions that need no formula.
# - The workers are threads. Waiting and NumPy release the GIL and scale; pure Python does
#   not. `map(in_processes(f), num_parallel_calls=k)` runs `f` in *k* processes, which pays
#   a start-up cost per iterator and a copy per element, and needs a top-level `f`.
# - For waiting, many more workers than cores help; for CPU work, more than one per core does
#   nothing. On a busy machine the CPU-bound speed-ups shrink.
# - `deterministic=True` (the default) keeps the input order; `False` hands out results as
#   they finish, so a slow element no longer holds back the rest.
# - `AUTOTUNE` measures each call's wall and CPU time and adds workers while they help, within
#   a CPU budget: many for waiting work, about one per core for CPU work, and one for pure
#   Python in threads. `fl.perf.autotune_report(iterator)` shows every decision and why.
#
# **Now practise:** [exercises 10](../exercises/10_parallel_map_exercises.ipynb).
