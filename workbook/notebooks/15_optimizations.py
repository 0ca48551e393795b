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
# # 15 Optimizations
#
# Lessons 08 to 14 changed pipelines by hand: a `prefetch` here, `num_parallel_calls` there.
# tf.data also changes your pipeline on its own, in two ways. Before the first element, it
# **rewrites** the chain of stages into an equivalent, faster one. While elements flow,
# **AUTOTUNE** adjusts the workers and buffers you left to it. This lesson shows both at work
# in feedline, and then a third helper, the **pipeline doctor**, which measures a slow
# pipeline and tells you what to change.
#
# **What you will learn**
#
# - what a static rewrite is, which ones TensorFlow 2.21 applies by default, and how to see
#   them with `ds.explain()`;
# - what each rewrite buys, measured: a lot for some, next to nothing for others;
# - why a map runs in parallel on its own only when you declare its function stateless;
# - how AUTOTUNE decides, read from its log and a plot, and why a CPU budget stops it;
# - how to follow the doctor's advice round by round, predicting each step before measuring.

# %%
import itertools
import time

import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.data import AUTOTUNE, Dataset, Options
from feedline.data.experimental import stateless
from feedline.data.optimize import plan
from feedline.perf import (PALETTE, ArtificialDataset, ExpensiveMap, PythonWork,
                           autotune_report, benchmark, diagnose, simulate)

print("feedline", fl.__version__)

# %% [markdown]
# ## What a static rewrite is
#
# A `Dataset` is a description: `range -> map -> batch` says *what* to compute. When you make
# an iterator, feedline reads that description once and may swap a few stages for others
# that give exactly the same elements, in the same order, with the same errors, but cost
# less. Nothing is measured; the rewrite looks only at the shape of the chain. That is why it
# is called *static*.
#
# `ds.explain()` prints the chain as you wrote it, the chain that will run, and each rewrite
# that fired, with its reason. (In JupyterLab the result also draws itself as two columns of
# boxes when it is the last line of a cell.)

# %%
inc = lambda x: x + 1  # noqa: E731 - a short function for the examples
print(Dataset.range(100).map(inc).batch(10).explain())

# %% [markdown]
# Two rewrites fired. `map_and_batch_fusion` made the map and the batch one stage, and
# `inject_prefetch` added a `prefetch(AUTOTUNE)` at the end, because the last stage would
# otherwise make every element while the training loop waits. A third rewrite,
# `map_parallelization`, was on but did not apply; we come back to it below.

# %% [markdown]
# ## Predict, then run: which rewrites fire?
#
# Here are the default rewrites (TensorFlow 2.21's defaults, the table in
# `help(fl.data.Options().experimental_optimization)`):
#
# | rewrite | on by default | what it changes |
# |---|---|---|
# | `noop_elimination` | yes | removes `take(-1)`, `skip(0)`, `repeat(1)`, `prefetch(0)` |
# | `shuffle_and_repeat_fusion` | yes | `shuffle` then `repeat` become one stage |
# | `map_parallelization` | yes | a map of a function declared stateless gets AUTOTUNE workers |
# | `map_and_batch_fusion` | yes | a sequential `map` then `batch` become one stage |
# | `parallel_batch` | yes | a `batch` given `num_parallel_calls` stacks on workers |
# | `inject_prefetch` | yes | `prefetch(AUTOTUNE)` after a last stage that is synchronous |
# | `map_fusion` | no | two sequential maps call one composed function |
# | `filter_fusion` | no | two filters test one combined predicate |
# | `map_and_filter_fusion` | no | a sequential `map` then `filter` become one stage |
#
# Rewrites are tried from the source to the end, in the order of this table, so a stage removed
# by `noop_elimination` lets its neighbours meet. **Predict** which rewrites fire, with the
# default options, on the six pipelines of the tf.data performance guide's examples below.
#
# <details><summary>Our prediction</summary>
#
# - naive `map`: only `inject_prefetch` (the map is a plain lambda, so it stays sequential);
# - `map` then `batch`: `map_and_batch_fusion` and `inject_prefetch`;
# - `map` then `map`: only `inject_prefetch`: `map_fusion` is off by default;
# - two filters: only `inject_prefetch`: `filter_fusion` is off by default;
# - `shuffle` then `repeat`: `shuffle_and_repeat_fusion` and `inject_prefetch`;
# - `take(-1)` between `map` and `batch`: `noop_elimination` removes it, then the map and the
#   batch touch and fuse, then `inject_prefetch`.
#
# </details>

