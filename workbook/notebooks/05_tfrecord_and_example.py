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
# # 05 TFRecord and Example
#
# A TFRecord file is a list of byte strings, one after another, each wrapped so that a reader
# can find where it ends and notice when it was damaged. What the byte strings hold is up to
# you; almost always it is one serialized `Example` (the message of
# [lesson 04](04_protocol_buffers.ipynb)) per record.
#
# **What you will learn**
#
# - the four parts of a record, drawn byte by byte, and its two checksums recomputed by hand;
# - what happens when one byte of a file flips: the error names the file and the offset;
# - what GZIP and ZLIB compression save on real files, and what they cost to read, predicted
#   then measured;
# - how to store images in `Example`s as PNG bytes and get the pixels back with
#   `fl.io.decode_png` / `decode_image`;
# - the parse specs side by side: `FixedLenFeature`, `VarLenFeature` (a `SparseTensor`) and
#   `RaggedFeature`, on the same records;
# - why `parse_example` on a batch beats `parse_single_example` per record, and what layout
#   lets a batch take the fixed-layout fast path (measured with and without it);
# - `SequenceExample` for sequences of different lengths.

# %%
import pathlib
import shutil
import struct
import time
import warnings

import crc32c
import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.data import Dataset, TFRecordDataset
from feedline.perf import PALETTE

print("feedline", fl.__version__)
np.random.seed(5)
MINIDATA = pathlib.Path("../minidata" if pathlib.Path("../pyproject.toml").exists()
                        else "minidata")
DIGIT_SHARDS = sorted(str(path) for path in (MINIDATA / "digits" / "tfrecord").glob("*.tfrecord"))
SEQUENCES = str(MINIDATA / "text" / "token_sequences.tfrecord")
# This lesson's files go to workdir/05_tfrecord_and_example/, emptied on every run.
BASE = pathlib.Path("../workdir" if pathlib.Path("../pyproject.toml").exists() else "workdir")
WORKDIR = BASE / "05_tfrecord_and_example"
shutil.rmtree(WORKDIR, ignore_errors=True)
WORKDIR.mkdir(parents=True)
print([pathlib.Path(path).name for path in DIGIT_SHARDS])

# %% [markdown]
# ## A record, byte by byte
#
# Every record in a TFRecord file has four parts, all numbers little-endian (lowest byte
# first):
#
# | bytes | what |
# |---:|---|
# | 8 | the length `n` of the data, an unsigned 64-bit integer |
# | 4 | a checksum of those 8 length bytes |
# | `n` | the data itself |
# | 4 | a checksum of the data |
#
# So each record costs 16 bytes on top of its data, and the next record starts right after
# the last checksum. There is no file header, no index and no footer: a reader must walk from
# the start. Here are the first bytes of the first digits shard.

# %%
shard = pathlib.Path(DIGIT_SHARDS[0]).read_bytes()
length, length_crc = struct.unpack_from("<QI", shard, 0)
data = shard[12:12 + length]
(data_crc,) = struct.unpack_from("<I", shard, 12 + length)
print("file size:", len(shard), "bytes")
print("first 12 bytes:", shard[:12].hex(" "))
print(f"length = {length}, stored length checksum = {length_crc}, "
      f"stored data checksum = {data_crc}")
print("the next record starts at byte", 12 + length + 4)


# %% [markdown]
# The same record, drawn. Each box is a byte; the data part is too long to draw whole, so the
# strip shows its first and last bytes with the middle cut out. The data starts with `0a`,
# the key of field 1 of `Example` (its `features`), exactly as lesson 04 decoded by hand.

