"""Checkpoints and loads: at every torch.save, before it starts (a kill during it still leaves
the record), what it writes where and which pieces of training state it holds and needs; at
every torch.load, what it reads and whether weights_only."""
import os

from trainproof.probe import compiled
from trainproof.probe.frames import user_frame


class Checkpoints:
    def _install_checkpoints(self, torch):
        """torch.save and torch.load."""
        probe = self
        save = torch.save

        def traced_save(obj, f, *args, **kwargs):
            if not compiled.is_compiling() and probe._on():
                probe._safely(probe._save, obj, f)
            return save(obj, f, *args, **kwargs)

        torch.save = traced_save

        load = torch.load

        def traced_load(f, *args, **kwargs):
            if not compiled.is_compiling() and probe._on():
                probe._safely(probe._load, f, kwargs.get("weights_only", "default"))
            return load(f, *args, **kwargs)

        torch.load = traced_load

    def _save(self, obj, f):
        path = os.fspath(f) if isinstance(f, (str, os.PathLike)) else None
        existed = bool(path) and os.path.exists(path)
        keys = sorted(str(k) for k in obj.keys()) if isinstance(obj, dict) else []
        torch = self.torch
        # A checkpoint: a dict that is not itself a bare state_dict (names to tensors).
        checkpoint = isinstance(obj, dict) and not all(isinstance(v, torch.Tensor) for v in obj.values())
        needs = ["optimizer", "step"]
        if len(self.schedulers):
            needs.append("scheduler")
        if any(s.is_enabled() for s in list(self.scalers)):
            needs.append("scaler")
        if self.rng_at_first_step is not None and not torch.equal(torch.get_rng_state(), self.rng_at_first_step):
            needs.append("rng")
        self._fact("rng-at-save", once=False, digest=self._rng_digest())  # what a restore of it would set
        self._write({"kind": "save", "seq": self.seq, "path": os.path.abspath(path) if path else None,
                     "existed": existed, "keys": keys, "where": user_frame(), "checkpoint": checkpoint,
                     "holds": sorted(self._holds(obj)) if checkpoint else [], "needs": needs})

    def _holds(self, obj):
        """Which pieces of training state a saved object holds, by their shape (and key names)."""
        torch, found = self.torch, set()

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
                if len(v) >= 2 and v[0] == "MT19937" or len(v) == 3 and isinstance(v[1], tuple) and len(v[1]) == 625:
                    found.add("rng")  # numpy.random.get_state(), random.getstate()
                elif depth < 4:
                    for vv in v[:50]:
                        walk(vv, key, depth + 1)
            elif isinstance(v, torch.Tensor):
                if v.dtype == torch.uint8 and v.dim() == 1 and v.numel() in (5056, 16):
                    found.add("rng")  # torch.get_rng_state(), torch.cuda.get_rng_state()
            elif isinstance(v, int) and not isinstance(v, bool) and any(w in k for w in ("step", "iter", "epoch")):
                found.add("step")

        walk(obj, "", 0)
        return found

    def _load(self, f, weights_only):
        path = os.fspath(f) if isinstance(f, (str, os.PathLike)) else None
        self._write({"kind": "load", "seq": self.seq, "path": os.path.abspath(path) if path else None,
                     "weights_only": weights_only, "where": user_frame()})
