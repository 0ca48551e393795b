"""The tuner's decisions, as pure functions of measurements: no threads, no clocks.

The model of one stage: with `p` workers and calls taking `wall` seconds per element, the
stage can hand out an element every `wall / p` seconds (its producer period `x`). Its consumer
spends `y` seconds per element on its own work. Between them sits a buffer of `K` elements.
Treating arrivals and departures as random (an M/M/1/K queue), the consumer finds the buffer
empty with probability `(1 - r) / (1 - r**(K+1))`, `r = y / x`, and then waits about `x`:
that product is the stage's predicted wait per element. The tuner adds workers where that
prediction drops most per core of CPU spent, within the budgets, then checks on the running
pipeline that the workers it added made the stage deliver faster, and takes them back when they
did not (calls that hold the GIL, or a saturated CPU); for CPU-heavy calls it also tries one
worker fewer, and keeps that when the stage delivers as fast.

>>> stage = StageView("map", "workers", value=2, minimum=1, maximum=16, wall_per_element=0.01,
...                   cpu_per_element=0.0005, consumer_time=0.001, wait_fraction=0.8)
>>> [str(change) for change in choose([stage], cpu_budget=2, ram_budget=10**9)]
['map: 2 → 4 workers: consumer waited 80% of the time, calls are 5% CPU, budget allows 16']
"""

import dataclasses
import math

#: Smallest share of a core one worker is charged, however little CPU its calls measured.
MIN_CPU_SHARE = 0.02
#: A raise must cut the predicted wait by this share of the consumer's time per element.
MIN_GAIN = 0.02
#: Workers that did not make the stage at least this much faster are taken back.
MIN_SPEEDUP = 1.10
#: Below this share of its time waiting, the consumer is fed well enough: nothing to change.
MIN_WAIT = 0.02
#: Workers busier than this share of the time may be short-handed; idler ones wait for input.
MIN_BUSY = 0.5
#: Workers that together keep about one core busy (between these) may be taking turns at the
#: GIL: the tuner tries one worker fewer, and keeps that when the stage is no slower.
ONE_CORE = (0.4, 1.2)
#: A stage with fewer workers counts as no slower within this factor: two windows of the same
#: work differ by a few percent on a shared machine, and a cut must not be undone by that.
SAME_SPEED = 1.05


@dataclasses.dataclass
class StageView:
    """What the tuner knows about one tunable stage (measured over the last window).

    `knob` is "workers" (parallelism, its buffer follows at `buffer_per_worker` elements per
    worker) or "buffer" (a prefetch buffer). Measurements are None until seen. `tried` maps a
    worker count already run to the period between elements measured with it; `ceiling` is a count
    the tuner stays below (more workers were found not to help). `busy_fraction` is the share of the
    window its workers spent in calls: when they sit idle, the stage waits for its input and
    more workers would not help.
    """
    name: str
    knob: str
    value: int
    minimum: int
    maximum: int
    wall_per_element: float = None
    cpu_per_element: float = None
    consumer_time: float = None
    wait_fraction: float = 0.0
    bytes_per_element: float = 0.0
    empties: int = 0
    tried: dict = dataclasses.field(default_factory=dict)
    previous: int = None
    ceiling: int = None
    buffer_per_worker: int = 2
    busy_fraction: float = 1.0

    def cpu_share(self):
        """Cores one worker of this stage keeps busy: CPU time over wall time of its calls."""
        if not self.wall_per_element or self.cpu_per_element is None:
            return 1.0  # not measured yet: assume the worst
        return min(1.0, max(MIN_CPU_SHARE, self.cpu_per_element / self.wall_per_element))

    def buffered(self, value=None):
        """Elements this stage may hold with `value` (default: its current value)."""
        value = self.value if value is None else value
        return value * self.buffer_per_worker if self.knob == "workers" else value


@dataclasses.dataclass
class Change:
    """One decision: `stage` moves its `knob` from `old` to `new`, because of `reason`.

    `kind` says what the next measurement should check: "raise" and "try" (one worker fewer)
    are tested against the period measured before them; "undo" and "budget" are not; "kept"
    changes nothing (`old == new`) and only says why (see `held`).
    """
    stage: str
    knob: str
    old: int
    new: int
    reason: str
    kind: str = "raise"

    def __str__(self):
        if self.old == self.new:
            return f"{self.stage}: kept {self.new} {self.knob}: {self.reason}"
        return f"{self.stage}: {self.old} → {self.new} {self.knob}: {self.reason}"


