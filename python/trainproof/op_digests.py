"""Op-level digests for `trainproof check`'s rerun of a run that parted from its twin.

Loaded by the probe only when TRAINPROOF_OP_DIGESTS=[F:]S is set (never in an ordinary run): a
TorchDispatchMode sees every ATen op (forward and backward, through the dispatcher) and writes
one record per op while F <= optimizer steps done < S (F: 0 when not given); the probe ends the
process when step S is reached:
    {"kind": "op", "seq": steps done, "i": n, "op": "aten::mm", "in": digest, "out": digest,
     "where": "train.py:58"}
The inputs' digest holds the op's tensors and its other arguments (sizes, indices, dtypes), but
no generator: a generator's state is what a random op's outputs reveal. check compares the
records of two such reruns and names the first op whose inputs were bitwise equal and whose
outputs were not. Observes only: every op runs exactly as it would."""
import os
import sys
import weakref

import torch

_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
_PROBE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _from_probe():
    """Whether the op was called by the probe itself (its digests, its checks), not the script."""
    f = sys._getframe(2)
    while f is not None:
        name = os.path.abspath(f.f_code.co_filename)
        if not name.startswith(_TORCH_DIR) and name != os.path.abspath(__file__):
            return name.startswith(_PROBE_DIR)
        f = f.f_back
    return False
from torch.utils._python_dispatch import TorchDispatchMode


# Ops whose outputs hold no values yet (check skips them: their bytes differ run to run).
UNINITIALIZED = {"aten::empty", "aten::empty_like", "aten::empty_strided", "aten::new_empty",
                 "aten::new_empty_strided", "aten::resize_"}


def _storage(t):
    try:
        return t.untyped_storage().data_ptr()
    except Exception:  # a tensor without storage
        return None


def _leaves(tree):
    """The arguments of an op, flattened: tensors and the values beside them."""
    out = []

    def walk(v):
        if isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for k in sorted(v):
                out.append(k)
                walk(v[k])
        else:
            out.append(v)

    walk(tree)
    return out


def _tensors(tree):
    out = []

    def walk(v):
        if isinstance(v, torch.Tensor):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)

    walk(tree)
    return out


class OpDigests(TorchDispatchMode):
    def __init__(self, probe, digest, user_frame, first, stop_at):
        super().__init__()
        self.probe, self.digest, self.user_frame, self.first, self.stop_at = probe, digest, user_frame, first, stop_at
        self.i = 0
        # Tensors an empty-like op made and nothing has written yet: their bytes are whatever the
        # allocator had, so they are digested as "uninitialized", not by content.
        self.fresh = {}  # id(tensor) -> a weak reference to it

    def _hex(self, values):
        d = self.digest(torch)
        for v in values:
            if isinstance(v, torch.Tensor):
                d.value("uninitialized") if self._is_fresh(v) else d.tensor(v)
            elif not isinstance(v, torch.Generator):
                d.value(v)
        return d.hex()

    def _is_fresh(self, t):
        entry = self.fresh.get(id(t))
        return entry is not None and entry[0]() is t

    def _mark_fresh(self, t):
        self.fresh[id(t)] = (weakref.ref(t), _storage(t))

    def _track_fresh(self, func, name, args, kwargs, out):
        """Empty-like outputs are fresh; so are views of fresh tensors; a write clears a storage."""
        if name in UNINITIALIZED:
            for t in _tensors(out):
                self._mark_fresh(t)
            return
        if not self.fresh:
            return
        fresh = {_storage(t) for t in _tensors((args, kwargs)) if self._is_fresh(t)}
        if not fresh:
            return
        if any(a.alias_info is not None and a.alias_info.is_write for a in func._schema.arguments):
            self.fresh = {k: v for k, v in self.fresh.items() if v[1] not in fresh and v[0]() is not None}
            return
        for t in _tensors(out):
            if _storage(t) in fresh:
                self._mark_fresh(t)  # a view of uninitialized memory is uninitialized too

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if _from_probe():
            return func(*args, **kwargs)
        recorded = self.probe.on() and self.first <= self.probe.seq < self.stop_at
        if recorded:
            with torch._C._DisableTorchDispatch():  # digesting must not dispatch back into this mode
                before = self._hex(_leaves((args, kwargs)))
        out = func(*args, **kwargs)
        name = func._schema.name if hasattr(func, "_schema") else str(func)
        with torch._C._DisableTorchDispatch():
            self._track_fresh(func, name, args, kwargs, out)
        if recorded:
            with torch._C._DisableTorchDispatch():
                after = self._hex(_tensors(out) + _tensors((args, kwargs)))  # inputs too: in-place ops
            self.i += 1
            self.probe.write({"kind": "op", "seq": self.probe.seq, "i": self.i, "op": name, "in": before,
                               "out": after, "where": self.user_frame()})
        return out


def install(probe, digest, user_frame, first, stop_at):
    mode = OpDigests(probe, digest, user_frame, first, stop_at)
    mode.__enter__()  # for the rest of the process
    return mode
