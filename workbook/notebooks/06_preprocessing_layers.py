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
# # 06 Preprocessing layers
#
# A model eats numbers of a sensible size. Raw data is rarely like that: blood pressure is
# around 95, a serum measurement around 4, the sex column is 1 or 2, a species is a word, a
# description is a paragraph. Preprocessing turns each column into numbers, and some of those
# steps must **learn** something from the data first: a mean, the edges of some bins, a
# vocabulary. Keras packs each such step into a *preprocessing layer* with an `adapt` method
# that learns the state, and a call that applies it. `feedline.layers` has the same layers,
# written in NumPy.
#
# **What you will learn**
#
# - `Normalization`: what `adapt` learns, and why you adapt on the training split only;
# - `Discretization`: fixed bin edges, or edges learned from quantiles;
# - `StringLookup`: vocabularies, and the out-of-vocabulary (OOV) indices that catch values
#   training never saw;
# - one-hot or embedding: a rule of thumb by the number of categories, and why;
# - `Hashing`: categories without a vocabulary, and how many collide (predicted, then
#   counted);
# - `TextVectorization`: a paragraph to token ids or to a bag of words (`int`, `multi_hot`,
#   `count`, `tf_idf`, n-grams);
# - training/serving skew: the same raw row preprocessed two ways gives two different model
#   inputs, and how to avoid it.

# %%
import csv
import json
import pathlib
import shutil

import matplotlib.pyplot as plt
import numpy as np

import feedline as fl
from feedline.errors import InvalidArgumentError
from feedline.layers import (CategoryEncoding, Discretization, Hashing, Normalization,
                             StringLookup, TextVectorization)
from feedline.perf import PALETTE

print("feedline", fl.__version__)
np.random.seed(6)
# Notebooks run from notebooks/; the repository root holds minidata/ and workdir/.
ROOT = pathlib.Path("..") if pathlib.Path("../pyproject.toml").exists() else pathlib.Path(".")
MINIDATA = ROOT / "minidata"
WORKDIR = ROOT / "workdir" / "06_preprocessing_layers"
shutil.rmtree(WORKDIR, ignore_errors=True)
WORKDIR.mkdir(parents=True)

# %% [markdown]
# ## The data
#
# The diabetes table from `../minidata/diabetes/`: 442 patients, 10 measurements and the
# disease progression a year later (`target`), already cut into a training split (5 shards,
# 310 rows), a validation split (66 rows) and a test split (66 rows). We read the CSV shards
# into one NumPy array per split; the 10 measurements are the features.

# %%
def read_split(pattern):
    """Rows of every shard matching `pattern`, as (column names, float array)."""
    rows = []
    for path in sorted((MINIDATA / "diabetes").glob(pattern)):
        with open(path, newline="") as handle:
            reader = csv.reader(handle)
            header = next(reader)
            rows += [[float(value) for value in row] for row in reader]
    return header, np.array(rows)


COLUMNS, train = read_split("train_*.csv")
_, valid = read_split("valid_*.csv")
_, test = read_split("test_*.csv")
FEATURES = COLUMNS[:10]
x_train, x_valid, x_test = train[:, :10], valid[:, :10], test[:, :10]
print(f"train {x_train.shape}, valid {x_valid.shape}, test {x_test.shape}")
for name, column in zip(FEATURES, x_train.T):
    print(f"{name:4s} from {column.min():7.2f} to {column.max():7.2f}, "
          f"mean {column.mean():7.2f}")

# %% [markdown]
# The columns live on very different scales: `s1` is in the hundreds, `s5` around 4.6. A model
# trained by gradient descent takes steps of one size for all its weights, so it learns the
# large columns too fast and the small ones too slowly. Normalising each column to mean 0 and
# standard deviation 1 puts them on one footing.

# %% [markdown]
# ## Normalization: learn a mean and a variance, then apply them
#
# `Normalization()` keeps one mean and one variance per feature (the last axis). `adapt(data)`
# reads the data once and computes them; calling the layer computes
# `(x - mean) / sqrt(variance)`.
#
# **Predict**: is the variance it learns NumPy's `np.var(x)` (divide by n) or the sample
# variance `np.var(x, ddof=1)` (divide by n - 1)? The difference is 1 part in 309 here.

