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
# # 13 Memory and order
#
# A pipeline's memory lives in its buffers. `shuffle`, `prefetch` and `interleave` each hold
# some elements, and how many bytes that is depends on **where** in the chain the buffer
# sits: before a decoding map, an element may be a 2 KiB record; after it, a 48 KiB image.
# Moving one transformation can shrink the memory a pipeline needs by ten times or more.
#
# **What you will learn**
#
# - what the buffers of `shuffle`, `prefetch` and `interleave` hold, and how many elements;
# - how much larger elements get after a decoding map (here about 25 times);
# - how to predict a pipeline's peak memory (buffer size × element size), and check the
#   prediction with `tracemalloc`;
# - two reorderings that save memory, and when a reordering changes the elements.

# %%
import pathlib
import shutil
import zlib

import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.data import Dataset
from feedline.perf import PALETTE
from feedline.perf.memory import element_bytes, format_bytes, peak_bytes

print("feedline", fl.__version__)
np.random.seed(13)
# This lesson's files go to workdir/13_memory_and_order/, emptied here so every run starts fresh.
BASE = pathlib.Path("../workdir" if pathlib.Path("../pyproject.toml").exists() else "workdir")
WORKDIR = BASE / "13_memory_and_order"
shutil.rmtree(WORKDIR, ignore_errors=True)
WORKDIR.mkdir(parents=True)

# %% [markdown]
# ## A small image data set
#
# We make 512 images of 64 × 64 pixels with 3 colour channels, and store each one
# **compressed** in its own file, the way JPEG or PNG files sit on disk. Each image has flat
# colour tiles (which compress well) and a noisy square (which does not).

# %%
IMAGES, SIDE = 512, 64
noise = np.random.default_rng(13)