# %%
def draw_record(record_bytes, data_length, shown=6):
    """One record as a strip of byte boxes: length, length CRC, data (cut), data CRC."""
    (size_crc,) = struct.unpack_from("<I", record_bytes, 8)
    (payload_crc,) = struct.unpack_from("<I", record_bytes, 12 + data_length)
    parts = [(f"length (uint64)\n= {data_length}", 0, 8, PALETTE[0]),
             (f"masked CRC of length\n= {size_crc}", 8, 12, PALETTE[1]),
             (f"data: {data_length} bytes\n(a serialized Example)", 12, 12 + data_length,
              PALETTE[2]),
             (f"masked CRC of data\n= {payload_crc}", 12 + data_length, 16 + data_length,
              PALETTE[3])]
    boxes = []  # (x position, text, colour)
    x = 0.0
    for label, start, end, colour in parts:
        first = x
        indices = list(range(start, end))
        if end - start > 2 * shown:
            indices = indices[:shown] + [None] + indices[-shown:]
        for index in indices:
            boxes.append((x, "…" if index is None else f"{record_bytes[index]:02x}", colour))
            x += 1
        parts_x = (first, x)
        boxes.append(("label", label, parts_x))
    fig, ax = plt.subplots(figsize=(x * 0.42, 2.2))
    for box in boxes:
        if box[0] == "label":
            _, label, (left, right) = box
            ax.annotate("", xy=(left + 0.05, -0.25), xytext=(right - 0.05, -0.25),
                        arrowprops=dict(arrowstyle="|-|", linewidth=0.8))
            ax.text((left + right) / 2, -0.45, label, ha="center", va="top", fontsize=9)
            continue
        left, text, colour = box
        ax.add_patch(plt.Rectangle((left, 0), 0.94, 0.9, facecolor=colour,
                                   edgecolor="black", linewidth=0.6))
        ax.text(left + 0.47, 0.45, text, ha="center", va="center", family="monospace",
                fontsize=9)
    ax.set_xlim(-0.2, x + 0.2)
    ax.set_ylim(-1.4, 1.0)
    ax.axis("off")
    fig.tight_layout()
    return fig


draw_record(shard, length)
plt.savefig(WORKDIR / "record_strip.png", dpi=80, bbox_inches="tight")
plt.show()

# %% [markdown]
# Read the strip from the left: `ae 00 00 00 00 00 00 00` is 0xae = 174, the data length,
# lowest byte first. Then come 4 bytes of checksum, the 174 data bytes, and 4 more bytes of
# checksum: 8 + 4 + 174 + 4 = 190 bytes, so the second record starts at byte 190.

# %% [markdown]
# ## The checksums, recomputed by hand
#
# The checksum is CRC32C (the "Castagnoli" CRC, which modern CPUs compute in hardware), then
# *masked*: rotated right by 15 bits and added to a fixed constant, modulo 2³². The mask is
# there because a file can hold records whose data itself contains CRCs (a TFRecord inside a
# record, say), and the CRC of bytes that already end in their own CRC is a fixed, special
# value; masking makes that coincidence harmless.
#
# The `crc32c` package computes the plain CRC; the masking is one line.

# %%
MASK_DELTA = 0xA282EAD8


def masked_crc32c(payload):
    """The checksum a TFRecord file stores for `payload`: CRC32C, rotated, plus a constant."""
    crc = crc32c.crc32c(payload)
    rotated = ((crc >> 15) | (crc << 17)) & 0xFFFFFFFF
    return (rotated + MASK_DELTA) & 0xFFFFFFFF


print(f"{'part':7s} {'plain CRC32C':>13s} {'masked':>11s} {'in the file':>11s}")
for part, payload, stored in [("length", shard[:8], length_crc), ("data", data, data_crc)]:
    print(f"{part:7s} {crc32c.crc32c(payload):13d} {masked_crc32c(payload):11d} {stored:11d}"
          f"  {'match' if masked_crc32c(payload) == stored else 'DIFFERENT'}")

# %% [markdown]
# Both match. With the format known, a reader is a short loop: read 12 bytes, check the
# length, read the data and 4 bytes, check the data, repeat. Walking the whole shard that way
# must end exactly at the last byte of the file, with 100 records.

# %%
def walk_records(buffer):
    """(offset, data) of every record of a TFRecord file's bytes, checking both CRCs."""
    records, position = [], 0
    while position < len(buffer):
        size, size_crc = struct.unpack_from("<QI", buffer, position)
        assert masked_crc32c(buffer[position:position + 8]) == size_crc, position
        payload = buffer[position + 12:position + 12 + size]
        (payload_crc,) = struct.unpack_from("<I", buffer, position + 12 + size)
        assert masked_crc32c(payload) == payload_crc, position
        records.append((position, payload))
        position += 16 + size
    return records, position


