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
# # 16 Random access
#
# A `Dataset` is a stream: it reads its files from the start, and the only way to element
# 700 is through elements 0 to 699. That is cheap and works with any file, but three things
# are hard for a stream: a shuffle that mixes the *whole* dataset, splitting the data between
# machines so that each record goes to exactly one, and restarting a crashed run exactly where
# it stopped.
#
# All three become easy when the file can be read **at any index**, like a list. This lesson
# builds such a reader from three parts, a *data source*, a *sampler* and a *loader*, the
# design used by Grain and TensorFlow Datasets, here with `feedline.sources`.
#
# **What you will learn**
#
# - the source / sampler / loader split, drawn, then built step by step;
# - how much a buffer shuffle mixes compared with a global shuffle, predicted then measured;
# - sharding between two (simulated) machines: no record twice, no record lost;
# - crashing a reader mid-epoch and resuming it in a new process, with nothing lost or repeated;
# - when to use a `Dataset` and when a random-access loader, and what to do when one machine is
#   not enough.

# %%
import json
import pathlib
import shutil
import struct
import subprocess
import sys
import time

import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.data import Dataset
from feedline.perf import PALETTE
from feedline.sources import (ArrayRecordDataSource, ArrayRecordWriter, Batch, DataLoader,
                              IndexSampler, MapTransform, ShardOptions)

print("feedline", fl.__version__)
# This lesson's files go to workdir/16_random_access/, emptied here so every run starts fresh.
BASE = pathlib.Path("../workdir" if pathlib.Path("../pyproject.toml").exists() else "workdir")
WORKDIR = BASE / "16_random_access"
shutil.rmtree(WORKDIR, ignore_errors=True)
WORKDIR.mkdir(parents=True)

# %% [markdown]
# ## Some data to read
#
# 2,000 small records, each one a record number (4 bytes) followed by 32 float32 "features"
# (128 bytes), written to an **ArrayRecord** file. ArrayRecord is a file format made for
# random access: it ends with an index of where each record starts, so reading record 1,234
# costs one seek, not a pass over the 1,233 before it. (An uncompressed TFRecord file can be
# read the same way once you build such an index yourself: `feedline.sources.TFRecordDataSource`
# does that and keeps the index beside the file.)
#
# Keeping the record number inside each record lets us see later which records a reader got.

# %%
NUM_RECORDS, FEATURES = 2000, 32
RECORD = struct.Struct(f"<i{FEATURES}f")


def make_record(number, rng):
    return RECORD.pack(number, *rng.standard_normal(FEATURES).astype(np.float32))


PATH = str(WORKDIR / "train.array_record")
rng = np.random.default_rng(16)
with ArrayRecordWriter(PATH) as writer:
    for number in range(NUM_RECORDS):
        writer.write(make_record(number, rng))
print(f"{PATH}: {pathlib.Path(PATH).stat().st_size / 1024:.0f} KiB, "
      f"{NUM_RECORDS} records of {RECORD.size} bytes")

# %% [markdown]
# ## Three parts
#
# A stream mixes two questions: *which* record comes next, and *how* to read and prepare it.
# The random-access design answers them in separate places:
#
# - the **data source** knows the file: `len(source)` and `source[i]` (record `i`, as bytes);
# - the **sampler** knows the order: position `p` of the stream is record `sampler[p]`, decided
#   by arithmetic alone (the epoch, the shuffle seed, this machine's shard), before anything is
#   read;
# - the **loader** walks the positions 0, 1, 2, ..., asks the sampler for a record number,
#   reads it from the source, decodes it in worker threads or processes, and batches. Its whole
#   state is one number: the next position.

# %%
def draw_box(ax, x, y, width, text, color):
    ax.add_patch(plt.Rectangle((x, y), width, 1.2, facecolor=color, alpha=0.25,
                               edgecolor=color, linewidth=2))
    ax.text(x + width / 2, y + 0.6, text, ha="center", va="center", fontsize=10)