# %%
norm = Normalization()
norm.adapt(x_train)
bmi = FEATURES.index("bmi")
print(f"bmi: layer mean {norm.mean.ravel()[bmi]:.4f}, variance {norm.variance.ravel()[bmi]:.4f}")
print(f"     np.var(ddof=0) {np.var(x_train[:, bmi]):.4f}, "
      f"np.var(ddof=1) {np.var(x_train[:, bmi], ddof=1):.4f}")
scaled = norm(x_train)
print("normalised training features: means", np.round(scaled.mean(axis=0), 4).tolist())
print("                                 stds", np.round(scaled.std(axis=0), 4).tolist())

# %% [markdown]
# It divides by n, as `np.var` does by default. Every training column now has mean 0 and
# standard deviation 1 (up to float32 rounding). The picture shows the ten columns before and
# after: the shapes of the distributions stay, only the axis changes.

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
axes[0].boxplot(x_train, showfliers=False)
axes[0].set_title("raw training features")
axes[1].boxplot(scaled, showfliers=False)
axes[1].set_title("after Normalization (adapted on train)")
for ax in axes:
    ax.set_xticks(range(1, 11), FEATURES)
axes[1].axhline(0, color=PALETTE[1], linewidth=0.8)
fig.tight_layout()
plt.show()

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3))
axes[0].hist(x_train[:, bmi], bins=25, color=PALETTE[0])
axes[0].set_title("bmi, raw")
axes[1].hist(scaled[:, bmi], bins=25, color=PALETTE[2])
axes[1].set_title("bmi, normalised: same shape, centred on 0, spread 1")
fig.tight_layout()
plt.show()

# %% [markdown]
# ### Which data to adapt on
#
# The statistics are part of the model: it learns its weights on inputs normalised with
# them, and at serving time every input must be normalised with the same numbers. So learn
# them from the **training split**, the data the model learns from.
#
# Two mistakes are common. Adapting on another split (say the 66 test rows) gives statistics
# of the wrong sample: the training inputs no longer have mean 0 and deviation 1. Adapting
# on **all** the data lets the validation and test rows shape the preprocessing: the model's
# inputs then carry a little knowledge of the rows it is later scored on (a *leak*), and the
# score is a little too good.
#
# **Predict**: adapted on the test split, what mean and standard deviation will the
# normalised training `bmi` have? The training rows have a mean `bmi` of 26.77 and a standard
# deviation of 4.57; the 66 test rows 25.63 and 3.64.
#
# <details><summary>Our prediction</summary>
#
# The layer subtracts 25.63 and divides by 3.64, so the training `bmi` gets the mean
# (26.77 - 25.63) / 3.64 = 0.31 and the standard deviation 4.57 / 3.64 = 1.26.
#
# </details>

# %%
def adapted_on(data):
    layer = Normalization()
    layer.adapt(data)
    return layer


choices = {"train": x_train, "valid": x_valid, "test": x_test,
           "all": np.concatenate([x_train, x_valid, x_test])}
print("adapted on   mean(bmi)  training bmi after: mean    std | test bmi after: mean")
for name, data in choices.items():
    layer = adapted_on(data)
    on_train, on_test = layer(x_train)[:, bmi], layer(x_test)[:, bmi]
    print(f"{name:10s} {layer.mean.ravel()[bmi]:10.2f} {on_train.mean():25.3f} "
          f"{on_train.std():6.3f} | {on_test.mean():20.3f}")

# %% [markdown]
# Adapted on the test split, the training `bmi` has mean 0.314 and standard deviation 1.257
# (we predicted 0.31 and 1.26): the model trains on inputs that are neither centred nor of
# unit spread, and the validation split gives yet other numbers. Adapted on all the data,
# the numbers move only in the second decimal, because the splits were drawn at random from
# one table and 310 of the 442 rows are training rows anyway. The leak is small here, and it
# is still a leak: the test rows helped choose the inputs the model is scored on. With a
# split by time (last month as the test set) or by site, the splits differ more and so do
# these numbers. The rule is the same in every case: adapt on train, then reuse that one
# layer for validation, test and serving.