by_hand, end = walk_records(shard)
print(f"{len(by_hand)} records, the walk ended at byte {end} of {len(shard)}")
print("the first offsets:", [offset for offset, _ in by_hand[:5]])
same = [payload for _, payload in by_hand] == list(TFRecordDataset(DIGIT_SHARDS[0]))
print("same records as TFRecordDataset:", same)

# %% [markdown]
# ## One flipped byte
#
# Disks, networks and copies occasionally change a byte. Let us do it on purpose, on a copy
# in `../workdir/` (the files in `../minidata/` stay untouched): flip one bit in the data of
# the fourth record (index 3), then read the copy.

# %%
damaged = WORKDIR / "digits-damaged.tfrecord"
shutil.copyfile(DIGIT_SHARDS[0], damaged)
fourth_offset = by_hand[3][0]
flip_at = fourth_offset + 12 + 40  # a byte inside the fourth record's data
contents = bytearray(damaged.read_bytes())
contents[flip_at] ^= 0x01
damaged.write_bytes(bytes(contents))
print(f"flipped one bit of byte {flip_at}; the fourth record starts at {fourth_offset}")

delivered = []
try:
    for record in TFRecordDataset(str(damaged)):
        delivered.append(record)
except fl.errors.DataLossError as error:
    print(f"after {len(delivered)} good records: DataLossError:\n  {error}")

# %% [markdown]
# The three records before the damage arrive, then the reader stops with a `DataLossError`
# naming the file and the byte offset where the damaged record's **data** starts
# (the fourth record starts at byte 565, its data at 577). It does not skip the record and carry on: the data
# checksum failed, but the length checksum was fine, so the reader knows where the next
# record is; yet giving you a model trained on silently missing data is worse than stopping.
#
# A flip inside the 8 length bytes is worse: without a trusted length the reader cannot know
# where anything after it starts. The error then names the record's own start.

# %%
contents = bytearray(pathlib.Path(DIGIT_SHARDS[0]).read_bytes())
contents[fourth_offset + 1] ^= 0x01  # the second byte of the fourth record's length
damaged.write_bytes(bytes(contents))
try:
    print(sum(1 for _ in TFRecordDataset(str(damaged))), "records")
except fl.errors.DataLossError as error:
    print("DataLossError:", error)

# %% [markdown]
# If losing a few records is acceptable, `.ignore_errors()` turns the error into a skipped
# element and a warning at the end of the epoch. Here the reader stops at the damage, so
# the epoch has the 3 records before it, and you are told. (Feedline always warns with the
# count; TensorFlow skips silently unless you write `ignore_errors(log_warning=True)`.)

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kept = list(TFRecordDataset(str(damaged)).ignore_errors())
print(len(kept), "records;", "warning:", str(caught[0].message)[:100] if caught else None)

# %% [markdown]
# ## Compression: smaller files, slower reads?
#
# `TFRecordWriter` can compress the whole byte stream with GZIP or ZLIB (the same deflate
# algorithm with a different wrapper), and `TFRecordDataset(..., compression_type="GZIP")`
# reads it back. Compression pays when reading the bytes is slower than decompressing them
# (a network disk, a bucket) and costs CPU time otherwise.
#
# **Predict first.** The digits shards hold PNG images, which are already compressed. Will
# GZIP shrink them at all? And the text sequences, English words with a few bytes of
# protobuf around each word?
#
# Work it out by counting, before measuring. An 8x8 PNG is about 120 bytes, but only its
# `IDAT` chunk (the compressed pixels) differs between images; its signature, header chunk
# and end chunk are the same 57 bytes every time, as are the feature names and the protobuf
# keys of each `Example`. Deflate stores a repeat of something it saw recently in 2 or 3
# bytes. So predict: the compressed file is about the bytes that are *unique* per record,
# the pixel data, its CRC, the two record CRCs and the varint of `index`.

# %%
shard_records = [list(TFRecordDataset(path)) for path in DIGIT_SHARDS]
digit_records = [record for records in shard_records for record in records]


def unique_bytes(record):
    """Bytes of a digits record that no other record shares (by our count)."""
    png = fl.train.Example.FromString(record).features.feature["image"].bytes_list.value[0]
    (idat_length,) = struct.unpack(">I", png[33:37])  # the chunk after the 33-byte header
    return idat_length + 4 + 8 + 2