# %%
guide = {
    "naive map": Dataset.range(100).map(inc),
    "map then batch": Dataset.range(100).map(inc).batch(10),
    "map then map": Dataset.range(100).map(inc).map(inc),
    "two filters": Dataset.range(100).filter(lambda x: x % 2 == 0).filter(lambda x: x % 3 == 0),
    "shuffle then repeat": Dataset.range(100).shuffle(10, seed=1).repeat(2),
    "map, take(-1), batch": Dataset.range(100).map(inc).take(-1).batch(10),
}
for name, ds in guide.items():
    fired = [record.rewrite for record in plan(ds).fired]
    print(f"{name:22s} {', '.join(fired)}")

# %% [markdown]
# `plan(ds)` is what an iterator uses: `.written` is your chain, `.dataset` the chain that
# runs, `.fired` and `.skipped` the records that `explain()` prints. The last pipeline in full,
# this time as the diagram (last stage on top; the stages a rewrite made are highlighted):

# %%
guide["map, take(-1), batch"].explain()

# %% [markdown]
# ## Switching rewrites on and off
#
# Each rewrite has a switch in `Options().experimental_optimization`. `None` means "the
# default"; `True` and `False` override it. Switch on the three fusions that are off by
# default and look at the two pipelines where nothing was fused:

# %%
fuse_all = Options()
fuse_all.experimental_optimization.map_fusion = True
fuse_all.experimental_optimization.filter_fusion = True
fuse_all.experimental_optimization.map_and_filter_fusion = True
for name in ("map then map", "two filters"):
    print(guide[name].with_options(fuse_all).explain(), end="\n\n")

# %% [markdown]
# ## What each rewrite buys
#
# A fusion saves one stage per element: one Python `next()` call and its bookkeeping, a
# fraction of a microsecond in feedline. TensorFlow fuses for bigger reasons (fewer kernel
# launches, fewer buffers), but here the gain is small. Two rewrites are of another kind:
# `inject_prefetch` lets the pipeline run *while the training step runs*, and
# `map_parallelization` lets several calls of a slow function run at once.
#
# **Predict** before you run the next cell: which rewrites make a cheap pipeline of 20 000
# elements measurably faster, and by about how much do the last two speed up a 40-element
# pipeline whose map sleeps 5 ms, with a 5 ms training step?
#
# <details><summary>Our prediction</summary>
#
# The fusions and `noop_elimination`: a few percent at most, lost in the noise of a shared
# machine. `inject_prefetch`: without it each element costs 5 + 5 ms, with it about
# 5 ms (map and step overlap), so about 2 times. `map_parallelization` with AUTOTUNE starting
# at one worker per core: about 2 times on 2 cores, more if AUTOTUNE adds workers (sleeping
# calls leave the CPU free). The simulator gives the same figures, next cell.
#
# </details>

# %%
N = 20_000


def rewrite_options(name, on):
    """Options with one rewrite set, and the injected prefetch off unless it is the one."""
    options = Options()
    if name != "inject_prefetch":
        options.experimental_optimization.inject_prefetch = False
    setattr(options.experimental_optimization, name, on)
    return options


def best_of(pipelines, repeats=5):
    """The best time of a full pass over each pipeline, taking turns so that a busy moment
    of the machine does not fall on one of them only."""
    best = [float("inf")] * len(pipelines)
    for _ in range(repeats):
        for number, ds in enumerate(pipelines):
            start = time.perf_counter()
            for _ in ds:
                pass
            best[number] = min(best[number], time.perf_counter() - start)
    return best


