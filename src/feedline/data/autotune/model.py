"""The running model: one per pipeline, a node per tunable stage, and the log of decisions.

Stages report what they measure (`Node.record_call` on worker threads, `Node.record_output`
and `Node.record_wait` on the consumer side); the consumer side calls `Model.tick()` on every
element, which runs the tuner (`optimizer.choose`) at most every `INTERVAL` seconds on that
thread. So tuning needs no thread of its own and stops when the pipeline stops.
"""

import threading
import time

from . import held, optimizer, sizes

INTERVAL = 0.05  # seconds of running between two tuning steps
CHECK_WINDOW = 2 * INTERVAL  # seconds measured to check a change, after one to settle
JOIN_WINDOW = 1.0  # a pipeline's stages are made within this many seconds of each other
SMOOTHING = 0.5  # weight of the newest window in the smoothed measurements
_clock = time.perf_counter


class Decision:
    """A knob's value from `at` seconds after the pipeline started, and why."""
    __slots__ = ("at", "stage", "knob", "old", "new", "reason")

    def __init__(self, at, stage, knob, old, new, reason):
        self.at, self.stage, self.knob = at, stage, knob
        self.old, self.new, self.reason = old, new, reason

    def __repr__(self):
        return f"Decision({self.at:.3f}s, {self})"

    def __str__(self):
        if self.old is None:
            return f"{self.stage}: {self.new} {self.knob}: {self.reason}"
        if self.old == self.new:  # a budget held it (see `held`)
            return f"{self.stage}: kept {self.new} {self.knob}: {self.reason}"
        return f"{self.stage}: {self.old} → {self.new} {self.knob}: {self.reason}"


class Node:
    """One tunable stage in the model: its knob, and measurements over the current window.

    `apply(value)` is the stage's own function that makes a new value take effect.
    """

    def __init__(self, model, name, knob, value, minimum, maximum, apply, buffer_per_worker=2):
        self.model, self.name, self.knob = model, name, knob
        self.value, self.minimum, self.maximum = value, minimum, maximum
        self.apply, self.buffer_per_worker = apply, buffer_per_worker
        self.lock = threading.Lock()
        self.closed = False  # set when the stage stops
        self.settling = False  # the window after a change: buffers refill or drain, skip it
        self.min_span = 0.0  # the window that checks a change is longer: less noise
        self.tried, self.previous, self.ceiling = {}, None, None
        self.held_logged = set()  # (budget, value) already logged as holding this stage back
        self.wall_per_element = self.cpu_per_element = self.consumer_time = None
        self.wait_fraction = 0.0
        self.busy_fraction = 1.0
        self.bytes_per_element = 0.0
        self._reset_window(_clock())
        self._last_return = None

    def _reset_window(self, now):
        self.window_start = now
        self.calls_wall = self.calls_cpu = 0.0
        self.call_elements = 0
        self.outputs, self.waited, self.busy, self.empties = 0, 0.0, 0.0, 0

    # -- measurements (cheap; called by the stages) -----------------------------------------

    def record_call(self, wall, cpu, elements=1):
        """A worker call took `wall` seconds, `cpu` of them on the CPU, for `elements`."""
        with self.lock:
            self.calls_wall += wall
            self.calls_cpu += cpu
            self.call_elements += elements

    def record_output(self, value, now, waited=0.0, count=1):
        """The consumer took `count` elements since the last record (the last one `value`),
        waiting `waited` seconds for the last; the rest of the time since the last record
        was its own work. (A stage may record every few elements, to cost less per element.)"""
        if waited:
            self.waited += waited
            self.empties += 1
        if self._last_return is not None:
            self.busy += max(0.0, now - self._last_return - waited)
        if self.outputs % 16 < count:  # the size of about every 16th element
            size = element_nbytes(value)
            self.bytes_per_element = max(self.bytes_per_element, float(size))
        self.outputs += count

    def returned(self, now):
        self._last_return = now

    # -- the view the tuner sees ------------------------------------------------------------

    def close_window(self, now):
        """Fold the window's measurements into the smoothed ones; True if there were enough."""
        with self.lock:
            wall, cpu, elements = self.calls_wall, self.calls_cpu, self.call_elements
            outputs, waited, busy = self.outputs, self.waited, self.busy
            span = now - self.window_start
            enough = outputs >= 2 and (self.knob == "buffer" or elements >= self.value) \
                and span >= self.min_span
            if not enough:
                return False
            self._reset_window(now)
            if self.settling:
                self.settling, self.min_span = False, CHECK_WINDOW
                return False
            self.min_span = 0.0
        if elements:
            self.wall_per_element = _smooth(self.wall_per_element, wall / elements)
            self.cpu_per_element = _smooth(self.cpu_per_element, cpu / elements)
        if self.knob == "workers":
            # what the consumer saw: seconds between elements, waiting included
            self.tried[self.value] = _smooth(self.tried.get(self.value), span / outputs)
        self.consumer_time = _smooth(self.consumer_time, busy / outputs)
        # Waits are timed apart from the span, so their sum can pass it by a hair.
        self.wait_fraction = min(1.0, waited / span) if span > 0 else 0.0
        if self.knob == "workers" and span > 0:
            self.busy_fraction = min(1.0, wall / (span * self.value))
        return True

    def view(self):
        return optimizer.StageView(
            self.name, self.knob, self.value, self.minimum, self.maximum,
            self.wall_per_element, self.cpu_per_element, self.consumer_time,
            self.wait_fraction, self.bytes_per_element, self.empties, dict(self.tried),
            self.previous, self.ceiling, self.buffer_per_worker, self.busy_fraction)