predicted_digits = sum(unique_bytes(record) for record in digit_records)
digit_bytes = sum(pathlib.Path(path).stat().st_size for path in DIGIT_SHARDS)
print(f"digits: {digit_bytes} bytes; predicted compressed: about {predicted_digits} bytes "
      f"({predicted_digits / digit_bytes:.0%})")
print("text: English compresses to roughly a third with deflate; the repeated protobuf keys "
      "around each word push it lower: predict at most 33%")

# %% [markdown]
# Now write both datasets three ways and measure the sizes.

# %%
def write_records(path, records, compression_type):
    options = fl.io.TFRecordOptions(compression_type=compression_type)
    with fl.io.TFRecordWriter(str(path), options) as writer:
        for record in records:
            writer.write(record)
    return path.stat().st_size


DATASETS = {"digits": digit_records, "text": list(TFRecordDataset(SEQUENCES))}
sizes = {}
for name, records in DATASETS.items():
    for kind in ("", "GZIP", "ZLIB"):
        sizes[name, kind] = write_records(WORKDIR / f"{name}-{kind or 'plain'}.tfrecord",
                                          records, kind)
for name in DATASETS:
    plain = sizes[name, ""]
    print(f"{name:6s} plain {plain:6d} B   GZIP {sizes[name, 'GZIP']:6d} B "
          f"({sizes[name, 'GZIP'] / plain:.0%})   ZLIB {sizes[name, 'ZLIB']:6d} B "
          f"({sizes[name, 'ZLIB'] / plain:.0%})")
print(f"digits: predicted {predicted_digits} B, measured GZIP {sizes['digits', 'GZIP']} B "
      f"({sizes['digits', 'GZIP'] / predicted_digits - 1:+.0%})")

# %% [markdown]
# The count predicted the digits within a few percent (we allow ±25 %): tiny PNGs are mostly
# identical headers, and deflate removes the repeats *across* records. Text went to about a
# quarter. ZLIB is GZIP with a 12-byte smaller wrapper; the sizes differ by exactly that.
#
# **Predict the read time.** Reading a compressed file does the same work plus inflating the
# bytes. But zlib inflates a few tens of KB in well under a millisecond of C code, while the
# read of files this small is mostly Python work per record, the same with or without
# compression. So predict about the time of a plain read: 0.7 to 1.3 times. The cell reads
# each file 20 times and keeps the best of 5 runs; the ratios are what to look at (timings
# vary with the machine).

# %%
def read_time(path, compression_type, repeats=20, runs=5):
    """The best time over `runs` to read every record of `path` `repeats` times, per read."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(repeats):
            for _ in TFRecordDataset(str(path), compression_type=compression_type):
                pass
        best = min(best, (time.perf_counter() - start) / repeats)
    return best


# %% tags=["nbval-ignore-output"]
times = {(name, kind): read_time(WORKDIR / f"{name}-{kind or 'plain'}.tfrecord", kind)
         for name in DATASETS for kind in ("", "GZIP", "ZLIB")}
for name in DATASETS:
    plain = times[name, ""]
    print(f"{name:6s} plain {plain * 1e3:.2f} ms   GZIP {times[name, 'GZIP'] / plain:.1f}x   "
          f"ZLIB {times[name, 'ZLIB'] / plain:.1f}x   (predicted 0.7x to 1.3x)")

# %% tags=["nbval-ignore-output"]
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
kinds = ["", "GZIP", "ZLIB"]
for axis, values, title, unit in [(left, sizes, "file size", "% of plain"),
                                  (right, times, "read time", "% of plain")]:
    for offset, name in enumerate(DATASETS):
        heights = [100 * values[name, kind] / values[name, ""] for kind in kinds]
        axis.bar(np.arange(3) + 0.38 * offset, heights, width=0.36, label=name,
                 color=PALETTE[offset])
    axis.set_xticks(np.arange(3) + 0.19, ["plain", "GZIP", "ZLIB"])
    axis.set_ylabel(unit)
    axis.set_title(title)
    axis.axhline(100, color="black", linewidth=0.6)
left.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# Compression cut the files to between a quarter and a half and left the read time about
# where a plain read is. On large files the inflating shows up as CPU time, and on a local SSD
# that is a loss; reading from a network disk or a bucket, where bytes are the bottleneck, the
# smaller file wins. Measure on your own storage.

# %% [markdown]
# ## Images in an `Example`
#
# An `Example` holds lists of bytes, floats or integers. An image fits as a `bytes_list`
# holding the encoded file: you keep the file's compression and its shape, and decode with
# `fl.io.decode_png` (or `decode_image`, which looks at the bytes to pick the decoder) when
# reading. Let us build the records from the PNG files of `../minidata/digits/png/`.

# %%
png_paths = sorted((MINIDATA / "digits" / "png").glob("*/*.png"))
print(len(png_paths), "PNG files, e.g.", png_paths[0].relative_to(MINIDATA))


def to_example(png_bytes, label, index):
    """One digit as an Example: the PNG file's bytes, the label and the source row."""
    feature = {
        "image": fl.train.Feature(bytes_list=fl.train.BytesList(value=[png_bytes])),
        "label": fl.train.Feature(int64_list=fl.train.Int64List(value=[label])),
        "index": fl.train.Feature(int64_list=fl.train.Int64List(value=[index])),
    }
    return fl.train.Example(features=fl.train.Features(feature=feature))