def draw_arrow(ax, x0, x1, y, label=""):
    ax.annotate("", xy=(x1, y), xytext=(x0, y), arrowprops=dict(arrowstyle="->", lw=1.5))
    ax.text((x0 + x1) / 2, y + 0.15, label, ha="center", va="bottom", fontsize=8)


fig, ax = plt.subplots(figsize=(12, 3.4))
draw_box(ax, 0.0, 2.0, 2.6, "sampler\nposition p -> record k\n(epoch, seed, shard)", PALETTE[0])
draw_box(ax, 3.6, 2.0, 2.4, "data source\nsource[k] -> bytes\n(one seek)", PALETTE[1])
draw_box(ax, 7.0, 2.0, 2.6, "workers\ndecode, map\n(p % workers)", PALETTE[2])
draw_box(ax, 10.6, 2.0, 1.6, "Batch", PALETTE[3])
draw_box(ax, 13.2, 2.0, 2.0, "training\nloop", PALETTE[4])
draw_arrow(ax, 2.6, 3.6, 2.6, "k")
draw_arrow(ax, 6.0, 7.0, 2.6, "bytes")
draw_arrow(ax, 9.6, 10.6, 2.6, "elements")
draw_arrow(ax, 12.2, 13.2, 2.6, "batches")
draw_box(ax, 5.2, 0.0, 5.6, "loader state = {'next_position': p}\n(one number: saved, restored)",
         "grey")
ax.annotate("", xy=(8.0, 1.2), xytext=(8.0, 2.0), arrowprops=dict(arrowstyle="<->", lw=1))
ax.set_xlim(-0.2, 15.4)
ax.set_ylim(-0.2, 3.6)
ax.axis("off")
ax.set_title("A random-access loader: the sampler decides, the source reads, the loader works")
plt.show()

# %% [markdown]
# ### Step 1: the data source
#
# `ArrayRecordDataSource` opens the file and answers `len` and indexing. Reading record 1,234
# does not touch the records before it.

# %%
source = ArrayRecordDataSource(PATH)
record = source[1234]
print(len(source), "records; record 1234 is", len(record), "bytes, and holds number",
      RECORD.unpack(record)[0])
print("several at once:", [RECORD.unpack(r)[0] for r in source[[5, 1999, 0]]])

# %% [markdown]
# ### Step 2: the sampler
#
# `IndexSampler` maps positions to record numbers. With `shuffle=True` and a seed, each epoch
# is a different permutation of all the records. The permutation is computed one position at a
# time by a small keyed function (a Feistel network), so it needs no table: position
# 1,000,000,000 of a billion-record dataset costs the same as position 0.

# %%
sampler = IndexSampler(NUM_RECORDS, shuffle=True, seed=42, num_epochs=2)
print("epoch 0 starts with records", [sampler[p].record_key for p in range(8)])
print("epoch 1 starts with records", [sampler[p].record_key for p in range(2000, 2008)])
print("position 3999:", sampler[3999])
epoch0 = [sampler[p].record_key for p in range(NUM_RECORDS)]
print("epoch 0 is a permutation of all 2000 records:", sorted(epoch0) == list(range(2000)))


# %% [markdown]
# ### Step 3: the loader
#
# The loader applies *operations* to each record: a `MapTransform` (here: decode the bytes
# into a dict of arrays), then a `Batch`. With `worker_count=2` two worker threads read and
# decode positions 0, 2, 4, ... and 1, 3, 5, ...; the loader hands the results back in
# position order, so the output is the same for any number of workers.

# %%
class Decode(MapTransform):
    """Bytes -> {"number": int32, "features": float32[32]}."""

    def map(self, record):
        values = np.frombuffer(record, dtype=np.float32, offset=4)
        return {"number": np.int32(struct.unpack_from("<i", record)[0]), "features": values}


loader = DataLoader(data_source=source, sampler=sampler, operations=[Decode(), Batch(8)],
                    worker_count=2)
iterator = iter(loader)
first = next(iterator)
print("first batch:", first["number"].tolist(), first["features"].shape)
print("loader state after one batch:", iterator.get_state())
iterator.close()