def empty_probability(ratio, slots):
    """Chance that a consumer finds a buffer of `slots` empty, when it takes elements `ratio`
    times as slowly as they are produced (M/M/1/K queue, stable for any ratio)."""
    slots = max(0, int(slots))
    if abs(ratio - 1.0) < 1e-9:
        return 1.0 / (slots + 1)
    if ratio < 1.0:
        return (1.0 - ratio) / (1.0 - ratio ** (slots + 1))
    inverse = 1.0 / ratio  # rewritten with 1/ratio so large powers cannot overflow
    return inverse ** slots * (1.0 - inverse) / (1.0 - inverse ** (slots + 1))


def predicted_wait(stage, workers):
    """Seconds per element the consumer of `stage` is predicted to wait with `workers`."""
    if not stage.wall_per_element:
        return 0.0
    period = stage.wall_per_element / workers
    ratio = (stage.consumer_time or 0.0) / period
    return period * empty_probability(ratio, workers * stage.buffer_per_worker)


def cpu_in_use(stages):
    """Cores the worker stages are expected to keep busy at their current values."""
    return sum(stage.value * stage.cpu_share() for stage in stages if stage.knob == "workers")


def bytes_in_use(stages):
    """Bytes the stages' buffers may hold at their current values."""
    return sum(stage.buffered() * stage.bytes_per_element for stage in stages)


def choose(stages, cpu_budget, ram_budget, thread_cap=None):
    """The changes to make now, each with its reason: take back workers that did not help,
    shrink what is over budget, then add workers where the model predicts the largest cut in
    waiting per core spent, at most doubling a stage in one step."""
    stages = [dataclasses.replace(stage) for stage in stages]
    changes = _take_back_useless(stages) + _fit_budget(stages, cpu_budget)
    changed = {change.stage for change in changes}
    changes += _try_fewer(stages, changed)
    changed = {change.stage for change in changes}
    thread_cap = math.inf if thread_cap is None else thread_cap
    start = {stage.name: stage.value for stage in stages}
    while True:
        threads = sum(stage.value for stage in stages if stage.knob == "workers")
        best, best_gain = None, 0.0
        for stage in stages:
            if not _may_grow(stage, start[stage.name], changed, threads, thread_cap):
                continue
            if _allowed(stage, stages, cpu_budget, ram_budget) <= stage.value:
                continue
            gain = predicted_wait(stage, stage.value) - predicted_wait(stage, stage.value + 1)
            gain /= stage.cpu_share()
            threshold = MIN_GAIN * ((stage.consumer_time or 0.0) + stage.wall_per_element
                                    / stage.value)
            if gain > threshold and gain > best_gain:
                best, best_gain = stage, gain
        if best is None:
            break
        best.value += 1
    for stage in stages:
        if stage.knob == "workers" and stage.value != start[stage.name] and \
                stage.name not in changed:
            allowed = _allowed(stage, stages, cpu_budget, ram_budget)
            changes.append(Change(stage.name, "workers", start[stage.name], stage.value,
                                  f"consumer waited {stage.wait_fraction:.0%} of the time, "
                                  f"calls are {stage.cpu_share():.0%} CPU, budget allows "
                                  f"{allowed}"))
    return changes


def _may_grow(stage, start, changed, threads, thread_cap):
    return (stage.knob == "workers" and stage.name not in changed
            and stage.wall_per_element and stage.wait_fraction >= MIN_WAIT
            and stage.busy_fraction >= MIN_BUSY
            and stage.value < stage.maximum and stage.value < 2 * start
            and (stage.ceiling is None or stage.value + 1 < stage.ceiling)
            and threads < thread_cap)


def _allowed(stage, stages, cpu_budget, ram_budget):
    """The most workers `stage` may have with the other stages as they are."""
    share = stage.cpu_share()
    others_cpu = cpu_in_use(stages) - stage.value * share
    by_cpu = math.floor((cpu_budget - others_cpu) / share + 1e-9)
    allowed = min(stage.maximum, max(stage.minimum, by_cpu))
    if stage.bytes_per_element:
        others_ram = bytes_in_use(stages) - stage.buffered() * stage.bytes_per_element
        per_worker = stage.buffer_per_worker * stage.bytes_per_element
        allowed = min(allowed, max(stage.minimum, math.floor((ram_budget - others_ram)
                                                             / per_worker)))
    return allowed