images_file = WORKDIR / "digits-from-png.tfrecord"
with fl.io.TFRecordWriter(str(images_file)) as writer:
    for path in png_paths:
        example = to_example(path.read_bytes(), int(path.parent.name), int(path.stem))
        writer.write(example.SerializeToString())
print(images_file.name, images_file.stat().st_size, "bytes")

# %% [markdown]
# Read them back: parse, then decode the PNG bytes into pixels. A grayscale PNG decodes to
# shape `(8, 8, 1)`: the decoders always give height x width x channels, so the code after
# them need not care whether a file was gray or colour. `channels=3` asks for RGB whatever
# the file holds.

# %%
SPEC = {"image": fl.io.FixedLenFeature([], fl.string),
        "label": fl.io.FixedLenFeature([], fl.int64),
        "index": fl.io.FixedLenFeature([], fl.int64)}


def parse_digit(serialized):
    features = fl.io.parse_single_example(serialized, SPEC)
    return fl.io.decode_png(features["image"]), features["label"]


digits = TFRecordDataset(str(images_file)).map(parse_digit)
image, label = next(iter(digits))
print("image", image.shape, image.dtype, "label", int(label))
first_png = png_paths[0].read_bytes()
print("channels=3:", fl.io.decode_png(first_png, channels=3).shape,
      " decode_image:", fl.io.decode_image(first_png).shape,
      " as float32:", fl.io.decode_image(first_png, dtype=fl.float32).max())

# %%
fig, axes = plt.subplots(2, 10, figsize=(10, 2.4))
for axis, (image, label) in zip(axes.ravel(), digits.shuffle(200, seed=5).take(20)):
    axis.imshow(image[:, :, 0], cmap="gray_r", vmin=0, vmax=255)
    axis.set_title(int(label), fontsize=10)
    axis.axis("off")
fig.suptitle("20 digits read back from the TFRecord file, decoded with fl.io.decode_png")
fig.tight_layout()
plt.show()

# %% [markdown]
# A decoder that is handed the wrong bytes says so, and names what it found:

# %%
for wrong in (fl.io.encode_jpeg(np.zeros((8, 8, 3), dtype=np.uint8)), b"8x8 digit"):
    try:
        fl.io.decode_png(wrong)
    except fl.errors.InvalidArgumentError as error:
        print("InvalidArgumentError:", error)

# %% [markdown]
# Is PNG worth it here? An 8x8 grayscale digit is 64 bytes of raw pixels, and its PNG file
# is about 120. For images this small the PNG headers cost more than the compression saves;
# storing `image.tobytes()` and reading it with `fl.io.decode_raw` would be smaller. For a
# 224x224 photo it is the other way round: a PNG is typically about 2 times smaller than
# the raw pixels, a JPEG 5 to 20 times.

# %%
raw_total = 64 * len(png_paths)
png_total = sum(path.stat().st_size for path in png_paths)
print(f"raw pixels {raw_total} B, PNG files {png_total} B ({png_total / raw_total:.1f}x)")