# %% [markdown]
# ## Global shuffle versus buffer shuffle
#
# `Dataset.shuffle(buffer_size)` can only mix what is in its buffer: it keeps `buffer_size`
# elements, hands out a random one, and refills from the stream. The sampler permutes all the
# records at once. How much does that matter?
#
# One way to measure it: the **displacement** of each record, how far its position in the
# shuffled order is from its position in the file. In a perfectly random permutation of *n*
# records, the average displacement is about *n / 3* (the mean distance between two random
# points on a line of length *n*).
#
# **Predict** the average displacement for 2,000 records with buffers of 10, 100 and 500, and
# with the global shuffle.
#
# <details><summary>Our prediction</summary>
#
# Global: *n / 3*, about **667** (give or take 5%: one permutation is a random sample).
# A buffer of *B*: a record enters the buffer about *B* positions before its own place, and
# waits there a random number of steps that averages about *B*; some records leave early,
# some late, so the typical distance is **between *B* / 2 and *B***: 5 to 10, 50 to 100,
# 250 to 500. Far from 667, except for a buffer close to *n*.
#
# </details>

# %%
def displacements(order):
    """|position in the shuffled order - record number| for every record."""
    order = np.asarray(order)
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    return np.abs(position - np.arange(len(order)))


BUFFERS = (10, 100, 500)
orders = {f"buffer {size}": [int(x) for x in Dataset.range(NUM_RECORDS).shuffle(size, seed=1)]
          for size in BUFFERS}
orders["global (IndexSampler)"] = epoch0
predicted = {f"buffer {size}": (size / 2, size) for size in BUFFERS}
predicted["global (IndexSampler)"] = (0.95 * NUM_RECORDS / 3, 1.05 * NUM_RECORDS / 3)
for name, order in orders.items():
    low, high = predicted[name]
    measured = displacements(order).mean()
    print(f"{name:22s} predicted {low:4.0f} to {high:4.0f}, measured mean displacement "
          f"{measured:4.0f}  {'inside' if low <= measured <= high else 'OUTSIDE'}")

# %% [markdown]
# The picture says the same thing: each dot is a record, at its place in the file (x) and its
# place in the shuffled order (y). A small buffer keeps a narrow band along the diagonal:
# record 1,500 always comes out near position 1,500, and the first hundred positions only
# ever hold records from the start of the file. The global shuffle fills the square.

# %%
fig, axes = plt.subplots(1, 4, figsize=(14, 3.6), sharey=True)
for ax, (name, order), color in zip(axes, orders.items(), PALETTE):
    position = np.empty(NUM_RECORDS, dtype=np.int64)
    position[np.asarray(order)] = np.arange(NUM_RECORDS)
    ax.scatter(np.arange(NUM_RECORDS), position, s=1, color=color)
    ax.set_title(f"{name}\nmean displacement {displacements(order).mean():.0f}")
    ax.set_xlabel("record number (place in the file)")
axes[0].set_ylabel("place in the shuffled order")
plt.tight_layout()
plt.show()

# %% [markdown]
# If the file is sorted (all cats, then all dogs), a buffer of 100 gives batches of cats for
# the first half of the epoch. With a `Dataset` the usual fixes are to shuffle the *files* and
# interleave several of them, then buffer-shuffle; with random access the problem does not
# arise. The buffer costs memory too: 500 decoded images can be hundreds of megabytes, while
# the sampler holds nothing.

# %% [markdown]
# ## Sharding: two machines, one dataset
#
# When two machines train together, each must read *its own* half: a record read by both is
# seen twice per epoch, a record read by neither is lost. `ShardOptions(shard_index,
# shard_count)` gives each reader a contiguous, disjoint slice of the record numbers, and the
# sampler shuffles within the slice.
#
# Here two processes play the two machines. Each is a separate Python program (the file
# `machine.py` written below), started with `subprocess`: it opens the file itself, reads its
# shard with a loader, and prints the record numbers it saw. Nothing is shared but the file
# and the settings on the command line, as between two machines.

