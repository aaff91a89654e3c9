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
  - digests: exact (every bit of every tensor), computed where the tensors live: on the host a
    BLAKE2b of the bytes, on a GPU a position-weighted integer sum of the bit patterns reduced
    on the device (no copy of the weights to the host);
  - batch: the tensor inputs of the step's outermost forward calls made with grad enabled.
At every torch.save: {"kind": "save", "path", "existed", "keys", "where"}, written before the
save starts, so that a kill during it still leaves the record. At exit: {"kind": "final"}.
Nothing here draws a random number or changes a tensor: the script's results stay bitwise."""
import atexit
import hashlib
import os
import sys
import weakref

_DIGEST_BYTES = 8
_probe = None


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
    global _probe
    if _probe is not None:
        return
    try:
        _probe = _Probe(torch)
    except Exception as e:  # the probe must never break the script it watches
        print(f"trainproof probe: not installed: {type(e).__name__}: {e}", file=sys.stderr)


_SKIP_DIRS = []  # torch's package, this package, the boot folder, the standard library


def _user_frame():
    """`file:line` of the innermost frame outside torch, the standard library and trainproof."""
    if not _SKIP_DIRS:
        import torch
        _SKIP_DIRS.extend(os.path.dirname(os.path.abspath(m.__file__)) + os.sep
                          for m in (torch, sys.modules[__name__], os))
        _SKIP_DIRS.append(os.path.join(os.path.dirname(_SKIP_DIRS[1].rstrip(os.sep)), "trainproof_boot") + os.sep)
    f = sys._getframe(1)
    while f is not None:
        name = f.f_code.co_filename
        if not name.startswith("<") and not any(os.path.abspath(name).startswith(d) for d in _SKIP_DIRS):
            return f"{os.path.basename(name)}:{f.f_lineno}"
        f = f.f_back
    return ""