# %% [markdown]
# ## Parse specs, side by side
#
# The spec tells the parser what shape to build from each feature's list of values:
#
# - `FixedLenFeature(shape, dtype)`: exactly that many values in every record (or a
#   `default_value` when the feature is missing); a dense array, `(batch, *shape)`.
# - `VarLenFeature(dtype)`: any number of values; a `SparseTensor` holding the values, their
#   positions `(record, position)` and a dense shape as wide as the longest record.
# - `RaggedFeature(dtype)`: any number of values; a `RaggedTensor`, the values of each record
#   in a row of its own length.
#
# Four small records with a variable-length feature, the lengths of the first words of four
# sentences, make the difference visible. Record 2 has an empty list, record 4 lacks the
# feature altogether.

# %%
def lengths_example(lengths):
    feature = {"id": fl.train.Feature(int64_list=fl.train.Int64List(value=[len(lengths or [])]))}
    if lengths is not None:
        feature["word_lengths"] = fl.train.Feature(int64_list=fl.train.Int64List(value=lengths))
    return fl.train.Example(features=fl.train.Features(feature=feature)).SerializeToString()


batch = np.array([lengths_example(lengths) for lengths in ([3, 5, 2], [7], [], None)],
                 dtype=object)
var_len = fl.io.parse_example(batch, {"word_lengths": fl.io.VarLenFeature(fl.int64)})
ragged = fl.io.parse_example(batch, {"word_lengths": fl.io.RaggedFeature(fl.int64)})
sparse = var_len["word_lengths"]
print("VarLenFeature  -> SparseTensor")
print("  indices", sparse.indices.tolist())
print("  values ", sparse.values.tolist(), " dense_shape", [int(n) for n in sparse.dense_shape])
print("  to_dense()", sparse.to_dense().tolist())
print("RaggedFeature  -> RaggedTensor", ragged["word_lengths"].to_list(),
      " row lengths", ragged["word_lengths"].row_lengths().tolist())
try:
    fl.io.parse_example(batch[:3], {"word_lengths": fl.io.FixedLenFeature([3], fl.int64)})
except fl.errors.InvalidArgumentError as error:
    print("FixedLenFeature([3]) -> InvalidArgumentError:", error)

# %% [markdown]
# The `SparseTensor` and the `RaggedTensor` hold the same 4 values; the sparse one says where
# each sits, the ragged one how long each row is. `to_dense()` pads with 0, and a 0 padding is
# only harmless when your model knows to ignore it. A missing feature and an empty list give
# the same empty row.
#
# `FixedLenFeature` refuses any record whose count differs, which is what you want for a
# feature that must always be there: the error names the key and the record. With a
# `default_value` it fills records that lack the feature (but still refuses wrong counts):

# %%
fixed_batch = np.array([lengths_example([4]), lengths_example(None)], dtype=object)
print(fl.io.parse_example(fixed_batch, {
    "word_lengths": fl.io.FixedLenFeature([1], fl.int64, default_value=[-1])}))

# %% [markdown]
# ## A batch at once, or one record at a time?
#
# `parse_single_example` parses one serialized record; `parse_example` parses a whole array of
# them. In a pipeline that is the difference between `map(parse_single).batch(64)` and
# `batch(64).map(parse_batch)`: the first calls a Python function and builds a small dict
# for every record, then stacks the dicts; the second pays those costs once per 64 records.
#
# **Predict:** lesson 12's rule, time per element ≈ overhead / batch size + work, says the
# batched path wins by a large factor whenever the per-record overhead dominates, as it does
# for records of 190 bytes. Our guess: at least 3 times faster. Make yours before running the
# cell. (feedline's batched path keeps getting faster between versions, so the factor you see
# may differ from ours; compare ratios, not milliseconds.)

# %%
many_digits = WORKDIR / "digits-x10.tfrecord"
write_records(many_digits, digit_records * 10, "")


def per_record():
    return TFRecordDataset(str(many_digits)).map(
        lambda record: fl.io.parse_single_example(record, SPEC)).batch(64)


def per_batch():
    return TFRecordDataset(str(many_digits)).batch(64).map(
        lambda records: fl.io.parse_example(records, SPEC))


def best_time(make_dataset, runs=3):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for _ in make_dataset():
            pass
        best = min(best, time.perf_counter() - start)
    return best


a, b = next(iter(per_record())), next(iter(per_batch()))
print("same first batch:", all(np.array_equal(a[key], b[key]) for key in SPEC))