# %%
MACHINE = WORKDIR / "machine.py"
MACHINE.write_text('''"""One machine of lesson 16: `shard PATH INDEX COUNT` or `train PATH LOG [STATE]`."""
import json
import struct
import sys
import time

import numpy as np

from feedline.sources import (ArrayRecordDataSource, Batch, DataLoader, IndexSampler,
                              MapTransform, ShardOptions)


class Decode(MapTransform):
    def map(self, record):
        values = np.frombuffer(record, dtype=np.float32, offset=4)
        return {"number": np.int32(struct.unpack_from("<i", record)[0]), "features": values}


def read_shard(path, shard_index, shard_count):
    """Print the record numbers of this machine's shard, in the order it reads them."""
    source = ArrayRecordDataSource(path)
    sampler = IndexSampler(len(source), shuffle=True, seed=42, num_epochs=1,
                           shard_options=ShardOptions(shard_index, shard_count))
    loader = DataLoader(data_source=source, sampler=sampler, operations=[Decode(), Batch(50)])
    print(json.dumps([int(n) for batch in loader for n in batch["number"]]))


def train(path, log_path, state=None, step_seconds=0.01):
    """Train on batches, committing (record numbers, state) in one line after each one."""
    source = ArrayRecordDataSource(path)
    sampler = IndexSampler(len(source), shuffle=True, seed=7, num_epochs=1)
    batches = iter(DataLoader(data_source=source, sampler=sampler,
                              operations=[Decode(), Batch(40)], worker_count=2))
    if state is not None:
        batches.set_state(json.loads(state))
    with open(log_path, "a") as log:
        for batch in batches:
            time.sleep(step_seconds)  # the training step
            line = {"numbers": batch["number"].tolist(), "state": batches.get_state()}
            log.write(json.dumps(line) + "\\n")
            log.flush()


if __name__ == "__main__":
    if sys.argv[1] == "shard":
        read_shard(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        train(*sys.argv[2:])
''')


def machine(*args):
    """Start machine.py with these arguments (strings) as a new process."""
    return subprocess.Popen([sys.executable, str(MACHINE), *map(str, args)],
                            stdout=subprocess.PIPE, text=True)


start = time.perf_counter()
hosts = [machine("shard", PATH, index, 2) for index in range(2)]
shards = [json.loads(host.communicate()[0]) for host in hosts]
print(f"two processes read their shards in {time.perf_counter() - start:.1f} s "
      "(most of it is starting Python and importing NumPy)")

# %%
host0, host1 = set(shards[0]), set(shards[1])
print("machine 0 read", len(shards[0]), "records, starting", shards[0][:6])
print("machine 1 read", len(shards[1]), "records, starting", shards[1][:6])
print("read by both:", len(host0 & host1), "| read by neither:",
      NUM_RECORDS - len(host0 | host1))

# %% [markdown]
# No overlap and no loss, and each machine's order is shuffled. Two rules make that hold:
# both machines use **the same seed and the same number of records** (the sampler's answer is
# pure arithmetic, so two processes that agree on the inputs agree on the split), and the
# shards are cut from record numbers, not from files, so 7 files on 2 machines split as evenly
# as 8 would.
#
# When the records do not divide evenly (2,001 records on 2 machines), one shard has one
# record more. `drop_remainder=True` gives every shard `n // shard_count` records instead, so
# all machines take the same number of steps per epoch, at the cost of skipping the leftover
# record.

# %%
for drop in (False, True):
    sizes = [len(IndexSampler(2001, num_epochs=1, shard_options=ShardOptions(i, 2, drop)))
             for i in range(2)]
    print(f"2001 records on 2 machines, drop_remainder={drop}: shard sizes {sizes}")

# %% [markdown]
# ## A crash mid-epoch, and an exact resume
#
# A run that dies after 6 hours of a 10-hour epoch should not start the epoch again, nor skip
# to the next one. With a stream that is hard: the position inside a shuffle buffer and inside
# each open file is a lot of state. Here the loader's whole state is `{'next_position': p}`.
#
# The experiment:
#
# 1. a **process** (`machine.py train`) runs a "training loop": after each batch it appends one line to a
#    log, holding the record numbers it trained on and the loader state after that batch;
# 2. we **kill it** (SIGKILL, no chance to clean up) partway through the epoch;
# 3. a **new process** reads the last complete line of the log, restores the state, and
#    finishes the epoch, logging the same way;
# 4. we compare what the two processes trained on with a full, uninterrupted epoch.
#
# One detail matters: the record numbers and the state are written in **one line**, so a
# batch is either fully committed (its records trained, the state past them) or not at all.
# A line cut in half by the kill is ignored, and that batch is trained again after the restart.