class _Digest:
    """An exact digest of tensors and plain values; device tensors are reduced on their device."""

    def __init__(self, torch):
        self._torch = torch
        # SHA-256: OpenSSL's, with the CPU's SHA instructions where it has them (x86's SHA-NI,
        # ARMv8's): about 1.5x blake2b's speed on a step's parameters and optimizer state.
        self._host = hashlib.sha256()
        self._device = []  # 0-d int64 tensors on a device, fetched in one copy

    def value(self, v):
        self._host.update(repr(v).encode())

    def tensor(self, t):
        torch = self._torch
        t = t.detach()
        self._host.update(f"{t.dtype}{tuple(t.shape)}".encode())
        if t.numel() == 0:
            return
        if t.is_sparse or t.is_quantized:
            t = t.to_dense() if t.is_sparse else t.int_repr()
        flat = t.contiguous().reshape(-1)
        if flat.dtype == torch.bool:
            flat = flat.to(torch.uint8)
        raw = flat.view(torch.uint8)
        if raw.device.type == "cpu":
            self._host.update(raw.numpy().data)
            return
        words = raw.view(torch.int32) if raw.numel() % 4 == 0 else raw
        w = words.to(torch.int64)
        pos = torch.arange(w.numel(), device=w.device, dtype=torch.int64)
        self._device.append((w * (pos * 2 + 1) + pos).sum())  # wraps mod 2**64: exact, order-sensitive

    def hex(self):
        if self._device:
            for v in self._torch.stack(self._device).cpu().tolist():
                self._host.update(int(v).to_bytes(8, "little", signed=True))
            self._device = []
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
        self.pending_eval = None  # a grad-enabled forward in eval mode, until a backward or the next forward
        self.seen_training = weakref.WeakSet()  # top modules seen in a grad-enabled forward in train mode
        self.seen_validation = weakref.WeakSet()  # top modules seen in a no-grad forward in eval mode
        self.stochastic = weakref.WeakKeyDictionary()  # top module -> its Dropout and BatchNorm modules
        self.scaled_step = self.unscaled_step = False  # an enabled scaler's scale()/unscale_() this step
        self.ce_calls = 0
        self.facts_said = set()
        self.seeded = False
        self.rng_at_install = torch.get_rng_state()
        self.rng_at_first_step = None
        self.first_draw = None  # file:line of the first draw from the global RNG before any seed
        self._hook(torch)
        atexit.register(self._final)
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
        self.rec._record(record)

    def _fact(self, fact, once=True, **data):
        """An observation check may judge as a finding: what was seen, where, at which step."""
        if once and fact in self.facts_said:
            return
        self.facts_said.add(fact)
        self._write({"kind": "fact", "fact": fact, "seq": self.seq, "where": data.pop("where", None) or _user_frame(),
                     "data": data})

    # -- hooks ---------------------------------------------------------------------------------
    def _hook(self, torch):
        from importlib import import_module  # torch.optim deletes its submodules' names: import them
        optimizer, lr_scheduler = import_module("torch.optim.optimizer"), import_module("torch.optim.lr_scheduler")
        module, clip_grad = import_module("torch.nn.modules.module"), import_module("torch.nn.utils.clip_grad")
        amp = import_module("torch.amp")
        probe = self
        optimizer.register_optimizer_step_pre_hook(self._pre_step)
        optimizer.register_optimizer_step_post_hook(self._post_step)
        from torch.nn.modules.batchnorm import _BatchNorm
        from torch.nn.modules.dropout import _DropoutNd
        self.stochastic_types = (_DropoutNd, _BatchNorm)

        opt_init = optimizer.Optimizer.__init__

        def traced_opt_init(opt, *args, **kwargs):
            opt_init(opt, *args, **kwargs)
            if probe._on():
                probe.created_at[opt] = _user_frame()

        optimizer.Optimizer.__init__ = traced_opt_init

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

        def traced_draw(fn):
            def draw(*args, **kwargs):
                if not probe._on() or probe.seeded or probe.first_draw is not None:
                    return fn(*args, **kwargs)
                before = torch.get_rng_state()
                out = fn(*args, **kwargs)
                if not torch.equal(before, torch.get_rng_state()):
                    probe.first_draw = _user_frame()
                    restore_draws()
                return out

            return draw

        for owner, n, fn, _ in originals:
            setattr(owner, n, traced_draw(fn))

        def traced_seed(*args, **kwargs):
            if probe._on() and not probe.seeded:
                probe.seeded = True
                restore_draws()
                if not torch.equal(torch.get_rng_state(), probe.rng_at_install):
                    probe._fact("torch-random-before-seed")
            return seed(*args, **kwargs)

        torch.manual_seed = traced_seed
        torch.random.manual_seed = traced_seed

        functional = import_module("torch.nn.functional")
        cross_entropy = functional.cross_entropy

        def traced_cross_entropy(input, target, *args, **kwargs):
            if probe._on() and probe.ce_calls < 3 and isinstance(input, torch.Tensor) and input.dim() >= 2:
                probe.ce_calls += 1
                with torch.no_grad():
                    x = input.detach().float()
                    probe._fact("cross-entropy-input", once=False, min=float(x.min()),
                                row_sum_dev=float((x.sum(1) - 1).abs().max()), dtype=str(input.dtype))
            return cross_entropy(input, target, *args, **kwargs)

        functional.cross_entropy = traced_cross_entropy
        module.register_module_forward_pre_hook(self._forward_pre)
        module.register_module_forward_hook(self._forward_post)

        backward = torch.Tensor.backward

        def traced_backward(tensor, *args, **kwargs):
            probe._backward(tensor)
            return backward(tensor, *args, **kwargs)

        traced_backward.__doc__ = backward.__doc__
        torch.Tensor.backward = traced_backward

        clip = torch.nn.utils.clip_grad_norm_

        def traced_clip(*args, **kwargs):
            if probe._on() and probe.scaled_step and not probe.unscaled_step:
                probe._fact("clip-while-scaled")
            norm = clip(*args, **kwargs)
            if probe._on():
                probe.grad_norm = norm
            return norm

        torch.nn.utils.clip_grad_norm_ = traced_clip
        clip_grad.clip_grad_norm_ = traced_clip

        save = torch.save

        def traced_save(obj, f, *args, **kwargs):
            if probe._on():
                probe._save(obj, f)
            return save(obj, f, *args, **kwargs)

        torch.save = traced_save

        load = torch.load

        def traced_load(f, *args, **kwargs):
            if probe._on():
                probe._load(f, kwargs.get("weights_only", "default"))
            return load(f, *args, **kwargs)

        torch.load = traced_load

        scaler_init = amp.GradScaler.__init__
        scaler_scale = amp.GradScaler.scale

        def traced_scaler_init(scaler, *args, **kwargs):
            scaler_init(scaler, *args, **kwargs)
            probe.scalers.add(scaler)

        def traced_scale(scaler, outputs):
            out = scaler_scale(scaler, outputs)
            if probe._on() and isinstance(out, torch.Tensor) and out is not outputs:
                probe.scaled[id(out)] = scaler._scale
                probe.scaled_step = True
            return out

        scaler_unscale = amp.GradScaler.unscale_

        def traced_unscale(scaler, optimizer):
            if probe._on() and scaler.is_enabled():
                probe.unscaled_step = True
            return scaler_unscale(scaler, optimizer)

        amp.GradScaler.__init__ = traced_scaler_init
        amp.GradScaler.scale = traced_scale
        amp.GradScaler.unscale_ = traced_unscale

        sched_init = lr_scheduler.LRScheduler.__init__

        def traced_sched_init(sched, *args, **kwargs):
            sched_init(sched, *args, **kwargs)
            probe.schedulers.append(sched)
            if probe._on():
                probe.created_at[sched] = _user_frame()

        lr_scheduler.LRScheduler.__init__ = traced_sched_init
        sched_step = lr_scheduler.LRScheduler.step

        def traced_sched_step(sched, *args, **kwargs):
            # Not the step the constructor takes (before it is in self.schedulers).
            if (probe._on() and any(x is sched for x in probe.schedulers)
                    and not probe.opt_steps.get(id(sched.optimizer))):
                probe._fact("scheduler-step-before-optimizer-step")
            return sched_step(sched, *args, **kwargs)

        lr_scheduler.LRScheduler.step = traced_sched_step

    def _backward(self, tensor):
        if not self._on():
            return
        for key, (p, grad, version) in list(self.after_step.items()):
            if p.grad is grad and grad._version == version and bool(grad.ne(0).any()):
                self._fact("backward-onto-last-step-grads")
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
        stochastic = self.stochastic.get(module)
        if stochastic is None:
            stochastic = self.stochastic[module] = [m for m in module.modules() if isinstance(m, self.stochastic_types)]
        if not self.torch.is_grad_enabled():
            training = sorted({type(m).__name__ for m in stochastic if m.training})
            if training:
                self._fact("no-grad-forward-in-train-mode", modules=",".join(training))
            elif not module.training:
                self.seen_validation.add(module)
            return
        if module.training:
            self.seen_training.add(module)
        else:
            self.pending_eval = {"where": _user_frame(), "seen_training": module in self.seen_training,
                                 "after_validation": module in self.seen_validation,
                                 "stochastic": ",".join(sorted({type(m).__name__ for m in stochastic}))}
        tensors = [x for x in inputs if isinstance(x, self.torch.Tensor)]
        if tensors:
            if self.batch is None:
                self.batch = _Digest(self.torch)
            for t in tensors:
                self.batch.tensor(t)

    def _flush_eval_forward(self):
        """A grad-enabled forward in eval mode that no backward followed: a validation with grad."""
        if self.pending_eval is not None:
            self._fact("grad-forward-in-eval-mode", once=False, backward=False, **self.pending_eval)
            self.pending_eval = None

    def _forward_post(self, module, inputs, output):
        if module is self.top:
            self.top = None

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
        if not any(o is optimizer for o in self.optimizers):
            self.optimizers.append(optimizer)
            groups = [{"weight_decay": float(g.get("weight_decay", 0) or 0), "params": len(g["params"]),
                       "one_dim": sum(1 for p in g["params"] if p.dim() <= 1)} for g in optimizer.param_groups]
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
        d = _Digest(self.torch)
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
            if getattr(s, "optimizer", None) is not optimizer:
                continue
            for k in sorted(vars(s)):
                v = vars(s)[k]
                if isinstance(v, (bool, int, float)) or (isinstance(v, list) and all(
                        isinstance(x, (int, float)) for x in v)):
                    d.value((k, v))
        return d.hex()

    def _rng_states(self):
        torch = self.torch
        out = {"rng.torch": hashlib.blake2b(torch.get_rng_state().numpy().data, digest_size=_DIGEST_BYTES).hexdigest()}
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
            k, n = s.last_epoch, self.opt_steps.get(id(s.optimizer), 0)
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
