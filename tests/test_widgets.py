"""Sliders re-run the benchmark with their values and redraw; tested by setting values."""

import matplotlib
import pytest

matplotlib.use("Agg")

from feedline.data import Dataset  # noqa: E402
from feedline.perf.widgets import benchmark_sliders, describe, run_with  # noqa: E402

pytestmark = pytest.mark.timeout(60)


def make(size, parallel):
    return Dataset.range(size).map(lambda x: x, num_parallel_calls=parallel)


def test_run_with_builds_the_pipeline_from_the_values():
    result = run_with(make, {"size": 4, "parallel": 2}, num_epochs=2, train_step=0.0)
    assert result.num_elements == 8
    assert describe({"size": 4, "parallel": 2}, result).startswith("size=4, parallel=2: ")


def test_setting_a_slider_reruns_and_redraws():
    sliders = benchmark_sliders(make, num_epochs=1, train_step=0.0, size=(2, 10, 1, 3),
                                parallel=(1, 4))
    assert sliders.runs == 1 and sliders.result.num_elements == 3
    assert all(not s.continuous_update for s in sliders.sliders.values())
    sliders.sliders["size"].value = 7
    assert sliders.runs == 2
    assert sliders.values == {"size": 7, "parallel": 1}
    assert sliders.result.num_elements == 7
    assert "size=7" in sliders.label.value
