"""trainproof's probe: what a PyTorch training script did, observed without a line of it changed.

`trainproof check` loads it into every Python process it starts (a sitecustomize on
PYTHONPATH, see python/trainproof_boot/). It arms itself only with TRAINPROOF_PROBE=1 and
TRAINPROOF_TRACE set, and installs itself once the script imports torch. It observes through
PyTorch's public hooks and a few wrappers, and writes facts to the same crash-safe trace the
Recorder writes; it judges nothing (every judgement is made by `trainproof check`).

Per optimizer step (a global optimizer step pre-hook, so before the update) one record:
    {"kind": "probe", "seq": n, "values": {"loss", "lr", "lr.1", ..., "grad_norm"},
     "digests": {"params", "optimizer", "scheduler", "rng.torch", "rng.cuda<i>", "rng.numpy",
                 "rng.random", "batch", "order", "scaler"}, "opt_step": k, "where": "train.py:88"}
  - loss: the scalars backward was called on since the last step, summed, with an enabled
    GradScaler's scale divided out;
  - lr per param group; grad_norm where the script clips (clip_grad_norm_'s result);
  - digests: exact (every bit of every tensor), computed where the tensors live: a SHA-256 of
    the bytes of a small tensor on the host; for a large one, and any on a GPU, position-weighted
    integer sums of its 64-bit words, reduced where it lives (see _Digest);
  - batch: the tensor inputs of the step's outermost forward calls made with grad enabled.
At every torch.save: {"kind": "save", "path", "existed", "keys", "where"}, written before the
save starts, so that a kill during it still leaves the record, and a `saved` fact once it
returned (the file is whole). At exit: {"kind": "final"}.
Nothing here draws a random number or changes a tensor: the script's results stay bitwise.
Every record and its fields: TRACE.md beside this file, the one contract between the probe and
`trainproof check` (src/check/, core/recorded_trace.h).

A part per thing it observes, each an object of its own that owns its state, registered in
PARTS below: optimizer steps, schedulers and scalers (optimizer.py), module modes (modules.py),
the sample indices of the batches a DataLoader yields (data.py), what the steps change and which
parameters train, and ops that train in a module set to eval (effects.py), checkpoints and loads (checkpoints.py), DCP's checkpoints and the steps DCP takes itself
(dcp.py), RNGs (rng.py). The parts tell each other what they saw
only through the core's hooks (core.HOOKS: a backward, a step's digests, what a resume needs,
the exit), as pytest's plugins do; the core writes records and keeps the probe out of the
script's way (core.py), and the compiled region is compiled.py. Observing a new stack is a part
of its own, in a file beside them.

The probe never breaks the script it watches. Every hook and wrapper first asks
torch.compiler.is_compiling(): inside a region Dynamo traces (a torch.compile'd model's inner
modules, its loss) it does nothing, so Dynamo folds it away: no graph break, no recompile, no
side effect to track. A compiled model is observed from outside, where its OptimizedModule's
own forward runs eagerly. And a failure inside the probe is reported once on stderr and in the
trace (a "probe-error" fact), never raised into the script."""
import os
import sys

from trainproof.probe import compiled
from trainproof.probe.checkpoints import Checkpoints
from trainproof.probe.core import Probe
from trainproof.probe.data import DataOrder
from trainproof.probe.dcp import Dcp
from trainproof.probe.effects import StepEffects
from trainproof.probe.digest import Digest
from trainproof.probe.frames import hide_probe_frames
from trainproof.probe.imports import after_import
from trainproof.probe.modules import ModuleModes
from trainproof.probe.optimizer import OptimizerSteps
from trainproof.probe.rng import RngState

_probe = None


def arm():
    """Installs the probe now if torch is loaded, else when the script first imports it."""
    if os.environ.get("TRAINPROOF_PROBE") != "1" or not os.environ.get("TRAINPROOF_TRACE"):
        return
    after_import("torch", _install)


def _install(torch):
    global _probe
    if _probe is not None:
        return
    compiled.watch(torch)
    try:
        hide_probe_frames()
        _probe = Probe(torch, PARTS)
    except Exception as e:  # the probe must never break the script it watches
        print(f"trainproof probe: not installed: {type(e).__name__}: {e}", file=sys.stderr)


# The probe's parts, each an object of its own made with the core (core.Probe) and owning its
# state; they tell each other what they saw only through the core's hooks (core.HOOKS), called
# in this order. Observing a new stack is a part of its own, in a file beside these, added here.
PARTS = (ModuleModes, DataOrder, OptimizerSteps, StepEffects, RngState, Checkpoints, Dcp)


_Digest = Digest  # the digest the tests take apart (tests/probe_digest_test.py)
