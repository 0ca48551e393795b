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
# # Exercises 03: reading files
#
# Four exercises on [lesson 03](../notebooks/03_reading_files.ipynb): choosing
# `record_defaults`, writing the complete CSV reader, reading binary fixed-length records,
# and finding the bad lines of a set of shards.
#
# Write your code where it says `# YOUR CODE HERE` (and delete the `raise
# NotImplementedError()` line), run the cell, then run the check below it. Each check writes
# fresh files of its own (new rows, new sizes, new bad lines) to a temporary folder, runs your
# code on them, and compares what comes back with what it wrote.

# %%
import os
import pathlib
import shutil

import numpy as np

import feedline
import feedline as fl
import feedline.checks
from feedline.data import AUTOTUNE, Dataset, FixedLengthRecordDataset, TextLineDataset
from feedline.errors import InvalidArgumentError

print("feedline", feedline.__version__)
# Files these exercises write go to workdir/03_reading_files_exercises/, emptied on every run.
ROOT = pathlib.Path("..") if pathlib.Path("../pyproject.toml").exists() else pathlib.Path(".")
WORKDIR = ROOT / "workdir" / "03_reading_files_exercises"
shutil.rmtree(WORKDIR, ignore_errors=True)
WORKDIR.mkdir(parents=True)

# %% [markdown]
# ## Exercise 1 ★ record_defaults for a weather table
#
# A weather log has five columns:
#
# | column | type | when the field is empty |
# |---|---|---|
# | `station` | string | the line is invalid: **required** |
# | `day` | int64 (day numbers go beyond 2³¹) | **required** |
# | `temperature` | float32 | NaN (unknown, not 0 degrees) |
# | `rain_mm` | float32 | 0.0 (no rain recorded means no rain) |
# | `note` | string | `""` |
#
# Write `weather_defaults()`, which returns the `record_defaults` list for
# `fl.io.decode_csv`. For a required column, give its dtype (`fl.string`, `fl.int64`).
#
# <details><summary>Hint</summary>
#
# One entry per column. A value entry is the default *and* fixes the type: `0.0` is float32,
# `0` would be int32, `""` a string. A dtype entry makes the column required. NaN as float32
# is `np.float32(np.nan)`.
#
# </details>

# %%
def weather_defaults():
    """The record_defaults for station, day, temperature, rain_mm, note."""
    ### BEGIN SOLUTION
    return [fl.string, fl.int64, np.float32(np.nan), 0.0, ""]
    ### END SOLUTION


# %%
for line in ["KSEA,8589934592,12.5,3.2,windy", "KSEA,8589934593,,,", ",8589934594,1,1,x"]:
    try:
        print(line, "->", fl.io.decode_csv(line, weather_defaults()))
    except InvalidArgumentError as error:
        print(line, "-> InvalidArgumentError:", error)

# %% tags=["check", "ex-03-1"]
"""Check exercise 1: types, defaults and required columns follow the weather schema."""
feedline.checks.ex03.check_weather_defaults(weather_defaults)

# %% [markdown]
# ## Exercise 2 ★★ The complete CSV reader
#
# A set of shards holds boxes: each file has the header `width,height,depth,price` and one
# box per line, all four values numbers, none of them missing. Write
# `csv_reader_dataset(filepaths, mean, std, batch_size=32, seed=42, n_readers=3)` that:
#
# - reads every line of every file in `filepaths` (a list of paths) exactly once per epoch,
#   never a header;
# - reads `n_readers` files at a time, and shuffles, both with `seed`, so that batches mix
#   lines of several files;
# - gives pairs `(inputs, target)`: `inputs` the 3 sizes scaled as `(sizes - mean) / std`
#   (`mean` and `std` are arrays of 3 numbers computed beforehand), `target` the price;
# - batches them: inputs of shape `(batch, 3)`, target `(batch, 1)`, both float32; all
#   batches full except the last one, which is smaller;
# - prepares the next batch ahead with `prefetch`.
#
# <details><summary>Hint</summary>
#
# Follow the order of the lesson's CSV reader: first the file names (shuffled with the seed),
# then one transformation that reads several files side by side and drops each file's first
# line, then the shuffle of lines, the parsing, the batching and the prefetch. In the parse
# function, `decode_csv` gives four fields; stack the first three for the inputs, and keep
# the last one with an axis of length 1 for the target.
#
# </details>

# %%
def csv_reader_dataset(filepaths, mean, std, batch_size=32, seed=42, n_readers=3):
    """Batches of (scaled inputs, target) from CSV shards with a header line."""
    ### BEGIN SOLUTION
    def parse(line):
        fields = fl.io.decode_csv(line, [fl.float32] * 4)
        inputs = (np.stack(fields[:3]) - mean) / std
        return inputs.astype(np.float32), np.stack(fields[3:])

    files = Dataset.list_files(filepaths, seed=seed)
    lines = files.interleave(lambda path: TextLineDataset(path).skip(1),
                             cycle_length=n_readers, num_parallel_calls=n_readers)
    lines = lines.shuffle(1000, seed=seed)
    return lines.map(parse, num_parallel_calls=AUTOTUNE).batch(batch_size).prefetch(1)
    ### END SOLUTION


