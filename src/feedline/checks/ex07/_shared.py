"""What the ex-07 timeline checks share: timelines of sequential pipelines built from costs.

`sequential_timeline` lays out the spans a trace would record for a one-thread pipeline whose
costs are given, and `_random_timeline` draws those costs so that one chosen stage clearly does
the most work. `ex-07-1` and `ex-07-3` hand such timelines to the learner's function.
"""

from ...perf.timeline import Timeline
from ...perf.trace import Span


MAIN = "MainThread"


# -- timelines of sequential pipelines, built from declared costs -----------------------------

def sequential_timeline(n, epochs, open_s, read_s, map_costs, step_s, jitter=None):
    """The `Timeline` a trace records for `ArtificialDataset(n, open_s, read_s)` followed by
    one `map` per cost in `map_costs`, iterated for `epochs` epochs with a training step of
    `step_s` per element. `jitter`, a NumPy generator, stretches every piece of work by up to
    5 % and adds a few microseconds between pieces, as a real run does.

    >>> timeline = sequential_timeline(2, 1, 0.01, 0.002, [0.005], 0.003)
    >>> timeline.stages
    ['open', 'read', 'map', 'train_step']
    >>> round(timeline.duration, 6)
    0.03
    """
    if n < 1 or epochs < 1:
        raise ValueError(f"sequential_timeline: n and epochs must be at least 1, got n={n}, "
                         f"epochs={epochs}")
    stretch = (lambda: 1.0) if jitter is None else (lambda: 1.0 + jitter.uniform(0.0, 0.05))
    gap = (lambda: 0.0) if jitter is None else (lambda: jitter.uniform(2e-6, 2e-5))
    labels = ["map" if k == 0 else f"map#{k + 1}" for k in range(len(map_costs))]
    spans, now = [], 0.0
    for epoch in range(epochs):
        for index in range(n):
            # Each stage's `next` opens a span, asks the stage above it, then does its own
            # work: the spans nest, the source innermost.
            starts = []
            for _ in range(len(map_costs) + 1):
                starts.append(now)
                now += gap()
            if index == 0:
                opened = now
                now += open_s * stretch()
                spans.append(Span("open", MAIN, opened, now, epoch, 0, "user"))
            now += read_s * stretch()
            spans.append(Span("read", MAIN, starts[-1], now, epoch, index, "next"))
            for k, cost in enumerate(map_costs):
                now += cost * stretch()
                spans.append(Span(labels[k], MAIN, starts[-2 - k], now, epoch, index, "next"))
            now += gap()
            stepped = now
            now += step_s * stretch()
            spans.append(Span("train_step", MAIN, stepped, now, epoch, epoch * n + index,
                              "user"))
            now += gap()
    return Timeline(spans, origin=0.0)


def _random_timeline(generator, heavy):
    """A timeline with random costs in which stage `heavy` does clearly the most work."""
    n, epochs = int(generator.integers(4, 9)), int(generator.integers(1, 4))
    maps = 2 if heavy == "map#2" else int(generator.integers(1, 3))
    per_element = {"read": 0.0, "map": 0.0, "map#2": 0.0, "train_step": 0.0}
    for stage in ["read", "train_step"] + ["map", "map#2"][:maps]:
        per_element[stage] = float(generator.uniform(0.001, 0.006))
    open_s = float(generator.uniform(0.001, 0.004))
    busiest = max(per_element[stage] * n for stage in per_element)
    if heavy == "open":
        open_s = 1.5 * busiest + 0.002
    else:
        per_element[heavy] = 1.5 * max(busiest, open_s) / n + 0.002
    costs = [per_element["map"], per_element["map#2"]][:maps]
    return sequential_timeline(n, epochs, open_s, per_element["read"], costs,
                               per_element["train_step"], jitter=generator)
