"""The autotune model: its choices on synthetic measurements (pure functions, no clocks), the
decision log, and which stages share a model."""

import numpy as np
import pytest

from feedline.data import AUTOTUNE, Dataset, Options, autotune
from feedline.data.autotune import Model, StageView, choose, element_nbytes
from feedline.data.autotune.optimizer import empty_probability, predicted_wait


def stage(name="map", value=2, wall=0.01, cpu=0.0002, consumer=0.001, wait=0.8, **more):
    return StageView(name, "workers", value=value, minimum=1, maximum=16,
                     wall_per_element=wall, cpu_per_element=cpu, consumer_time=consumer,
                     wait_fraction=wait, **more)


def final_values(stages, changes):
    values = {s.name: s.value for s in stages}
    values.update({change.stage: change.new for change in changes})
    return values


def test_a_sleeping_stage_gets_more_workers_than_a_cpu_bound_one():
    sleeping = stage("sleep", cpu=0.0002)   # 2% CPU: waits on I/O or a timer
    numeric = stage("numpy", cpu=0.0098)    # 98% CPU
    changes = choose([sleeping, numeric], cpu_budget=3, ram_budget=10**9)
    values = final_values([sleeping, numeric], changes)
    assert values["sleep"] > values["numpy"]
    assert values["sleep"] == 4  # at most doubled in one step


def test_a_cpu_bound_stage_gets_no_worker_beyond_the_cpu_budget():
    numeric = stage("numpy", value=2, cpu=0.0099, tried={1: 0.02, 2: 0.005})
    assert choose([numeric], cpu_budget=2, ram_budget=10**9) == []


def test_workers_that_keep_only_one_core_busy_first_try_one_worker_fewer():
    # 2 workers, each busy on the CPU half the time: together one core, as under the GIL
    [change] = choose([stage(value=2, cpu=0.005)], cpu_budget=8, ram_budget=10**9)
    assert (change.old, change.new) == (2, 1) and "take turns at the GIL" in change.reason


def test_workers_that_keep_two_cores_busy_are_not_cut():
    changes = choose([stage(value=2, cpu=0.0095)], cpu_budget=8, ram_budget=10**9)
    assert all(change.new >= 2 for change in changes)


def test_one_worker_fewer_is_kept_when_the_stage_is_no_slower():
    same = stage(value=1, cpu=0.008, tried={2: 0.005, 1: 0.005}, previous=2, ceiling=2)
    assert choose([same], cpu_budget=8, ram_budget=10**9) == []


def test_one_worker_fewer_is_undone_when_the_stage_got_slower():
    slower = stage(value=1, cpu=0.008, tried={2: 0.005, 1: 0.01}, previous=2)
    [change] = choose([slower], cpu_budget=8, ram_budget=10**9)
    assert (change.old, change.new) == (1, 2) and "slower" in change.reason


def test_a_stage_whose_consumer_does_not_wait_keeps_its_workers():
    fed = stage(wait=0.0, consumer=0.02)
    assert choose([fed], cpu_budget=8, ram_budget=10**9) == []


def test_workers_that_did_not_speed_up_the_stage_are_taken_back_for_good():
    # 2 -> 4 workers left the producer period at 5 ms: calls take turns at the GIL
    gil_bound = stage(value=4, wall=0.02, cpu=0.005, tried={2: 0.005, 4: 0.005}, previous=2)
    [change] = choose([gil_bound], cpu_budget=8, ram_budget=10**9)
    assert (change.old, change.new) == (4, 2)
    assert "no faster" in change.reason and "GIL" in change.reason
    after = stage(value=2, wall=0.01, cpu=0.005, ceiling=4)
    assert all(change.new < 4 for change in choose([after], cpu_budget=8, ram_budget=10**9))


def test_workers_that_wait_and_did_not_help_are_taken_back_naming_another_limit():
    # 4 -> 8 sleeping workers (2% CPU each) left the period at 1 ms: the consumer sets it
    sleeping = stage(value=8, wall=0.004, cpu=0.00008, tried={4: 0.001, 8: 0.00101},
                     previous=4)
    [change] = choose([sleeping], cpu_budget=2, ram_budget=10**9)
    assert (change.old, change.new) == (8, 4)
    assert "GIL" not in change.reason and "something else sets the pace" in change.reason


def test_one_worker_fewer_within_noise_of_the_same_speed_is_kept():
    # 2 -> 1 workers of GIL-bound calls: 21.4 against 20.9 ms per element is the same speed
    cut = stage(value=1, wall=0.021, cpu=0.02, tried={2: 0.0209, 1: 0.0214}, previous=2)
    assert all(change.new == 1 for change in choose([cut], cpu_budget=8, ram_budget=10**9))
    slower = stage(value=1, wall=0.021, cpu=0.02, tried={2: 0.0209, 1: 0.0250}, previous=2)
    [change] = choose([slower], cpu_budget=8, ram_budget=10**9)
    assert (change.old, change.new) == (1, 2) and "slower than 2" in change.reason


