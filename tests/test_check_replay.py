"""Checks recorded in a graded kernel and judged again by the grader: forged records fail.

A "graded run" here is the check called with `FEEDLINE_GRADE_SEED` set, as the grader sets it;
the observation the check would show as a cell output is taken from `_replay.LAST`.
"""

import copy
import json

import numpy as np
import pytest

from feedline.checks import _replay, _wire, ex01, ex08
from feedline.data import Dataset
from checkkit import assert_same_verdict_when_replayed, graded


def right_make_dataset(images, labels):
    return Dataset.from_tensor_slices({"image": images, "label": labels})


def test_a_right_answer_recorded_in_the_kernel_passes_in_the_grader(monkeypatch):
    verdict, observation = graded(monkeypatch, ex01.check_make_dataset, right_make_dataset)
    assert verdict == "passed" and observation["verdict"] == "passed"
    assert _replay.judge("ex-01-1", observation, "5eed") == ("passed", "")


def test_a_wrong_answer_fails_in_the_grader_with_the_same_message(monkeypatch):
    def wrong(images, labels):
        return Dataset.from_tensor_slices((images, labels))

    verdict, observation = graded(monkeypatch, ex01.check_make_dataset, wrong)
    assert verdict == "failed"
    outcome, message = _replay.judge("ex-01-1", observation, "5eed")
    assert outcome == "failed" and "expected each element to be a dict" in message


def test_the_grader_seed_decides_the_inputs_so_a_record_for_another_seed_fails(monkeypatch):
    _, observation = graded(monkeypatch, ex01.check_make_dataset, right_make_dataset,
                            seed="aaaa")
    outcome, message = _replay.judge("ex-01-1", observation, "bbbb")
    assert outcome == "failed"


def test_a_forged_pass_from_a_blank_answer_fails(monkeypatch):
    """A blank answer, whose record a hook rewrites to claim elements it never produced."""
    def blank(images, labels):
        raise NotImplementedError()

    _, right = graded(monkeypatch, ex01.check_make_dataset, right_make_dataset)
    _, observation = graded(monkeypatch, ex01.check_make_dataset, blank)
    forged = copy.deepcopy(observation)
    forged["verdict"] = "passed"
    assert _replay.judge("ex-01-1", forged, "5eed")[0] == "failed"
    # Claiming the call succeeded, with elements that are not the right ones, also fails.
    tampered = copy.deepcopy(right)
    read = next(event for event in tampered["events"] if event["op"] == "read")
    read["elements"] = read["elements"][:-1]
    assert _replay.judge("ex-01-1", tampered, "5eed")[0] == "failed"


def test_timing_checks_replay_their_observed_threads_and_intervals(monkeypatch):
    verdict, observation = graded(monkeypatch, ex08.check_with_prefetch,
                                  lambda ds: ds.prefetch(1))
    assert verdict == "passed"
    assert _replay.judge("ex-08-1", observation, "5eed") == ("passed", "")
    forged = copy.deepcopy(observation)
    for event in forged["events"]:
        if event["op"] == "observe" and event["name"] == "intervals":
            event["value"] = []  # no work recorded: nothing overlapped
    assert _replay.judge("ex-08-1", forged, "5eed")[0] == "failed"


def test_a_check_that_is_not_replayable_is_left_to_the_kernel(monkeypatch):
    from feedline.checks import _common

    @_common.check("ex-99-1", hint="h")
    def check_private(answer):
        _common.passed("ex-99-1", "ok")

    _, observation = graded(monkeypatch, check_private, 3)
    assert _replay.judge("ex-99-1", observation, "5eed")[0] == "unjudged"
    assert _replay.judge("ex-99-2", observation, "5eed")[0] == "unjudged"


def test_plain_data_round_trips_and_refuses_objects():
    value = {"a": (np.float32(1.5), np.array([b"x", b"yz"], dtype=object)), 2: [None, True]}
    back = _wire.decode(json.loads(json.dumps(_wire.encode(value))))
    assert back["a"][0].dtype == np.float32 and back["a"][1].tolist() == [b"x", b"yz"]
    assert back[2] == [None, True]
    with pytest.raises(_wire.Unsendable):
        _wire.encode(lambda: 0)
    with pytest.raises(_wire.Unsendable):
        _wire.decode({"array": "|O", "shape": [1], "data": ""})


def _ex11_cases():
    import os

    from feedline.checks import ex11

    def predicted_time(n, epochs, open_s, read_s, map_s, step_s, where):
        full = open_s + n * (read_s + map_s + step_s)
        later = {"none": full, "before_map": n * (map_s + step_s), "after_map": n * step_s}
        return full + (epochs - 1) * later[where]

    return [
        (ex11.check_with_cache, (lambda ds: ds.cache(),), (lambda ds: ds,)),
        (ex11.check_cache_within_budget,
         (lambda records, decode, expand: records.map(decode).cache().map(expand),),
         (lambda records, decode, expand: records.map(decode).map(expand).cache(),)),
        (ex11.check_predicted_time, (predicted_time,),
         (lambda n, epochs, open_s, read_s, map_s, step_s, where:
          epochs * (open_s + n * (read_s + map_s + step_s)),)),
        (ex11.check_augment_after_cache,
         (lambda records, decode, augment: records.map(decode).cache().map(augment),),
         (lambda records, decode, augment: records.map(decode).map(augment).cache(),)),
        (ex11.check_versioned_file_cache,
         (lambda records, transform, version, directory: records.map(transform).cache(
             os.path.join(directory, f"t-{version}")),),
         (lambda records, transform, version, directory: records.map(transform).cache(
             os.path.join(directory, "t")),)),
    ]


