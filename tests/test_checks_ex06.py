"""The ex-06 checks accept the reference answers and reject plausible wrong ones."""

import copy
import math
from fractions import Fraction

import numpy as np
import pytest

from feedline.checks import _replay, ex06
from feedline.layers import Hashing, Normalization, StringLookup, TextVectorization
from checkkit import blank, check_rejects, graded


# -- ex-06-1: adapt a Normalization on the training split -------------------------------------

def adapted(data, axis=-1):
    layer = Normalization(axis=axis)
    layer.adapt(data)
    return layer


def normalizer_for(train, valid, test):
    return adapted(train)


def test_normalizer_accepts_a_layer_adapted_on_the_training_split(capsys):
    ex06.check_normalizer(normalizer_for)
    ex06.check_normalizer(lambda train, valid, test: Normalization(
        mean=train.mean(axis=0), variance=train.var(axis=0)))  # the statistics given directly
    assert capsys.readouterr().out.splitlines() == [
        "ex-06-1 passed: the training split comes out with mean 0 and variance 1 in every "
        "feature"] * 2


@pytest.mark.parametrize("wrong, match", [
    (lambda train, valid, test: adapted(np.concatenate([train, valid, test])),
     "adapted on all three splits.*leaked"),
    (lambda train, valid, test: adapted(np.concatenate([train, valid])),
     "training and validation splits together"),
    (lambda train, valid, test: adapted(test), "adapted on the test split"),
    (lambda train, valid, test: adapted(valid), "adapted on the validation split"),
    (lambda train, valid, test: adapted(train, axis=None), "one mean and one variance for all"),
    (lambda train, valid, test: Normalization(), "must be adapted"),
    (lambda train, valid, test: adapted(train)(train), "returned a (ndarray|Tensor).*layer itself"),
    (lambda train, valid, test: Normalization(mean=train.mean(axis=0),
                                              variance=train.var(axis=0, ddof=1) * 2),
     "should have mean 0 and variance 1"),
    (blank, "NotImplementedError"),
])
def test_normalizer_rejects(wrong, match):
    check_rejects(ex06.check_normalizer, wrong, match)


def test_normalizer_says_where_to_adapt_when_all_the_data_was_used():
    with pytest.raises(AssertionError, match="adapt\\(\\) on the training split only"):
        ex06.check_normalizer(
            lambda train, valid, test: adapted(np.concatenate([train, valid, test])))


# -- ex-06-2: a StringLookup with OOV indices --------------------------------------------------

def make_lookup(values, num_oov):
    layer = StringLookup(num_oov_indices=num_oov)
    layer.adapt(values)
    return layer


def test_lookup_with_oov_accepts_the_adapted_layer(capsys):
    ex06.check_lookup_with_oov(make_lookup)
    ex06.check_lookup_with_oov(lambda values, num_oov: make_lookup(list(values), num_oov))
    assert capsys.readouterr().out.splitlines() == [
        "ex-06-2 passed: known values keep their indices after the OOV ones; unseen values "
        "spread over the OOV indices"] * 2


def adapted_lookup(values, **options):
    layer = StringLookup(**options)
    layer.adapt(values)
    return layer


@pytest.mark.parametrize("wrong, match", [
    (lambda values, num_oov: adapted_lookup(values), "every unseen value went to index 0"),
    (lambda values, num_oov: adapted_lookup(values, num_oov_indices=0),
     "a value training never saw made the layer fail"),
    (lambda values, num_oov: adapted_lookup(values, num_oov_indices=num_oov, mask_token=""),
     "one too high: a mask token"),
    (lambda values, num_oov: StringLookup(num_oov_indices=num_oov,
                                          vocabulary=sorted(set(values))),
     "alphabetical order"),
    (lambda values, num_oov: adapted_lookup(values, num_oov_indices=num_oov,
                                            output_mode="one_hot"),
     "expected one integer index per value"),
    (lambda values, num_oov: adapted_lookup(values, num_oov_indices=num_oov + 1),
     "unseen values got the indices|known values got the indices"),
    (lambda values, num_oov: Hashing(num_bins=num_oov), "returned a Hashing"),
    (blank, "NotImplementedError"),
])
def test_lookup_with_oov_rejects(wrong, match):
    check_rejects(ex06.check_lookup_with_oov, wrong, match)


