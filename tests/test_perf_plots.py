"""Slide plots: timeline and comparison figures, and byte-identical SVG exports."""

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from feedline.perf import (ArtificialDataset, benchmark, plot_comparison, save_slide,  # noqa: E402
                           slide_style)
from feedline.perf.style import PALETTE  # noqa: E402

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def result():
    return benchmark(ArtificialDataset(3, 0.002, 0.001).prefetch(1), num_epochs=5,
                     train_step=0.001)


def test_the_timeline_plot_has_one_row_per_stage(result):
    ax = result.timeline.plot(title="prefetch")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == result.timeline.stages
    assert {"open", "read", "train_step"} <= set(labels)
    assert ax.get_title() == "prefetch"
    plt.close(ax.figure)


def test_the_slide_style_is_16_by_9_with_large_fonts_and_safe_colours():
    with slide_style():
        width, height = plt.rcParams["figure.figsize"]
        assert abs(width / height - 16 / 9) < 0.01
        assert plt.rcParams["font.size"] >= 18
        colours = [c["color"].upper().lstrip("#") for c in plt.rcParams["axes.prop_cycle"]]
        assert colours == [p.lstrip("#") for p in PALETTE]
        assert "marker" in plt.rcParams["axes.prop_cycle"].keys


def test_the_comparison_chart_shows_medians_and_ranges(result):
    ax = plot_comparison({"a": [1.0, 2.0, 3.0], "b": [result, result]}, ideal={"a": 1.5})
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    assert any("2.000" in t.get_text() for t in ax.texts)
    plt.close(ax.figure)


def test_saving_the_same_figure_twice_gives_identical_svg_bytes(result, tmp_path):
    ax = result.timeline.plot()
    first_svg, first_png = save_slide(ax.figure, tmp_path / "one")
    second_svg, _ = save_slide(ax.figure, tmp_path / "two.svg")
    assert first_svg.read_bytes() == second_svg.read_bytes()
    assert first_png.exists() and first_png.read_bytes()[:4] == b"\x89PNG"
    assert b"<dc:date>" not in first_svg.read_bytes()
    plt.close(ax.figure)
