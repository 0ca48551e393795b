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
# # 01 Dataset basics
#
# A training loop wants a stream of examples, usually in batches. `Dataset` is the object that
# describes that stream: where the examples come from and what happens to them on the way.
#
# **What you will learn**
#
# - build a dataset from NumPy arrays, and read it with a plain `for` loop;
# - chain transformations: `map`, `filter`, `apply`;
# - group elements with `batch`, and split them again with `unbatch`;
# - cut and extend a stream with `take` and `repeat`, and why their order with `batch` matters;
# - work with elements that are tuples and dicts.
#
# Everything here uses TensorFlow's names: replace `feedline` by `tensorflow` (and `fl.data` by
# `tf.data`) and the same code runs there.

# %%
import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.data import Dataset

print("feedline", fl.__version__)
rng = np.random.default_rng(0)

# %% [markdown]
# ## A dataset is a description
#
# `Dataset.range(5)` does not hold five numbers. It holds a *recipe* for producing them. The
# numbers are made when you loop over it, one at a time, and every new loop starts from the
# beginning. One full loop is called an **epoch**.

# %%
numbers = Dataset.range(5)
for x in numbers:
    print(x, end=" ")
print()
print("second epoch:", [int(x) for x in numbers])

# %% [markdown]
# A loop hands you each element as a **tensor**, printed as TensorFlow prints it: the value,
# its shape (`()` is a scalar) and its dtype. Underneath it is a NumPy array, so NumPy's
# functions take it, but its operators follow TensorFlow's rules: `x * 10` keeps int64, and
# `x * 2.5` on an int64 tensor is an error instead of a silent switch to floats. `.numpy()`
# gives the plain NumPy value, exactly as in TensorFlow, and `as_numpy_iterator()` hands out
# plain values directly.

# %%
x = next(iter(numbers))
print(repr(x.numpy()), x * 10, list(numbers.as_numpy_iterator()))

# %% [markdown]
# `element_spec` tells you the shape and dtype of one element without you having to look at
# one.

# %%
print(numbers.element_spec)

# %% [markdown]
# ## From arrays
#
# The most common start is data you already hold in arrays. `Dataset.from_tensor_slices`
# cuts an array along its **first axis**: an array of shape `(6, 3)` becomes a dataset of 6
# elements of shape `(3,)`.

# %%
features = np.arange(18.0).reshape(6, 3)
rows = Dataset.from_tensor_slices(features)
print(rows.element_spec, "elements:", len(rows))
for row in rows.take(2):
    print(row)

# %% [markdown]
# Give it a tuple (or a dict) of arrays and it cuts all of them at once, keeping the
# structure. The arrays must agree on the first size: here 6 feature rows and 6 labels, so each
# element is one `(features, label)` pair.

# %%
labels = np.array([0, 1, 1, 0, 1, 0])
pairs = Dataset.from_tensor_slices((features, labels))
print(pairs.element_spec)
x, y = next(iter(pairs))
print("first pair:", x, int(y))

# %% [markdown]
# With a dict every element is a dict with the same keys. Names make a pipeline easier to read
# than positions once there are more than two parts.

# %%
named = Dataset.from_tensor_slices({"features": features, "label": labels})
print(next(iter(named)))

# %% [markdown]
# **Careful with one big array.** `Dataset.from_tensors(features)` (no *slices*) makes a
# dataset of a *single* element: the whole `(6, 3)` array. That is rarely what you want for
# training data.

# %%
print("from_tensors:", len(Dataset.from_tensors(features)), "element;",
      "from_tensor_slices:", len(Dataset.from_tensor_slices(features)), "elements")

# %% [markdown]
# ## Chaining transformations
#
# Every transformation returns a **new** dataset and leaves the old one as it was, so you
# build a pipeline by chaining method calls. Nothing runs until you iterate.
#
# `map(f)` calls `f` on every element, given as tensors (as in TensorFlow). When the element
# is a tuple, its parts arrive as separate arguments: for `(features, label)` pairs, write
# `lambda x, y: ...`.

# %%
def scale(x, y):
    return x / 17.0, y  # 17 is the largest feature: features now lie in [0, 1]


scaled = pairs.map(scale)
for x, y in scaled.take(2):
    print(np.round(x, 3), int(y))
print("pairs is unchanged:", next(iter(pairs))[0])

# %% [markdown]
# `map` may also change the structure. Here each pair becomes a dict with an extra feature.

# %%
def add_norm(x, y):
    # fl.norm, not np.linalg.norm: TensorFlow traces a map's function, and NumPy cannot
    # compute on the placeholder tensors of a trace.
    return {"features": x, "norm": fl.norm(x), "label": y}


print(next(iter(pairs.map(add_norm))))

# %% [markdown]
# `filter(predicate)` keeps the elements for which the predicate is true. Since the dataset
# cannot know in advance how many will pass, its length becomes *unknown*:
# `cardinality()` returns `-2` (`fl.data.UNKNOWN_CARDINALITY`).

# %%
positives = pairs.filter(lambda x, y: y == 1)
print([int(y) for _, y in positives])
print("cardinality before:", int(pairs.cardinality()), "after filter:",
      int(positives.cardinality()))

# %% [markdown]
# `apply(fn)` is `fn(dataset)`, written so it fits in a chain. Use it to package a few steps
# under one name and reuse them.

# %%
def labelled_and_scaled(ds):
    return ds.filter(lambda x, y: y >= 0).map(scale)