# %% tags=["nbval-ignore-output"]
single_s, batched_s = best_time(per_record), best_time(per_batch)
print(f"2000 records: map(parse_single_example).batch(64) {single_s * 1e3:.0f} ms, "
      f"batch(64).map(parse_example) {batched_s * 1e3:.0f} ms: "
      f"the batched path is {single_s / batched_s:.0f} times faster (predicted: at least 3)")

# %% [markdown]
# Both give the same batches. The batched path was faster by a large factor on our machine;
# the factor you see depends on your machine and your feedline version. The habit to keep:
# batch first, then parse (the same reason as in lesson 12).

# %% [markdown]
# ## Records that all look alike: the fixed-layout fast path
#
# Our digit records hold PNG bytes, whose length varies with the picture. Store the 64 raw
# pixels instead, with the label, and every record serializes to **the same number of bytes**,
# differing only inside the values: the tags, lengths and keys sit at the same offsets in every
# record. `parse_example` notices this from the data itself. It walks the first record of the
# batch once, checks with a few NumPy comparisons that every other record has the same length
# and the same bytes outside the values, and then cuts each feature out of the whole batch as
# one column of a 2-D array, with no loop over records. A batch that breaks the layout (one
# longer record, an extra feature) is parsed by the general path instead, with the same results.

# %%
def raw_digit(pixels, label, extra=None):
    feature = {"image": fl.train.Feature(bytes_list=fl.train.BytesList(value=[pixels])),
               "label": fl.train.Feature(int64_list=fl.train.Int64List(value=[label]))}
    if extra is not None:  # a feature nobody asked for: the record no longer fits the layout
        feature["note"] = fl.train.Feature(bytes_list=fl.train.BytesList(value=[extra]))
    return fl.train.Example(features=fl.train.Features(feature=feature)).SerializeToString()


parsed_png = [fl.io.parse_single_example(record, SPEC) for record in digit_records]
pixels = [fl.io.decode_png(features["image"]).tobytes() for features in parsed_png]
labels = [int(features["label"]) for features in parsed_png]
raw_records = [raw_digit(p, label) for p, label in zip(pixels, labels)] * 10
print("PNG records:", len(set(map(len, digit_records))), "different lengths;",
      "raw records:", sorted(set(map(len, raw_records))), "bytes each")

# %% [markdown]
# **Predict:** we parse the same 2000 raw records in batches of 64 twice: as they are, and
# with the first record of every batch given one extra feature, which sends each batch down
# the general path. How much faster is the fast path? Our guess: at least 2 times.

# %%
RAW_SPEC = {"image": fl.io.FixedLenFeature([], fl.string),
            "label": fl.io.FixedLenFeature([], fl.int64)}
batches = [np.array(raw_records[i:i + 64], dtype=object) for i in range(0, 2000, 64)]
broken = []
for batch in batches:
    batch = batch.copy()
    first = fl.io.parse_single_example(batch[0], RAW_SPEC)
    batch[0] = raw_digit(first["image"], int(first["label"]), extra=b"odd one out")
    broken.append(batch)

same = all(np.array_equal(fl.io.parse_example(a, RAW_SPEC)[key],
                          fl.io.parse_example(b, RAW_SPEC)[key])
           for a, b in zip(batches, broken) for key in RAW_SPEC)
print("both ways parse to the same values:", same)


def parse_all(batch_list, runs=5):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for batch in batch_list:
            fl.io.parse_example(batch, RAW_SPEC)
        best = min(best, time.perf_counter() - start)
    return best

# %% tags=["nbval-ignore-output"]
fast_s, general_s = parse_all(batches), parse_all(broken)
print(f"2000 records in batches of 64: same layout {fast_s * 1e3:.1f} ms, one odd record per "
      f"batch {general_s * 1e3:.1f} ms: the fast path is {general_s / fast_s:.1f} times faster "
      "(predicted: at least 2)")

# %% [markdown]
# One odd record is enough to send its whole batch down the general path; the next batch is
# checked afresh. The same happens, less visibly, when a varint changes length: a label or an
# index that passes 127 takes two bytes instead of one, and the record grows by a byte. So, for
# speed: store fixed-size values raw (pixels, float vectors), write every feature in every
# record, and keep varying values out of the same file. For correctness you need to do
# nothing: both paths give the same arrays and the same errors. (`benchmarks/records.py`
# measures the whole read-and-parse pipeline on 60,000 such records.)