def _smooth(old, new):
    return new if old is None else SMOOTHING * new + (1 - SMOOTHING) * old


def element_nbytes(value):
    """Bytes in an element: the arrays' `nbytes`, bytes' lengths, through tuples and dicts."""
    nbytes = getattr(value, "nbytes", None)
    if nbytes is not None:
        extra = 0
        if getattr(value, "dtype", None) is not None and value.dtype == object:
            extra = sum(element_nbytes(item) for item in value.ravel()[:64]) * \
                max(1, value.size // 64 if value.size > 64 else 1)
        return int(nbytes) + extra
    if isinstance(value, (bytes, bytearray, str)):
        return len(value)
    if isinstance(value, dict):
        return sum(element_nbytes(item) for item in value.values())
    if isinstance(value, (tuple, list)):
        return sum(element_nbytes(item) for item in value)
    return 8


class Model:
    """A pipeline's tunable stages, its budgets, and every decision taken, with its time.

    Args:
        cpu_budget: cores' worth of CPU the workers may keep busy (None: `sizes.cores()`).
        ram_budget: bytes the tuned buffers may hold (None: half the physical RAM).
        enabled: False keeps every stage at its starting value.
    """

    def __init__(self, cpu_budget=None, ram_budget=None, enabled=True):
        self.cpu_budget = _positive("cpu_budget", cpu_budget, sizes.default_cpu_budget())
        self.budget_given = cpu_budget is not None
        self.ram_budget = _positive("ram_budget", ram_budget, sizes.default_ram_budget())
        self.enabled = bool(enabled)
        self.thread_cap = sizes.max_total_threads()
        self.nodes, self.decisions = [], []
        self.started = False  # an element was taken on the thread that built the pipeline
        self._builder = threading.get_ident()
        self.origin = self._last_added = _clock()
        self._lock = threading.Lock()
        self._next_tune = self.origin + INTERVAL
        self.last_output = None  # when a stage last handed out an element (clock seconds)

    @classmethod
    def from_options(cls, options):
        """A model with the budgets of `options.autotune` (an `Options`, or None)."""
        if options is None:
            return cls()
        group = options.autotune
        return cls(group.cpu_budget, group.ram_budget, group.value("enabled"))

    def add_node(self, stage, knob, value, minimum, maximum, apply, buffer_per_worker=2):
        """Register a tunable stage; returns its `Node`. Names are made unique (map, map_1)."""
        with self._lock:
            taken = {node.name for node in self.nodes}
            name, number = stage, 1
            while name in taken:
                name, number = f"{stage}_{number}", number + 1
            if knob == "workers" and self.budget_given:  # a budget set below the start lowers it
                value = max(minimum, min(value, int(self.cpu_budget + 1e-9)))
            if not self.enabled:
                maximum = minimum = value
            node = Node(self, name, knob, value, minimum, maximum, apply, buffer_per_worker)
            self.nodes.append(node)
            self._last_added = _clock()
            reason = "starting value" if self.enabled else "starting value, kept: " \
                "Options().autotune.enabled is False"
            self.decisions.append(Decision(_clock() - self.origin, name, knob, None, value,
                                           reason))
        return node

    def tick(self, now):
        """Called by a consumer per element: tune when `INTERVAL` has passed since last time."""
        if not self.started and threading.get_ident() == self._builder:
            self.started = True  # (a worker feeding on an inner stage does not count)
        self.last_output = now
        if now < self._next_tune or not self.enabled:
            return
        if not self._lock.acquire(blocking=False):
            return  # another stage's consumer is tuning right now
        try:
            self._next_tune = now + INTERVAL
            self._tune(now)
        finally:
            self._lock.release()

    def _tune(self, now):
        views = []
        for node in self.nodes:
            view = node.view()
            if not node.close_window(now) and node.knob == "workers":
                # Not enough calls this window: it counts in the budgets but stays as it is.
                view.minimum = view.maximum = view.value
                view.previous = None
            else:
                view = node.view()
            views.append(view)
        changes = optimizer.choose(views, self.cpu_budget, self.ram_budget, self.thread_cap)
        changed = {change.stage for change in changes}
        by_name = {node.name: node for node in self.nodes}
        for view in views:
            node = by_name[view.name]
            if view.name not in changed and view.previous is not None and \
                    view.previous > view.value:
                node.ceiling, node.previous = view.previous, None  # a cut that cost nothing
        for change in changes:
            node = by_name[change.stage]
            if change.kind == "undo" and change.new < change.old:
                node.ceiling = change.new + 1  # more workers did not help: stay at most here
            # the next window checks a raise or a try against the value before it
            node.previous = change.old if change.kind in ("raise", "try") else None
            self._apply(node, change, now)
        for budget, change in held.held_by_budget(views, changed, self.cpu_budget,
                                                  self.ram_budget):
            node = by_name[change.stage]
            if (budget, change.new) not in node.held_logged:  # once, not every step
                node.held_logged.add((budget, change.new))
                self.decisions.append(Decision(now - self.origin, change.stage, change.knob,
                                               change.old, change.new, change.reason))

    def grow_buffer(self, node):
        """A consumer found `node`'s buffer empty: double it if the budgets allow."""
        if not self.enabled:
            return
        with self._lock:
            change = optimizer.grow_buffer(node.view(), [n.view() for n in self.nodes],
                                           self.ram_budget)
            if change is not None:
                self._apply(node, change, _clock())

    def _apply(self, node, change, now):
        node.value = change.new
        node.apply(change.new)
        if node.knob == "workers":
            with node.lock:
                node._reset_window(now)
                node.settling = True
        self.decisions.append(Decision(now - self.origin, change.stage, change.knob,
                                       change.old, change.new, change.reason))

    def joinable(self):
        """Whether a stage made now may still belong to this pipeline: nothing taken yet, not
        every stage stopped, and the last stage made moments ago (not a pipeline left
        unstarted long ago)."""
        return (not self.started and not (self.nodes and all(n.closed for n in self.nodes))
                and _clock() - self._last_added < JOIN_WINDOW)

    def ran_for(self):
        """Seconds from the pipeline's start to the last element a stage handed out (0.0
        before the first): where a plot of its decisions ends."""
        return 0.0 if self.last_output is None else max(0.0, self.last_output - self.origin)

    def threads(self):
        """Worker threads the model's stages may run now (their parallelism summed)."""
        return sum(node.value for node in self.nodes if node.knob == "workers")

    def __repr__(self):
        stages = ", ".join(f"{node.name}={node.value} {node.knob}" for node in self.nodes)
        return f"<autotune Model {stages or 'no stages'}; {len(self.decisions)} decisions>"


def _positive(name, value, default):
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError(f"Options().autotune.{name} must be a positive number, got {value!r}; "
                         f"leave it unset (None) for the default ({default})")
    return value
