"""Sliders that re-run a benchmark and redraw its timeline and time.

`benchmark_sliders(make_pipeline, cycle_length=(1, 4), ...)` builds one integer slider per
keyword (`(min, max)` or `(min, max, step)`; the start value is `min` unless given as a fourth
item). Releasing a slider (continuous_update=False) calls `make_pipeline(**values)`, runs
`benchmark` on it and redraws. The logic lives in `run_with` and `describe`; the widget code
only wires sliders to them, so it can be tested by setting slider values.
"""

from .bench import benchmark


def run_with(make_pipeline, values, num_epochs=2, train_step=0.01):
    """Build the pipeline for `values` (a dict of parameters) and benchmark it."""
    return benchmark(make_pipeline(**values), num_epochs=num_epochs, train_step=train_step)


def describe(values, result):
    """One line: the parameters and the measured time."""
    settings = ", ".join(f"{name}={value}" for name, value in values.items())
    return f"{settings}: {result.total:.3f} s for {len(result.epoch_times)} epochs"


class BenchmarkSliders:
    """The sliders, the output area and the latest result (`.result`, `.values`)."""

    def __init__(self, make_pipeline, num_epochs=2, train_step=0.01, **ranges):
        import ipywidgets

        self.make_pipeline, self.num_epochs, self.train_step = (make_pipeline, num_epochs,
                                                                train_step)
        self.sliders = {}
        for name, spec in ranges.items():
            low, high, step, start = _slider_spec(spec)
            slider = ipywidgets.IntSlider(value=start, min=low, max=high, step=step,
                                          description=name, continuous_update=False)
            slider.observe(self._changed, names="value")
            self.sliders[name] = slider
        self.label = ipywidgets.Label()
        self.output = ipywidgets.Output()
        self.widget = ipywidgets.VBox([*self.sliders.values(), self.label, self.output])
        self.result = self.values = None
        self.runs = 0
        self.update()

    @property
    def current(self):
        return {name: slider.value for name, slider in self.sliders.items()}

    def _changed(self, change):
        self.update()

    def update(self):
        """Re-run the benchmark with the sliders' values and redraw."""
        import matplotlib.pyplot as plt
        from IPython.display import display

        self.values = self.current
        self.result = run_with(self.make_pipeline, self.values, self.num_epochs,
                               self.train_step)
        self.runs += 1
        self.label.value = describe(self.values, self.result)
        with self.output:
            self.output.clear_output(wait=True)
            figure, ax = plt.subplots()
            self.result.timeline.plot(ax=ax, title=describe(self.values, self.result))
            display(figure)
            plt.close(figure)

    def _ipython_display_(self):
        from IPython.display import display
        display(self.widget)


def _slider_spec(spec):
    spec = tuple(spec)
    low, high = int(spec[0]), int(spec[1])
    step = int(spec[2]) if len(spec) > 2 else 1
    start = int(spec[3]) if len(spec) > 3 else low
    return low, high, step, start


def benchmark_sliders(make_pipeline, num_epochs=2, train_step=0.01, **ranges):
    """Sliders for the keyword parameters of `make_pipeline`; see the module docstring."""
    return BenchmarkSliders(make_pipeline, num_epochs, train_step, **ranges)