def test_workers_that_did_speed_up_the_stage_are_kept():
    sleeping = stage(value=4, wall=0.01, tried={2: 0.005, 4: 0.0025}, previous=2)
    assert all(change.new >= 4 for change in choose([sleeping], cpu_budget=8, ram_budget=1e9))


def test_a_stage_over_the_cpu_budget_gives_back_workers():
    hungry = stage(value=4, wall=0.01, cpu=0.01)  # 4 cores' worth with a budget of 2
    [change] = choose([hungry], cpu_budget=2, ram_budget=10**9)
    assert (change.old, change.new) == (4, 2) and "over the CPU budget of 2" in change.reason


def test_every_change_carries_a_reason_with_the_measurements():
    [change] = choose([stage(wait=0.38, cpu=0.0003)], cpu_budget=2, ram_budget=10**9)
    assert change.reason == "consumer waited 38% of the time, calls are 3% CPU, budget allows 16"
    assert str(change).startswith("map: 2 → 4 workers: ")


def test_empty_probability_is_the_bounded_queue_formula_at_its_edges():
    assert empty_probability(0.0, 4) == 1.0        # the consumer takes instantly
    assert empty_probability(1.0, 4) == pytest.approx(1 / 5)
    assert empty_probability(1e6, 1000) == pytest.approx(0.0)  # no overflow
    assert empty_probability(0.5, 2) == pytest.approx((1 - 0.5) / (1 - 0.5 ** 3))


def test_more_workers_never_predict_more_waiting():
    sleeping = stage(consumer=0.004)
    waits = [predicted_wait(sleeping, workers) for workers in range(1, 17)]
    assert waits == sorted(waits, reverse=True)


def test_the_model_logs_starting_values_and_disabled_keeps_them():
    model = Model(cpu_budget=4, ram_budget=10**9, enabled=False)
    node = model.add_node("map", "workers", 2, 1, 16, apply=lambda value: None)
    assert (node.minimum, node.maximum) == (2, 2)
    [decision] = model.decisions
    assert (decision.old, decision.new) == (None, 2) and "enabled is False" in decision.reason


def test_a_stage_starts_within_the_cpu_budget():
    model = Model(cpu_budget=1)
    assert model.add_node("map", "workers", 2, 1, 16, apply=lambda value: None).value == 1


@pytest.mark.parametrize("name, value", [("cpu_budget", 0), ("ram_budget", -5),
                                          ("cpu_budget", "2")])
def test_a_bad_budget_names_the_option_and_the_default(name, value):
    with pytest.raises(ValueError, match=f"autotune.{name} must be a positive number"):
        Model(**{name: value})


def without_rewrites(dataset):
    """`dataset` as written: no default static rewrite (fusions, injected prefetch)."""
    options = Options()
    options.experimental_optimization.apply_default_optimizations = False
    return dataset.with_options(options)


def test_the_stages_of_one_pipeline_share_one_model():
    dataset = without_rewrites(
        Dataset.range(20).map(lambda x: x + 1, num_parallel_calls=AUTOTUNE)
        .batch(2, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE))
    iterator = iter(dataset)
    model = autotune.model_of(iterator)
    assert [node.name for node in model.nodes] == ["map", "batch", "prefetch"]
    assert [int(x[0]) for x in iterator] == list(range(1, 21, 2))


def test_the_next_pipeline_gets_its_own_model():
    first = iter(Dataset.range(5).map(lambda x: x, num_parallel_calls=AUTOTUNE))
    next(first)
    second = iter(Dataset.range(5).map(lambda x: x, num_parallel_calls=AUTOTUNE))
    assert autotune.model_of(first) is not autotune.model_of(second)
    first.close(), second.close()


def test_the_budgets_come_from_the_pipeline_options():
    options = Options()
    options.autotune.cpu_budget, options.autotune.ram_budget = 3, 10**6
    dataset = Dataset.range(4).map(lambda x: x, num_parallel_calls=AUTOTUNE)
    with iter(dataset.with_options(options)) as iterator:
        model = autotune.model_of(iterator)
        assert (model.cpu_budget, model.ram_budget) == (3, 10**6)


def test_element_bytes_count_arrays_strings_and_nesting():
    element = {"image": np.zeros((4, 4), np.float32), "label": (np.int64(1), b"cat")}
    assert element_nbytes(element) == 64 + 8 + 3


def test_a_building_scope_gives_one_model_to_exactly_the_stages_made_inside_it():
    def tuned():
        return Dataset.range(6).map(lambda x: x, num_parallel_calls=AUTOTUNE)

    with autotune.building() as built:
        inside = tuned().prefetch(AUTOTUNE)._iterator()
    outside = tuned()._iterator()
    assert [node.name for node in built.model.nodes] == ["map", "prefetch"]
    assert autotune.model_of(outside) is not built.model
    with autotune.building() as nothing:
        Dataset.range(3)._iterator()
    assert nothing.model is None
    inside.close(), outside.close()
