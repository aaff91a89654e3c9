"""trainproof's probe: what a PyTorch training script did, observed without a line of it changed.

`trainproof check` loads it into every Python process it starts (a sitecustomize on
PYTHONPATH, see python/trainproof_boot/). It arms itself only with TRAINPROOF_PROBE=1 and
TRAINPROOF_TRACE set, and installs itself once the script imports torch. It observes through
PyTorch's public hooks and a few wrappers, and writes facts to the same crash-safe trace the
Recorder writes; it judges nothing (every judgement is made by `trainproof check`).

Per optimizer step (a global optimizer step pre-hook, so before the update) one record:
    {"kind": "probe", "seq": n, "values": {"loss", "lr", "lr.1", ..., "grad_norm"},
     "digests": {"params", "optimizer", "scheduler", "rng.torch", "rng.cuda<i>", "rng.numpy",
                 "rng.random", "batch", "scaler"}, "opt_step": k, "where": "train.py:88"}
  - loss: the scalars backward was called on since the last step, summed, with an enabled
    GradScaler's scale divided out;
  - lr per param group; grad_norm where the script clips (clip_grad_norm_'s result);
  - digests: exact (every bit of every tensor), computed where the tensors live: a SHA-256 of
    the bytes of a small tensor on the host; for a large one, and any on a GPU, position-weighted
    integer sums of its 64-bit words, reduced where it lives (see _Digest);
  - batch: the tensor inputs of the step's outermost forward calls made with grad enabled.
At every torch.save: {"kind": "save", "path", "existed", "keys", "where"}, written before the
save starts, so that a kill during it still leaves the record. At exit: {"kind": "final"}.
Nothing here draws a random number or changes a tensor: the script's results stay bitwise.

The probe never breaks the script it watches. Every hook and wrapper first asks
torch.compiler.is_compiling(): inside a region Dynamo traces (a torch.compile'd model's inner
modules, its loss) it does nothing, so Dynamo folds it away: no graph break, no recompile, no
side effect to track. A compiled model is observed from outside, where its OptimizedModule's
own forward runs eagerly. And a failure inside the probe is reported once on stderr and in the
trace (a "probe-error" fact), never raised into the script."""
import atexit
import hashlib
import math
import os
import sys
import time
import weakref

_DIGEST_BYTES = 8
_probe = None


def _not_compiling():
    return False


# torch.compiler.is_compiling once torch is loaded: True while Dynamo traces the caller, where
# the probe must do nothing (Dynamo constant-folds the call, so the hook vanishes from the graph).
_compiling = _not_compiling


def arm():
    """Installs the probe now if torch is loaded, else when the script first imports it."""
    if os.environ.get("TRAINPROOF_PROBE") != "1" or not os.environ.get("TRAINPROOF_TRACE"):
        return
    if "torch" in sys.modules:
        _install(sys.modules["torch"])
        return
    sys.meta_path.insert(0, _TorchImportHook())


class _TorchImportHook:
    """A meta path finder that lets torch import as usual, then installs the probe."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        import importlib.util
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("torch")
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_install(module):
            exec_module(module)
            _install(module)

        spec.loader.exec_module = exec_then_install
        return spec


def _install(torch):
    global _probe, _compiling
    if _probe is not None:
        return
    _compiling = getattr(getattr(torch, "compiler", None), "is_compiling", None) or _not_compiling
    if os.environ.get("TRAINPROOF_INJECT_FAULT") == "probe-traced-by-dynamo":
        _compiling = _not_compiling  # the negative control of the compiled loop's test: hooks Dynamo traces
    try:
        _probe = _Probe(torch)
    except Exception as e:  # the probe must never break the script it watches
        print(f"trainproof probe: not installed: {type(e).__name__}: {e}", file=sys.stderr)


_SKIP_DIRS = []  # torch's package, this package, the boot folder
_STDLIB_DIRS = []  # the standard library's folders (an installed package inside them is not skipped as one)


def _installed_package(path):
    """The installed package a file belongs to ("transformers"), or "" for a file of the user's own."""
    parts = path.split(os.sep)
    for i, part in enumerate(parts[:-2]):
        if part in ("site-packages", "dist-packages"):
            return parts[i + 1][:-3] if parts[i + 1].endswith(".py") else parts[i + 1]
    return ""