cheap = {
    "map_fusion": lambda: Dataset.range(N).map(inc).map(inc),
    "filter_fusion": lambda: Dataset.range(N).filter(lambda x: x % 2 == 0)
                                             .filter(lambda x: x % 3 == 0),
    "map_and_filter_fusion": lambda: Dataset.range(N).map(inc).filter(lambda x: x % 2 == 0),
    "map_and_batch_fusion": lambda: Dataset.range(N).map(inc).batch(32),
    "noop_elimination": lambda: Dataset.range(N).take(-1).skip(0),
    "shuffle_and_repeat_fusion": lambda: Dataset.range(N // 4).shuffle(100, seed=1).repeat(4),
}

# %% [markdown]
# For the two slow pipelines the simulator of lesson 10 predicts the time first, from the
# declared costs alone (`simulate` applies the same rewrites as an iterator, and gives an
# AUTOTUNE map one worker per core, the tuner's starting point).

# %% tags=["nbval-ignore-output"]
SLOW, STEP, ELEMENTS = 0.005, 0.005, 40
slow = {
    "inject_prefetch": lambda: Dataset.range(ELEMENTS).map(ExpensiveMap(SLOW)),
    "map_parallelization": lambda: Dataset.range(ELEMENTS).map(stateless(ExpensiveMap(SLOW))),
}
predicted = {}
for name, make in slow.items():
    for on in (False, True):
        ds = make().with_options(rewrite_options(name, on))
        predicted[name, on] = simulate(ds, num_epochs=1, train_step=STEP).total
    print(f"{name:20s} simulated: off {predicted[name, False] * 1e3:4.0f} ms, "
          f"on {predicted[name, True] * 1e3:4.0f} ms")

# %% tags=["nbval-ignore-output"]
rows = []
for name, make in cheap.items():
    off, on = best_of([make().with_options(rewrite_options(name, on)) for on in (False, True)])
    rows.append((name, "", off, on))
for name, make in slow.items():
    off, on = (benchmark(make().with_options(rewrite_options(name, on)), num_epochs=1,
                         train_step=STEP, traced=False).total for on in (False, True))
    rows.append((name, f"{predicted[name, False] / predicted[name, True]:.1f}x", off, on))

print(f"{'rewrite':26s}{'off':>9s}{'on':>9s}{'speed-up':>10s}{'simulated':>11s}")
for name, simulated, off, on in rows:
    print(f"{name:26s}{off * 1e3:6.1f} ms{on * 1e3:6.1f} ms{off / on:9.2f}x{simulated:>11s}")

fig, ax = plt.subplots(figsize=(9, 3.8))
ax.barh([r[0] for r in rows], [r[2] / r[3] for r in rows],
        color=[PALETTE[0]] * len(cheap) + [PALETTE[1]] * len(slow))
ax.axvline(1.0, color="grey", linewidth=1)
ax.set_xlabel("time with the rewrite off / time with it on (higher is better)")
ax.invert_yaxis()
fig.tight_layout()
plt.show()

# %% [markdown]
# Read the bars honestly. The six orange ones land near 1.0, a little above or below, and a
# different one wins on each run: on a shared machine the noise (often 20 % or more on a
# pass this short) is larger than the effect. A pass over 20 000 elements takes about 20 to
# 300 ms: most of it is the functions themselves (each `x + 1` or `x % 2` on a tensor checks
# TensorFlow's dtype rules before NumPy computes, a few microseconds), and a fusion keeps
# every call of them. What it removes is the pipeline's own step between two stages, well
# under a microsecond per element. With a map that takes a millisecond per call, the
# saving would be a thousandth of the time. The two rewrites that change
# *when* work happens are the ones that matter: `inject_prefetch` overlaps the 5 ms map with
# the 5 ms step (about 2x, as simulated), and `map_parallelization` runs several 5 ms calls at
# once (2x or more: AUTOTUNE starts at one worker per core and adds more when the calls
# sleep, which the simulator does not model).

# %% [markdown]
# ## Why `map_parallelization` asks you first
#
# TensorFlow parallelises a map on its own only when it can prove the function has no state:
# its graph has no stateful op, such as `tf.random.uniform` (even with a seed; the
# `tf.random.stateless_*` ops are fine), a variable, or a side effect like `tf.print`. A
# Python function cannot be inspected that way, so feedline asks you to say so:
# `ds.map(stateless(f))`. Why not parallelise every map? Here is a function that numbers the
# elements it sees. Each call waits a little, as a real decode would, then takes the next
# number.

# %%
def numbering():
    count = itertools.count()

    def number(x):
        time.sleep(0.001 * (int(x) * 7 % 5))  # calls take 0 to 4 ms
        return next(count), x

    return number


sequential = [(int(n), int(x)) for n, x in Dataset.range(10).map(numbering())]
print("sequential:", sequential)

# %% [markdown]
# Sequentially, number *n* goes with element *n*. **Predict** what happens if four calls run
# at once. The elements still come out in their order (the map is deterministic), but which
# numbers do they carry?

# %% tags=["nbval-ignore-output"]
parallel = [(int(n), int(x)) for n, x in
            Dataset.range(10).map(numbering(), num_parallel_calls=4)]
print("parallel:  ", parallel)
print("numbers match the positions:", all(n == x for n, x in parallel))

# %% [markdown]
# The numbers are handed out in the order the calls *finish*, so a short call overtakes a
# long one and takes its number. The result depends on the timing: wrong, and differently
# wrong each run. A rewrite must never do that, so it leaves `number` alone, and you declare
# only functions whose result depends on their argument alone:

# %%
scale = stateless(lambda x: x * 3)
print(Dataset.range(10).map(scale).map(numbering()).explain())

# %% [markdown]
# `stateless` is a promise, not a test: declare `number` stateless and the rewrite will
# believe you. The elements of a rewritten pipeline are the same as written only when the
# promise holds.

# %% [markdown]
# ## AUTOTUNE: a model that measures while it runs
#
# Give a stage `num_parallel_calls=AUTOTUNE` or write `prefetch(AUTOTUNE)`, and it becomes a
# node of a small model of the pipeline. Every 50 ms the model looks at what it measured (how
# long a call takes, how much of that is CPU time, how long the consumer waited) and predicts
# whether one more worker or a bigger buffer would shorten the wait. It then checks: a change
# that did not help is taken back. `autotune_report(iterator)` lists every decision with its
# reason.
#
# The pipeline: a map whose calls sleep 4 ms (like reading from slow storage), and a loop that
# spends 1 ms on each element. **Predict** how many workers the map needs so that the loop
# never waits.
#
# <details><summary>Our prediction</summary>
#
# The loop takes an element every 1 ms; one worker makes one every 4 ms, so 4 workers keep up.
# More than 4 cannot help: the loop itself is then the limit.
#
# </details>

# %% tags=["nbval-ignore-output"]
def consume(ds, seconds_per_element=0.001):
    """Iterate `ds` with a stand-in training step; return the iterator, for its report."""
    iterator = iter(ds)
    for _ in iterator:
        time.sleep(seconds_per_element)
    return iterator


sleeping = ExpensiveMap(0.004)
iterator = consume(Dataset.range(300).map(sleeping, num_parallel_calls=AUTOTUNE)
                   .prefetch(AUTOTUNE))
report = autotune_report(iterator)
print(report)
report.plot(size="notebook")
plt.show()

# %% [markdown]
# Read the log from the top. The map starts at one worker per core and the prefetch buffer at
# one element. The buffer doubles each time the loop finds it empty. Every 100 ms or so the
# map gets more workers, because the loop still waited and each call used only a few percent
# of a core. When 8 workers were no faster than 4 (the loop, at 1 ms per element, is the
# limit), the model went back to 4: the number we predicted.

# %% [markdown]
# ## The CPU budget
#
# The sleeping calls above cost almost no CPU, so workers are cheap. A pure-Python function
# is different: it keeps a core busy for its whole call, and in threads it also holds the GIL,
# so two threads cannot run it at the same time. AUTOTUNE counts each worker at the CPU share
# it measured, and the sum must stay within `Options().autotune.cpu_budget` (by default the
# cores this process may use).
#
# **Predict**: the same loop over a map of `PythonWork` (about 1.5 ms of pure Python per
# call). How many workers will AUTOTUNE choose with the default budget, and with
# `cpu_budget = 1`?

# %% tags=["nbval-ignore-output"]
def tuned(function, cpu_budget=None, elements=200):
    options = Options()
    options.autotune.cpu_budget = cpu_budget
    ds = (Dataset.range(elements).map(function, num_parallel_calls=AUTOTUNE)
          .prefetch(AUTOTUNE).with_options(options))
    return autotune_report(consume(ds)).models[0]


print(f"{'map':16s}{'budget':>8s}{'CPU share':>11s}{'workers':>9s}")
for label, function, budget in [("sleeping 4 ms", sleeping, None),
                                ("Python ~1.5 ms", PythonWork(20_000), None),
                                ("Python ~1.5 ms", PythonWork(20_000), 1)]:
    model = tuned(function, budget)
    node = next(n for n in model.nodes if n.knob == "workers")
    share = (node.cpu_per_element or 0) / (node.wall_per_element or 1)
    print(f"{label:16s}{model.cpu_budget:8g}{share:11.0%}{node.value:9d}")

# %% [markdown]
# The sleeping map grows to several workers: each costs a few percent of a core. The Python
# map stays where it started: at one worker per core, its workers already use the whole
# budget (2 workers × 100% = 2 cores on a 2-core machine), so adding one is not allowed, and
# because of the GIL it would not help anyway. With `cpu_budget = 1` it runs on a single
# worker. To make pure-Python work faster you need processes (lesson 10) or vectorised NumPy
# (lesson 12), not more threads.

# %% [markdown]
# ## AUTOTUNE against a hand grid
#
# Could we do better by hand? Try every fixed worker count for the sleeping map, and compare
# with AUTOTUNE. The simulator predicts the fixed counts first: per element, the slower of
# 4 ms / workers and the loop's 1 ms.

# %%
grid = [1, 2, 4, 8]
simulated = {p: simulate(Dataset.range(200).map(sleeping, num_parallel_calls=p)
                         .prefetch(AUTOTUNE), num_epochs=1, train_step=0.001).total
             for p in grid}
print("simulated:", ", ".join(f"{p} workers {s * 1e3:.0f} ms" for p, s in simulated.items()))

# %% tags=["nbval-ignore-output"]
def timed(ds):
    start = time.perf_counter()
    consume(ds)
    return time.perf_counter() - start


measured = {p: timed(Dataset.range(200).map(sleeping, num_parallel_calls=p).prefetch(AUTOTUNE))
            for p in grid}
measured["AUTOTUNE"] = timed(Dataset.range(200).map(sleeping, num_parallel_calls=AUTOTUNE)
                             .prefetch(AUTOTUNE))
for setting, seconds in measured.items():
    guess = f"(simulated {simulated[setting] * 1e3:.0f} ms)" if setting in simulated else ""
    print(f"{str(setting):>9s}: {seconds * 1e3:5.0f} ms {guess}")

# %% [markdown]
# The best hand setting, 4 workers, is as fast as 8: the loop is the limit, and the
# simulator said so. AUTOTUNE comes out slower on this run, by 10 % to 50 % from run to run: it
# spends its first 100 to 250 ms with 2, then 4 or 8 workers while it measures and checks,
# and the whole run lasts only a few hundred milliseconds. On a run of minutes that search is
# a rounding error. So you can beat AUTOTUNE by hand when you know the costs and the run is
# short; once the training step is the limit, neither you nor AUTOTUNE can go faster, because
# nothing is left to gain.

# %% [markdown]
# ## The doctor
#
# Rewrites and AUTOTUNE work only where you let them. `fl.perf.diagnose(ds)` looks at a whole
# pipeline: it runs it for a bounded time, measures every stage (its rate, how busy it is, its
# CPU and wall time per element), names the stage that limits the rate, and ranks the changes
# that would help, each with a predicted rate.
#
# A deliberately bad pipeline: a read of 2 ms, a decode that waits 10 ms, an augment that waits
# 6 ms, and a training step of 3 ms, all on the consumer's thread (we switch the injected
# prefetch off). Nothing overlaps, so it gives 1 / (2 + 10 + 6 + 3 ms) ≈ 48 elements/s. The
# training step alone would allow 333.

# %%
READ, DECODE, AUGMENT, TRAIN = 0.002, 0.010, 0.006, 0.003
no_prefetch = Options()
no_prefetch.experimental_optimization.inject_prefetch = False
bad = (ArtificialDataset(10**6, open_cost=0.0, read_cost=READ)
       .map(ExpensiveMap(DECODE)).map(ExpensiveMap(AUGMENT)).with_options(no_prefetch))
print(f"sequential: {1 / (READ + DECODE + AUGMENT + TRAIN):.0f} elements/s, "
      f"the step alone: {1 / TRAIN:.0f}")

# %% tags=["nbval-ignore-output"]
diagnosis = diagnose(bad, seconds=1.0, train_step=TRAIN)
print(diagnosis)

# %% [markdown]
# The table has one row per stage (`map` is the decode, `map#2` the augment). The decode is
# the bottleneck: it is busy about half the time, and its thread group alone could give only
# about 100 elements/s. The first suggestion parallelises it. The cache comes next but is
# marked "apply by hand": it pays only from the second epoch, and a first epoch of a million
# elements lasts hours here (and a real augment is random: it must not be cached at all).
#
# `apply_top()` rebuilds the pipeline with the best suggestion, measures it the same way, and
# prints what the doctor predicted beside what it measured. We follow it for three rounds,
# and before each measurement we also ask the simulator, which knows only the declared costs
# (it plays the first 300 elements: `ds.take(300)`).

# %% [markdown]
# **Predict** before running: after parallelising the decode, which stage will be the next
# bottleneck, and what rate do you expect after three rounds?
#
# <details><summary>Our prediction</summary>
#
# The augment (6 ms, still on the loop's thread with the 3 ms step) comes next, then the
# decode again: two workers give one element every 5 ms, slower than the 3 ms step. After
# three rounds every stage keeps up and the training step sets the pace: close to its 333
# elements/s.
#
# </details>

# %% tags=["nbval-ignore-output"]
def simulated_rate(ds):
    result = simulate(ds.take(300), num_epochs=1, train_step=TRAIN)
    return result.num_elements / result.total


rounds = [("as written", float("nan"), simulated_rate(bad), diagnosis.throughput,
           diagnosis.bottleneck)]
current = diagnosis
for _ in range(3):
    chosen = next((s for s in current.suggestions if s.rebuild is not None), None)
    if chosen is None:
        break
    by_simulator = simulated_rate(chosen.rebuild())
    current = current.apply_top(verbose=False)
    _, by_doctor, measured_rate = current.applied
    rounds.append((f"{chosen.kind} {chosen.stage}", by_doctor, by_simulator, measured_rate,
                   current.bottleneck))

print(f"{'round':22s}{'doctor':>8s}{'simulator':>11s}{'measured':>10s}   bottleneck after")
for change, by_doctor, by_simulator, measured_rate, bottleneck in rounds:
    doctor = "-" if np.isnan(by_doctor) else f"{by_doctor:.0f}"
    print(f"{change:22s}{doctor:>8s}{by_simulator:11.0f}{measured_rate:10.0f}   {bottleneck}")
print(f"\n{current.dataset.explain()}")

# %% [markdown]
# Each round moves the bottleneck, and both predictions land close to the measurement (within
# a few percent on a quiet machine; on a busy one, sometimes 10 to 20 % off): the doctor's,
# scaled from what it measured, and the simulator's, from the declared costs alone. After
# three rounds the pipeline runs close to the pace the 3 ms training step allows on its own
# (333 elements/s). The doctor may still name a map as the bottleneck, but only just: another
# round would buy almost nothing, and the only way to go much faster is a faster model.
# Notice that the doctor wrote fixed worker counts (`num_parallel_calls=2`, then 4) because it
# measured that many would do; writing `AUTOTUNE` there instead would let the tuner find them.

# %% tags=["nbval-ignore-output"]
fig, ax = plt.subplots(figsize=(9, 3.5))
labels = [r[0] for r in rounds]
positions = np.arange(len(rounds))
ax.bar(positions - 0.27, [r[1] for r in rounds], 0.27, label="doctor's prediction",
       color=PALETTE[2])
ax.bar(positions, [r[2] for r in rounds], 0.27, label="simulated", color=PALETTE[1])
ax.bar(positions + 0.27, [r[3] for r in rounds], 0.27, label="measured", color=PALETTE[0])
ax.axhline(1 / TRAIN, color="grey", linestyle="--", linewidth=1, label="the step alone")
ax.set_xticks(positions, labels)
ax.set_ylabel("elements / s")
ax.legend(loc="upper left")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Summary
#
# - A **static rewrite** swaps stages for equivalent cheaper ones when the iterator is made;
#   `ds.explain()` shows what fired and why, `Options().experimental_optimization` switches
#   each one. By default: `noop_elimination`, `shuffle_and_repeat_fusion`,
#   `map_parallelization`, `map_and_batch_fusion`, `parallel_batch`, `inject_prefetch`.
# - In feedline the fusions save a stage per element, a fraction of a microsecond: hardly
#   visible. `inject_prefetch` (about 2x above) and `map_parallelization` (2x or more) change
#   *when* work runs, and that is where the time is.
# - A map is parallelised by a rewrite only when its function is declared `stateless`: a
#   function with state, like a counter, gives timing-dependent results in parallel.
# - **AUTOTUNE** measures calls and waits, adds workers and buffer while they help, takes
#   back what did not help, and stays within `cpu_budget`: many workers for sleeping calls,
#   one per core (or fewer) for pure Python.
# - The **doctor** names the bottleneck and prices each fix; following it round by round, and
#   predicting each round with the simulator, moved this pipeline from about 45 to about 300
#   elements/s, close to the pace of the training step.
#
# **Now practise:** [exercises 15](../exercises/15_optimizations_exercises.ipynb): predict the
# rewrites of pipelines you have not seen, make `map_parallelization` fire safely, fix a
# pipeline the doctor diagnoses, and split a core budget better than an even split.
