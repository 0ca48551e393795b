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
# # 12 Vectorized map
#
# `ds.map(f).batch(32)` calls `f` once per element. `ds.batch(32).map(f_batch)` calls it once
# per batch, on 32 elements at a time. When every call has a fixed cost on top of the real
# work, the second form pays that cost 32 times less often.
#
# **What you will learn**
#
# - a model of the cost: a fixed overhead per call plus work per element, and what it
#   predicts for the time per element as the batch grows;
# - how to check the model by measuring, with sliders for the batch size;
# - why the gain depends on the function: a NumPy expression gains, a Python loop over the
#   batch gains nothing;
# - how to write batch-wise functions that are not element-wise: reductions, per-element
#   random augmentation, elements of different lengths;
# - how feedline's numbers compare with the tf.data guide's, and why they differ.

# %%
import time

import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.data import Dataset
from feedline.perf import PALETTE, benchmark

print("feedline", fl.__version__)
np.random.seed(12)

# %% [markdown]
# ## Same elements, fewer calls
#
# `add_one` works on any array: on a number it adds 1 to the number, on a batch it adds 1 to
# every entry. So it can go before or after `batch`, and the elements are the same. We count
# the calls.

# %%
calls = []


def add_one(x):
    calls.append(np.shape(x))  # remember the shape of every call
    return x + 1


for name, ds in [("map then batch", Dataset.range(10).map(add_one).batch(4)),
                 ("batch then map", Dataset.range(10).batch(4).map(add_one))]:
    calls.clear()
    batches = [b.tolist() for b in ds]
    print(f"{name}: {batches}, add_one called {len(calls)} times")

# %% [markdown]
# Ten calls on single numbers, or three calls on batches of 4, 4 and 2. The last batch is
# short: a function placed after `batch` must accept any number of elements, including one.

# %% [markdown]
# ## A model of the cost
#
# Say every call of the map costs a fixed **overhead** `c` (Python calling the function,
# the pipeline handing over the element, NumPy setting up an operation), and then `w` of real
# **work** per element. A batch of `b` elements costs `c + b·w` in one call. Per element:
#
# $$\text{time per element} \approx \frac{c}{b} + w$$
#
# At `b = 1` every element pays the whole overhead. As `b` grows the overhead is shared, and
# the time per element falls towards `w`, never below it.
#
# To see it plainly we first use a function whose costs we choose: it sleeps `c = 2 ms` per
# call and `w = 0.1 ms` per element. With 128 elements:
# **predict the time per element for b = 1, 8 and 64.**
#
# <details><summary>Our prediction</summary>
#
# b = 1: 2 + 0.1 = **2.1 ms**. b = 8: 2/8 + 0.1 = **0.35 ms**. b = 64: 2/64 + 0.1 ≈
# **0.13 ms**. Going from 1 to 8 saves 83%; going from 8 to 64 saves only another 0.22 ms,
# because by then the work is most of what is left.
#
# </details>

# %%
OVERHEAD, WORK, ELEMENTS = 0.002, 0.0001, 128


class SleepyBatchFunction:
    """Sleeps OVERHEAD per call plus WORK per element of its input, and returns it."""

    def __call__(self, batch):
        size = np.shape(batch)[0] if np.ndim(batch) else 1
        time.sleep(OVERHEAD + size * WORK)
        return batch


def sleepy_pipeline(batch_size):
    return Dataset.range(ELEMENTS).batch(batch_size).map(SleepyBatchFunction())


def model(batch_size, overhead=OVERHEAD, work=WORK):
    return overhead / batch_size + work


# %% [markdown]
# A second prediction comes from `fl.perf.simulate`, which plays a pipeline on a virtual
# clock instead of running it. It knows only declared costs, so we declare ours: on a full
# batch of `b` (and 128 splits into full batches for every `b` below) a call of our function
# costs `c + b·w`, which is what `ExpensiveMap(c + b·w)` declares. The simulation also adds
# the small fixed costs of the real engine: a sleep wakes a little late, an element takes a
# few microseconds to hand over.

# %%
BATCH_SIZES = [1, 2, 4, 8, 16, 32, 64]


def declared_pipeline(batch_size):
    """The same schedule as sleepy_pipeline, with the cost of a call declared."""
    return Dataset.range(ELEMENTS).batch(batch_size).map(
        fl.perf.ExpensiveMap(OVERHEAD + batch_size * WORK))