# %% [markdown]
# ## Discretization: numbers into buckets
#
# Some numbers matter more by range than by value: age 41 or 44 may matter less than
# "forties or fifties". `Discretization` maps each number to the index of its bucket. Given
# `bin_boundaries=[30, 40, 50, 60, 70]` it has 6 buckets: below 30, [30, 40), ..., 70 and
# above.

# %%
age = FEATURES.index("age")
decades = Discretization(bin_boundaries=[30, 40, 50, 60, 70])
print("ages   ", x_train[:8, age].astype(int).tolist())
print("buckets", decades(x_train[:8, age]).tolist())
print("training rows per bucket:", np.bincount(decades(x_train[:, age]), minlength=6).tolist())

# %% [markdown]
# Fixed edges give uneven buckets: 94 rows in the fifties, 7 at 70 and above. `adapt` instead
# learns edges at the quantiles of the data, so each bucket gets about the same number of
# rows. **Predict**: with `num_bins=4` on the 310 training ages, how many rows per bucket?
#
# <details><summary>Our prediction</summary>
#
# 310 / 4 = 77.5, so 77 or 78 per bucket, unless many patients share the age at an edge.
#
# </details>

# %%
quartiles = Discretization(num_bins=4)
quartiles.adapt(x_train[:, age])
print("learned edges:", [round(edge, 1) for edge in quartiles.bin_boundaries])
print("predicted 77.5 rows per bucket, measured",
      np.bincount(quartiles(x_train[:, age]), minlength=4).tolist())

# %% [markdown]
# Between 72 and 82, not exactly 77.5: ages are whole numbers, so many patients share the age
# at an edge (50, 58), and all of them go to the bucket above it. A bucket index is a category, so everything in the next
# sections applies to it too.

# %% [markdown]
# ## StringLookup: a vocabulary, and a place for the unknown
#
# Categories written as strings need an index before anything else. `StringLookup` learns a
# vocabulary with `adapt` (the most frequent value first) and maps each value to its index.
# We make a string column from the data: each patient's age decade, `"10s"` (one patient of
# 19) to `"70s"`.

# %%
def decade_names(ages):
    return np.array([f"{int(a) // 10 * 10}s" for a in ages], dtype=object)


train_decades = decade_names(x_train[:, age])
lookup = StringLookup()
lookup.adapt(train_decades)
print("vocabulary:", lookup.get_vocabulary())
print(train_decades[:6].tolist(), "->", lookup(train_decades[:6]).tolist())

# %% [markdown]
# Index 0 is `[UNK]`, the **out-of-vocabulary (OOV)** index. It exists because serving data is
# not training data: the model will be asked about a patient aged 84, and no one in the
# training split was in their eighties; a form may even say "unknown". A lookup with no OOV index (`num_oov_indices=0`)
# can only fail on such a value:

# %%
serving = np.array(["50s", "80s", "90s", "unknown", "30s"], dtype=object)
strict = StringLookup(num_oov_indices=0)
strict.adapt(train_decades)
try:
    strict(serving)
except InvalidArgumentError as error:
    print("InvalidArgumentError:", str(error)[:110], "...")

# %% [markdown]
# With the default single OOV index every unknown value becomes 0, and the model sees "some
# value I never saw" without telling the unknowns apart. With `num_oov_indices=3`, unknown
# values are spread over indices 0, 1 and 2 by a hash of the value (the same value always goes
# to the same index), and the vocabulary starts at 3. **Predict**: what index does `"50s"` get
# in each layer?

# %%
for oov in (1, 3):
    layer = StringLookup(num_oov_indices=oov)
    layer.adapt(train_decades)
    print(f"num_oov_indices={oov}: {serving.tolist()} -> {layer(serving).tolist()}")