def _try_fewer(stages, changed):
    """When a stage's workers together keep about one core busy and its consumer waits, try
    one worker fewer (once per count): threads that only take turns at the GIL cost switching
    and buy nothing."""
    changes = []
    for stage in stages:
        fewer, cores = stage.value - 1, stage.value * stage.cpu_share()
        if (stage.knob == "workers" and stage.name not in changed and stage.wall_per_element
                and fewer >= stage.minimum and fewer not in stage.tried
                and ONE_CORE[0] <= cores <= ONE_CORE[1] and stage.wait_fraction >= MIN_WAIT
                and stage.previous != fewer):
            changes.append(Change(stage.name, "workers", stage.value, fewer,
                                  f"{stage.value} workers keep {cores:.1f} cores busy, about "
                                  f"one: trying {fewer} to see whether they only take turns at "
                                  "the GIL", "try"))
            stage.value = fewer
    return changes


def _take_back_useless(stages):
    """Undo the last change of any stage whose measured period it did not improve: a raise
    that gave less than `MIN_SPEEDUP`, a cut that made the stage slower."""
    changes = []
    for stage in stages:
        before, now = stage.tried.get(stage.previous), stage.tried.get(stage.value)
        if stage.knob != "workers" or stage.previous is None or before is None or now is None \
                or stage.previous == stage.value:
            continue
        if stage.previous > stage.value:  # a cut: keep it unless the stage got slower
            if now <= before * SAME_SPEED:
                stage.ceiling = stage.previous  # as fast with fewer: no going back up
            else:
                changes.append(Change(
                    stage.name, "workers", stage.value, stage.previous,
                    f"{stage.value} workers were slower than {stage.previous} "
                    f"({now * 1e3:.2f} vs {before * 1e3:.2f} ms per element)", "undo"))
                stage.value = stage.previous
            continue
        if now * MIN_SPEEDUP > before:
            # Workers that together keep less than about a core busy are not short of one (or
            # of the GIL): the limit is elsewhere.
            busy = stage.value * stage.cpu_share()
            why = ("calls wait for the GIL or the CPU" if busy >= ONE_CORE[0] else
                   "something else sets the pace (the consumer or another stage)")
            changes.append(Change(
                stage.name, "workers", stage.value, stage.previous,
                f"{stage.value} workers were no faster than {stage.previous} "
                f"({now * 1e3:.2f} vs {before * 1e3:.2f} ms per element): {why}", "undo"))
            stage.ceiling, stage.value = stage.previous + 1, stage.previous
    return changes


def _fit_budget(stages, cpu_budget):
    """Take one worker from the most CPU-hungry stage while the CPU budget is exceeded."""
    changes = []
    while cpu_in_use(stages) > cpu_budget + 1e-9:
        shrinkable = [s for s in stages if s.knob == "workers" and s.value > s.minimum
                      and s.wall_per_element]
        if not shrinkable:
            break
        stage = max(shrinkable, key=lambda s: s.value * s.cpu_share())
        used = cpu_in_use(stages)
        changes.append(Change(stage.name, "workers", stage.value, stage.value - 1,
                              f"stages keep {used:.1f} cores busy, over the CPU budget of "
                              f"{cpu_budget:g}", "budget"))
        stage.value -= 1
    return _merge(changes)


def _merge(changes):
    """One change per stage: the first `old`, the last `new` and reason."""
    merged = {}
    for change in changes:
        if change.stage in merged:
            first = merged[change.stage]
            merged[change.stage] = Change(change.stage, change.knob, first.old, change.new,
                                          change.reason, change.kind)
        else:
            merged[change.stage] = change
    return list(merged.values())


def grow_buffer(stage, stages, ram_budget):
    """The change for a prefetch buffer its consumer found empty: double it, within its
    maximum and the RAM budget; None when it cannot grow."""
    if stage.value >= stage.maximum:
        return None
    target = min(stage.maximum, max(1, 2 * stage.value))
    if stage.bytes_per_element:
        others = bytes_in_use(stages) - stage.buffered() * stage.bytes_per_element
        room = math.floor((ram_budget - others) / stage.bytes_per_element)
        allows = f", RAM budget allows {max(0, room)}" if room < target else ""
        target = min(target, room)
    else:
        allows = ""
    if target <= stage.value:
        return None
    size = _format_bytes(stage.bytes_per_element)
    return Change(stage.name, "buffer", stage.value, target,
                  f"consumer found it empty, elements are {size}{allows}", "buffer")


def _format_bytes(count):
    for unit in ("B", "kB", "MB", "GB"):
        if count < 1000 or unit == "GB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1000
