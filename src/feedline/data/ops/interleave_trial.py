"""A parallel `interleave` tries reading its blocks on the consumer's thread, and keeps
whichever was faster.

Its worker threads overlap reads that wait (files on a slow disk, sleeping stand-ins, network)
but not reads that run Python under the GIL, such as splitting the lines of small files already
in memory: there each block handed between threads only costs a thread switch. The deterministic
parallel interleave therefore runs the trial of `feedline.data.ops._trial` on its first
elements; without its threads, the consumer reads each block itself, in the same order and
with the same blocks, so elements, errors and checkpoints are unchanged (and once no worker
thread is left, it opens and reads the datasets of whole rounds in one go, handing them out as
one run: `_inline_rounds`, the path of many small files). Reading inline, it
times each read in wall time, and a read over a millisecond in CPU time too (exact, as no other
thread runs then): reads that took
over a millisecond mostly off the CPU (files that wait to open) bring the threads back for
good, however far the pipeline has gone, once there are three of them and they are at least
one read in ten (a single read preempted on a busy machine looks the same). At most one read runs
at a time then, within `num_parallel_calls`. A traced interleave, or one with
`deterministic=False`, keeps its workers.

>>> from feedline.data import Dataset
>>> ds = Dataset.range(3).interleave(lambda x: Dataset.range(x * 10, x * 10 + 2),
...                                  cycle_length=3, num_parallel_calls=3)
>>> [int(v) for v in ds]
[0, 10, 20, 1, 11, 21]
"""

import operator
import time

from ...tensor import StringTensor, as_tensors
from ..state import protocol
from ._trial import Trial
from ._interleave_workers import _END, _Failure, _Reader, _ends, _read_measured
from ._workers import close_quietly
from .interleave_rounds import take_rounds
from .parallel_interleave import ParallelInterleaveIterator


RUN_LIMIT = 512  # elements `_inline_rounds` gathers at most before handing them out


def _read_inline(state, reader):
    """Read `reader`'s next block on the consumer's thread, with no worker to hand it over
    to (see `_interleave_workers._hand_over`); False when the read waited (threads may come
    back, see `_read_measured`) or the block ended with an error."""
    block = _read_measured(state, reader)
    if _ends(block):
        close_quietly(reader.iterator)
        reader.ended = True
        with state.lock:
            state.readers.discard(reader)
    if type(block[-1]) is _Failure:
        reader.failed = True
    reader.taken.extend(block)
    return not state.inline_waited and not reader.failed


