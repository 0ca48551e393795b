"""Check for exercise `ex-06-4`: preprocess a small mixed table, each layer adapted on the
training rows.
"""

import numpy as np

from ...layers import Hashing, Normalization, StringLookup, TextVectorization
from .._common import call_answer, check, fail, passed, rng
from ._shared import _made_words, _same, _short


CITY_BINS = 32
NOTE_TOKENS = 16
SEXES = ("female", "male", "other")
_NOTE_WORDS = ("pain", "fever", "cough", "mild", "severe", "chest", "back", "left", "right",
               "since", "week", "days", "no", "history", "of", "and", "with", "after", "fall",
               "rash", "headache", "tired", "dizzy", "night", "morning", "worse", "better")


def _table(generator, rows, age_mean, cities, words, sexes, weights):
    """A mixed table: age (numbers), sex (3 values), city (hundreds), note (text)."""
    count = len(words)
    word_weights = 1.0 / np.arange(1, count + 1)
    notes = []
    for _ in range(rows):
        chosen = generator.choice(words, size=int(generator.integers(3, 9)),
                                  p=word_weights / word_weights.sum())
        text = " ".join(chosen)
        notes.append(text.capitalize() + (generator.choice([".", "!", "", ", ok."])))
    return {
        "age": np.round(generator.normal(age_mean, 12, size=rows), 1),
        "sex": np.array(generator.choice(sexes, size=rows, p=weights), dtype=object),
        "city": np.array(generator.choice(cities, size=rows), dtype=object),
        "note": np.array(notes, dtype=object),
    }


def _tables(generator):
    """Training rows, and hidden rows with unseen sexes, cities and words."""
    cities = _made_words(generator, 300, "city-")
    words = list(generator.permutation(_NOTE_WORDS))
    age_mean = generator.uniform(30, 50)
    train = _table(generator, int(generator.integers(60, 90)), age_mean, cities[:200],
                   words[:22], SEXES, [0.5, 0.4, 0.1])
    # The served patients are older, so statistics of the served rows differ from training's.
    hidden = _table(generator, int(generator.integers(20, 30)), age_mean + 15, cities, words,
                    SEXES + ("unknown",), [0.3, 0.3, 0.2, 0.2])
    return train, hidden


def reference_preprocessing(train, rows):
    """The model inputs for `rows`, every layer adapted on `train` (the answer to ex-06-4).

    >>> train = {"age": np.array([20., 40.]), "sex": np.array(["f", "m"], dtype=object),
    ...          "city": np.array(["a", "b"], dtype=object),
    ...          "note": np.array(["mild pain", "no pain"], dtype=object)}
    >>> out = reference_preprocessing(train, train)
    >>> out["age"].ravel().tolist(), out["sex"].shape, out["city"].shape, out["note"].shape
    ([-1.0, 1.0], TensorShape([2, 3]), TensorShape([2]), TensorShape([2, 16]))
    """
    age = Normalization(axis=None)
    age.adapt(np.asarray(train["age"], dtype=np.float64))
    sex = StringLookup(output_mode="one_hot")
    sex.adapt(train["sex"])
    note = TextVectorization(max_tokens=NOTE_TOKENS, output_mode="multi_hot",
                             pad_to_max_tokens=True)
    note.adapt(train["note"])
    return {"age": age(rows["age"]), "sex": sex(rows["sex"]),
            "city": Hashing(num_bins=CITY_BINS)(rows["city"]), "note": note(rows["note"])}


