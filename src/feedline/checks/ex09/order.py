"""Check for exercise `ex-09-1`: predict the order of an interleave.

The check compares the learner's order with what feedline's own `interleave` gives on inputs the
learner has not seen, and names the misreading of the rules when it recognises one.
"""

from ...data import dataset as _dataset
from ...perf.provenance import format_order, input_name, interleave_order
from .._common import (call_answer, check, fail, listed_if_iterator, normalised_answer, observe,
                       passed, rng)


def _simulate_order(lengths, cycle_length, block_length, eager_end=False, refill_at_once=False):
    """The interleave order rule in plain Python, and two plausible misreadings of it.

    `eager_end`: a slot is emptied as soon as its input gave its last element (instead of on
    the turn that asks for one more). `refill_at_once`: an ended input's slot takes the next
    input in the same turn (instead of passing the turn on)."""
    slots = [None] * cycle_length  # each open slot: [input, next index]
    upcoming = iter(range(len(lengths)))
    order, slot, taken, inputs_left = [], 0, 0, True

    def advance():
        return (slot + 1) % cycle_length, 0

    while inputs_left or any(current is not None for current in slots):
        current = slots[slot]
        if current is None:
            if not inputs_left:
                slot, taken = advance()
                continue
            position = next(upcoming, None)
            if position is None:
                inputs_left = False
                continue
            slots[slot] = current = [position, 0]
        position, index = current
        if index == lengths[position]:  # asked for one more element: this input has ended
            slots[slot] = None
            if refill_at_once:
                taken = 0
            else:
                slot, taken = advance()
            continue
        order.append((position, index))
        current[1] += 1
        taken += 1
        if eager_end and current[1] == lengths[position]:
            slots[slot] = None
            slot, taken = advance()
        elif taken == block_length:
            slot, taken = advance()
    return order


def _grouped_order(lengths, cycle_length, block_length):
    """A misreading: the next `cycle_length` inputs open only when the whole group has ended."""
    order = []
    for start in range(0, len(lengths), cycle_length):
        group = lengths[start:start + cycle_length]
        order += [(start + position, index) for position, index
                  in _simulate_order(group, len(group), block_length)]
    return order


class _StagesRun:
    """Notes the stages of every pipeline iterated inside the `with` block."""

    def __enter__(self):
        self.stages = set()
        _dataset.iterator_hooks.append(self)
        return self

    def __call__(self, dataset, iterator):
        self.stages.add(dataset._stage)
        return iterator

    def __exit__(self, *exc):
        _dataset.iterator_hooks.remove(self)


def _as_pairs(check_id, answer):
    """The answer as a list of (int, int) pairs, or a failed check saying what it is instead."""
    example = "a list of (input, index) pairs such as [(0, 0), (1, 0), (0, 1)]"
    try:
        pairs = [tuple(item) for item in answer]
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError
        return [(int(position), int(index)) for position, index in pairs]
    except (TypeError, ValueError):
        fail(check_id, f"expected {example}, got {answer!r:.120}")


def _order_mistake(got, lengths, cycle_length, block_length):
    """A sentence naming the misreading of the rules that gives `got`, or ""."""
    want = _simulate_order(lengths, cycle_length, block_length)
    candidates = [
        (_simulate_order(lengths, block_length, cycle_length),
         f"that is the order for cycle_length={block_length} and block_length={cycle_length}: "
         "the two are swapped. cycle_length is how many inputs are open at once; "
         "block_length is how many elements an input gives per turn"),
        (_simulate_order(lengths, 1, 1),
         "that is flat_map's order, every input to its end before the next; interleave keeps "
         "cycle_length inputs open and takes turns between them"),
        (_simulate_order(lengths, cycle_length, 1),
         f"that is the order for block_length=1: each turn takes up to {block_length} "
         "elements from the same input"),
        (_grouped_order(lengths, cycle_length, block_length),
         "you opened the next inputs only once the whole group of cycle_length inputs had "
         "ended; a slot whose input has ended takes the next input on its next turn, while "
         "the other slots are still reading"),
        (_simulate_order(lengths, cycle_length, block_length, eager_end=True),
         "the slot of an input that had ended took the next input one turn too early. "
         "interleave only finds out that an input has ended when a turn asks it for one more "
         "element; that turn gives nothing and passes to the next slot, and the empty slot "
         "opens the next input on its following turn"),
        (_simulate_order(lengths, cycle_length, block_length, refill_at_once=True),
         "when an input ended in the middle of a turn, you carried on with the next input in "
         "the same turn; the turn is cut short there and passes to the next slot, and the "
         "empty slot opens the next input when its turn comes round again"),
    ]
    for order, mistake in candidates:
        if got == order and order != want:
            return mistake
    if sorted(got) != sorted(want):
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want))
        parts = []
        if missing:
            parts.append(f"missing {format_order(missing[:6])}")
        if extra:
            parts.append(f"not in any input: {format_order(extra[:6])}")
        if len(got) != len(set(got)):
            parts.append("some elements appear twice")
        return "the elements themselves differ (" + "; ".join(parts or ["counts differ"]) + \
            "); every element of every input appears exactly once"
    return ""


_ORDER_CASES = [([2, 4], 3, 2), ([5, 1, 1, 5], 2, 3), ([1, 1, 1, 1, 1], 2, 1)]


@check("ex-09-1", hint="keep a list of cycle_length slots and the current slot; take up to "
                        "block_length elements, then move on; an input that has no next "
                        "element empties its slot and passes the turn, and an empty slot opens "
                        "the next input when its turn comes",
       replayable=True)
def check_predict_order(predict_order):
    """ex-09-1: `predict_order(lengths, cycle_length, block_length)` is interleave's order.

    >>> check_predict_order(_simulate_order)
    ex-09-1 passed: the predicted orders match interleave, uneven inputs included
    """
    check_id = "ex-09-1"
    generator = rng(check_id)
    cases = []
    for _ in range(7):
        lengths = generator.integers(1, 7, size=int(generator.integers(3, 8))).tolist()
        cases.append((lengths, int(generator.integers(2, 5)), int(generator.integers(1, 4))))
    cases += _ORDER_CASES
    # Pairs yielded by a generator cross to the grader as a list (see normalised_answer).
    predict_order = normalised_answer(predict_order, listed_if_iterator)
    for lengths, cycle_length, block_length in cases:
        with _StagesRun() as run:
            answer = call_answer(check_id, predict_order, list(lengths), cycle_length,
                                 block_length, want_dataset=False)
            got = _as_pairs(check_id, answer)
        if "interleave" in observe(check_id, "stages iterated", lambda: sorted(run.stages)):
            fail(check_id, "predict_order ran feedline's interleave to get the order; the "
                           "exercise asks you to work it out yourself",
                 hint="follow the rules in plain Python: a list of slots, the current slot and "
                      "how many elements it has given in this turn")
        want = interleave_order(lengths, cycle_length, block_length)
        if got != want:
            names = ", ".join(f"{input_name(i)}: {n}" for i, n in enumerate(lengths))
            mistake = _order_mistake(got, lengths, cycle_length, block_length)
            fail(check_id, f"for inputs of lengths {{{names}}}, cycle_length={cycle_length}, "
                           f"block_length={block_length} interleave gives\n  "
                           f"{format_order(want)}\nbut predict_order gave\n  "
                           f"{format_order(got)}" + (f"\n{mistake}" if mistake else ""))
    passed(check_id, "the predicted orders match interleave, uneven inputs included")