# %% [markdown]
# ## SequenceExample: a sequence per record
#
# Text, audio frames and event logs are sequences whose length varies by record. A
# `SequenceExample` has two parts: `context`, features that hold once per record (like an
# `Example`'s), and `feature_lists`, named lists with **one feature per step**. Our corpus
# stores each paragraph that way: context `document`, `source`, `source_id`; per step (per
# word), `tokens` (the word) and `token_length` (its number of characters).
#
# `parse_single_sequence_example` takes a spec for each part and gives back two dicts.
# `FixedLenSequenceFeature([], dtype)` means "one value per step", stacked into an array as
# long as the sequence.

# %%
CONTEXT = {"document": fl.io.FixedLenFeature([], fl.int64),
           "source": fl.io.FixedLenFeature([], fl.string),
           "source_id": fl.io.FixedLenFeature([], fl.int64)}
STEPS = {"tokens": fl.io.FixedLenSequenceFeature([], fl.string),
         "token_length": fl.io.FixedLenSequenceFeature([], fl.int64)}

sequences = list(TFRecordDataset(SEQUENCES))
context, steps = fl.io.parse_single_sequence_example(
    sequences[3], context_features=CONTEXT, sequence_features=STEPS)
print("context:", {key: getattr(value, "item", lambda: value)() for key, value in context.items()})
print("tokens:", b" ".join(steps["tokens"]).decode())
print("token_length:", steps["token_length"].tolist())
print("lengths agree:", [len(t) for t in steps["tokens"]] == steps["token_length"].tolist())

# %% [markdown]
# Every paragraph has its own number of steps. Parsed for all 44 records, the sequence
# lengths range widely, which is why a pipeline pads them per batch (`padded_batch`) or keeps
# them ragged instead of forcing one length on the file.

# %%
lengths = [len(fl.io.parse_single_sequence_example(
    record, sequence_features={"tokens": fl.io.FixedLenSequenceFeature([], fl.string)}
)[1]["tokens"]) for record in sequences]
print(f"{len(lengths)} paragraphs, {min(lengths)} to {max(lengths)} words, "
      f"mean {np.mean(lengths):.1f}")
fig, ax = plt.subplots(figsize=(8, 2.6))
ax.bar(range(len(lengths)), lengths, color=PALETTE[1])
ax.set_xlabel("document (record number)")
ax.set_ylabel("steps (words)")
ax.set_title("one SequenceExample per paragraph: the number of steps per record")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Summary
#
# - A TFRecord record is `length (8 B) | masked CRC32C of length (4 B) | data | masked CRC32C
#   of data (4 B)`, little-endian, 16 bytes of overhead per record, and no index: readers
#   walk from the start. The mask is `rotate right 15 bits, then add 0xA282EAD8`.
# - We recomputed both checksums of a real record with the `crc32c` package and the mask,
#   and walked all 100 records of a shard to its last byte.
# - One flipped bit gives a `DataLossError` naming the file and offset, after the good
#   records before it; `.ignore_errors()` makes that a skip and a warning.
# - GZIP cut the digits shards to about 41 % (predicted from the unique bytes within a few
#   percent) and the text to about a quarter; reading these small files took about as long
#   as a plain read (inflating is fast C code; the per-record work is the same).
# - Images go into an `Example` as PNG bytes; `fl.io.decode_png` and `decode_image` return
#   height x width x channels, `channels` converts. For 8x8 digits raw bytes would be smaller.
# - `FixedLenFeature` for always-there values (with `default_value` for optional ones),
#   `VarLenFeature` for a `SparseTensor`, `RaggedFeature` for a `RaggedTensor`.
# - Parse a batch with `parse_example`, not each record with `parse_single_example`.
# - Records of one layout (raw fixed-size values, every feature in every record) take the
#   fixed-layout fast path, checked per batch from the data; an odd record sends its batch
#   down the general path, with the same results.
# - `SequenceExample` = context + feature lists, parsed by `parse_single_sequence_example`.
#
# **Now practise:** [exercises 05](../exercises/05_tfrecord_and_example_exercises.ipynb).