def _user_frame():
    """`file:line` of the innermost frame of the user's own code: not torch, not trainproof, not an
    installed package, not the standard library. Where the call came through an installed package
    (a framework's loop), its innermost frame follows as context: "train.py:41 via transformers
    trainer.py:1989"; with no frame of the user's own on the stack, that frame alone."""
    if not _SKIP_DIRS:
        import sysconfig
        import torch
        _SKIP_DIRS.extend(os.path.dirname(os.path.abspath(m.__file__)) + os.sep
                          for m in (torch, sys.modules[__name__]))
        _SKIP_DIRS.append(os.path.join(os.path.dirname(_SKIP_DIRS[1].rstrip(os.sep)), "trainproof_boot") + os.sep)
        paths = sysconfig.get_paths()
        _STDLIB_DIRS.extend({os.path.abspath(d) + os.sep for d in (paths.get("stdlib"), paths.get("platstdlib"),
                                                                   os.path.dirname(os.__file__)) if d})
    f = sys._getframe(1)
    via = ""
    while f is not None:
        name = f.f_code.co_filename
        if not name.startswith("<"):
            path = os.path.abspath(name)
            if not any(path.startswith(d) for d in _SKIP_DIRS):
                here = f"{os.path.basename(path)}:{f.f_lineno}"
                package = _installed_package(path)
                if package:
                    via = via or f"{package} {here}"
                elif not any(path.startswith(d) for d in _STDLIB_DIRS):
                    return f"{here} via {via}" if via else here
        f = f.f_back
    return via.split(" ", 1)[1] if via else ""


def _json_safe(v):
    """A record with every non-finite float as its repr ("nan", "inf"), as the Recorder writes them:
    a loop whose loss went NaN is the team's to hear about, not a trace check cannot read."""
    if isinstance(v, float):
        return v if math.isfinite(v) else repr(v)
    if isinstance(v, dict):
        return {k: _json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_safe(x) for x in v]
    return v


def _bias_or_norm(p):
    """A one-dimensional parameter as the model defines it: not a flat buffer of many (FSDP's
    FlatParameter), and a ZeRO-3 partition by the shape it stands for."""
    if getattr(p, "_is_flat_param", False):
        return False
    shape = getattr(p, "ds_shape", None)
    return len(shape) <= 1 if shape is not None else p.dim() <= 1


class _Digest:
    """An exact digest of tensors and plain values. Small tensors go into a SHA-256 of their bytes;
    large ones, and every tensor on a device, are reduced where they live to two position-weighted
    sums of their 64-bit words (mod 2**64), so that nothing is copied and a step's parameters and
    optimizer state cost a few passes of vectorized integer arithmetic instead of a hash's rounds.

    Exact in the sense that matters here: a change to any one word always changes the first sum
    (its weight is odd), and the second sum, over the words shifted down by 32 bits, sees the high
    halves where the first is weakest (a change confined to the top bits of an even number of
    words). Integer sums wrap the same way in any order, so no thread count changes a digest."""

    _HOST_BYTES = 1 << 16  # below this, hashing the bytes costs less than a reduction's start
    _host_path = True  # False: CPU tensors take the device's path too (its tests run it on the CPU)
    _WORDS = 1 << 20  # words reduced at once: bounds what is held per device (2 x 8 MiB)
    _weights = {}  # device -> (the odd weights 1, 3, 5, ..., a buffer), _WORDS words each

    def __init__(self, torch, high_halves=True):
        self._torch = torch
        self._high_halves = high_halves  # the second sum: off for the optimizer state (see _optimizer_state)
        # SHA-256: OpenSSL's, with the CPU's SHA instructions where it has them (x86's SHA-NI,
        # ARMv8's): about 1.5x blake2b's speed on a step's parameters and optimizer state.
        self._host = hashlib.sha256()
        self._sums = []  # 0-d int64 tensors, read in one go (one copy from a device) by hex()

    def value(self, v):
        self._host.update(repr(v).encode())

    def tensor(self, t):
        torch = self._torch
        t = t.detach()
        if t.dim() == 0 and t.device.type == "cpu" and t.layout == torch.strided and not t.is_quantized:
            # a step counter, a scale: its value says every bit of it (repr round-trips a float exactly)
            self._host.update(f"{t.dtype}:{t.item()!r}".encode())
            return
        self._host.update(f"{t.dtype}{tuple(t.shape)}".encode())
        if t.numel() == 0:
            return
        if t.is_sparse or t.is_quantized:
            t = t.to_dense() if t.is_sparse else t.int_repr()
        flat = t.contiguous().reshape(-1)
        if flat.dtype == torch.bool:
            flat = flat.to(torch.uint8)
        raw = flat.view(torch.uint8)
        if raw.device.type == "cpu" and self._host_path and (raw.numel() < self._HOST_BYTES or raw.numel() % 8):
            self._host.update(raw.numpy().data)
            return
        # Eight bytes a word where the size allows (a half or byte tensor may hold a count that int64
        # cannot view), else the widest word that can, widened a part at a time. The word is chosen by
        # the size alone, so that equal tensors digest equal wherever they start in their storage.
        size, dtype = next((n, d) for n, d in ((8, torch.int64), (4, torch.int32), (2, torch.int16), (1, torch.uint8))
                           if raw.numel() % n == 0)
        if raw.storage_offset() % size:
            raw = raw.clone()  # a view from an offset the word cannot start at
        words = raw.view(dtype)
        weights, high = self._scratch(raw.device)
        cpu = raw.device.type == "cpu" and self._host_path
        for at in range(0, words.numel(), self._WORDS):  # each part's sums in order: parts cannot swap
            part = words[at:at + self._WORDS].to(torch.int64)  # a view where the words are int64 already
            n = part.numel()
            parts = [part]
            if words.dtype == torch.int64 and self._high_halves:  # a narrower word has no high half to miss
                parts.append(torch.bitwise_right_shift(part, 32, out=high[:n]))
            for x in parts:  # integer dot on the host; CUDA has none, so multiply and sum
                self._sums.append(torch.dot(x, weights[:n]) if cpu else (x * weights[:n]).sum())

    def _scratch(self, device):
        """The odd weights 1, 3, 5, ... and a buffer for the high halves, of _WORDS words, made once a device."""
        if device not in self._weights:
            torch = self._torch
            self._weights[device] = (torch.arange(self._WORDS, device=device, dtype=torch.int64) * 2 + 1,
                                     torch.empty(self._WORDS, device=device, dtype=torch.int64))
        return self._weights[device]

    def hex(self):
        if self._sums:
            for v in self._torch.stack(self._sums).cpu().tolist():
                self._host.update(int(v).to_bytes(8, "little", signed=True))
            self._sums = []
        return self._host.hexdigest()[:2 * _DIGEST_BYTES]