# %%
CRASH_LOG, RESUME_LOG = WORKDIR / "crash.jsonl", WORKDIR / "resume.jsonl"


def committed(log_path):
    """The complete lines of a log (a line cut by a crash does not parse)."""
    lines = []
    for text in pathlib.Path(log_path).read_text().splitlines():
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:
            break
    return lines


victim = machine("train", PATH, CRASH_LOG)
while not CRASH_LOG.exists() or len(CRASH_LOG.read_text().splitlines()) < 20:
    time.sleep(0.005)
victim.kill()  # SIGKILL: no cleanup, like a machine losing power
victim.wait()
before = committed(CRASH_LOG)
print(f"killed (exit code {victim.returncode}) after {len(before)} committed batches of 40; "
      f"saved state {before[-1]['state']}")

# %%
survivor = machine("train", PATH, RESUME_LOG, json.dumps(before[-1]["state"]))
survivor.wait()
after = committed(RESUME_LOG)
print(f"the new process (exit code {survivor.returncode}) trained {len(after)} more batches")

# %%
trained = [n for line in before + after for n in line["numbers"]]
epoch_sampler = IndexSampler(NUM_RECORDS, shuffle=True, seed=7, num_epochs=1)
full_epoch = [int(n) for batch in DataLoader(data_source=source, sampler=epoch_sampler,
                                             operations=[Decode(), Batch(40)])
              for n in batch["number"]]
print("records trained:", len(trained), "| distinct:", len(set(trained)),
      "| missing:", NUM_RECORDS - len(set(trained)))
print("same order as an epoch that never crashed:", trained == full_epoch)

# %% [markdown]
# Every record exactly once, in the order an uninterrupted epoch gives. Three things made it
# possible: the order depends only on (seed, epoch, position), so the new process computes the
# same permutation; the state is a position, small enough to save after every batch; and the
# state was saved *with* the work it describes.
#
# (The state above is committed after every batch: 50 tiny writes. A real run saves it with
# the model checkpoint, every few minutes; after a crash it resumes from the checkpoint's
# position, and the batches trained after that checkpoint are trained again, as is the model.)

# %% [markdown]
# ## Which one to use
#
# | you have / you need | `Dataset` (a stream) | random-access loader |
# |---|---|---|
# | compressed files, CSV, a generator, data arriving over the network | yes | no: it needs `source[i]` |
# | ArrayRecord, uncompressed TFRecord with an index, arrays in memory | yes | yes |
# | shuffle quality | a buffer: mixes only nearby records | a full permutation, no buffer memory |
# | split between machines | by files (uneven when files do not divide) | by record, exact |
# | resume after a crash | hard: buffers and file offsets | one number |
# | one record costs | a sequential read (fast, any storage) | a seek (fine on SSD and local disk, slow on some network storage) |
#
# A rule of thumb: if your data can be read at random and you care about any of the last
# three rows (large runs on several machines, long epochs, preemptible machines), use the
# loader. For a single machine, a dataset that fits in a shuffle buffer, or files that can
# only be read in order, a `Dataset` is simpler and just as fast.

# %% [markdown]
# ## When one machine is not enough
#
# feedline teaches the ideas; for real work on several machines you want a maintained loader.
# In the JAX world that is **Grain** (`pip install grain`, Google's, the package
# `grain.python`), which has the same three parts under the same names. It reads the very
# files we wrote: ArrayRecord is a shared format, written here by the same C++ library Grain
# uses.
#
# The cell below reads shard 0 of 2 of our file with Grain's `DataLoader` and two worker
# **processes**, with the sampler settings we used above. (Grain's worker processes take about
# a second to start, and each may print a harmless warning that JAX is not installed; the cell
# is skipped with a note when Grain itself is not installed.)