# %% [markdown]
# `"50s"` is the most frequent decade, so it is the first vocabulary entry: index 1 with one
# OOV index, index 3 with three. The three unseen values share index 0 in the first layer;
# in the second, `"80s"`, `"90s"` and `"unknown"` land on OOV indices 0, 2 and 1. With more
# unknown values than OOV indices some must share, and which ones share is decided by the
# hash, not by meaning.
#
# Two further uses of the OOV index: rare values (pass `max_tokens` and everything past the
# most frequent values goes to OOV), and a vocabulary that changed on purpose (new products):
# the model keeps working and the OOV share tells you when to retrain.

# %% [markdown]
# ## One-hot or embedding
#
# An index still is not a good model input: decade 3 is not "three times" decade 1. There are
# two usual ways to turn an index into numbers:
#
# - **one-hot**: a vector as wide as the number of categories, all zeros but a 1 at the index
#   (`StringLookup(output_mode="one_hot")`, or `CategoryEncoding` after a lookup);
# - **embedding**: a learned table with one short row of `d` numbers per category; the input
#   is the row at the index.
#
# They are closer than they look: multiplying a one-hot vector by a table picks one row of it,
# which is exactly what an embedding lookup returns, without multiplying by all the zeros.

# %%
one_hot = StringLookup(output_mode="one_hot")
one_hot.adapt(train_decades)
vectors = one_hot(train_decades[:3]).numpy()  # int64 0/1 rows, as NumPy
print(vectors.astype(int))
table = np.random.default_rng(0).normal(size=(one_hot.vocabulary_size(), 2))  # d = 2
indices = lookup(train_decades[:3])
print("one-hot @ table == table[index]:", np.allclose(vectors @ table, table[indices]))

# %% [markdown]
# So the difference is in what the model learns. With one-hot inputs the first layer learns
# one separate set of weights per category, from that category's rows alone. An embedding of
# `d` numbers per category lets categories share what they have in common. A rule of thumb:
#
# | categories | use |
# |---|---|
# | fewer than about 10 | one-hot: narrow, and each category has many rows |
# | about 10 to 50 | try both and compare on the validation split |
# | more than about 50 | an embedding (one-hot gets wide, and each category has few rows) |
#
# To see why "each category has many rows" matters, bin `bmi` into more and more quantile
# bins, one-hot the bin, and fit the simplest model on it: a least-squares line per bin
# (which predicts the mean target of the training rows in that bin). **Predict**: as the
# number of bins grows, what happens to the training error, and to the validation error?

# %%
def one_hot_fit(num_bins):
    """Training and validation mean squared error of a least-squares model on one-hot bmi bins."""
    bins = Discretization(num_bins=num_bins)
    bins.adapt(x_train[:, bmi])
    width = len(bins.bin_boundaries) + 1
    encode = CategoryEncoding(num_tokens=width, output_mode="one_hot")
    inputs_train, inputs_valid = encode(bins(x_train[:, bmi])), encode(bins(x_valid[:, bmi]))
    weights = np.linalg.lstsq(inputs_train, train[:, 10], rcond=None)[0]
    errors = [np.mean((inputs @ weights - target) ** 2) for inputs, target in
              ((inputs_train, train[:, 10]), (inputs_valid, valid[:, 10]))]
    return width, 310 / width, *errors


fits = [one_hot_fit(n) for n in (3, 5, 10, 20, 50, 100)]
print("categories  rows each  train MSE  valid MSE")
for width, rows_each, train_error, valid_error in fits:
    print(f"{width:10d} {rows_each:10.1f} {train_error:10.0f} {valid_error:10.0f}")

# %% [markdown]
# The training error keeps falling (more categories, more freedom), but the validation error
# is lowest at 10 categories (3383) and climbs after that, to 4092 at 100: with 50 or 100 categories each weight
# is learned from 3 to 6 rows and mostly learns their noise. That is where a shared, smaller
# representation (an embedding, or coarser bins) pays off. Where exactly the turn comes
# depends on how many rows you have; 10 and 50 are starting points, and in between you
# measure.
#
# The picture puts the columns of our data on the rule: input width per example for one-hot
# (one number per category) and for an embedding (a common starting size is
# d ≈ 1.6 · n^0.56, capped at 50).

