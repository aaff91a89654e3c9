"""DCP checkpoints (torch.distributed.checkpoint): dcp.save, dcp.async_save and dcp.load. A DCP
checkpoint is a folder every rank writes, `.metadata` last: its record says the folder, the
state given to it, and after the save the keys its metadata holds. And the optimizer steps DCP
takes itself (its get_state_dict/set_state_dict make an optimizer's state with a step of lr 0
on zero gradients) are torch's own, not the loop's."""
import os
import sys

from trainproof.probe import compiled
from trainproof.probe.checkpoints import record_save
from trainproof.probe.frames import user_frame
from trainproof.probe.imports import after_import

_OPTIMIZER_STATE = {"exp_avg", "exp_avg_sq", "momentum_buffer", "square_avg", "sum", "acc_delta", "max_exp_avg_sq"}


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


_dcp_dir = []  # torch/distributed/checkpoint/, found once


def _inside_dcp(torch):
    """Whether DCP itself is running (its get_state_dict/set_state_dict make an optimizer's state
    with a step of lr 0 on zero gradients): a step of torch's own, not the loop's. Asked at every
    step: a script that never imported DCP costs no walk up the stack."""
    if "torch.distributed.checkpoint" not in sys.modules:
        return False
    if not _dcp_dir:
        _dcp_dir.append(os.path.join(os.path.dirname(os.path.abspath(torch.__file__)), "distributed", "checkpoint") + os.sep)
    dcp = _dcp_dir[0]
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_filename.startswith(dcp):
            return True
        f = f.f_back
    return False


class Dcp:
    """A part of the probe (core.Probe): DCP's saves and loads, and the steps DCP takes itself."""

    def __init__(self, probe):
        self.probe = probe

    def install(self, torch):
        after_import("torch.distributed.checkpoint.state_dict_saver", self._install_save)
        after_import("torch.distributed.checkpoint.state_dict_loader", self._install_load)

    def torchs_own_step(self):
        return _inside_dcp(self.probe.torch) or None

    def _install_save(self, saver):
        """dcp.save and dcp.async_save: a checkpoint folder, written by every rank, `.metadata` last."""
        part, probe = self, self.probe
        for name in ("save", "async_save"):
            original = getattr(saver, name, None)
            if original is None:
                continue

            def traced(state_dict, *args, _original=original, _name=name, **kwargs):
                watched = not compiled.is_compiling() and probe.on()
                folder = probe.safely(part._save, state_dict, kwargs) if watched else None
                out = _original(state_dict, *args, **kwargs)
                if folder is not None and _name == "save":
                    probe.safely(part._saved, folder, out)
                return out

            traced.__doc__, traced.__name__ = original.__doc__, name
            setattr(saver, name, traced)

    def _install_load(self, loader):
        part, probe, original = self, self.probe, loader.load

        def traced_load(state_dict, *args, **kwargs):
            if not compiled.is_compiling() and probe.on():
                probe.safely(part._load, kwargs)
            return original(state_dict, *args, **kwargs)

        traced_load.__doc__ = original.__doc__
        loader.load = traced_load

    def _folder(self, kwargs, storage):
        where = kwargs.get("checkpoint_id") or getattr(kwargs.get(storage), "path", None)
        return os.path.abspath(os.fspath(where)) if where is not None else None

    def _save(self, state_dict, kwargs):
        folder = self._folder(kwargs, "storage_writer")
        record_save(self.probe, state_dict, folder, bool(folder) and os.path.exists(os.path.join(folder, ".metadata")),
                    True, dcp=True)
        return folder

    def _saved(self, folder, metadata):
        """What the checkpoint holds, as DCP wrote it: the keys of its metadata, after the script's
        Stateful objects gave their state (the probe calls none of them itself: that may be a collective)."""
        if metadata is not None and hasattr(metadata, "state_dict_metadata"):
            self.probe.fact("dcp-saved", once=False, path=folder, holds=",".join(sorted(dcp_holds(metadata))))

    def _load(self, kwargs):
        folder = self._folder(kwargs, "storage_reader")
        self.probe.write({"kind": "load", "seq": self.probe.seq, "path": folder, "weights_only": "true", "dcp": True,
                          "complete": bool(folder) and os.path.exists(os.path.join(folder, ".metadata")),
                          "where": user_frame()})