class _Probe:
    def __init__(self, torch):
        from trainproof import Recorder
        self.torch = torch
        self.pid = os.getpid()
        self.rank = os.environ.get("RANK", "0")
        self.rec = None
        self._recorder = Recorder
        self.seq = 0
        self.loss = None
        self.grad_norm = None
        self.batch = None
        self.top = None  # the module of the outermost forward in flight
        self.scaled = {}  # id(tensor scaler.scale returned) -> the scale
        self.schedulers = []  # held to the end, like the optimizers: judged at exit
        self.scalers = weakref.WeakSet()
        self.optimizers = []  # held to the end: their final parameters are digested at exit
        # For the facts behind check's findings (see _fact):
        self.opt_steps = {}  # id(optimizer) -> steps taken in this process
        self.created_at = weakref.WeakKeyDictionary()  # optimizer or scheduler -> file:line that made it
        self.after_step = {}  # id(optimizer) -> (param, its grad tensor, the grad's version) after a step
        self.stale = {}  # id(optimizer) -> (param, grad, file:line of the backward) onto a step's gradients
        self.step_taken = set()  # id(optimizer) of each a GradScaler stepped (or skipped, on inf)
        self.trained_params = set()  # id() of every parameter an optimizer holds
        self.constructing = 0  # inside a scheduler's _initial_step
        self.failed = set()  # the observations that failed once (said once, then skipped quietly)
        self.closure_unrecorded = None  # (optimizer, [taken]) of a step given a closure, until it ends
        self.pending_eval = None  # a grad-enabled forward in eval mode, until a backward or the next forward
        self.seen_training = weakref.WeakSet()  # top modules seen in a grad-enabled forward in train mode
        self.seen_validation = weakref.WeakSet()  # top modules seen in a no-grad forward in eval mode
        self.stochastic = weakref.WeakKeyDictionary()  # top module -> its Dropout and BatchNorm modules
        self.scaled_step = self.unscaled_step = False  # an enabled scaler's scale()/unscale_() this step
        self.ce_calls = {True: 0, False: 0}  # cross_entropy calls looked at, with grad enabled and not
        self.facts_said = set()
        # TRAINPROOF_PROBE_CLOCK=1 (bench/probe_cost.py): the time spent in the probe's own work,
        # said on stderr at exit: seconds by the step they were spent before (the median over the
        # steps after the first three, which compile and warm up, as the bench's loops time theirs).
        self.clock_s = {} if os.environ.get("TRAINPROOF_PROBE_CLOCK") == "1" else None
        self.clock_inside = False
        self.seeded = False
        self.rng_at_install = torch.get_rng_state()
        self.rng_at_first_step = None
        self.first_draw = None  # file:line of the first draw from the global RNG before any seed
        self._hook(torch)
        atexit.register(lambda: self._safely(self._final))
        self.op_stop = None
        spec = os.environ.get("TRAINPROOF_OP_DIGESTS")  # only in check's rerun of two runs that parted
        if spec:  # [F:]S: the ops while F <= steps done < S, then the process ends at step S
            first, _, stop = spec.rpartition(":")
            self.op_stop, first = int(stop), int(first or 0)
            if first < self.op_stop:
                from trainproof import op_digests
                op_digests.install(self, _Digest, _user_frame, first, self.op_stop)

    # -- writing -------------------------------------------------------------------------------
    def _on(self):
        return os.getpid() == self.pid and self.rank == "0"

    def _write(self, record):
        if self.rec is None:
            self.rec = self._recorder(fsync=False)
            self.rec._record({"kind": "start", "pid": self.pid, "argv": sys.argv})
        self.rec._record(_json_safe(record))

    def _fact(self, fact, once=True, **data):
        """An observation check may judge as a finding: what was seen, where, at which step."""
        if once and fact in self.facts_said:
            return
        self.facts_said.add(fact)
        self._write({"kind": "fact", "fact": fact, "seq": self.seq, "where": data.pop("where", None) or _user_frame(),
                     "data": data})

    # -- staying out of the script's way ---------------------------------------------------------
    def _safely(self, observe, *args, **kwargs):
        """Runs one observation of the probe; a failure in it is reported once and swallowed."""
        if self.clock_s is not None and not self.clock_inside:  # the outermost observation: timed
            self.clock_inside = True
            t0 = time.perf_counter()
            try:
                return self._safely(observe, *args, **kwargs)
            finally:
                self.clock_s[self.seq] = self.clock_s.get(self.seq, 0.0) + time.perf_counter() - t0
                self.clock_inside = False
        try:
            return observe(*args, **kwargs)
        except Exception as e:
            what = getattr(observe, "__name__", "an observation")
            if what not in self.failed:
                self.failed.add(what)
                print(f"trainproof probe: {what} failed ({type(e).__name__}: {e}); the script runs on, "
                      "that observation skipped", file=sys.stderr)
                try:
                    self._fact("probe-error", once=False, observation=what, error=f"{type(e).__name__}: {e}")
                except Exception:
                    pass
            return None

    def _observer(self, observe):
        """A hook that does nothing where Dynamo traces it, and never raises into the script."""
        probe = self

        def hook(*args, **kwargs):
            if _compiling():
                return None
            probe._safely(observe, *args, **kwargs)
            return None

        hook.__name__ = getattr(observe, "__name__", "hook")
        return hook

    def _step_pre_hook(self, optimizer, args, kwargs):
        """The record of a step, taken before the update. A step given a closure (Lightning's loop,
        LBFGS) computes its loss and gradients inside optimizer.step(closure): the record is taken
        when the closure returns, the closure itself called exactly as given."""
        if _compiling():
            return None
        # args[0] is the optimizer itself (torch's step wrapper passes step's own arguments).
        closure = kwargs.get("closure") if "closure" in kwargs else (args[1] if len(args) > 1 else None)
        if not callable(closure) or not self._on():
            self._safely(self._pre_step, optimizer, args, kwargs)
            return None
        probe, taken = self, []

        def closure_then_record(*a, **k):
            out = closure(*a, **k)
            if not taken:
                taken.append(True)
                probe._safely(probe._pre_step, optimizer, args, kwargs)
            return out

        self.closure_unrecorded = (optimizer, taken)
        if "closure" in kwargs:
            return args, dict(kwargs, closure=closure_then_record)
        return (args[0], closure_then_record) + tuple(args[2:]), kwargs

    def _base_optimizer(self, opt):
        """The torch optimizer under wrappers that hold it as .optimizer (accelerate's, Lightning's)."""
        for _ in range(8):
            inner = getattr(opt, "optimizer", None)
            if inner is None or inner is opt or not hasattr(inner, "param_groups"):
                break
            opt = inner
        return opt

    def _trained(self, module):
        """Whether an optimizer holds any of the module's parameters (all modules while none is made)."""
        return not self.trained_params or any(id(p) in self.trained_params for p in module.parameters())

    # -- hooks ---------------------------------------------------------------------------------
    def _hook(self, torch):
        from importlib import import_module  # torch.optim deletes its submodules' names: import them
        optimizer, lr_scheduler = import_module("torch.optim.optimizer"), import_module("torch.optim.lr_scheduler")
        module, clip_grad = import_module("torch.nn.modules.module"), import_module("torch.nn.utils.clip_grad")
        amp = import_module("torch.amp")
        probe = self
        optimizer.register_optimizer_step_pre_hook(self._step_pre_hook)
        optimizer.register_optimizer_step_post_hook(self._observer(self._post_step))
        from torch.nn.modules.batchnorm import _BatchNorm
        from torch.nn.modules.dropout import _DropoutNd
        self.stochastic_types = (_DropoutNd, _BatchNorm)
        # Each wrapper below calls the wrapped function exactly as the script called it; the probe's
        # part runs only outside Dynamo's tracing (`not _compiling()`), through _safely.

        opt_init = optimizer.Optimizer.__init__

        def optimizer_made(opt):
            if probe._on():
                probe.created_at[opt] = _user_frame()
            for g in opt.param_groups:
                probe.trained_params.update(id(p) for p in g["params"])

        def traced_opt_init(opt, *args, **kwargs):
            opt_init(opt, *args, **kwargs)
            if not _compiling():
                probe._safely(optimizer_made, opt)

        optimizer.Optimizer.__init__ = traced_opt_init

        # Gradients zeroed in place (zero_grad(set_to_none=False)) are not left over from a step.
        opt_zero_grad, module_zero_grad = optimizer.Optimizer.zero_grad, module.Module.zero_grad

        def zeroed(params):
            ids = {id(p) for p in params}
            for key, (p, *_) in list(probe.stale.items()):
                if id(p) in ids:
                    del probe.stale[key]

        def traced_opt_zero_grad(opt, *args, **kwargs):
            if not _compiling():
                probe._safely(zeroed, [p for g in opt.param_groups for p in g["params"]])
            return opt_zero_grad(opt, *args, **kwargs)

        def traced_module_zero_grad(mod, *args, **kwargs):
            if not _compiling():
                probe._safely(zeroed, list(mod.parameters()))
            return module_zero_grad(mod, *args, **kwargs)

        optimizer.Optimizer.zero_grad = traced_opt_zero_grad
        module.Module.zero_grad = traced_module_zero_grad

        seed = torch.manual_seed

        # The first draw from torch's global RNG before any seed: where a script that never seeds
        # should have seeded first. Its entry points are wrapped until a seed or that draw, then
        # restored; a wrapper calls the same function with the same arguments.
        draws = [(torch, n) for n in ("rand", "randn", "randint", "randperm", "normal", "bernoulli", "multinomial",
                                      "rand_like", "randn_like", "randint_like")]
        draws += [(torch.Tensor, n) for n in ("uniform_", "normal_", "random_", "bernoulli_", "exponential_",
                                              "geometric_", "log_normal_", "cauchy_")]
        originals = [(owner, n, getattr(owner, n), n in vars(owner)) for owner, n in draws if hasattr(owner, n)]

        def restore_draws():
            for owner, n, fn, own in originals:
                if own:
                    setattr(owner, n, fn)
                elif n in vars(owner):
                    delattr(owner, n)
            originals.clear()

        def drew(before):
            if not torch.equal(before, torch.get_rng_state()):
                probe.first_draw = _user_frame()
                restore_draws()

        def traced_draw(fn):
            def draw(*args, **kwargs):
                if _compiling() or not probe._on() or probe.seeded or probe.first_draw is not None:
                    return fn(*args, **kwargs)
                before = probe._safely(torch.get_rng_state)
                out = fn(*args, **kwargs)
                if before is not None:
                    probe._safely(drew, before)
                return out

            return draw

        for owner, n, fn, _ in originals:
            setattr(owner, n, traced_draw(fn))

        def seeding():
            if probe._on() and not probe.seeded:
                probe.seeded = True
                restore_draws()
                if not torch.equal(torch.get_rng_state(), probe.rng_at_install):
                    probe._fact("torch-random-before-seed")

        def traced_seed(*args, **kwargs):
            if not _compiling():
                probe._safely(seeding)
            return seed(*args, **kwargs)

        torch.manual_seed = traced_seed
        torch.random.manual_seed = traced_seed

        # A restore of the torch RNG (a resume's, accelerate's load_state): the state it set, so
        # that check can tell a state that was restored and then drawn from before the first step
        # (a new DataLoader iterator's shuffle) from one that was never restored.
        set_rng_state = torch.set_rng_state

        def rng_restored():
            if probe._on():
                probe._fact("rng-restored", once=False, digest=probe._rng_digest())

        def traced_set_rng_state(*args, **kwargs):
            out = set_rng_state(*args, **kwargs)
            if not _compiling():
                probe._safely(rng_restored)
            return out

        torch.set_rng_state = traced_set_rng_state
        torch.random.set_rng_state = traced_set_rng_state

        functional = import_module("torch.nn.functional")
        cross_entropy = functional.cross_entropy

        def cross_entropy_input(input):
            # The first three calls of training (grad enabled) and of validation (no grad) each: a
            # softmax before the loss in either is the same mistake.
            grad = torch.is_grad_enabled()
            if probe._on() and probe.ce_calls[grad] < 3 and isinstance(input, torch.Tensor) and input.dim() >= 2:
                probe.ce_calls[grad] += 1
                with torch.no_grad():
                    x = input.detach().float()
                    probe._fact("cross-entropy-input", once=False, min=float(x.min()),
                                row_sum_dev=float((x.sum(1) - 1).abs().max()), dtype=str(input.dtype))

        def traced_cross_entropy(input, target, *args, **kwargs):
            if not _compiling():
                probe._safely(cross_entropy_input, input)
            return cross_entropy(input, target, *args, **kwargs)

        functional.cross_entropy = traced_cross_entropy
        module.register_module_forward_pre_hook(self._observer(self._forward_pre))
        module.register_module_forward_hook(self._observer(self._forward_post), with_kwargs=True)

        backward = torch.Tensor.backward

        def traced_backward(tensor, *args, **kwargs):
            if not _compiling():
                probe._safely(probe._backward, tensor)
            return backward(tensor, *args, **kwargs)

        traced_backward.__doc__ = backward.__doc__
        torch.Tensor.backward = traced_backward

        clip = torch.nn.utils.clip_grad_norm_

        def clipping():
            if probe._on() and probe.scaled_step and not probe.unscaled_step:
                probe._fact("clip-while-scaled")

        def clipped(norm):
            if probe._on():
                probe.grad_norm = norm

        def traced_clip(*args, **kwargs):
            if not _compiling():
                probe._safely(clipping)
            norm = clip(*args, **kwargs)
            if not _compiling():
                probe._safely(clipped, norm)
            return norm

        torch.nn.utils.clip_grad_norm_ = traced_clip
        clip_grad.clip_grad_norm_ = traced_clip

        save = torch.save

        def traced_save(obj, f, *args, **kwargs):
            if not _compiling() and probe._on():
                probe._safely(probe._save, obj, f)
            return save(obj, f, *args, **kwargs)

        torch.save = traced_save

        load = torch.load

        def traced_load(f, *args, **kwargs):
            if not _compiling() and probe._on():
                probe._safely(probe._load, f, kwargs.get("weights_only", "default"))
            return load(f, *args, **kwargs)

        torch.load = traced_load

        scaler_init, scaler_scale = amp.GradScaler.__init__, amp.GradScaler.scale
        scaler_unscale, scaler_step = amp.GradScaler.unscale_, amp.GradScaler.step

        def traced_scaler_init(scaler, *args, **kwargs):
            scaler_init(scaler, *args, **kwargs)
            if not _compiling():
                probe._safely(probe.scalers.add, scaler)

        def scaled(scaler, outputs, out):
            if probe._on() and isinstance(out, torch.Tensor) and out is not outputs:
                probe.scaled[id(out)] = scaler._scale
                probe.scaled_step = True

        def traced_scale(scaler, outputs):
            out = scaler_scale(scaler, outputs)
            if not _compiling():
                probe._safely(scaled, scaler, outputs, out)
            return out

        def unscaling(scaler):
            if probe._on() and scaler.is_enabled():
                probe.unscaled_step = True

        def traced_unscale(scaler, optimizer):
            if not _compiling():
                probe._safely(unscaling, scaler)
            return scaler_unscale(scaler, optimizer)

        # A step the scaler skipped (inf gradients) is still the loop's step: a scheduler stepped
        # after it is in order (torch warns of it, and it is what the documents' loop does).
        def traced_scaler_step(scaler, optimizer, *args, **kwargs):
            if not _compiling():
                probe._safely(lambda: probe.step_taken.add(id(probe._base_optimizer(optimizer))))
            return scaler_step(scaler, optimizer, *args, **kwargs)

        amp.GradScaler.__init__ = traced_scaler_init
        amp.GradScaler.scale = traced_scale
        amp.GradScaler.unscale_ = traced_unscale
        amp.GradScaler.step = traced_scaler_step

        sched_init = lr_scheduler.LRScheduler.__init__

        def scheduler_made(sched):
            probe.schedulers.append(sched)
            if probe._on():
                probe.created_at[sched] = _user_frame()

        def traced_sched_init(sched, *args, **kwargs):
            sched_init(sched, *args, **kwargs)
            if not _compiling():
                probe._safely(scheduler_made, sched)

        lr_scheduler.LRScheduler.__init__ = traced_sched_init

        # The steps a constructor takes (its own, and SequentialLR's of its first child) are not the
        # script's: they run inside _initial_step.
        initial_step = getattr(lr_scheduler.LRScheduler, "_initial_step", None)
        if initial_step is not None:
            def traced_initial_step(sched, *args, **kwargs):
                probe.constructing += 1
                try:
                    return initial_step(sched, *args, **kwargs)
                finally:
                    probe.constructing -= 1

            lr_scheduler.LRScheduler._initial_step = traced_initial_step
        sched_step = lr_scheduler.LRScheduler.step

        def scheduler_stepping(sched):
            # Not the step the constructor takes (before it is in self.schedulers, or in _initial_step).
            opt = id(probe._base_optimizer(getattr(sched, "optimizer", None)))
            if (probe._on() and not probe.constructing and any(x is sched for x in probe.schedulers)
                    and not probe.opt_steps.get(opt) and opt not in probe.step_taken):
                probe._fact("scheduler-step-before-optimizer-step")

        def traced_sched_step(sched, *args, **kwargs):
            if not _compiling():
                probe._safely(scheduler_stepping, sched)
            return sched_step(sched, *args, **kwargs)

        lr_scheduler.LRScheduler.step = traced_sched_step

    def _backward(self, tensor):
        if not self._on():
            return
        # Gradients a step left that this backward adds onto: stale, unless zeroed before the
        # optimizer steps again (a GAN's generator backward flows through the discriminator, whose
        # gradients are zeroed before its own next step). Judged at that optimizer's next step.
        for key, (p, grad, version) in list(self.after_step.items()):
            if p.grad is grad and grad._version == version and bool(grad.ne(0).any()):
                self.stale[key] = (p, grad, _user_frame())
            del self.after_step[key]
        if self.pending_eval is not None:
            self._fact("grad-forward-in-eval-mode", once=False, backward=True, **self.pending_eval)
            self.pending_eval = None
        if tensor.numel() != 1:
            return
        v = tensor.detach().double().reshape(())
        scale = self.scaled.pop(id(tensor), None)
        if scale is not None:
            v = v / scale.double().reshape(()).to(v.device)
        self.loss = v if self.loss is None else self.loss + v

    def _forward_pre(self, module, inputs):
        if self.top is not None or not self._on():
            return
        self.top = module
        self._flush_eval_forward()
        inner = getattr(module, "_orig_mod", module)  # a torch.compile'd model: the module it compiled
        stochastic = self.stochastic.get(module)
        if stochastic is None:
            stochastic = self.stochastic[module] = [
                m for m in inner.modules()
                if isinstance(m, self.stochastic_types) and not (isinstance(m, self.stochastic_types[0]) and m.p == 0)]
        if not self.torch.is_grad_enabled():
            training = sorted({type(m).__name__ for m in stochastic if m.training})
            if training and self._trained(inner):  # not an EMA teacher, a frozen scorer
                self._fact("no-grad-forward-in-train-mode", modules=",".join(training))
            elif not inner.training:
                self.seen_validation.add(module)
            return
        if inner.training:
            self.seen_training.add(module)
        elif any(p.requires_grad for p in inner.parameters()):  # not a frozen module (a perceptual loss)
            self.pending_eval = {"where": _user_frame(), "seen_training": module in self.seen_training,
                                 "after_validation": module in self.seen_validation,
                                 "stochastic": ",".join(sorted({type(m).__name__ for m in stochastic}))}

    def _flush_eval_forward(self):
        """A grad-enabled forward in eval mode that no backward followed: a validation with grad."""
        if self.pending_eval is not None:
            self._fact("grad-forward-in-eval-mode", once=False, backward=False, **self.pending_eval)
            self.pending_eval = None

    def _forward_post(self, module, inputs, kwargs, output):
        if module is not self.top:
            return
        self.top = None
        # The batch: the tensor inputs of a grad-enabled outermost forward, positional and by
        # keyword (Hugging Face models take theirs as model(**batch)).
        if not self._on() or not self.torch.is_grad_enabled():
            return
        tensors = [x for x in inputs if isinstance(x, self.torch.Tensor)]
        tensors += [kwargs[k] for k in sorted(kwargs) if isinstance(kwargs[k], self.torch.Tensor)]
        if tensors:
            if self.batch is None:
                self.batch = _Digest(self.torch)
            for t in tensors:
                self.batch.tensor(t)

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
                     "existed": existed, "keys": keys, "where": _user_frame(), "checkpoint": checkpoint,
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
                     "weights_only": weights_only, "where": _user_frame()})

    # -- one optimizer step --------------------------------------------------------------------
    def _pre_step(self, optimizer, args, kwargs):
        if not self._on():
            return
        torch = self.torch
        stale = self.stale.pop(id(optimizer), None)
        if stale is not None and stale[0].grad is stale[1]:  # not zeroed, nor set to None, since that backward
            self._fact("backward-onto-last-step-grads", where=stale[2])
        if not any(o is optimizer for o in self.optimizers):
            self.optimizers.append(optimizer)
            groups = [{"weight_decay": float(g.get("weight_decay", 0) or 0), "params": len(g["params"]),
                       "one_dim": sum(1 for p in g["params"] if _bias_or_norm(p))} for g in optimizer.param_groups]
            self._fact("param-groups", once=False, where=self.created_at.get(optimizer),
                       groups=";".join(f"{g['weight_decay']!r}/{g['one_dim']}/{g['params']}" for g in groups))
        if self.rng_at_first_step is None:
            self.rng_at_first_step = torch.get_rng_state()
            if not self.seeded and not torch.equal(self.rng_at_first_step, self.rng_at_install):
                self._fact("torch-random-unseeded", where=self.first_draw)
        self.seq += 1
        if os.environ.get("TRAINPROOF_INJECT_FAULT") == "probe-draws-a-random-number":
            torch.rand(1)  # the negative control of ProbeTest: a probe that changes the script's results
        values = {}
        for i, g in enumerate(optimizer.param_groups):
            values["lr" if i == 0 else f"lr.{i}"] = float(g["lr"])
        if self.loss is not None:
            values["loss"] = float(self.loss)
        if self.grad_norm is not None:
            values["grad_norm"] = float(self.grad_norm)
        digests = {"params": self._params(optimizer).hex(), "optimizer": self._optimizer_state(optimizer),
                   "scheduler": self._scheduler_state(optimizer)}
        digests.update(self._rng_states())
        if self.batch is not None:
            digests["batch"] = self.batch.hex()
        scaler = self._scaler_state()
        if scaler is not None:
            digests["scaler"] = scaler
        self._write({"kind": "probe", "seq": self.seq, "values": values, "digests": digests,
                     "opt_step": self._opt_step(optimizer), "where": _user_frame()})
        if self.op_stop is not None and self.seq >= self.op_stop:
            os._exit(0)  # the rerun has what it came for: the ops up to the step where the runs parted
        self.loss = self.grad_norm = self.batch = None
        self.top = None
        self.scaled.clear()

    def _post_step(self, optimizer, args, kwargs):
        if not self._on():
            return
        pending = self.closure_unrecorded
        self.closure_unrecorded = None
        if pending is not None and pending[0] is optimizer and not pending[1]:
            self._pre_step(optimizer, args, kwargs)  # a closure the optimizer never called: recorded late
        self.opt_steps[id(optimizer)] = self.opt_steps.get(id(optimizer), 0) + 1
        self.scaled_step = self.unscaled_step = False
        for g in optimizer.param_groups:
            for p in g["params"]:
                if p.grad is not None:
                    self.after_step[id(optimizer)] = (p, p.grad, p.grad._version)
                    return

    def _params(self, optimizer):
        d = _Digest(self.torch)
        for g in optimizer.param_groups:
            for p in g["params"]:
                d.tensor(p)
        return d

    def _optimizer_state(self, optimizer):
        # The first sum alone: a third less of the probe's cost a step at nanoGPT's size (the state
        # is twice the parameters, for Adam). What a diagnosis asks of it is whether a restart
        # restored the state, and a state that was not restored differs in every word, not in
        # the top bits of a few (bench/probe_cost.py).
        d = _Digest(self.torch, high_halves=False)
        for g in optimizer.param_groups:
            for p in g["params"]:
                state = optimizer.state.get(p, {})
                for k in sorted(state):
                    d.value(k)
                    v = state[k]
                    d.tensor(v) if isinstance(v, self.torch.Tensor) else d.value(v)
        return d.hex()

    def _opt_step(self, optimizer):
        for g in optimizer.param_groups:
            for p in g["params"]:
                step = optimizer.state.get(p, {}).get("step")
                if step is not None:
                    return int(step.item() if isinstance(step, self.torch.Tensor) else step)
        return None

    def _scheduler_state(self, optimizer):
        d = _Digest(self.torch)
        for s in self.schedulers:
            if self._base_optimizer(getattr(s, "optimizer", None)) is not optimizer:
                continue
            for k in sorted(vars(s)):
                v = vars(s)[k]
                if isinstance(v, (bool, int, float)) or (isinstance(v, list) and all(
                        isinstance(x, (int, float)) for x in v)):
                    d.value((k, v))
        return d.hex()

    def _rng_digest(self):
        return hashlib.blake2b(self.torch.get_rng_state().numpy().data, digest_size=_DIGEST_BYTES).hexdigest()

    def _rng_states(self):
        torch = self.torch
        out = {"rng.torch": self._rng_digest()}
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            for i in range(torch.cuda.device_count()):
                out[f"rng.cuda{i}"] = hashlib.blake2b(torch.cuda.get_rng_state(i).numpy().data,
                                                      digest_size=_DIGEST_BYTES).hexdigest()
        np = sys.modules.get("numpy")
        if np is not None and hasattr(np, "random"):
            kind, keys, pos, has_gauss, cached = np.random.get_state()
            h = hashlib.blake2b(keys.tobytes(), digest_size=_DIGEST_BYTES)
            h.update(repr((kind, pos, has_gauss, cached)).encode())
            out["rng.numpy"] = h.hexdigest()
        random = sys.modules.get("random")
        if random is not None:
            out["rng.random"] = hashlib.blake2b(repr(random.getstate()).encode(),
                                                digest_size=_DIGEST_BYTES).hexdigest()
        return out

    def _scaler_state(self):
        states = [repr(sorted(s.state_dict().items())) for s in list(self.scalers) if s.is_enabled()]
        if not states:
            return None
        return hashlib.blake2b("|".join(states).encode(), digest_size=_DIGEST_BYTES).hexdigest()

    def _schedule_facts(self):
        for s in self.schedulers:
            k, n = s.last_epoch, self.opt_steps.get(id(self._base_optimizer(s.optimizer)), 0)
            span = getattr(s, "total_steps", None) or getattr(s, "T_max", None)
            changes = False
            for f in getattr(s, "lr_lambdas", []) or []:
                try:
                    changes = changes or f(k) != f(n)
                except Exception:
                    pass
            self._fact("schedule-at-exit", once=False, where=self.created_at.get(s), scheduler=type(s).__name__,
                       scheduler_steps=k, optimizer_steps=n, span=span, lambda_changes_after=changes)

    def _final(self):
        if not self._on() or self.rec is None:
            return
        self._flush_eval_forward()
        self._schedule_facts()
        digests = {}
        for i, opt in enumerate(self.optimizers):
            digests[f"params.{i}" if i else "params"] = self._params(opt).hex()
        self._write({"kind": "final", "digests": digests})
        self.rec.close()
        if self.clock_s is not None:
            steady = sorted(self.clock_s.get(seq, 0.0) for seq in range(4, self.seq + 1))
            if steady:
                print(f"trainproof probe: {steady[len(steady) // 2] * 1e3:.3f} ms of its own a step (median of "
                      f"{len(steady)} steps)", file=sys.stderr)
