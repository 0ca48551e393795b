"""The ex-08 checks accept the reference answers and reject plausible wrong ones."""

import pytest

from feedline.checks import ex08
from feedline.data import AUTOTUNE
from checkkit import blank


# -- ex-08-1: add prefetch --------------------------------------------------------------------

@pytest.mark.parametrize("answer", [lambda ds: ds.prefetch(1), lambda ds: ds.prefetch(AUTOTUNE),
                                    lambda ds: ds.prefetch(4)])
def test_with_prefetch_accepts_reference(answer, capsys):
    ex08.check_with_prefetch(answer)
    assert capsys.readouterr().out == (
        "ex-08-1 passed: same elements, produced in the background while the loop worked\n")


@pytest.mark.parametrize("wrong, match", [
    (lambda ds: ds, "training loop's own thread"),
    (lambda ds: ds.prefetch(0), "training loop's own thread"),
    (lambda ds: ds.prefetch(1).take(5), "same"),
    (lambda ds: ds.prefetch(1).repeat(2), "more than"),
    (blank, "NotImplementedError"),
])
def test_with_prefetch_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex08.check_with_prefetch(wrong)


# -- ex-08-2: prefetch last -------------------------------------------------------------------

def make_pipeline(raw, decode, batch_size):
    return raw.map(decode).batch(batch_size).prefetch(1)


def _batch_size():
    return int(ex08.rng("ex-08-2").integers(3, 5))


def test_make_pipeline_accepts_reference(capsys):
    ex08.check_make_pipeline(make_pipeline)
    ex08.check_make_pipeline(lambda raw, decode, b: raw.map(decode).batch(b).prefetch(AUTOTUNE))
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["ex-08-2 passed: decode and batch run in the background; prefetch "
                     "comes last"] * 2


@pytest.mark.parametrize("wrong, match", [
    (lambda raw, decode, b: raw.map(decode).batch(b), "loop's thread"),
    (lambda raw, decode, b: raw.prefetch(1).map(decode).batch(b), "put it after map"),
    (lambda raw, decode, b: raw.map(decode).prefetch(1).batch(b), "prefetch last"),
    (lambda raw, decode, b: raw.map(decode).batch(b, drop_remainder=True).prefetch(1),
     "batch sizes"),
    (lambda raw, decode, b: raw.skip(1).map(decode).batch(b).prefetch(1), "batch sizes"),
    (lambda raw, decode, b: raw.map(decode, num_parallel_calls=2).batch(b).prefetch(0),
     "prefetch\\(0\\), which keeps no element ready"),
    (lambda raw, decode, b: raw.map(decode, num_parallel_calls=2).batch(b), "prefetch last"),
    # the batch size this run draws, written in instead of the argument
    (lambda raw, decode, b: raw.map(decode).batch(_batch_size()).prefetch(1),
     "with batch_size=[56] the batches had sizes.*argument is not used"),
    (blank, "NotImplementedError"),
])
def test_make_pipeline_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex08.check_make_pipeline(wrong)


# -- ex-08-3: predict the total ---------------------------------------------------------------

def predicted_time(n, produce_s, consume_s, prefetch):
    if prefetch:
        return produce_s + (n - 1) * max(produce_s, consume_s) + consume_s
    return n * (produce_s + consume_s)


def test_predicted_time_accepts_reference(capsys):
    ex08.check_predicted_time(predicted_time)
    assert capsys.readouterr().out.startswith("ex-08-3 passed:")


@pytest.mark.parametrize("wrong, match", [
    (lambda n, p, c, prefetch: n * max(p, c) if prefetch else n * (p + c), "first element"),
    (lambda n, p, c, prefetch: n * (p + c), "overlap"),
    (lambda n, p, c, prefetch: p + (n - 1) * min(p, c) + c if prefetch else n * (p + c),
     "expected"),
    (lambda n, p, c, prefetch: p + n * max(p, c) + c if prefetch else n * (p + c),
     "expected"),
    (lambda n, p, c, prefetch: "soon", "a number"),
    (blank, "NotImplementedError"),
])
def test_predicted_time_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex08.check_predicted_time(wrong)


# -- ex-08-4: simulate a bounded buffer -------------------------------------------------------

def simulate_prefetch(produce_costs, consume_s, buffer_size):
    finished, taken = 0.0, []
    for i, cost in enumerate(produce_costs):
        start = finished if i < buffer_size else max(finished, taken[i - buffer_size])
        finished = start + cost
        taken.append(finished if i == 0 else max(finished, taken[-1] + consume_s))
    return taken[-1] + consume_s


def simulate_unbounded(produce_costs, consume_s, buffer_size):
    return simulate_prefetch(produce_costs, consume_s, len(produce_costs) + 1)


def simulate_off_by_one(produce_costs, consume_s, buffer_size):
    return simulate_prefetch(produce_costs, consume_s, buffer_size + 1)


def simulate_constant(produce_costs, consume_s, buffer_size):
    n, p = len(produce_costs), sum(produce_costs) / len(produce_costs)
    return p + (n - 1) * max(p, consume_s) + consume_s


def test_simulate_prefetch_accepts_reference(capsys):
    ex08.check_simulate_prefetch(simulate_prefetch)
    assert capsys.readouterr().out.startswith("ex-08-4 passed:")


@pytest.mark.parametrize("wrong, match", [
    (simulate_unbounded, "unlimited buffer"),
    (simulate_off_by_one, "buffer_size \\+ 1"),
    (simulate_constant, "expected"),
    (lambda costs, c, b: sum(costs) + len(costs) * c, "expected"),
    (blank, "NotImplementedError"),
])
def test_simulate_prefetch_rejects(wrong, match):
    with pytest.raises(AssertionError, match=match):
        ex08.check_simulate_prefetch(wrong)