simulated = {b: fl.perf.simulate(declared_pipeline(b), num_epochs=1, train_step=None).total
             / ELEMENTS for b in BATCH_SIZES}
for b in BATCH_SIZES:
    print(f"b={b:3d}: model {model(b) * 1000:5.3f} ms per element, "
          f"simulated {simulated[b] * 1000:5.3f} ms")

# %% tags=["nbval-ignore-output"]
sleepy = {}
for b in BATCH_SIZES:
    result = benchmark(sleepy_pipeline(b), num_epochs=1, train_step=None, traced=False)
    sleepy[b] = result.total / ELEMENTS
for b in BATCH_SIZES:
    print(f"b={b:3d}: model {model(b) * 1000:5.3f} ms per element, "
          f"simulated {simulated[b] * 1000:5.3f} ms, measured {sleepy[b] * 1000:5.3f} ms")

# %% [markdown]
# The measurements sit a few percent above the model, and closer to the simulation: every
# `sleep` wakes up a little late, and that lateness is one more fixed cost per call, which
# the simulation counts and the model does not. The picture, on logarithmic axes:

# %% tags=["nbval-ignore-output"]
def plot_per_element(ax, sizes, measured, predicted, label, colour):
    sizes = np.array(sizes)
    ax.plot(sizes, np.array(predicted) * 1e6, "--", color=colour, label=f"{label}: model")
    ax.plot(sizes, np.array(measured) * 1e6, "o", color=colour, markersize=8,
            markeredgecolor="black", label=f"{label}: measured")


fig, ax = plt.subplots(figsize=(8, 4.5))
plot_per_element(ax, BATCH_SIZES, [sleepy[b] for b in BATCH_SIZES],
                 [model(b) for b in BATCH_SIZES], "sleeping function", PALETTE[0])
ax.plot(BATCH_SIZES, [simulated[b] * 1e6 for b in BATCH_SIZES], "x", color="black",
        markersize=9, label="sleeping function: simulated")
ax.axhline(WORK * 1e6, color="grey", linewidth=1)
ax.text(BATCH_SIZES[0], WORK * 1e6 * 1.08, "w: the work alone", color="grey")
ax.set(xscale="log", yscale="log", xlabel="batch size b", ylabel="time per element (µs)",
       title="Time per element = c / b + w")
ax.set_xticks(BATCH_SIZES, [str(b) for b in BATCH_SIZES])
ax.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# ### Try it: a slider for the batch size
#
# Slide `batch_size` and let go: the 128 elements run again, and the timeline shows one `map`
# bar per call. At 1 there are 128 thin bars, each mostly overhead; at 32 there are 4 wide
# bars, each mostly work. The time axis stays the one of `batch_size=1`, the slowest setting,
# so the shrinking is visible.

# %% tags=["nbval-ignore-output"]
fl.perf.benchmark_sliders(sleepy_pipeline, num_epochs=1, train_step=None,
                          batch_size=(1, 64, 1, 1))

# %% [markdown]
# ## A real function: where the overhead comes from
#
# Sleeping is a stand-in. A real map function costs something per call for three reasons in
# feedline: the pipeline's own step (take an element, hand it to the function as a tensor,
# call it, hand the result on), Python's function call, and the setup of each operation on a
# tensor (TensorFlow's dtype rules, then NumPy's own checks and allocation), which is the same
# for one row as for a thousand. Here is a typical element-wise step: standardise sensor readings with
# fixed constants and clip outliers.

# %%
MEAN, SCALE = 10.0, 3.0


def standardise(x):
    """Element-wise: works on one row of readings or on a batch of rows alike."""
    return np.clip((x - MEAN) / SCALE, -3.0, 3.0)


rows = np.random.default_rng(12).normal(MEAN, SCALE, size=(4096, 64))
print("one row:", standardise(rows[0]).shape, " a batch of 8 rows:", standardise(rows[:8]).shape)

# %% [markdown]
# First we measure the pieces of the model on their own, with nothing else running:
#
# - feedline's own overhead per `map` call: `range(N).map(identity)` minus `range(N)`, per
#   element (as in `benchmarks/overhead.py`);
# - `standardise`'s fixed cost `c`: one call on a single row, given as a tensor (`fl.constant`),
#   as the map hands it over;
# - its work per row `w`: a call on 256 rows, minus a call on one row, divided by 255.