# %%
boxes = np.random.default_rng(0).uniform([10, 10, 1, 50], [90, 40, 9, 900], size=(25, 4))
box_files = []
for shard in range(3):
    path = WORKDIR / f"boxes-{shard}.csv"
    rows = ["width,height,depth,price"] + [",".join(f"{v:.1f}" for v in row)
                                          for row in boxes[shard::3]]
    path.write_text("\n".join(rows) + "\n")
    box_files.append(str(path))
box_mean = boxes[:, :3].mean(0).astype(np.float32)
box_std = boxes[:, :3].std(0).astype(np.float32)
for inputs, target in csv_reader_dataset(box_files, box_mean, box_std, batch_size=10):
    print(inputs.shape, target.shape, inputs.dtype, "first row", inputs[0].round(2), target[0])

# %% tags=["check", "ex-03-2"]
"""Check exercise 2: every line once, no header, scaled inputs, batches of the right shape."""
feedline.checks.ex03.check_csv_reader_dataset(csv_reader_dataset)

# %% [markdown]
# ## Exercise 3 ★★ Binary sensor readings
#
# A sensor log is a binary file: a 6-byte header (`SNSR` and a record count), then one
# 14-byte record per reading: a sensor id as an unsigned 16-bit integer (2 bytes), then 3
# float32 readings (12 bytes). All numbers are **big-endian** (the most significant byte
# first, as network protocols write them).
#
# Write `read_readings(path)`: a dataset with one dict per record, `{"sensor": the id (a
# scalar), "values": the 3 readings as float32}`.
#
# <details><summary>Hint</summary>
#
# `FixedLengthRecordDataset(path, record_bytes=..., header_bytes=...)` gives each record as
# `bytes`; slice it (`record[:2]`, `record[2:]`) and decode each part with
# `fl.io.decode_raw(part, dtype, little_endian=False)`. Use `np.uint16` for the id; take
# element `[0]` of its decoded array to make it a scalar.
#
# </details>

# %%
def read_readings(path):
    """{"sensor": uint16 id, "values": 3 float32} for each 14-byte record after the header."""
    ### BEGIN SOLUTION
    def decode(record):
        sensor = fl.io.decode_raw(record[:2], np.uint16, little_endian=False)[0]
        values = fl.io.decode_raw(record[2:], fl.float32, little_endian=False)
        return {"sensor": sensor, "values": values}

    return FixedLengthRecordDataset(path, record_bytes=14, header_bytes=6).map(decode)
    ### END SOLUTION


# %%
readings_path = WORKDIR / "readings.bin"
with open(readings_path, "wb") as handle:
    handle.write(b"SNSR" + np.array([2], dtype=">u2").tobytes())
    for sensor, values in [(7, [20.5, 21.0, 19.75]), (300, [-3.5, 0.0, 1.25])]:
        handle.write(np.array([sensor], dtype=">u2").tobytes()
                     + np.array(values, dtype=">f4").tobytes())
print(readings_path.stat().st_size, "bytes")
for reading in read_readings(str(readings_path)):
    print(int(reading["sensor"]), reading["values"])

# %% tags=["check", "ex-03-3"]
"""Check exercise 3: every record read; ids and big-endian readings decoded."""
feedline.checks.ex03.check_read_readings(read_readings)

# %% [markdown]
# ## Exercise 4 ★★★ Find the bad lines
#
# A nightly export writes shards with the header `id,score,label`. Some lines are broken: a
# missing field, text where a number belongs, a field too many or too few. Before training,
# you want the full list, not just the first error.
#
# Write `bad_lines(filepaths, record_defaults)`: every line that
# `fl.io.decode_csv(line, record_defaults)` refuses, as a sorted list of
# `(file name, line number)` pairs. The file name is the base name (`"log-01.csv"`); lines
# are counted from 1 in each file, the header being line 1.
#
# <details><summary>Hint</summary>
#
# Each file on its own, so that line numbers restart. You can tag lines as in the lesson
# (`Dataset.zip` of the path, `Dataset.range(1, ...)` and `TextLineDataset(path)`, then
# `skip(1)`), or read with plain Python. Catch `InvalidArgumentError` per line and carry on.
#
# </details>

# %%
def bad_lines(filepaths, record_defaults):
    """Sorted (file name, line number) of every line decode_csv refuses; header = line 1."""
    ### BEGIN SOLUTION
    found = []
    for path in filepaths:
        numbered = Dataset.zip(Dataset.range(1, 1_000_000_000), TextLineDataset(path)).skip(1)
        for number, line in numbered:
            try:
                fl.io.decode_csv(line, record_defaults)
            except InvalidArgumentError:
                found.append((os.path.basename(path), int(number)))
    return sorted(found)
    ### END SOLUTION


# %%
log_path = WORKDIR / "log-00.csv"
log_path.write_text("id,score,label\n1,0.5,cat\n2,oops,dog\n3,0.25\n,0.75,eel\n5,1.0,cat\n")
print(bad_lines([str(log_path)], [fl.int64, fl.float32, ""]))

# %% tags=["check", "ex-03-4"]
"""Check exercise 4: every refused line, named by file and line number."""
feedline.checks.ex03.check_bad_lines(bad_lines)

# %% [markdown]
# ## Going further
#
# In exercise 4 every bad line stops `decode_csv`. Some bad lines do not: a temperature of
# `9999` or a negative price decodes fine. Where in the reader of exercise 2 would you add a
# check of the *values*, and should it drop the line, clip it, or stop?