chained = pairs.apply(labelled_and_scaled).take(3)
print(len(list(chained)), "elements")

# %% [markdown]
# ## Batches
#
# A model step processes many examples at once. `batch(n)` stacks `n` consecutive elements
# into one element with a new first axis of length `n`. With 10 elements and `batch(4)` you
# get batches of 4, 4 and 2: the last one holds whatever is left.

# %%
ten = Dataset.range(10)
for batch in ten.batch(4):
    print(batch)

# %% [markdown]
# When every batch must have the same shape (some models and accelerators need it), pass
# `drop_remainder=True` and the short batch is thrown away. The picture shows both.

# %% tags=["nbval-ignore-output"]
def draw_batches(ax, batches, title):
    """Draw each batch as a row of numbered boxes."""
    for row, batch in enumerate(batches):
        for col, value in enumerate(np.ravel(batch)):
            ax.add_patch(plt.Rectangle((col, -row), 0.9, 0.8, color=f"C{row % 10}", alpha=0.5))
            ax.text(col + 0.45, -row + 0.4, int(value), ha="center", va="center")
    ax.set_xlim(-0.2, max(len(np.ravel(b)) for b in batches) + 0.2)
    ax.set_ylim(-len(batches) + 0.6, 1)
    ax.set_title(title)
    ax.axis("off")


fig, axes = plt.subplots(1, 2, figsize=(8, 2.2))
draw_batches(axes[0], list(ten.batch(4)), "batch(4)")
draw_batches(axes[1], list(ten.batch(4, drop_remainder=True)),
             "batch(4, drop_remainder=True)")
plt.show()

# %% [markdown]
# Batching respects structure: batching `(features, label)` pairs gives pairs of batches, one
# `(4, 3)` array of features and one `(4,)` array of labels. The same holds for dicts.

# %%
for x, y in pairs.batch(4):
    print(x.shape, y.shape)
print({key: value.shape for key, value in next(iter(named.batch(4))).items()})

# %% [markdown]
# `unbatch()` does the opposite: it splits every element along its first axis. Elements may
# have different lengths, so `unbatch().batch(n)` re-cuts uneven chunks into even batches.

# %%
chunks = Dataset.from_generator(
    lambda: iter([np.arange(0, 3), np.arange(3, 4), np.arange(4, 9)]),
    output_signature=fl.data.TensorSpec(shape=(None,), dtype=np.int64))
print("chunks: ", [c.numpy().tolist() for c in chunks])
print("re-cut: ", [b.numpy().tolist() for b in chunks.unbatch().batch(4)])

# %% [markdown]
# ## Take and repeat
#
# `take(n)` keeps the first `n` elements: handy to peek at a pipeline or to run a short test.
# `repeat(k)` plays the dataset `k` times; `repeat()` with no count plays it forever, and then
# something else (a `take`, or the training loop) must decide when to stop.

# %%
print([int(x) for x in Dataset.range(3).repeat(2)])
print([int(x) for x in Dataset.range(3).repeat().take(8)])
print("cardinality of repeat():", int(Dataset.range(3).repeat().cardinality()))

# %% [markdown]
# **Predict, then run.** Take 7 elements, 2 epochs, batches of 3. What batch sizes do you
# get from `repeat(2).batch(3)`, and from `batch(3).repeat(2)`? Write your guess down first.

# %%
seven = Dataset.range(7)
a = list(seven.repeat(2).batch(3))
b = list(seven.batch(3).repeat(2))
print("repeat then batch:", [len(x) for x in a])
print("batch then repeat:", [len(x) for x in b])

# %% tags=["nbval-ignore-output"]
fig, axes = plt.subplots(1, 2, figsize=(8, 3))
draw_batches(axes[0], a, "repeat(2).batch(3)")
draw_batches(axes[1], b, "batch(3).repeat(2)")
plt.show()

# %% [markdown]
# Repeating first makes one long stream, and batches are cut from it without regard for where
# an epoch ends: the third batch holds `6, 0, 1`, the end of epoch 1 and the start of epoch 2.
# Batching first cuts each epoch on its own, so every epoch ends with its own short batch.
# Neither is wrong; choose the one that matches what your training loop expects.

# %% [markdown]
# ## Reading a dataset is a `for` loop
#
# There is no session and no special runner: a training loop is a Python loop over the
# dataset. Here is a complete, tiny one that counts examples and sums labels per epoch.

# %%
pipeline = (Dataset.from_tensor_slices((features, labels))
            .map(scale)
            .batch(4))
for epoch in range(2):
    seen = positives_seen = 0
    for x_batch, y_batch in pipeline:
        seen += len(y_batch)
        positives_seen += int(fl.reduce_sum(y_batch))
    print(f"epoch {epoch}: {seen} examples, {positives_seen} positive")

# %% [markdown]
# ## Summary
#
# - A `Dataset` is a recipe; iterating it runs one epoch, and each loop starts afresh.
# - `from_tensor_slices` cuts arrays (and tuples or dicts of arrays) along the first axis;
#   `from_tensors` makes one element.
# - `map` transforms elements (tuples arrive as separate arguments), `filter` keeps some,
#   `apply` reuses a chain.
# - `batch(n)` stacks elements, part by part; `drop_remainder=True` drops a short last batch;
#   `unbatch` splits them again.
# - `take(n)` cuts a stream short, `repeat(k)` replays it; `batch` before `repeat` keeps each
#   epoch's batches separate.
#
# **Now practise:** [exercises 01](../exercises/01_dataset_basics_exercises.ipynb).