# %% tags=["nbval-ignore-output"]
def best_seconds(run, repeats=5):
    """The fastest of a few runs: on a shared machine the fastest is the least disturbed."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def drain(ds):
    for _ in ds:
        pass


N = 20_000
identity = lambda x: x  # noqa: E731
map_overhead = (best_seconds(lambda: drain(Dataset.range(N).map(identity)))
                - best_seconds(lambda: drain(Dataset.range(N)))) / N


def seconds_per_call(function, argument, calls, repeats=7):
    def run():
        for _ in range(calls):
            function(argument)  # results are dropped at once, as in a pipeline
    return best_seconds(run, repeats) / calls


one_row = seconds_per_call(standardise, fl.constant(rows[:1]), 2000)
rows_256 = seconds_per_call(standardise, fl.constant(rows[:256]), 300)
work = (rows_256 - one_row) / 255
overhead = one_row - work  # the fixed part of one call
print(f"feedline's map overhead: {map_overhead * 1e6:.2f} µs per call")
print(f"standardise on one row:  {one_row * 1e6:.2f} µs")
print(f"standardise on 256 rows: {rows_256 * 1e6:.2f} µs")
print(f"so c ≈ {overhead * 1e6:.2f} µs per call and w ≈ {work * 1e6:.3f} µs per row")

# %% [markdown]
# feedline's `map` adds under a microsecond per call: a Python generator step, wrapping the
# element as a tensor (a view of its NumPy array, no copy) and a function call. The fixed cost
# of the function is many times larger: each of the three operations in `standardise` checks
# the dtypes by TensorFlow's rules, then NumPy checks shapes and allocates a result, whether
# it gets one row of 64 values or 256 of them. The arithmetic itself costs a small fraction of
# a microsecond per row.
#
# **Predict**: with these numbers, how much less does `standardise` cost per element after
# `batch(64)` than on single rows? Then measure it inside a pipeline: a stopwatch around
# every call of the map function adds up the time spent in it, and we divide by the number of
# rows. (The stopwatch and feedline's own step add a fraction of a microsecond per call,
# small beside `c`.)
#
# We also time a second version of the batch function that runs a **Python loop** over the
# rows of the batch. It gives the same numbers, but it still makes one call of `standardise`
# per row, so batching should save it nothing. Predict its line before you look.

# %% tags=["nbval-ignore-output"]
def standardise_loop(batch):
    """Batch-wise in name only: still one NumPy call per row."""
    return np.stack([standardise(row) for row in batch])


class Stopwatch:
    """Wraps a map function and adds up the seconds spent inside it."""

    def __init__(self, function):
        self.function, self.seconds = function, 0.0

    def __call__(self, batch):
        start = time.perf_counter()
        out = self.function(batch)
        self.seconds += time.perf_counter() - start
        return out


def function_seconds_per_element(function, batch_size, repeats=3):
    """The time spent in `function` per row, in the pipeline batch(batch_size).map(function)."""
    runs = []
    for _ in range(repeats):
        stopwatch = Stopwatch(function)
        drain(Dataset.from_tensor_slices(rows).batch(batch_size).map(stopwatch))
        runs.append(stopwatch.seconds / len(rows))
    return min(runs)


REAL_SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256]
vectorised = {b: function_seconds_per_element(standardise, b) for b in REAL_SIZES}
looped = {b: function_seconds_per_element(standardise_loop, b, repeats=1)
          for b in (1, 4, 16, 64, 256)}
print(f"{'b':>4s}{'model':>10s}{'vectorised':>12s}{'Python loop':>13s}   (µs per element)")
for b in REAL_SIZES:
    loop = f"{looped[b] * 1e6:13.3f}" if b in looped else ""
    print(f"{b:4d}{model(b, overhead, work) * 1e6:10.3f}{vectorised[b] * 1e6:12.3f}{loop}")
print(f"b=1 costs {vectorised[1] / vectorised[64]:.0f} times as much per element as b=64 "
      f"(model: {model(1, overhead, work) / model(64, overhead, work):.0f})")

# %% tags=["nbval-ignore-output"]
fig, ax = plt.subplots(figsize=(8, 4.5))
plot_per_element(ax, REAL_SIZES, [vectorised[b] for b in REAL_SIZES],
                 [model(b, overhead, work) for b in REAL_SIZES], "standardise", PALETTE[0])
loop_sizes = sorted(looped)
ax.plot(loop_sizes, [looped[b] * 1e6 for b in loop_sizes], "s-", color=PALETTE[1],
        markeredgecolor="black", label="Python loop over the batch: measured")
ax.set(xscale="log", yscale="log", xlabel="batch size b",
       ylabel="time in the map function per element (µs)",
       title="A NumPy function gains from batching; a Python loop does not")
ax.set_xticks(REAL_SIZES, [str(b) for b in REAL_SIZES])
ax.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# The measured points of `standardise` fall with the batch size as the model says, and for
# small batches they sit close to the dashed line. For large batches they stay above it,
# several times above in the run printed here: in the pipeline each batch is a freshly
# stacked array (new memory, not yet in the CPU's cache), while `work` was measured on the
# same warm rows again and again, and other programs on this shared machine slow some runs.
# So from b = 1 to b = 64 the cost per element falls several times (the printed ratio), less
# than the model's ratio; beyond 64 it moves little and unevenly: the overhead is already
# shared thin, and what is left is the work.
#
# The Python loop stays flat, at or above the b = 1 cost, whatever the batch size. Batching removed
# feedline's per-call overhead, but that was the smallest part; the loop still pays NumPy's
# fixed cost once per row. **Batching helps only when the function does one operation for
# the whole batch**: NumPy ufuncs and reductions with an `axis`, matrix products, indexing
# with arrays. A `for` over the rows, `np.apply_along_axis` or `np.vectorize` are loops too.

# %% [markdown]
# ## Functions that are not element-wise
#
# `standardise` needed no change after `batch`, because every NumPy operation in it works
# entry by entry. Three kinds of functions need rewriting.
#
# **Reductions.** A function that reduces an element, like `x / x.max()`, reduces *the whole
# batch* when it gets one. Give the reduction the axis of the element (`axis=-1` for the
# last), and keep that axis (`keepdims=True`) so the result still lines up with the rows:

# %%
def scale_by_max(row):
    return row / row.max()


def scale_by_max_batch(batch):
    return batch / batch.max(axis=-1, keepdims=True)


batch = np.array([[1.0, 2.0, 4.0], [10.0, 5.0, 5.0]])
print("element by element:", np.stack([scale_by_max(row) for row in batch]).tolist())
print("scale_by_max on the batch (wrong):", scale_by_max(batch).tolist())
print("scale_by_max_batch:", scale_by_max_batch(batch).tolist())

# %% [markdown]
# **Random augmentation per element.** An augmentation such as "change the brightness by a
# random factor between 0.8 and 1.2" draws one number per call. After `batch` there is one
# call per batch, so a function that draws one number gives the *same* factor to every
# element of the batch: the model sees 32 images brightened alike, which is much less
# variety. Draw one number per element instead, with `size=` and a shape that broadcasts:

# %%
generator = np.random.default_rng(12)


def brightness_one_draw(batch):
    return batch * generator.uniform(0.8, 1.2)  # one factor for the whole batch: wrong


def brightness_per_element(batch):
    factors = generator.uniform(0.8, 1.2, size=(len(batch), 1))  # one factor per row
    return batch * factors


images = np.ones((6, 4))  # six "images" of four pixels, all 1, so the factor is visible
for function in (brightness_one_draw, brightness_per_element):
    out = Dataset.from_tensor_slices(images).batch(3).map(function)
    print(f"{function.__name__:23s}", [np.round(b[:, 0], 3).tolist() for b in out])

# %% [markdown]
# With one draw, each batch of three shares one factor. With a draw per element, all six
# differ. A branch works the same way: a per-element `if draw < 0.5: flip` becomes a mask of
# draws and `np.where(mask[:, None], flipped, batch)`.
#
# One thing batching does change: the generator's numbers are handed out in a different
# order than with one call per element, so the pipeline gives *different* random elements
# than `map` then `batch` did, equally random. If a run must reproduce another exactly, make
# both the same way.

# %% [markdown]
# **Elements of different lengths.** A sentence, a recording, a list of detected boxes:
# elements whose length varies cannot be stacked into one array, so `batch` refuses them.

# %%
def readings(n):
    return fl.range(1.0, fl.cast(n, fl.float64) + 2.0)  # element n has n + 1 values


varying = Dataset.range(5).map(readings)
try:
    list(varying.batch(3))
except Exception as error:  # noqa: BLE001 - we show the message
    print(type(error).__name__, str(error)[:140], "...")

# %% [markdown]
# `padded_batch` pads each batch to its longest element, with zeros. A batch-wise function
# then has to ignore the padding: keep each element's length next to it, build a mask of the
# real positions, and use the mask in the reductions. Here the mean of each element:

# %%
with_length = Dataset.range(5).map(lambda n: (readings(n), n + 1))


def mean_of_each(values, lengths):
    real = np.arange(values.shape[1]) < lengths[:, None]  # True where a value is not padding
    return (values * real).sum(axis=1) / lengths


for values, lengths in with_length.padded_batch(3).as_numpy_iterator():  # NumPy arrays
    print(values.tolist(), "->", mean_of_each(values, lengths).tolist(),
          " (values.mean(axis=1) would say", np.round(values.mean(axis=1), 2).tolist(), ")")

# %% [markdown]
# The padded zeros would pull a plain `mean(axis=1)` down; with the mask each element's mean
# is its own (1, 1.5, 2, then 2.5, 3).

# %% [markdown]
# ## feedline and the tf.data guide
#
# The tf.data performance guide makes this comparison with a map that adds 1 to each number
# of `range`, followed by `batch(256)`, and moves the batch before the map. In the guide's
# published run the batched version wins by a wide margin, many times faster (the figure
# depends on the TensorFlow version and the machine; with TensorFlow installed you can run
# the same two lines with `tf.data` and compare). Here is the same comparison in feedline:

# %% tags=["nbval-ignore-output"]
def increment(x):
    return x + 1


COUNT = 100_000
scalar = best_seconds(lambda: drain(Dataset.range(COUNT).map(increment).batch(256)), 3)
batched = best_seconds(lambda: drain(Dataset.range(COUNT).batch(256).map(increment)), 3)
plain = best_seconds(lambda: drain(Dataset.range(COUNT).batch(256)), 3)
print(f"map then batch:  {scalar / COUNT * 1e6:.3f} µs per element")
print(f"batch then map:  {batched / COUNT * 1e6:.3f} µs per element "
      f"({scalar / batched:.1f} times faster)")
print(f"batch alone:     {plain / COUNT * 1e6:.3f} µs per element")

# %% [markdown]
# In feedline the gain is large too, tens of times in the run printed here, for the same
# reason as in tf.data: **a call costs microseconds even for `x + 1`**.
#
# - **What a call costs.** In tf.data each call of the map runs a compiled graph function
#   through TensorFlow's runtime: it schedules kernels and wraps tensors. In feedline the
#   function gets a tensor, and `x + 1` on a tensor first applies TensorFlow's dtype rules
#   (is `1` an int64? would `1.5` be refused?) and then asks NumPy to add: a few microseconds,
#   the same for one number as for 256. Batching shares that cost out.
# - **What batching does not touch.** In feedline, `range` still produces one Python number
#   per element and `batch` still collects them in a Python list before stacking: "batch
#   alone" above is most of the batched time, and no order of the steps removes it.
#
# The rule is the same in both libraries: the more a call costs regardless of its size, the
# more batching before the map pays.

# %% [markdown]
# ## Summary
#
# - `ds.batch(b).map(f_batch)` calls the function once per batch instead of once per
#   element. With a fixed cost `c` per call and work `w` per element, the time per element
#   is about `c / b + w`: it falls fast at first, then flattens at `w`.
# - The gain is real only if the function handles the batch in a few whole-array operations.
#   A Python loop over the batch keeps the per-row cost and gains nothing.
# - Element-wise NumPy expressions work unchanged on batches. Reductions need `axis=-1,
#   keepdims=True`; random augmentation needs one draw per element (`size=(len(batch), ...)`)
#   and masks instead of `if`; elements of different lengths need `padded_batch` and a mask
#   of the real positions. The function must also accept the short last batch.
# - In feedline, as in tf.data, even a trivial function costs microseconds per call (each
#   operation on a tensor applies TensorFlow's dtype rules first), so batching it gains many
#   times, as in the tf.data guide.
#
# **Now practise:** [exercises 12](../exercises/12_vectorized_map_exercises.ipynb).