def _variants(train, hidden):
    """Plausible wrong answers, column by column: (column, output, what went wrong, hint)."""
    both = {key: np.concatenate([train[key], hidden[key]]) for key in train}
    served = reference_preprocessing(hidden, hidden)
    pooled = reference_preprocessing(both, hidden)
    sex_int = StringLookup()
    sex_int.adapt(train["sex"])
    city_lookup = StringLookup(max_tokens=CITY_BINS)
    city_lookup.adapt(train["city"])
    counts = TextVectorization(max_tokens=NOTE_TOKENS, output_mode="count",
                               pad_to_max_tokens=True)
    counts.adapt(train["note"])
    adapt_where = ("adapt every layer on the training rows only, and apply those layers to the "
                   "rows to preprocess")
    return [
        ("age", served["age"], "age was normalised with the mean and variance of the rows being "
                               "preprocessed, not of the training rows", adapt_where),
        ("age", pooled["age"], "age was normalised with statistics of the training and the "
                               "preprocessed rows together", adapt_where),
        ("age", np.asarray(hidden["age"], dtype=np.float32), "age is not normalised",
         "use a Normalization layer adapted on train['age']"),
        ("sex", served["sex"], "the vocabulary of sex was learned from the rows being "
                               "preprocessed, not from the training rows", adapt_where),
        ("sex", pooled["sex"], "the vocabulary of sex includes values from the rows being "
                               "preprocessed", adapt_where),
        ("sex", sex_int(hidden["sex"]), "sex gave one integer index per row, not a one-hot "
                                        "vector", "StringLookup(output_mode='one_hot')"),
        ("city", city_lookup(hidden["city"]), "city went through a vocabulary; a city training "
                                              "never saw must still get its own bucket",
         f"hash it: Hashing(num_bins={CITY_BINS}) needs no vocabulary"),
        ("note", served["note"], "the note vocabulary was learned from the rows being "
                                 "preprocessed", adapt_where),
        ("note", pooled["note"], "the note vocabulary includes words of the rows being "
                                 "preprocessed", adapt_where),
        ("note", counts(hidden["note"]), "note counts how often each word occurs; the task "
                                         "asks only whether it occurs",
         "output_mode='multi_hot'"),
    ]


@check("ex-06-4", hint="adapt each layer on the training rows, then apply it to `rows`: "
                        "Normalization(axis=None) for age (a 1-D column), "
                        "StringLookup(output_mode='one_hot') for sex, "
                        f"Hashing(num_bins={CITY_BINS}) for city, TextVectorization("
                        f"max_tokens={NOTE_TOKENS}, output_mode='multi_hot') for note",
       replayable=True)
def check_mixed_table(preprocess_table):
    """ex-06-4: `preprocess_table(train, rows)` gives the model inputs of hidden rows.

    >>> check_mixed_table(reference_preprocessing)
    ex-06-4 passed: hidden rows come out as the layers adapted on the training rows make them
    """
    check_id = "ex-06-4"
    train, hidden = _tables(rng(check_id))
    got = call_answer(check_id, preprocess_table, train, hidden, want_dataset=False)
    want = reference_preprocessing(train, hidden)
    if not isinstance(got, dict):
        fail(check_id, f"preprocess_table returned a {type(got).__name__}; expected a dict with "
                       f"the keys {sorted(want)}")
    if sorted(got) != sorted(want):
        fail(check_id, f"the result has the keys {sorted(got, key=str)}; expected "
                       f"{sorted(want)}")
    rows = len(hidden["age"])
    for key in ("age", "sex", "city", "note"):
        value = np.asarray(got[key])
        wanted = np.asarray(want[key])
        if key in ("age", "city") and value.size == rows:
            value = value.reshape(wanted.shape)  # (rows,) and (rows, 1) are both fine
        if _same(value, wanted):
            continue
        for column, output, what, hint in _variants(train, hidden):
            if column == key and _same(value, output):
                fail(check_id, what, hint=hint)
        if value.shape != wanted.shape:
            fail(check_id, f"{key}: for {rows} rows expected an array of shape {wanted.shape}, "
                           f"got {value.shape}")
        fail(check_id, f"{key}: expected {_short(wanted)}, got {_short(value)}")
    passed(check_id, "hidden rows come out as the layers adapted on the training rows make them")
