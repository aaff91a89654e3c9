"""Checkpoints and loads: at every torch.save, before it starts (a kill during it still leaves
the record), what it writes where and which pieces of training state it holds and needs; at
every torch.load, what it reads and whether weights_only. A DCP checkpoint (dcp.save,
dcp.async_save, dcp.load of torch.distributed.checkpoint) is one too: its folder, the state
given to it, and after the save the keys its metadata holds; the torch.save and torch.load
calls torch makes inside it are its own, not the script's."""
import os
import sys

from trainproof.probe import compiled
from trainproof.probe.frames import user_frame
from trainproof.probe.imports import after_import

_OPTIMIZER_STATE = {"exp_avg", "exp_avg_sq", "momentum_buffer", "square_avg", "sum", "acc_delta", "max_exp_avg_sq"}


def _called_from_torch(torch):
    """Whether torch itself made the call being wrapped (DCP writing its own items), not the script."""
    caller = sys._getframe(2).f_code.co_filename
    return os.path.abspath(caller).startswith(os.path.dirname(os.path.abspath(torch.__file__)) + os.sep)


def dcp_holds(metadata):
    """The training state a DCP checkpoint holds, from the flattened keys of its metadata
    ("app.optim.state.fc1.weight.exp_avg", "app.scheduler.last_epoch", "app.step")."""
    found = set()
    for key, item in getattr(metadata, "state_dict_metadata", {}).items():
        parts = str(key).lower().split(".")
        in_optimizer = "param_groups" in parts or "state" in parts  # an optimizer's state_dict, its "step"s too
        if "param_groups" in parts or ("state" in parts and _OPTIMIZER_STATE & set(parts)):
            found.add("optimizer")
        scheduler = "last_epoch" in parts or "_step_count" in parts
        if scheduler:
            found.add("scheduler")
        if "_growth_tracker" in parts:
            found.add("scaler")
        if any(w in part for part in parts for w in ("rng", "random", "generator", "seed_state")):
            found.add("rng")
        elif not in_optimizer and not scheduler and any(w in parts[-1] for w in ("step", "iter", "epoch")):
            found.add("step")  # the loop's counter ("app.step"), not an optimizer's own
    return found