class TrialInterleaveIterator(ParallelInterleaveIterator):
    """A `ParallelInterleaveIterator` whose consumer may read every block itself."""

    def __init__(self, dataset, deterministic, upstream=None):
        super().__init__(dataset, deterministic, upstream)
        self.trial = Trial(enabled=deterministic, memory=dataset)
        self._settled = False  # the trial is over and no autotune model times this stage
        self._run = iter(())  # the last elements handed out by `next_run`
        if self.trial.remembered == "without":  # an earlier epoch's trial decided
            self._state.inline = True
            self._settled = self._state.node is None

    def next_run(self, tensors=False):
        """An iterator over the next elements, at least one: whole rounds when every slot
        has them (see `interleave_rounds`), else the next element alone. `tensors`: as
        `feedline.Tensor`s. The loop over the dataset (`feedline.data.Iterator`) pulls from
        it directly; a checkpoint counts only the elements it pulled.

        Raises:
            StopIteration: at the end; an element's error, in its place.
        """
        run, state = None, self._state
        if self._block_length == 1 and self._taken == 0 and self._deterministic \
                and not state.inline_waited:
            run = self._inline_rounds() if state.inline and not state.running \
                else self._rounds()
            if run:
                self._delivered += len(run)
                node = state.node
                if node is not None:  # AUTOTUNE: the run counts as its elements, no wait
                    now = time.perf_counter()
                    node.record_output(run[-1], now, 0.0, count=len(run))
                    node.model.tick(now)
                    node.returned(time.perf_counter())
                self._after_delivery(len(run))
        if not run:
            run = [self.__next__()]
        if tensors:
            run = list(map(StringTensor, run)) if set(map(type, run)) == {bytes} \
                else list(map(as_tensors, run))
        self._run = iter(run)
        return self._run

    def _rounds(self):
        """The elements of whole rounds, passing over the datasets that end on the way (as
        `_next` does: the slot empties and the turn moves on), until a slot has nothing read."""
        slots, run = self._slots, []
        while True:
            more, self._slot = take_rounds(slots, self._slot)
            run.extend(more)
            reader = slots[self._slot]
            if reader is None or not reader.taken or reader.taken[0] is not _END:
                return run
            self._slot_ended(self._slot)
            if self._state.inline_waited:  # reads waited: the general loop takes over
                return run

    def _slot_ended(self, slot):
        """The dataset in `slot` ended (its `_END` is next): empty the slot and move the turn
        on, as `_next` does."""
        self._slots[slot].taken.popleft()
        self._slots[slot] = None
        self._open_count -= 1
        self._slot = (slot + 1) % len(self._slots)
        self._input_done()

    def _inline_rounds(self):
        """`_rounds` when the consumer reads every block and no worker thread exists: it
        reads the blocks the rounds need and opens the datasets that fill the slots itself,
        the shortcut of `_take` and `_start` with nobody to hand over to. A slot that empties
        is filled at once (the order is the same: its next turn finds the new dataset). A run
        stops after `RUN_LIMIT` elements and where a dataset ends, and leaves to the general
        loop an error to raise in its place, a read that waited and the end."""
        slots, state, run = self._slots, self._state, []
        while len(run) < RUN_LIMIT and not state.stopped:
            more, self._slot = take_rounds(slots, self._slot)
            run.extend(more)
            slot = self._slot
            reader = slots[slot]
            if reader is not None:
                taken = reader.taken
                if not taken:
                    if not _read_inline(state, reader):
                        return run
                    continue
                if taken[0] is not _END:
                    return run  # an error
                self._slot_ended(slot)
                # The run stops with the dataset that ended: its elements keep their dataset
                # alive (views of one big array, say), and a run across many ends would keep
                # them all. The emptied slot is filled now, for the next run (as the threads
                # would have read it ahead).
                self._fill_inline(slot)
                return run
            elif self._input_ended and not self._futures:
                if not self._open_count:
                    return run
                self._slot = (slot + 1) % len(slots)  # nothing left to fill it: passed over
                continue
            if not self._fill_inline(slot):
                return run
        return run

    def _fill_inline(self, slot):
        """Put the next opened dataset in the empty `slot` and read its first block. False
        when the general loop must go on instead: the input's next item is an error (raised
        at the slot's turn), or the read waited or ended in an error."""
        if not self._futures and (self._input_ended or self._start_inline()):
            return True  # no input left: the slot stays empty
        if type(self._futures[0]) is _Failure:
            return False
        reader = self._slots[slot] = self._futures.popleft()
        self._open_count += 1
        return _read_inline(self._state, reader)

    def _start_inline(self):
        """Open datasets ahead as `_open` does; True when there is none left to open."""
        while len(self._futures) < len(self._slots) + 1 and not self._input_ended:
            started = self._start()
            if started is not None:
                self._futures.append(started)
        return not self._futures

    def _save(self):
        # Elements of the last run the loop has not pulled yet were not delivered.
        held = operator.length_hint(self._run)
        state = super()._save()
        if held:
            state = protocol.from_start(self._start_state, self._delivered - held)
        return state

    @property
    def inline(self):
        """Whether the consumer reads the blocks itself now."""
        return self._state.inline

    def __next__(self):
        if self._settled and not self._state.inline_waited:
            # The common case, without the general loop: the current slot's block has a
            # plain element for this turn (what `_next` would return, and no more to do).
            reader = self._slots[self._slot]
            if reader is not None and reader.taken:
                taken = reader.taken
                value = taken[0]
                if value is not _END and type(value) is not _Failure:
                    taken.popleft()
                    self._delivered += 1
                    turn = self._taken + 1
                    if turn == self._block_length:
                        self._slot, turn = (self._slot + 1) % len(self._slots), 0
                    self._taken = turn
                    return value
        value = super().__next__()
        self._after_delivery(1)
        return value

    def _input_done(self):
        # The trial also counts datasets that ended: an interleave of mostly empty datasets
        # hands out few elements, and would otherwise keep its threads untried.
        if self.trial.phase is not None or self._state.inline_waited:
            self._after_delivery(1)

    def _after_delivery(self, count):
        """The trial's step after `count` elements were handed out."""
        state = self._state
        if state.inline_waited:  # reading inline, a read waited: threads overlap waits
            state.inline_waited = False
            self.trial.waited()
            self._set_inline(False)
        elif self.trial.phase is not None:
            action = self.trial.delivered(count=count)
            if action is not None:
                self._set_inline(action == "without")
        else:
            self._settled = state.node is None

    def _set_inline(self, inline):
        state = self._state
        with state.lock:
            state.inline = inline
            if not inline:  # datasets opened while reading inline were not queued: read ahead
                for reader in [*self._slots, *self._futures]:
                    if type(reader) is _Reader and not reader.queued and not reader.ended \
                            and not reader.items:
                        reader.queued = True
                        state.work.append(reader)
                count = state.missing(len(state.work))
            state.work_ready.notify_all()  # idle workers look at the queue again
        if not inline:
            state.start(count)
