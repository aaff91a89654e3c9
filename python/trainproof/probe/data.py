"""Data order: the sample indices of each batch a DataLoader yields, folded into the step whose
grad-enabled forward takes that batch. It tells a lost data position (the step trains on other
samples) from samples whose values changed (the same indices, re-seeded workers or a random
augmentation drawn anew). A DataLoader's iterator asks its sampler for indices in the main
process, in the order it yields the batches (prefetching workers too), so the k-th indices asked
are the k-th batch's."""
import collections
import hashlib

from trainproof.probe.digest import DIGEST_BYTES


def _told(index):
    """Whether a batch's index tells its samples: an iterable dataset's sampler yields None for
    every sample (a batch of them [None, ...]), which says nothing of what the batch holds."""
    if isinstance(index, (list, tuple)):
        return any(i is not None for i in index)
    return index is not None


class DataOrder:
    """A part of the probe (core.Probe): the indices of each batch a DataLoader yields."""

    def __init__(self, probe):
        self.probe = probe
        self.last = None  # the indices of the batch a DataLoader yielded last, until a forward takes it
        self.step = None  # the step's indices so far, folded in the order its forwards took them
        self.seen = False  # whether any of them was a sampler's (an iterable dataset's are None)

    def install(self, torch):
        """_BaseDataLoaderIter's _next_index (asked in order, ahead of the batches), __next__ and _reset."""
        from torch.utils.data import dataloader
        base = getattr(dataloader, "_BaseDataLoaderIter", None)
        if base is None or not all(hasattr(base, n) for n in ("_next_index", "__next__", "_reset")):
            return  # a torch whose DataLoader is built otherwise: no order seen, none judged
        part, probe = self, self.probe
        next_index, next_batch, reset = base._next_index, base.__next__, base._reset

        def traced_next_index(it):
            index = next_index(it)
            if probe.on():
                it.__dict__.setdefault("_trainproof_asked", collections.deque()).append(index)
            return index

        def traced_next(it):
            batch = next_batch(it)
            asked = it.__dict__.get("_trainproof_asked")
            if probe.on() and asked:
                part.last = asked.popleft()
            return batch

        def traced_reset(it, *args, **kwargs):
            it.__dict__.pop("_trainproof_asked", None)  # a persistent-workers iterator begins an epoch
            return reset(it, *args, **kwargs)

        base._next_index, base.__next__, base._reset = traced_next_index, traced_next, traced_reset

    # -- hooks (core.HOOKS) ------------------------------------------------------------------------
    def batch_taken(self):
        """A grad-enabled outermost forward took its inputs: the batch yielded last is the step's."""
        if self.last is None:
            return
        if self.step is None:  # folded as it comes: a loop that never steps holds one digest, no list
            self.step, self.seen = hashlib.blake2b(digest_size=DIGEST_BYTES), False
        self.step.update(repr(self.last).encode() + b";")
        self.seen = self.seen or _told(self.last)
        self.last = None

    def step_digests(self):
        step, self.step = self.step, None
        if step is None or not self.seen:  # an iterable dataset's: no indices to tell
            return {}
        return {"order": step.hexdigest()}

    def step_inputs_dropped(self):
        self.step = None

    def forked(self):
        self.last = self.step = None