# %%
columns = {"sex": 2, "iris species": 3, "age decade": lookup.vocabulary_size() - 1,
           "bmi, 20 bins": 20, "bmi, 100 bins": 100,
           "words of the text corpus": 704}
sizes = np.unique(np.round(np.logspace(0.3, 4, 60)).astype(int))
embedding_width = np.minimum(50, np.round(1.6 * sizes ** 0.56))
fig, ax = plt.subplots(figsize=(10, 4.2))
ax.axvspan(1, 10, color=PALETTE[2], alpha=0.12, label="one-hot")
ax.axvspan(10, 50, color=PALETTE[1], alpha=0.12, label="try both")
ax.axvspan(50, 2e4, color=PALETTE[0], alpha=0.10, label="embedding")
ax.loglog(sizes, sizes, color=PALETTE[0], label="one-hot width = n")
ax.loglog(sizes, embedding_width, color=PALETTE[3], label="embedding width d")
for name, n in columns.items():
    ax.plot(n, n, "o", color="black", markersize=4)
    ax.annotate(name, (n, n), textcoords="offset points", xytext=(5, -10), fontsize=8)
ax.set_xlabel("number of categories n")
ax.set_ylabel("numbers per example")
ax.set_xlim(1.5, 2e4)
ax.legend(loc="upper left", fontsize=8)
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Hashing: categories without a vocabulary
#
# A vocabulary must be learned and stored, and it must see every value to give it an index.
# For a column with very many values (user ids, URLs, words) `Hashing(num_bins=m)` skips the
# vocabulary: it hashes the value and takes the remainder by `m`. Nothing to adapt, nothing to
# store, and a value never seen before still gets a bucket. The price: different values can
# land in the same bucket, a **collision**, and the model cannot tell them apart.
#
# How many collide? It is the birthday problem. Put n distinct values into m buckets, each
# bucket equally likely:
#
# - each of the n(n - 1)/2 pairs shares a bucket with probability 1/m, so the expected number
#   of **colliding pairs** is n(n - 1) / (2m);
# - a bucket stays empty with probability (1 - 1/m)^n, so the expected number of **used
#   buckets** is m · (1 - (1 - 1/m)^n), and n minus that is how many values lost their own
#   bucket.
#
# **Predict** for the 704 distinct words of the text corpus (read next) in 1,000, 10,000 and
# 100,000 buckets, then count.

# %%
documents = (MINIDATA / "text" / "dataset_descriptions.txt").read_text().splitlines()
words = TextVectorization()
words.adapt(documents)
distinct = np.array(words.get_vocabulary(include_special_tokens=False), dtype=object)
n = len(distinct)
print(f"{len(documents)} documents, {n} distinct words")


def predicted_collisions(n, m):
    return n * (n - 1) / (2 * m), m * (1 - (1 - 1 / m) ** n)


