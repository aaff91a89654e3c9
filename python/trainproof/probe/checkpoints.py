"""Checkpoints and loads: at every torch.save, before it starts (a kill during it still leaves
the record), what it writes where and which pieces of training state it holds and needs; once it
has returned, that it finished (the file is complete) and a digest of the tensors under each of
its keys (what check compares between runs: the final files a run writes); at every torch.load,
what it reads and whether weights_only. The torch.save and torch.load calls
torch makes itself (DCP writing its items, dcp.py) are its own, not the script's."""
import os
import sys

from trainproof.probe import compiled
from trainproof.probe.digest import Digest
from trainproof.probe.frames import user_frame


def _called_from_torch(torch):
    """Whether torch itself made the call being wrapped (DCP writing its own items), not the script."""
    caller = sys._getframe(2).f_code.co_filename
    return os.path.abspath(caller).startswith(os.path.dirname(os.path.abspath(torch.__file__)) + os.sep)


def record_save(probe, obj, path, existed, checkpoint, **kind):
    """A save's record, written before the save starts (a kill during it still leaves it): where,
    what it holds and what the run has that a resume needs, as the probe's parts know them. Before
    it, the fact of what a restore of the torch RNG saved now would set (the rng part's digest)."""
    digest = probe.ask("rng_digest")
    if digest is not None:
        probe.fact("rng-at-save", once=False, digest=digest)
    keys = sorted(str(k) for k in obj.keys()) if isinstance(obj, dict) else []
    probe.write({"kind": "save", "seq": probe.seq, "path": path, **kind, "existed": existed, "keys": keys,
                 "where": user_frame(), "checkpoint": checkpoint, "holds": sorted(holds(probe.torch, obj)),
                 "needs": [piece for pieces in probe.tell("needs") for piece in pieces]})


def _is_rng_state(torch, t):
    """torch.get_rng_state()'s shape, or torch.cuda.get_rng_state()'s."""
    return t.dtype == torch.uint8 and t.dim() == 1 and t.numel() in (5056, 16)


def holds(torch, obj):
    """Which pieces of training state a saved object holds, by their shape (and key names)."""
    found = set()

    def walk(v, key, depth):
        k = str(key).lower()
        if any(w in k for w in ("rng", "random", "generator", "seed_state")):
            found.add("rng")
        if isinstance(v, dict):
            names = {str(x) for x in v.keys()}
            if {"state", "param_groups"} <= names:
                found.add("optimizer")
            elif "last_epoch" in names or "_step_count" in names:
                found.add("scheduler")
            elif "scale" in names and "_growth_tracker" in names:
                found.add("scaler")
            elif depth < 4:
                for kk, vv in list(v.items())[:200]:
                    walk(vv, kk, depth + 1)
        elif isinstance(v, (list, tuple)):
            if len(v) >= 2 and isinstance(v[0], str) and v[0] == "MT19937" or len(v) == 3 and isinstance(v[1], tuple) and len(v[1]) == 625:
                found.add("rng")  # numpy.random.get_state(), random.getstate()
            elif depth < 4:
                for vv in v[:50]:
                    walk(vv, key, depth + 1)
        elif isinstance(v, torch.Tensor):
            if _is_rng_state(torch, v):
                found.add("rng")  # torch.get_rng_state(), torch.cuda.get_rng_state()
        elif isinstance(v, torch.optim.Optimizer):
            found.add("optimizer")  # given to DCP whole: it takes its state_dict
        elif isinstance(v, torch.optim.lr_scheduler.LRScheduler):
            found.add("scheduler")
        elif hasattr(v, "state_dict") and hasattr(v, "load_state_dict") and not isinstance(v, torch.nn.Module) \
                and depth < 4:  # a Stateful of the script's (DCP's tutorial's AppState): what it holds
            for kk, vv in list(vars(v).items())[:50]:
                walk(vv, kk, depth + 1)
        elif isinstance(v, int) and not isinstance(v, bool) and any(w in k for w in ("step", "iter", "epoch")):
            found.add("step")

    walk(obj, "", 0)
    return found


def saved_digests(torch, obj):
    """The digest of the tensors under each top-level key of a saved object (its only key "" when it
    is not a dict), keys without tensors left out; and the keys whose tensors are all RNG states."""
    items = obj.items() if isinstance(obj, dict) else [("", obj)]
    tensors, rng = {}, []
    for key, value in items:
        found = []

        def walk(v, depth):
            if isinstance(v, torch.Tensor):
                found.append(v)
            elif isinstance(v, dict) and depth < 6:
                for k in sorted(v, key=repr):
                    walk(v[k], depth + 1)
            elif isinstance(v, (list, tuple)) and depth < 6:
                for x in v:
                    walk(x, depth + 1)

        walk(value, 0)
        if not found:
            continue
        d = Digest(torch)
        for t in found:
            d.tensor(t)
        tensors[str(key)] = d.hex()
        if all(_is_rng_state(torch, t) for t in found):
            rng.append(str(key))
    return tensors, sorted(rng)


class Checkpoints:
    """A part of the probe (core.Probe): torch.save and torch.load (DCP's saves and loads: dcp.py)."""

    def __init__(self, probe):
        self.probe = probe

    def install(self, torch):
        """torch.save and torch.load."""
        probe = self.probe
        save = torch.save

        def traced_save(obj, f, *args, **kwargs):
            watched = not compiled.is_compiling() and probe.on() and not _called_from_torch(torch)
            if watched:
                probe.safely(self._save, obj, f)
            out = save(obj, f, *args, **kwargs)
            if watched:
                probe.safely(self._saved, obj, f)
            return out

        torch.save = traced_save

        load = torch.load

        def traced_load(f, *args, **kwargs):
            if not compiled.is_compiling() and probe.on() and not _called_from_torch(torch):
                probe.safely(self._load, f, kwargs.get("weights_only", "default"))
            return load(f, *args, **kwargs)

        torch.load = traced_load

    def _save(self, obj, f):
        path = os.fspath(f) if isinstance(f, (str, os.PathLike)) else None
        # A checkpoint: a dict that is not itself a bare state_dict (names to tensors).
        checkpoint = isinstance(obj, dict) and not all(isinstance(v, self.probe.torch.Tensor) for v in obj.values())
        record_save(self.probe, obj, os.path.abspath(path) if path else None, bool(path) and os.path.exists(path),
                    checkpoint)

    def _saved(self, obj, f):
        """The save returned: the file is whole. What it holds, as digests of the tensors under each
        top-level key (a bare state_dict: each name), and which of those are RNG states."""
        if not isinstance(f, (str, os.PathLike)):
            return
        tensors, rng = saved_digests(self.probe.torch, obj)
        path = os.path.abspath(os.fspath(f))
        run_dir = os.environ.get("TRAINPROOF_RUN_DIR")  # check's run folder: the same file in every run
        in_run_dir = os.path.relpath(path, run_dir) if run_dir and path.startswith(os.path.abspath(run_dir) + os.sep) \
            else None
        self.probe.fact("saved", once=False, path=path, in_run_dir=in_run_dir, tensors=tensors, rng=rng)

    def _load(self, f, weights_only):
        path = os.fspath(f) if isinstance(f, (str, os.PathLike)) else None
        self.probe.write({"kind": "load", "seq": self.probe.seq, "path": os.path.abspath(path) if path else None,
                          "weights_only": weights_only, "where": user_frame()})