@pytest.mark.parametrize("case", range(5))
def test_cache_checks_replay_right_and_wrong_answers(monkeypatch, case):
    check, right, wrong = _ex11_cases()[case]
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)


def test_interleave_value_checks_replay(monkeypatch):
    from feedline.checks import ex09

    for check, right in ((ex09.check_predict_order, ex09._simulate_order),
                         (ex09.check_predicted_time, ex09._predicted_time),
                         (ex09.check_choose_cycle_length, ex09._choose_cycle_length)):
        verdict, observation = graded(monkeypatch, check, right)
        assert verdict == "passed"
        assert _replay.judge(check.check_id, observation, "5eed") == ("passed", "")
    cheat = lambda lengths, c, b: ex09.interleave_order(lengths, c, b)  # noqa: E731
    verdict, observation = graded(monkeypatch, ex09.check_predict_order, cheat)
    assert verdict == "failed"
    assert _replay.judge("ex-09-1", observation, "5eed")[0] == "failed"


def _interleave_file_cases():
    from feedline.checks import ex09

    return [
        (ex09.check_read_in_parallel,
         lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                      num_parallel_calls=k),
         lambda files, open_file, k: files.interleave(open_file, cycle_length=k)),
        (ex09.check_read_without_waiting,
         lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                      num_parallel_calls=k, deterministic=False),
         lambda files, open_file, k: files.interleave(open_file, cycle_length=k,
                                                      num_parallel_calls=k)),
    ]


@pytest.mark.parametrize("case", range(2))
def test_interleave_file_checks_replay_right_and_wrong_answers(monkeypatch, case):
    check, right, wrong = _interleave_file_cases()[case]
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)


@pytest.mark.parametrize("case", range(2))
def test_interleave_file_checks_refuse_a_forged_log_of_one_thread(monkeypatch, case):
    """A right record whose file log is rewritten to show every read on the loop's thread."""
    check, right, _ = _interleave_file_cases()[case]
    _, observation = graded(monkeypatch, check, right)
    forged = copy.deepcopy(observation)
    main = next(event["value"] for event in forged["events"]
                if event["op"] == "observe" and event["name"] == "main thread")
    for event in forged["events"]:
        if event["op"] == "observe" and event["name"] == "file log":
            for entry in event["value"]:
                if isinstance(entry, list) and len(entry) == 5:
                    entry[2] = main
    outcome, message = _replay.judge(check.check_id, forged, "5eed")
    assert outcome == "failed" and "loop's own thread" in message


def test_every_check_of_every_exercise_notebook_is_judged_by_the_grader():
    """A check decided in the student's kernel could be forged, so every shipped one replays."""
    import importlib

    import feedline.checks

    for name in feedline.checks.__all__:
        if name.startswith("ex"):
            importlib.import_module(f"feedline.checks.{name}")
    shipped = {check_id: run for check_id, run in _replay.REGISTRY.items()
               if run.__module__.startswith("feedline.checks.ex")}
    assert len(shipped) >= 19
    assert [check_id for check_id, run in sorted(shipped.items()) if not run.replayable] == []


def test_exact_numbers_come_back_as_the_same_numbers():
    """A Fraction or a Decimal of seconds passes `float(...)` in the kernel: the grader must get
    the number, not an opaque stand-in, and decoding makes no other kind of object."""
    from decimal import Decimal
    from fractions import Fraction

    for value in (Fraction(-7, 3), Decimal("0.125"), Decimal("NaN"), [Fraction(1, 2)]):
        back = _wire.decode(json.loads(json.dumps(_wire.encode(value))))
        assert type(back) is type(value) and str(back) == str(value)
    with pytest.raises(_wire.Unsendable):
        _wire.decode({"fraction": ["1", 2]})


def test_numpy_scalars_come_back_as_numpy_scalars_of_their_dtype():
    """So a check that asks `isinstance(x, np.integer)` decides the same in kernel and grader."""
    # (np.bytes_, np.str_ and np.float64 subclass bytes, str and float, and travel as those.)
    for value in (np.int64(7), np.int32(-3), np.float32(1.5), np.bool_(True)):
        back = _wire.decode(json.loads(json.dumps(_wire.encode(value))))
        assert type(back) is type(value) and back == value
    back = _wire.decode(json.loads(json.dumps(_wire.encode(np.array(3)))))
    assert isinstance(back, np.ndarray) and back.shape == ()


@pytest.mark.parametrize("damage", [{"fraction": [1, 0]}, {"decimal": "not a number"},
                                    {"array": "|O", "shape": [1], "data": ""}, {"what": 1}])
def test_a_record_with_damaged_data_fails_instead_of_stopping_the_grader(monkeypatch, damage):
    _, right = graded(monkeypatch, ex01.check_make_dataset, right_make_dataset)
    in_arguments = copy.deepcopy(right)
    in_arguments["events"][0]["values"][0]["value"] = damage
    assert _replay.judge("ex-01-1", in_arguments, "5eed")[0] == "failed"
    in_events = copy.deepcopy(right)
    for event in in_events["events"][1:]:
        for key in event:
            if key != "op":
                event[key] = damage
    assert _replay.judge("ex-01-1", in_events, "5eed")[0] in ("failed", "unjudged")


def test_a_check_replaced_on_its_exercise_package_is_a_sign_of_tampering(monkeypatch):
    """Check cells call `feedline.checks.ex09.check_...`, which the package re-exports from a
    submodule: replacing it there must be noticed as well as in the submodule."""
    import feedline.checks.ex09 as ex09

    assert not [sign for sign in _replay.tampering_signs() if "ex-09-1" in sign]
    monkeypatch.setattr(ex09, "check_predict_order", lambda answer: None)
    assert "the check for ex-09-1 was replaced" in _replay.tampering_signs()