def test_lookup_with_oov_hint_names_num_oov_indices():
    with pytest.raises(AssertionError, match="set num_oov_indices=num_oov"):
        ex06.check_lookup_with_oov(lambda values, num_oov: adapted_lookup(values))


# -- ex-06-3: the birthday formulas ------------------------------------------------------------

def expected_collisions(n, m):
    return n * (n - 1) / (2 * m), m * (1 - (1 - 1 / m) ** n)


def test_collision_formula_accepts_the_exact_formulas(capsys):
    ex06.check_collision_formula(expected_collisions)
    ex06.check_collision_formula(  # written with math.comb and a list: also fine
        lambda n, m: [math.comb(n, 2) / m, m - m * ((m - 1) / m) ** n])
    assert capsys.readouterr().out.splitlines() == [
        "ex-06-3 passed: colliding pairs and used buckets match the birthday formulas"] * 2


@pytest.mark.parametrize("wrong, match", [
    (lambda n, m: (n * n / (2 * m), m * (1 - (1 - 1 / m) ** n)), "pairs each value with itself"),
    (lambda n, m: (n * (n - 1) / m, m * (1 - (1 - 1 / m) ** n)), "counts every pair twice"),
    (lambda n, m: (n * (n - 1) / (2 * m), min(n, m)), "assumes no two values ever share"),
    (lambda n, m: (n * (n - 1) / (2 * m), m * (1 - math.exp(-n / m))),
     "approximation for large m"),
    (lambda n, m: (n * (n - 1) / (2 * m), n - n * (n - 1) / (2 * m)),
     "three values in one bucket make three pairs"),
    (lambda n, m: n * (n - 1) / (2 * m), "expected a pair"),
    (lambda n, m: ("many", "few"), "expected two numbers"),
    (blank, "NotImplementedError"),
])
def test_collision_formula_rejects(wrong, match):
    check_rejects(ex06.check_collision_formula, wrong, match)


def test_the_formula_predicts_what_hashing_counts():
    """The reference formula agrees with feedline's Hashing on many values (a sanity check)."""
    values = np.array([f"value-{i}" for i in range(2000)], dtype=object)
    buckets = Hashing(num_bins=3000)(values)
    used = len(set(buckets.tolist()))
    assert abs(used - expected_collisions(2000, 3000)[1]) < 40


# -- ex-06-4: a mixed table --------------------------------------------------------------------

def preprocess_table(train, rows):
    age = Normalization(axis=None)
    age.adapt(train["age"])
    sex = StringLookup(output_mode="one_hot")
    sex.adapt(train["sex"])
    note = TextVectorization(max_tokens=16, output_mode="multi_hot")
    note.adapt(train["note"])
    return {"age": age(rows["age"]), "sex": sex(rows["sex"]),
            "city": Hashing(num_bins=32)(rows["city"]), "note": note(rows["note"])}


def with_column(column, make):
    """The right answer with one column replaced by `make(train, rows)`."""
    def answer(train, rows):
        out = preprocess_table(train, rows)
        out[column] = make(train, rows)
        return out
    return answer


def test_mixed_table_accepts_the_right_layers(capsys):
    ex06.check_mixed_table(preprocess_table)
    ex06.check_mixed_table(with_column(  # age as a (rows, 1) column is fine
        "age", lambda train, rows: adapted(train["age"][:, None])(rows["age"][:, None])))
    assert capsys.readouterr().out.splitlines() == [
        "ex-06-4 passed: hidden rows come out as the layers adapted on the training rows "
        "make them"] * 2


def served_layers(train, rows):
    """Every layer adapted on the rows being preprocessed: vocabulary and statistics skew."""
    return preprocess_table(rows, rows)