class Checkpoints:
    def _install_checkpoints(self, torch):
        """torch.save and torch.load."""
        probe = self
        save = torch.save

        def traced_save(obj, f, *args, **kwargs):
            if not compiled.is_compiling() and probe._on() and not _called_from_torch(torch):
                probe._safely(probe._save, obj, f)
            return save(obj, f, *args, **kwargs)

        torch.save = traced_save

        load = torch.load

        def traced_load(f, *args, **kwargs):
            if not compiled.is_compiling() and probe._on() and not _called_from_torch(torch):
                probe._safely(probe._load, f, kwargs.get("weights_only", "default"))
            return load(f, *args, **kwargs)

        torch.load = traced_load
        after_import("torch.distributed.checkpoint.state_dict_saver", self._install_dcp_save)
        after_import("torch.distributed.checkpoint.state_dict_loader", self._install_dcp_load)

    def _install_dcp_save(self, saver):
        """dcp.save and dcp.async_save: a checkpoint folder, written by every rank, `.metadata` last."""
        probe = self
        for name in ("save", "async_save"):
            original = getattr(saver, name, None)
            if original is None:
                continue

            def traced(state_dict, *args, _original=original, _name=name, **kwargs):
                watched = not compiled.is_compiling() and probe._on()
                folder = probe._safely(probe._dcp_save, state_dict, kwargs) if watched else None
                out = _original(state_dict, *args, **kwargs)
                if folder is not None and _name == "save":
                    probe._safely(probe._dcp_saved, folder, out)
                return out

            traced.__doc__, traced.__name__ = original.__doc__, name
            setattr(saver, name, traced)

    def _install_dcp_load(self, loader):
        probe, original = self, loader.load

        def traced_load(state_dict, *args, **kwargs):
            if not compiled.is_compiling() and probe._on():
                probe._safely(probe._dcp_load, kwargs)
            return original(state_dict, *args, **kwargs)

        traced_load.__doc__ = original.__doc__
        loader.load = traced_load

    def _dcp_folder(self, kwargs, storage):
        where = kwargs.get("checkpoint_id") or getattr(kwargs.get(storage), "path", None)
        return os.path.abspath(os.fspath(where)) if where is not None else None

    def _dcp_save(self, state_dict, kwargs):
        folder = self._dcp_folder(kwargs, "storage_writer")
        keys = sorted(str(k) for k in state_dict.keys()) if isinstance(state_dict, dict) else []
        self._fact("rng-at-save", once=False, digest=self._rng_digest())
        self._write({"kind": "save", "seq": self.seq, "path": folder, "dcp": True,
                     "existed": bool(folder) and os.path.exists(os.path.join(folder, ".metadata")),
                     "keys": keys, "where": user_frame(), "checkpoint": True,
                     "holds": sorted(self._holds(state_dict)), "needs": self._needs()})
        return folder

    def _dcp_saved(self, folder, metadata):
        """What the checkpoint holds, as DCP wrote it: the keys of its metadata, after the script's
        Stateful objects gave their state (the probe calls none of them itself: that may be a collective)."""
        if metadata is not None and hasattr(metadata, "state_dict_metadata"):
            self._fact("dcp-saved", once=False, path=folder, holds=",".join(sorted(dcp_holds(metadata))))

    def _dcp_load(self, kwargs):
        folder = self._dcp_folder(kwargs, "storage_reader")
        self._write({"kind": "load", "seq": self.seq, "path": folder, "weights_only": "true", "dcp": True,
                     "complete": bool(folder) and os.path.exists(os.path.join(folder, ".metadata")),
                     "where": user_frame()})

    def _save(self, obj, f):
        path = os.fspath(f) if isinstance(f, (str, os.PathLike)) else None
        existed = bool(path) and os.path.exists(path)
        keys = sorted(str(k) for k in obj.keys()) if isinstance(obj, dict) else []
        torch = self.torch
        # A checkpoint: a dict that is not itself a bare state_dict (names to tensors).
        checkpoint = isinstance(obj, dict) and not all(isinstance(v, torch.Tensor) for v in obj.values())
        self._fact("rng-at-save", once=False, digest=self._rng_digest())  # what a restore of it would set
        self._write({"kind": "save", "seq": self.seq, "path": os.path.abspath(path) if path else None,
                     "existed": existed, "keys": keys, "where": user_frame(), "checkpoint": checkpoint,
                     "holds": sorted(self._holds(obj)), "needs": self._needs()})

    def _needs(self):
        """The pieces of training state this run has that a resume needs."""
        torch = self.torch
        needs = ["optimizer", "step"]
        if len(self.schedulers):
            needs.append("scheduler")
        if any(s.is_enabled() for s in list(self.scalers)):
            needs.append("scaler")
        if self.rng_at_first_step is not None and not torch.equal(torch.get_rng_state(), self.rng_at_first_step):
            needs.append("rng")
        return needs

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
                if len(v) >= 2 and isinstance(v[0], str) and v[0] == "MT19937" or len(v) == 3 and isinstance(v[1], tuple) and len(v[1]) == 625:
                    found.add("rng")  # numpy.random.get_state(), random.getstate()
                elif depth < 4:
                    for vv in v[:50]:
                        walk(vv, key, depth + 1)
            elif isinstance(v, torch.Tensor):
                if v.dtype == torch.uint8 and v.dim() == 1 and v.numel() in (5056, 16):
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

    def _load(self, f, weights_only):
        path = os.fspath(f) if isinstance(f, (str, os.PathLike)) else None
        self._write({"kind": "load", "seq": self.seq, "path": os.path.abspath(path) if path else None,
                     "weights_only": weights_only, "where": user_frame()})