def make_image(i):
    """A 64 x 64 x 3 uint8 image: colour tiles, plus a square of noise."""
    y, x = np.mgrid[0:SIDE, 0:SIDE]
    red, green = (x // 8 * 30 + i) % 256, (y // 8 * 30 + 2 * i) % 256
    blue = np.full_like(x, 40 * i % 256)
    image = np.stack([red, green, blue], axis=-1)
    image[16:40, 16:40] += noise.integers(0, 64, size=(24, 24, 3))
    return (image % 256).astype(np.uint8)


image_dir = WORKDIR / "images"
image_dir.mkdir()
for i in range(IMAGES):
    (image_dir / f"img-{i:03d}.z").write_bytes(zlib.compress(make_image(i).tobytes()))
print(f"{IMAGES} files in {image_dir}")

# %% [markdown]
# The pipeline reads a file (a few KiB of compressed bytes), then decodes it: decompress,
# reshape to 64 × 64 × 3, and convert to float32 in [0, 1], as a model wants its input.

# %%
def read_file(path):
    with open(path, "rb") as file:
        return file.read()


def decode(data):
    """Compressed bytes -> a 64 x 64 x 3 float32 image with values in [0, 1]."""
    pixels = np.frombuffer(zlib.decompress(data), dtype=np.uint8)
    return pixels.reshape(SIDE, SIDE, 3).astype(np.float32) / 255.0


def records():
    """The compressed images, read from their files in name order."""
    return Dataset.list_files(str(image_dir / "*.z"), shuffle=False).map(read_file)


# %% [markdown]
# ## Element sizes before and after a map
#
# A map can change the size of an element a lot. **Predict** how much larger a decoded
# image is than its file: 64 × 64 × 3 values of 4 bytes each, against a file of a couple of
# KiB.

# %%
encoded_sizes = [element_bytes(record) for record in records()]
ENCODED = float(np.mean(encoded_sizes))  # bytes of one compressed record, on average
DECODED = element_bytes(decode(read_file(image_dir / "img-000.z")))  # bytes of one image
print(f"compressed record : {format_bytes(ENCODED)} on average "
      f"(from {format_bytes(min(encoded_sizes))} to {format_bytes(max(encoded_sizes))})")
print(f"uint8 pixels      : {format_bytes(SIDE * SIDE * 3)}")
print(f"float32 image     : {format_bytes(DECODED)}  = {DECODED / ENCODED:.0f} x the record")

# %% [markdown]
# The decoded image is about 25 times larger than the record: the compression saves about
# 6 times, and float32 takes 4 bytes where uint8 took 1. Real JPEGs behave alike: a photo
# of 30 KiB often decodes to 200 × 200 × 3 float32 values, 470 KiB, 15 times more. Every
# element a buffer holds *after* the decode costs that much more than one held *before* it.

# %% [markdown]
# ## What each buffer holds
#
# | transformation | holds | how many |
# |---|---|---|
# | `shuffle(S)` | the elements of its input, waiting to be picked at random | up to `S` |
# | `prefetch(n)` | the elements its background thread made ahead | up to `n` |
# | `interleave(f, cycle_length=c)` | `c` open inputs (datasets made by `f`), with whatever each one holds | `c` inputs |
#
# Two things decide the bytes: the **count** in the table, and the **size of one element
# at that point** of the chain. A `prefetch(2)` after `batch(32)` holds 2 batches, so 64
# images. A `shuffle(256)` before the decode holds 256 records, after it 256 images.
#
# The picture below draws a small version of the pipeline, `shuffle(16)`, `batch(4)`,
# `prefetch(2)`, with the decode in two places. Each box is one element the buffer holds,
# and its width is the element's size, on the same scale in both panels.

# %%
def draw_buffers(ax, title, rows, width):
    """One row per buffer; each held element is a box whose width is its size in KiB."""
    for row, (label, count, size, colour) in enumerate(rows):
        for k in range(count):
            ax.add_patch(plt.Rectangle((k * size / 1024, -row - 0.3), size / 1024, 0.6,
                                       facecolor=colour, edgecolor="black", linewidth=0.6))
        ax.text(count * size / 1024 + width * 0.01, -row,
                f"{count} x {format_bytes(size)} = {format_bytes(count * size)}", va="center")
    ax.set_yticks([-row for row in range(len(rows))], [label for label, *_ in rows])
    ax.set_xlim(0, width)
    ax.set_ylim(-len(rows) + 0.4, 0.6)
    ax.set_xlabel("KiB held")
    ax.set_title(title, loc="left")


small = 16, 4, 2  # shuffle buffer, batch size, prefetch buffer for the picture
rows_late = [("shuffle(16)\nholds images", 16, DECODED, PALETTE[5]),
             ("prefetch(2)\nholds batches", 2, 4 * DECODED, PALETTE[4])]
rows_early = [("shuffle(16)\nholds records", 16, ENCODED, PALETTE[2]),
              ("prefetch(2)\nholds batches", 2, 4 * DECODED, PALETTE[4])]
fig, axes = plt.subplots(2, 1, figsize=(11, 5.5))
draw_buffers(axes[0], "records.map(decode).shuffle(16).batch(4).prefetch(2)", rows_late, 1100)
draw_buffers(axes[1], "records.shuffle(16).map(decode).batch(4).prefetch(2)", rows_early, 1100)
fig.tight_layout()
plt.show()

# %% [markdown]
# The prefetch buffer is the same in both: it sits after the batch, so it holds 2 batches of
# 4 decoded images whatever happens above it. The shuffle buffer holds the same *number* of
# elements in both, but in the bottom panel they are small records, and the row almost
# vanishes.

# %% [markdown]
# ## Predict, then measure: decode before or after the shuffle
#
# Now the full size: `shuffle(256)`, `batch(32)`, `prefetch(2)`. The peak memory is what the
# full buffers hold, plus the work in flight:
#
# - the **shuffle buffer**: 256 × (the size of an element where the shuffle sits);
# - the **prefetch buffer** and the batches around it: while the background thread
#   assembles a new batch, the buffer holds 1 batch (the other slot was just taken), the
#   training loop holds 1, and the new batch exists twice for a moment (as a list of 32
#   images and as the stacked array). That is 1 + 1 + 2 = **prefetch + 2 batches** in all.
#
# **Predict the peak of each pipeline in MiB** (1 MiB = 1024 KiB), using the sizes above,
# and write your numbers in the cell below before you run the one after it.
#
# <details><summary>Our prediction</summary>
#
# A batch is 32 × 48 KiB = 1.5 MiB, so the batches cost (2 + 2) × 1.5 = 6 MiB in both.
#
# - decode, then shuffle: 256 × 48 KiB = 12 MiB of images, so **18 MiB**;
# - shuffle, then decode: 256 × 1.9 KiB = 0.5 MiB of records, so **6.5 MiB**.
#
# </details>

# %%
# Your predictions, in MiB. Replace each None by a number, then run the next cell.
my_prediction_mib = {"decode, then shuffle": None, "shuffle, then decode": None}

# %% [markdown]
# To measure, `peak_bytes` (from `feedline.perf.memory`) runs one epoch under Python's
# `tracemalloc`, which counts every allocation, NumPy arrays included, in every thread. It
# returns the highest amount allocated at any moment, above what was allocated before the
# epoch began. Its loop sleeps 10 ms per batch, standing in for a training step slower than
# the pipeline, so that the prefetch buffer fills up as it would in training.

# %% tags=["nbval-ignore-output"]
SHUFFLE, BATCH, PREFETCH = 256, 32, 2


def pipeline(order, seed=1):
    if order == "decode, then shuffle":
        ds = records().map(decode).shuffle(SHUFFLE, seed=seed)
    else:
        ds = records().shuffle(SHUFFLE, seed=seed).map(decode)
    return ds.batch(BATCH).prefetch(PREFETCH)


def predicted_peak(shuffled_element_bytes):
    """Shuffle buffer + (prefetch + 2) batches, in bytes."""
    return SHUFFLE * shuffled_element_bytes + (PREFETCH + 2) * BATCH * DECODED


formula = {"decode, then shuffle": predicted_peak(DECODED),
           "shuffle, then decode": predicted_peak(ENCODED)}
STEP = 0.010  # seconds of "training" per batch
measured = {order: peak_bytes(pipeline(order), step_seconds=STEP) for order in formula}
MIB = 1024 ** 2
print(f"{'':22s}{'yours':>8s}{'formula':>10s}{'measured':>10s}")
for order in formula:
    yours = my_prediction_mib[order]
    yours = "-" if yours is None else f"{yours:.1f}"
    print(f"{order:22s}{yours:>8s}{formula[order] / MIB:>10.1f}{measured[order] / MIB:>10.1f}"
          f"   ({measured[order] / formula[order]:.0%} of the formula)")
print(f"shuffling the records first needs {measured['decode, then shuffle'] / measured['shuffle, then decode']:.1f} "
      "times less memory")

# %% [markdown]
# The measurements land within about 5% of the formula: the rest is the Python objects
# around the arrays, the small temporary arrays of one decode, and the bytes read from the
# current file. The formula is good enough to *choose* with: moving one line cut the memory
# nearly three times, and with 1000 × 1000 images instead of 64 × 64 the same move saves
# gigabytes.
#
# The formula counts **full** buffers, the worst case. With a loop faster than the pipeline
# the prefetch buffer is often empty, since every batch is taken as soon as it is made. Run
# the same measurement with no training step: depending on how the two threads take turns,
# you see the same peak or up to a batch less. Never more.

# %% tags=["nbval-ignore-output"]
for order in formula:
    fast = peak_bytes(pipeline(order))
    print(f"{order:22s} no step: {fast / MIB:.1f} MiB "
          f"(with the step {measured[order] / MIB:.1f} MiB, a batch is {BATCH * DECODED / MIB} MiB)")

# %% [markdown]
# Plan memory for the full buffers: a real training step is slower than a well-tuned pipeline
# most of the time, which is why the buffers are there.

# %% [markdown]
# ## Same elements? Check it
#
# A reordering is only free if the pipeline still gives the same elements. Here it does,
# exactly, in the same order. `shuffle` picks a *position* in its buffer with its random
# numbers; what the element is does not matter to it. So with the same seed and the same
# buffer size, shuffling the records and then decoding picks the same images in the same
# order as decoding and then shuffling.

# %%
late = [batch for batch in pipeline("decode, then shuffle", seed=7)]
early = [batch for batch in pipeline("shuffle, then decode", seed=7)]
same = len(late) == len(early) and all(np.array_equal(a, b) for a, b in zip(late, early))
print(f"{len(late)} batches of shape {late[0].shape}; identical in both orders: {same}")

# %% [markdown]
# That holds because `decode` is a plain function of its input. A *random* map (an
# augmentation drawing its own numbers) would draw them in a different order, so its
# elements would differ; the distribution would be the same, but not the values.

# %% [markdown]
# ## Batch before or after a big buffer
#
# `shuffle(S)` holds `S` elements *of its input*. After `batch(32)`, one element is a whole
# batch, so the same `shuffle(S)` holds 32 times more images. **Predict** the peak of
# `images.shuffle(8).batch(32)` against `images.batch(32).shuffle(8)`, both followed by
# `prefetch(2)`.
#
# <details><summary>Our prediction</summary>
#
# - shuffle, then batch: 8 × 48 KiB = 0.4 MiB, plus (2 + 2) batches of 1.5 MiB: **6.4 MiB**;
# - batch, then shuffle: 8 batches × 1.5 MiB = 12 MiB, plus the same 6 MiB: **18 MiB**.
#
# </details>

# %% tags=["nbval-ignore-output"]
def images():
    return records().map(decode)


SMALL_SHUFFLE = 8
batch_bytes = BATCH * DECODED
second = {
    "shuffle(8).batch(32)": (images().shuffle(SMALL_SHUFFLE, seed=3).batch(BATCH),
                             SMALL_SHUFFLE * DECODED),
    "batch(32).shuffle(8)": (images().batch(BATCH).shuffle(SMALL_SHUFFLE, seed=3),
                             SMALL_SHUFFLE * batch_bytes),
}
print(f"{'':24s}{'formula':>10s}{'measured':>10s}")
for name, (ds, shuffle_bytes) in second.items():
    expected = shuffle_bytes + (PREFETCH + 2) * batch_bytes
    got = peak_bytes(ds.prefetch(PREFETCH), step_seconds=STEP)
    print(f"{name:24s}{expected / MIB:>10.1f}{got / MIB:>10.1f}   ({got / expected:.0%})")

# %% [markdown]
# Both land within about 10% of the formula. The same `shuffle(8)` costs about 3 times the memory of the whole first pipeline once it
# sits after the batch. (A buffer holds at most as many elements as its input has: with
# only 16 batches in the data set, a `shuffle(64)` after the batch would hold all 16.)
#
# This reordering also **changes the elements**. Shuffling batches moves whole batches
# around: the images inside a batch stay the ones that were read together. Look at which
# images (by file number) land in the first batches of each order:

# %%
numbered = Dataset.range(IMAGES)  # the file numbers stand in for the images
for name, ds in [("shuffle(8).batch(32)", numbered.shuffle(8, seed=3).batch(BATCH)),
                 ("batch(32).shuffle(8)", numbered.batch(BATCH).shuffle(8, seed=3))]:
    first_batches = [batch[:6].tolist() for batch in ds.take(2)]
    print(f"{name}: first 6 images of the first 2 batches: {first_batches}")

# %% [markdown]
# With `batch(32).shuffle(8)` every batch is a run of 32 neighbouring files: only the
# order of the batches is random. That is a coarser shuffle (the *granularity* is a batch),
# and the model sees the same groups every epoch. Sometimes that is acceptable, for example
# when the files were already shuffled when they were written; but it is a different
# pipeline, not a free reordering. Keep the shuffle before the batch.

# %% [markdown]
# ## Measuring the pipeline as written
#
# TensorFlow 2.21 adds a `prefetch(AUTOTUNE)` at the end of a pipeline by default (the
# `inject_prefetch` rewrite; `ds.explain()` shows it, and [lesson 15](15_optimizations.ipynb)
# shows every rewrite and what it buys), and so does feedline. That prefetch would hold
# elements of its own, so where a pipeline here does not end with its own prefetch, the lesson
# switches the automatic one off with the options below: it then runs exactly as written.

# %%
AS_WRITTEN = fl.data.Options()
AS_WRITTEN.experimental_optimization.inject_prefetch = False
example = Dataset.range(3).map(abs)
print(example.explain(), end="\n\n")  # by default
print(example.with_options(AS_WRITTEN).explain())

# %% [markdown]
# ## Interleave holds its open inputs
#
# `interleave(f, cycle_length=c)` keeps `c` inputs open, and each holds what `f` made. When
# `f` loads a whole shard into memory (a `.npy` file of images, say), the buffer is `c`
# shards. Here are 8 shards of 64 uint8 images (768 KiB each).

# %%
shard_paths = []
for shard in range(8):
    path = WORKDIR / f"shard-{shard}.npy"
    np.save(path, np.stack([make_image(64 * shard + i) for i in range(64)]))
    shard_paths.append(str(path))
SHARD = 64 * SIDE * SIDE * 3
print(f"{len(shard_paths)} shards of {format_bytes(SHARD)}")


def load_shard(path):
    """All the images of one shard, as a dataset of images (the shard stays in memory)."""
    return Dataset.from_tensor_slices(np.load(path.decode()))


# %% [markdown]
# **Predict** the peak for `cycle_length` 1, 2 and 4: `cycle_length` shards of 768 KiB.
#
# <details><summary>Our prediction</summary>
#
# 768 KiB, 1.5 MiB and 3 MiB. One surprise awaits with `cycle_length=1`; read on after the
# measurement.
#
# </details>

# %% tags=["nbval-ignore-output"]
shards = Dataset.from_tensor_slices(np.array(shard_paths, dtype=object))
print(f"{'cycle_length':>12s}{'formula':>10s}{'measured':>10s}")
for cycle_length in (1, 2, 4):
    got = peak_bytes(shards.interleave(load_shard, cycle_length=cycle_length)
                     .with_options(AS_WRITTEN))
    print(f"{cycle_length:>12d}{format_bytes(cycle_length * SHARD):>10s}"
          f"{format_bytes(got):>10s}")

# %% [markdown]
# Each extra open input adds one shard, as predicted, except with `cycle_length=1`, which
# shows 2 shards. An image taken from a shard is a NumPy *view*: a window on the shard's
# array, which keeps the whole array alive. When the only open shard ends, the loop still
# holds its last image, so the old shard is still in memory while the next one loads. (With
# 2 or more open shards, the image the loop holds comes from a shard that is still open.)
# A `shuffle` after such an interleave would keep every shard alive while one of its images
# waits in the buffer; `.map(np.copy)` after the slicing makes each image independent.
#
# With `num_parallel_calls`, feedline's interleave
# reads every open input in its own thread and also opens the next `cycle_length + 1` inputs
# ahead, so that a new input is ready when one ends. Those are in memory too: up to
# `2 × cycle_length + 1` shards, plus, as with `cycle_length=1` above, the finished shard
# that the image the loop still holds keeps alive (here 8 shards is all there is).

# %% tags=["nbval-ignore-output"]
for cycle_length in (1, 2):
    got = peak_bytes(shards.interleave(load_shard, cycle_length=cycle_length,
                                       num_parallel_calls=cycle_length))
    print(f"parallel, cycle_length {cycle_length}: up to {2 * cycle_length + 2} shards in "
          f"memory, measured {got / SHARD:.1f} shards")

# %% [markdown]
# The speed of a parallel interleave costs memory: choose `cycle_length` for the speed you
# need (lesson 09) and check the memory it holds.

# %% [markdown]
# ## Choosing an order
#
# Put the buffers where elements are small, as long as the elements stay the same:
#
# - **shuffle before the decode** (or any map that makes elements bigger). With a fixed
#   seed the result is identical; without one it is just as random.
# - **shuffle before the batch**: after it, the buffer counts batches, and the shuffle
#   moves whole batches (a different, coarser shuffle).
# - **prefetch after the batch** is normal, but remember it counts batches: `prefetch(8)`
#   after `batch(256)` of 48 KiB images holds 96 MiB.
# - **a random map** (augmentation) can move across a shuffle only if you accept different
#   random draws; a `cache` must stay above it (lesson 11).

# %% [markdown]
# ## Summary
#
# - `shuffle(S)` holds up to `S` elements, `prefetch(n)` up to `n` elements, and
#   `interleave` its `cycle_length` open inputs (and, in parallel, the inputs it opened
#   ahead). An element is whatever flows at that point: a record, an image, or a batch.
# - A decoding map can make elements 4 to 30 times larger: here 1.9 KiB became 48 KiB.
# - Predict a peak as **buffer size × element size** for every buffer, plus the batches in
#   flight (prefetch + 2 here), then measure with `tracemalloc` (`peak_bytes`). The
#   prediction came within about 5% of the measurement.
# - Shuffling records before the decode gave exactly the same batches with about a third of
#   the memory; shuffling after the batch multiplies the buffer by the batch size and
#   changes the shuffle's granularity.
#
# **Now practise:** [exercises 13](../exercises/13_memory_and_order_exercises.ipynb).