@pytest.mark.parametrize("wrong, match", [
    (served_layers, "age was normalised with the mean and variance of the rows being"),
    (with_column("age", lambda train, rows: adapted(np.concatenate(
        [train["age"], rows["age"]]), axis=None)(rows["age"])), "training and the preprocessed"),
    (with_column("age", lambda train, rows: rows["age"]), "age is not normalised"),
    (with_column("sex", lambda train, rows: adapted_lookup(rows["sex"], output_mode="one_hot")(
        rows["sex"])), "vocabulary of sex was learned from the rows being"),
    (with_column("sex", lambda train, rows: adapted_lookup(train["sex"])(rows["sex"])),
     "one integer index per row"),
    (with_column("city", lambda train, rows: adapted_lookup(train["city"], max_tokens=32)(
        rows["city"])), "city went through a vocabulary"),
    (with_column("city", lambda train, rows: Hashing(num_bins=32, salt=7)(rows["city"])),
     "city: expected"),
    (with_column("note", lambda train, rows: preprocess_table(rows, rows)["note"]),
     "note vocabulary was learned from the rows"),
    (with_column("note", lambda train, rows: adapted_text(train["note"], "count")(rows["note"])),
     "counts how often"),
    (with_column("note", lambda train, rows: adapted_text(train["note"], "multi_hot", 8)(
        rows["note"])), "note: for \\d+ rows expected an array of shape"),
    (lambda train, rows: {key: value for key, value in preprocess_table(train, rows).items()
                          if key != "city"}, "the result has the keys"),
    (lambda train, rows: list(preprocess_table(train, rows).values()), "expected a dict"),
    (blank, "NotImplementedError"),
])
def test_mixed_table_rejects(wrong, match):
    check_rejects(ex06.check_mixed_table, wrong, match)


def adapted_text(texts, mode, max_tokens=16):
    layer = TextVectorization(max_tokens=max_tokens, output_mode=mode)
    layer.adapt(texts)
    return layer


def test_mixed_table_explains_a_1d_normalization_with_the_default_axis():
    """Normalization() on a 1-D column keeps one mean per position: the call then fails."""
    with pytest.raises(AssertionError, match="axis=None\\) for age"):
        ex06.check_mixed_table(with_column(
            "age", lambda train, rows: adapted(train["age"])(rows["age"])))


def test_the_hidden_rows_hold_values_training_never_saw():
    train, hidden = ex06._tables(ex06.rng("ex-06-4"))
    assert set(hidden["sex"]) - set(train["sex"]) == {"unknown"}
    assert set(hidden["city"]) - set(train["city"])
    assert hidden["age"].mean() > train["age"].mean() + 5


# -- replay: the grader reaches the same verdict -----------------------------------------------

CASES = [
    (ex06.check_normalizer, normalizer_for,
     lambda train, valid, test: adapted(np.concatenate([train, valid, test]))),
    (ex06.check_lookup_with_oov, make_lookup, lambda values, num_oov: adapted_lookup(values)),
    (ex06.check_collision_formula, expected_collisions,
     lambda n, m: (n * n / (2 * m), min(n, m))),
    # The pairs counted exactly, as a Fraction: a number the grader must receive as one.
    (ex06.check_collision_formula,
     lambda n, m: (Fraction(n * (n - 1), 2 * m), expected_collisions(n, m)[1]),
     lambda n, m: (Fraction(n * n, 2 * m), expected_collisions(n, m)[1])),
    (ex06.check_mixed_table, preprocess_table, served_layers),
]


@pytest.mark.parametrize("case", range(len(CASES)), ids=[c[0].check_id for c in CASES])
def test_preprocessing_checks_replay_right_and_wrong_answers(monkeypatch, case):
    check, right, wrong = CASES[case]
    for answer, want in ((right, "passed"), (wrong, "failed"), (blank, "failed")):
        verdict, observation = graded(monkeypatch, check, answer)
        assert verdict == want
        assert _replay.judge(check.check_id, observation, "5eed")[0] == want, (answer, want)


def test_a_forged_verdict_or_another_seeds_record_fails_in_the_grader(monkeypatch):
    """The grader judges the recorded outputs, not the verdict the kernel claims."""
    _, observation = graded(monkeypatch, ex06.check_normalizer,
                            lambda train, valid, test: adapted(test))
    forged = copy.deepcopy(observation)
    forged["verdict"] = "passed"
    outcome, message = _replay.judge("ex-06-1", forged, "5eed")
    assert outcome == "failed" and "adapted on the test split" in message
    _, right = graded(monkeypatch, ex06.check_normalizer, normalizer_for, seed="aaaa")
    assert _replay.judge("ex-06-1", right, "aaaa")[0] == "passed"
    assert _replay.judge("ex-06-1", right, "bbbb")[0] == "failed"  # outputs of other splits
