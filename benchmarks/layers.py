"""Preprocessing layers beside plain NumPy/Python floors doing the same work, in the same run.

- StringLookup (vocabulary of 1,000 words, 1 OOV index) over 1M tokens; floor: a list
  comprehension of dict.get over the same tokens, turned into an int64 array.
- TextVectorization ("lower_and_strip_punctuation", whitespace split, output_sequence_length
  20) over 10,000 sentences; floor: bytes.lower/translate/split, dict lookups and a NumPy
  padded array, written directly.
- Normalization.adapt over 1M x 8 float32 streamed as a Dataset of 1,000-row batches (its
  elements are the batches, so the pipeline's per-row cost is not measured); floor: np.mean and
  np.var over the whole array held in memory (no streaming at all).

Each line prints the layer's median time, the floor's, and their ratio.
"""

import argparse
import statistics
import string
import time

import numpy as np

import feedline as fl


def median_time(function, repeats):
    """Median of `repeats` timings (the median resists a noisy, shared machine)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def make_words(rng, count):
    letters = np.array(list(string.ascii_lowercase))
    return ["".join(rng.choice(letters, size=rng.integers(3, 9))) for _ in range(count)]


def string_lookup_case(rng, n_tokens):
    vocabulary = make_words(rng, 1000)
    pool = vocabulary + make_words(rng, 200)  # about 1 in 6 tokens is out of vocabulary
    tokens = np.array(pool, dtype=object)[rng.integers(0, len(pool), n_tokens)]
    tokens = np.array([t.encode() for t in tokens], dtype=object)
    layer = fl.layers.StringLookup(vocabulary=vocabulary)
    table = {w.encode(): i + 1 for i, w in enumerate(vocabulary)}

    def ours():
        layer(tokens)

    def floor():
        np.array([table.get(t, 0) for t in tokens.tolist()], dtype=np.int64)

    np.testing.assert_array_equal(layer(tokens),
                                  np.array([table.get(t, 0) for t in tokens.tolist()]))
    return ours, floor


def text_case(rng, n_sentences, length=20):
    words = make_words(rng, 3000)
    punct = [",", ".", "!", "?", ""]
    sentences = []
    for _ in range(n_sentences):
        picked = rng.integers(0, len(words), rng.integers(5, 30))
        sentence = " ".join(words[i].capitalize() if j == 0 else words[i]
                            for j, i in enumerate(picked))
        sentences.append((sentence + punct[rng.integers(0, 5)]).encode())
    sentences = np.array(sentences, dtype=object)
    layer = fl.layers.TextVectorization(output_sequence_length=length)
    layer.adapt(sentences)
    vocab = layer.get_vocabulary()
    table = {w.encode(): i for i, w in enumerate(vocab)}
    drop = string.punctuation.encode()

    def ours():
        layer(sentences)

    def floor():
        out = np.zeros((len(sentences), length), dtype=np.int64)
        for row, text in enumerate(sentences.tolist()):
            ids = [table.get(t, 1) for t in text.lower().translate(None, drop).split()][:length]
            out[row, :len(ids)] = ids
        return out

    np.testing.assert_array_equal(layer(sentences), floor())
    return ours, floor


def normalization_case(rng, rows, batch=1000):
    data = rng.normal(3.0, 2.0, size=(rows, 8)).astype(np.float32)
    # each element is already a batch: the pipeline streams batches, not 1M single rows
    dataset = fl.data.Dataset.from_tensor_slices(data.reshape(rows // batch, batch, 8))
    layer = fl.layers.Normalization()

    def ours():
        layer.adapt(dataset)

    def floor():
        np.mean(data, axis=0), np.var(data, axis=0)

    ours()
    np.testing.assert_allclose(layer.variance.ravel(), np.var(data.astype(np.float64), axis=0),
                               rtol=1e-6)
    return ours, floor


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--sentences", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    cases = [
        (f"StringLookup, {args.tokens:,} tokens", string_lookup_case(rng, args.tokens),
         "dict.get list comprehension"),
        (f"TextVectorization, {args.sentences:,} sentences", text_case(rng, args.sentences),
         "plain Python lower/strip/split/lookup"),
        (f"Normalization.adapt, {args.rows:,} x 8 streamed", normalization_case(rng, args.rows),
         "np.mean + np.var in memory"),
    ]
    for label, (ours, floor), floor_label in cases:
        ours_s = median_time(ours, args.repeats)
        floor_s = median_time(floor, args.repeats)
        print(f"{label:<42} feedline {ours_s * 1e3:8.1f} ms   floor ({floor_label}) "
              f"{floor_s * 1e3:8.1f} ms   ratio {ours_s / floor_s:5.2f}x")


if __name__ == "__main__":
    main()