# %%
import logging

logging.getLogger("absl").setLevel(logging.ERROR)  # Grain notes at import that JAX is absent
try:
    import grain.python as grain
except ImportError:
    grain = None
    print("Grain is not installed here (pip install grain); this part is skipped.")


class GrainDecode(grain.MapTransform if grain else object):
    """Grain's MapTransform: the record number from the record's first 4 bytes."""

    def map(self, record):
        return struct.unpack_from("<i", record)[0]


# %% tags=["nbval-ignore-output"]
if grain is not None:
    start = time.perf_counter()
    grain_loader = grain.DataLoader(
        data_source=grain.ArrayRecordDataSource(PATH),
        sampler=grain.IndexSampler(num_records=NUM_RECORDS, shuffle=True, seed=42,
                                   num_epochs=1,
                                   shard_options=grain.ShardOptions(shard_index=0,
                                                                    shard_count=2)),
        operations=[GrainDecode()], worker_count=2)
    grain_numbers = list(grain_loader)
    print(f"Grain, 2 worker processes: {len(grain_numbers)} records in "
          f"{time.perf_counter() - start:.1f} s, starting {grain_numbers[:6]}")
    print("the same records as feedline's shard 0:", set(grain_numbers) == host0)
    print("in the same order:", grain_numbers == shards[0])

# %% [markdown]
# (The `WARNING:absl` lines above, if you see them, come from Grain's two worker processes:
# each looks for JAX's profiler when it imports Grain and notes that JAX is not installed.
# They change nothing here.)
#
# The same records as feedline's shard 0, but in another order: both shuffle with a keyed
# permutation of the shard, and the two libraries use different permutation functions. Within
# one library, the order is fixed by the seed, which is all that resuming and sharding need.
# Grain's iterator also has `get_state` and `set_state` (its state is a small JSON text), and
# with JAX installed its `shard_options` can come from the machine it runs on
# (`ShardByJaxProcess`). Both libraries cut uneven shards the same way: with 2,001 records on
# 2 machines, records 0 to 1,000 go to the first and 1,001 to 2,000 to the second. The order
# inside a shard differs, though, so use one library for all the machines of a job.
#
# **The tf.data service**, for the TensorFlow side. When the input pipeline needs more CPU than
# the training machine has, TensorFlow can move it to other machines: a *dispatcher* process
# hands out work, and a pool of *worker* machines run the `tf.data` pipeline and stream the
# finished batches to the trainers over the network
# (`dataset.apply(tf.data.experimental.service.distribute(...))`). You add CPU by adding
# worker machines, and a preprocessing job can be shared by several trainers. You choose how
# the work is split: either every worker runs the whole pipeline and each produces its own
# epochs, or the dataset is divided among the workers so that each element is produced once
# per epoch (the service's form of sharding). The cost is an extra service to run and a
# network hop for every batch; it pays off when preprocessing, not the accelerator, is the
# bottleneck, which `feedline.perf` (lesson 07) tells you how to measure first.

# %% [markdown]
# ## Summary
#
# - A random-access loader splits the work in three: the **source** reads record `i`, the
#   **sampler** decides which record each position is (shuffle, shard, epoch) by arithmetic,
#   the **loader** reads positions in order with workers and batches.
# - A buffer shuffle moves a record by less than the buffer size (mean displacement 7, 71
#   and 316 for buffers of 10, 100 and 500); a global shuffle moves it by about *n / 3*
#   (about 667 of 2,000), with no buffer.
# - Shards cut from record numbers, with the same seed everywhere, give every record to exactly
#   one machine; `drop_remainder=True` makes all shards the same size.
# - The loader's state is one position; saved **with** the work it describes, it lets a new
#   process resume a killed one with no record lost or repeated.
# - Streams (`Dataset`) for files that must be read in order and single-machine work;
#   random access for global shuffles, exact sharding and resuming. Grain reads the same files
#   with the same design at scale, and the tf.data service moves a `tf.data` pipeline to other
#   machines.
#
# **Now practise:** [exercises 16](../exercises/16_random_access_exercises.ipynb).