def counted_collisions(values, m):
    buckets = Hashing(num_bins=m)(values)
    per_bucket = np.bincount(buckets, minlength=m)
    return int((per_bucket * (per_bucket - 1) // 2).sum()), int((per_bucket > 0).sum())


print("buckets m   colliding pairs: predicted counted   used buckets: predicted counted")
for m in (1_000, 10_000, 100_000):
    (pairs, used), (pairs_seen, used_seen) = predicted_collisions(n, m), counted_collisions(
        distinct, m)
    print(f"{m:9,d} {pairs:26.1f} {pairs_seen:7d} {used:25.1f} {used_seen:7d}")

# %% [markdown]
# The counts follow the formula (they scatter around it: one hash function is one draw).
# Even 100,000 buckets for 704 words, 140 times more buckets than values, leave a few
# colliding pairs: collisions become unlikely only when m is well above n(n - 1)/2, here
# about 250,000. The
# curve shows the fraction of words that share a bucket, over many bucket counts.

# %%
bucket_counts = np.unique(np.round(np.logspace(2, 5.5, 25)).astype(int))
shared_predicted = [1 - predicted_collisions(n, m)[1] / n for m in bucket_counts]
shared_counted = [1 - counted_collisions(distinct, m)[1] / n for m in bucket_counts]
fig, ax = plt.subplots(figsize=(9, 3.6))
ax.semilogx(bucket_counts, shared_predicted, color=PALETTE[0], label="predicted")
ax.semilogx(bucket_counts, shared_counted, "o", color=PALETTE[1], markersize=4,
            label="counted with Hashing")
ax.axvline(n, color="grey", linewidth=0.8, linestyle="--")
ax.annotate("m = n", (n, 0.5), textcoords="offset points", xytext=(4, 0), fontsize=8)
ax.set_xlabel("num_bins m")
ax.set_ylabel("fraction of words without\na bucket of their own")
ax.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# With as many buckets as words (m = n), about a third of the words lose their own bucket,
# not zero: a rule of thumb is to take m several times n, and to accept that a hashed column
# mixes a few values. A `salt` changes *which* values collide, not how many.

# %% [markdown]
# ## TextVectorization: from paragraphs to numbers
#
# `TextVectorization` strings together the steps for text: lower-case and strip punctuation,
# split on whitespace, optionally form n-grams, then look each token up in a vocabulary learned
# by `adapt` (index 0 pads, index 1 is OOV). The corpus has 44 paragraphs from the
# scikit-learn dataset descriptions.

# %%
print("most frequent tokens:", words.get_vocabulary()[:14])
print("first document starts:", documents[0][:90], "...")

# %% [markdown]
# The output mode decides what a document becomes:
#
# - `int`: the sequence of token ids, for models that read the order (with
#   `output_sequence_length`, cut or padded with 0 to a fixed length);
# - `multi_hot`: one 0/1 per vocabulary entry, "does the token occur";
# - `count`: how often each token occurs;
# - `tf_idf`: the count weighted by how rare the token is over the corpus, so "the" counts for
#   little and a rare word for much.

# %%
sequences = TextVectorization(output_sequence_length=12)
sequences.adapt(documents)
print("int, 12 tokens:\n", sequences(documents[:3]))
short = ["the data is the data", "a dataset of images"]
for mode in ("multi_hot", "count", "tf_idf"):
    layer = TextVectorization(max_tokens=8, output_mode=mode)
    layer.adapt(documents)
    print(f"\n{mode}, vocabulary {layer.get_vocabulary()}")
    print(np.round(layer(short), 2))

# %% [markdown]
# `multi_hot` says only that "the" and "is" occur in the first text; `count` says "the"
# occurs twice. `tf_idf` gives each "the" 1.51 / 2 = 0.76 and the single "is" 1.02: "the"
# appears in more paragraphs, so it says less about any one of them. "data" is not among the
# 8 tokens, so both of its occurrences add to the `[UNK]` column. With
# `ngrams=2` the vocabulary also holds pairs of neighbouring words, so "not good" can differ
# from "good":

# %%
pairs = TextVectorization(ngrams=2, max_tokens=2000)
pairs.adapt(documents)
bigrams = [token for token in pairs.get_vocabulary() if " " in token]
print(f"{pairs.vocabulary_size()} tokens, {len(bigrams)} of them bigrams; the most frequent:",
      bigrams[:8])

# %% [markdown]
# ## Training/serving skew
#
# A model is trained once, then served for months, often by other code: a web service, a batch
# job, a mobile app. If the serving code preprocesses a raw row even slightly differently from
# the training code, the model receives inputs unlike the ones it learned from, and nothing
# fails loudly: predictions are just worse. That is **training/serving skew**.
#
# **First way**: the training notebook used the adapted layer; the serving code was written by
# hand from a description ("subtract the mean, divide by the standard deviation"). Its author
# took the statistics of all the rows at hand and the sample standard deviation (`ddof=1`, the
# default of pandas' `std`). Same raw test rows, two model inputs:

# %%
training_inputs = norm(x_test)
seen = np.concatenate([x_train, x_valid])
serving_inputs = (x_test - seen.mean(axis=0)) / seen.std(axis=0, ddof=1)
difference = np.abs(training_inputs - serving_inputs)
print(f"largest difference {difference.max():.3f} standard deviations, mean {difference.mean():.3f}")
worst = FEATURES[int(difference.max(axis=0).argmax())]
print("column with the largest difference:", worst)

# %% [markdown]
# Up to 0.12 standard deviations, 0.024 on average. Small per value, but systematic: every
# serving input is shifted the same way, and the model, which never saw such inputs, has no
# way to notice.

# %% [markdown]
# **Second way**: the vocabulary rebuilt on new data. The text layer was adapted on the 30
# paragraphs available at training time; later, someone adapts a new layer on all 44
# paragraphs "to keep it current", without retraining the model. The ids of the same words
# move, and the model now reads a different word wherever an id changed:

# %%
trained = TextVectorization(max_tokens=200)
trained.adapt(documents[:30])
rebuilt = TextVectorization(max_tokens=200)
rebuilt.adapt(documents)
request = documents[40:44]
ids_trained = np.concatenate(trained(request))
ids_rebuilt = np.concatenate(rebuilt(request))
changed = ids_trained != ids_rebuilt
print(f"{changed.sum()} of {changed.size} token ids differ ({changed.mean():.0%})")
for token_id in ids_trained[changed & (ids_trained > 1)][:3]:  # words, not padding or OOV
    print(f"  the model learned id {token_id} as {trained.get_vocabulary()[token_id]!r}; "
          f"the rebuilt layer uses it for {rebuilt.get_vocabulary()[token_id]!r}")

# %% [markdown]
# A third of the ids (69 of 204) now stand for other words. Adding 14 paragraphs changed the
# word counts, and so the frequency order that decides every id.
#
# **The fix** is to have one preprocessing, learned once. Either call the same adapted layer
# in training and serving, or save its state with the model and rebuild it exactly:
# `get_config()` returns a dictionary of everything the layer needs, learned statistics and
# vocabulary included, and `from_config` builds an identical layer. We write both configs as
# JSON, as a serving system would ship them, and read them back.

# %%
saved = WORKDIR / "preprocessing.json"
saved.write_text(json.dumps({"norm": norm.get_config(), "text": trained.get_config()}))
config = json.loads(saved.read_text())
served_norm = Normalization.from_config(config["norm"])
served_text = TextVectorization.from_config(config["text"])
print(f"{saved.name}: {saved.stat().st_size:,} bytes")
print("largest difference, normalised test rows:",
      float(np.abs(served_norm(x_test) - norm(x_test)).max()))
print("token ids that differ:",
      int((np.concatenate(served_text(request)) != ids_trained).sum()))

# %% [markdown]
# Zero and zero. In a Keras model the same idea goes one step further: put the adapted layers
# inside the model, and they are saved and loaded with it.
#
# ## Summary
#
# - A preprocessing layer learns its state with `adapt` and applies it when called.
#   `Normalization` learns a mean and a variance (divided by n) per feature.
# - **Adapt on the training split.** Adapted on the test split, the training `bmi` had mean
#   0.31 and deviation 1.26; adapted on all the data, test rows leak into the preprocessing.
# - `Discretization` buckets numbers by fixed edges or by learned quantiles (72 to 82 rows
#   per quartile of 310 ages, 77.5 if no ages were shared).
# - `StringLookup` gives unseen values an **OOV** index instead of an error; with several OOV
#   indices, unseen values are spread over them by hash.
# - One-hot below about 10 categories, an embedding above about 50, try both in between: with
#   one-hot on 50 or 100 bins, each weight learns from a handful of rows and the validation
#   error rose.
# - `Hashing` needs no vocabulary; n values in m buckets give about n(n - 1)/(2m) colliding
#   pairs (predicted 247.5, counted 255 for 704 words in 1,000 buckets).
# - `TextVectorization` turns text into ids (`int`) or a bag of words (`multi_hot`, `count`,
#   `tf_idf`), with n-grams if asked.
# - Preprocessing the same row two ways is **training/serving skew**; ship one adapted layer,
#   or its `get_config()`, with the model.
#
# **Now practise:** [exercises 06](../exercises/06_preprocessing_layers_exercises.ipynb).
