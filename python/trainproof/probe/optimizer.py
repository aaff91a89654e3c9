"""Optimizer steps: a record per step (loss, lr, grad norm, the state's digests), taken before
the update; the optimizers' and schedulers' makers, zero_grad, backward, clipping, GradScaler,
and the facts behind check's findings about them (stale gradients, a schedule stepped out of
order or cut short, clipping while scaled, weight decay on biases and norms)."""
import os
import weakref

from trainproof.probe import compiled
from trainproof.probe.core import Held
from trainproof.probe.digest import Digest, blake2b_hex, local, local_value
from trainproof.probe.frames import user_frame


def bias_or_norm(p):
    """A one-dimensional parameter as the model defines it: not a flat buffer of many (FSDP's
    FlatParameter), and a ZeRO-3 partition by the shape it stands for."""
    if getattr(p, "_is_flat_param", False):
        return False
    shape = getattr(p, "ds_shape", None)
    return len(shape) <= 1 if shape is not None else p.dim() <= 1



class OptimizerSteps:
    """A part of the probe (core.Probe): the loop's steps, recorded one a step, and the optimizers,
    schedulers, scalers, backwards and clipping that make them."""

    def __init__(self, probe):
        self.probe = probe
        self.loss = None
        self.grad_norm = None
        self.scaled = {}  # id(tensor scaler.scale returned) -> the scale
        self.schedulers = Held()  # whose state a step's digest holds
        self.schedules = weakref.WeakKeyDictionary()  # scheduler -> its Schedule
        self.schedule_list = []  # every Schedule, judged at exit (its scheduler alive then or not)
        self.scalers = weakref.WeakSet()
        self.optimizers = Held()  # by their order of first step; their final parameters digested at exit
        # For the facts behind check's findings:
        self.opt_steps = {}  # id(optimizer) -> steps taken in this process
        self.created_at = weakref.WeakKeyDictionary()  # optimizer or scheduler -> file:line that made it
        self.after_step = {}  # id(optimizer) -> (param, its grad tensor, the grad's version) after a step
        self.stale = {}  # id(optimizer) -> (param, grad, file:line of the backward) onto a step's gradients
        self.step_taken = set()  # id(optimizer) of each a GradScaler stepped (or skipped, on inf)
        self.trained_params = set()  # id() of every parameter an optimizer holds
        self.constructing = 0  # inside a scheduler's _initial_step
        self.closure_unrecorded = None  # (optimizer, [taken]) of a step given a closure, until it ends
        self.scaled_step = self.unscaled_step = False  # an enabled scaler's scale()/unscale_() this step
        self.backwards = self.optimizers_made = 0  # said at exit where no step was recorded ("probe-saw")
        self.in_step = set()  # the optimizers (by index; None: a manual update) recorded in the current step
        self.manual = None  # a loop without an optimizer: its backward's step, until its update shows

    def _step_pre_hook(self, optimizer, args, kwargs):
        """The record of a step, taken before the update. A step given a closure (Lightning's loop,
        LBFGS) computes its loss and gradients inside optimizer.step(closure): the record is taken
        when the closure returns, the closure itself called exactly as given."""
        probe = self.probe
        if compiled.is_compiling() or probe.safely(probe.ask, "torchs_own_step"):
            return None
        # args[0] is the optimizer itself (torch's step wrapper passes step's own arguments).
        closure = kwargs.get("closure") if "closure" in kwargs else (args[1] if len(args) > 1 else None)
        if not callable(closure) or not probe.on():
            probe.safely(self._pre_step, optimizer, args, kwargs)
            return None
        taken = []

        def closure_then_record(*a, **k):
            out = closure(*a, **k)
            if not taken:
                taken.append(True)
                probe.safely(self._pre_step, optimizer, args, kwargs)
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


    def install(self, torch):
        """Optimizer steps (a global pre- and post-hook), their makers and zero_grad, backward, gradient clipping, GradScaler, LR schedulers."""
        from importlib import import_module  # torch.optim deletes its submodules' names: import them
        part, probe = self, self.probe
        optimizer, lr_scheduler = import_module("torch.optim.optimizer"), import_module("torch.optim.lr_scheduler")
        module, clip_grad = import_module("torch.nn.modules.module"), import_module("torch.nn.utils.clip_grad")
        amp = import_module("torch.amp")
        optimizer.register_optimizer_step_pre_hook(self._step_pre_hook)
        optimizer.register_optimizer_step_post_hook(probe.observer(self._post_step))
        # Each wrapper below calls the wrapped function exactly as the script called it; the probe's
        # part runs only outside Dynamo's tracing (`not compiled.is_compiling()`), through probe.guarded.

        opt_init = optimizer.Optimizer.__init__

        def optimizer_made(opt):
            if probe.on():
                part.created_at[opt] = user_frame()
                part.optimizers_made += 1
                probe.tell("optimizer_made", opt, part.created_at[opt])
            for g in opt.param_groups:
                part.trained_params.update(id(p) for p in g["params"])

        def traced_opt_init(opt, *args, **kwargs):
            opt_init(opt, *args, **kwargs)
            probe.guarded(optimizer_made, opt)

        optimizer.Optimizer.__init__ = traced_opt_init

        # Gradients zeroed in place (zero_grad(set_to_none=False)) are not left over from a step.
        opt_zero_grad, module_zero_grad = optimizer.Optimizer.zero_grad, module.Module.zero_grad

        def zeroed(params):
            ids = {id(p) for p in params}
            for key, (p, *_) in list(part.stale.items()):
                if id(p) in ids:
                    del part.stale[key]

        def traced_opt_zero_grad(opt, *args, **kwargs):
            probe.guarded(zeroed, [p for g in opt.param_groups for p in g["params"]])
            return opt_zero_grad(opt, *args, **kwargs)

        def traced_module_zero_grad(mod, *args, **kwargs):
            probe.guarded(zeroed, list(mod.parameters()))
            return module_zero_grad(mod, *args, **kwargs)

        optimizer.Optimizer.zero_grad = traced_opt_zero_grad
        module.Module.zero_grad = traced_module_zero_grad
        backward = torch.Tensor.backward

        def traced_backward(tensor, *args, **kwargs):
            if probe.on():
                for told in probe.hooks("backward"):  # each part's, safely: one failing skips no other
                    probe.guarded(told, tensor)
            return backward(tensor, *args, **kwargs)

        traced_backward.__doc__ = backward.__doc__
        torch.Tensor.backward = traced_backward

        clip = torch.nn.utils.clip_grad_norm_

        def clipping():
            if probe.on() and part.scaled_step and not part.unscaled_step:
                probe.fact("clip-while-scaled")

        def clipped(norm):
            if probe.on():
                part.grad_norm = local_value(norm)  # FSDP2's total norm: a DTensor every rank holds whole

        def traced_clip(*args, **kwargs):
            probe.guarded(clipping)
            norm = clip(*args, **kwargs)
            probe.guarded(clipped, norm)
            return norm

        torch.nn.utils.clip_grad_norm_ = traced_clip
        clip_grad.clip_grad_norm_ = traced_clip
        scaler_init, scaler_scale = amp.GradScaler.__init__, amp.GradScaler.scale
        scaler_unscale, scaler_step = amp.GradScaler.unscale_, amp.GradScaler.step

        def traced_scaler_init(scaler, *args, **kwargs):
            scaler_init(scaler, *args, **kwargs)
            probe.guarded(part.scalers.add, scaler)

        def scaled(scaler, outputs, out):
            if probe.on() and isinstance(out, torch.Tensor) and out is not outputs:
                part.scaled[id(out)] = scaler._scale
                part.scaled_step = True

        def traced_scale(scaler, outputs):
            out = scaler_scale(scaler, outputs)
            probe.guarded(scaled, scaler, outputs, out)
            return out

        def unscaling(scaler):
            if probe.on() and scaler.is_enabled():
                part.unscaled_step = True

        def traced_unscale(scaler, optimizer):
            probe.guarded(unscaling, scaler)
            return scaler_unscale(scaler, optimizer)

        # A step the scaler skipped (inf gradients) is still the loop's step: a scheduler stepped
        # after it is in order (torch warns of it, and it is what the documents' loop does).
        def traced_scaler_step(scaler, optimizer, *args, **kwargs):
            probe.guarded(lambda: part.step_taken.add(id(part._base_optimizer(optimizer))))
            return scaler_step(scaler, optimizer, *args, **kwargs)

        amp.GradScaler.__init__ = traced_scaler_init
        amp.GradScaler.scale = traced_scale
        amp.GradScaler.unscale_ = traced_unscale
        amp.GradScaler.step = traced_scaler_step

        sched_init = lr_scheduler.LRScheduler.__init__

        def scheduler_made(sched):
            part.schedulers.add(sched)
            if probe.on():
                part.created_at[sched] = user_frame()
                part.schedules[sched] = Schedule(sched, part._base_optimizer(getattr(sched, "optimizer", None)),
                                                 part.created_at[sched])
                part.schedule_list.append(part.schedules[sched])
                for child in getattr(sched, "_schedulers", None) or []:  # a composite's: parts of its schedule
                    if child in part.schedules:
                        part.schedules[child].child = True

        def traced_sched_init(sched, *args, **kwargs):
            sched_init(sched, *args, **kwargs)
            probe.guarded(scheduler_made, sched)

        lr_scheduler.LRScheduler.__init__ = traced_sched_init
        # SequentialLR and ChainedScheduler make no LRScheduler.__init__ call of their own: held here,
        # so that their children are known as theirs (_schedule_facts).
        for composite in ("SequentialLR", "ChainedScheduler"):
            cls = getattr(lr_scheduler, composite, None)
            if cls is None or "__init__" not in vars(cls):
                continue

            def traced_composite_init(sched, *args, _init=vars(cls)["__init__"], **kwargs):
                _init(sched, *args, **kwargs)
                if not compiled.is_compiling() and sched not in part.schedulers:
                    probe.safely(scheduler_made, sched)

            cls.__init__ = traced_composite_init

        # The steps a constructor takes (its own, and SequentialLR's of its first child) are not the
        # script's: they run inside _initial_step.
        initial_step = getattr(lr_scheduler.LRScheduler, "_initial_step", None)
        if initial_step is not None:
            def traced_initial_step(sched, *args, **kwargs):
                part.constructing += 1
                try:
                    return initial_step(sched, *args, **kwargs)
                finally:
                    part.constructing -= 1

            lr_scheduler.LRScheduler._initial_step = traced_initial_step
        sched_step = lr_scheduler.LRScheduler.step

        def scheduler_stepping(sched):
            # Not the step the constructor takes (before it is in self.schedulers, or in _initial_step).
            opt = id(part._base_optimizer(getattr(sched, "optimizer", None)))
            if (probe.on() and not part.constructing and sched in part.schedulers
                    and not part.opt_steps.get(opt) and opt not in part.step_taken):
                probe.fact("scheduler-step-before-optimizer-step")

        def scheduler_stepped(sched):
            if sched in part.schedules:
                part.schedules[sched].last_epoch = getattr(sched, "last_epoch", None)

        def traced_sched_step(sched, *args, **kwargs):
            probe.guarded(scheduler_stepping, sched)
            out = sched_step(sched, *args, **kwargs)
            probe.guarded(scheduler_stepped, sched)
            return out

        lr_scheduler.LRScheduler.step = traced_sched_step

    # -- hooks (core.HOOKS) ------------------------------------------------------------------------
    def backward(self, tensor):
        self.backwards += 1
        # Gradients a step left that this backward adds onto: stale, unless zeroed before the
        # optimizer steps again (a GAN's generator backward flows through the discriminator, whose
        # gradients are zeroed before its own next step). Judged at that optimizer's next step.
        for key, (p, grad, version) in list(self.after_step.items()):
            if p.grad is grad and grad._version == version and bool(local(grad).ne(0).any()):
                self.stale[key] = (p, grad, user_frame())
            del self.after_step[key]
        if not self.optimizers_made:
            self._manual_step()
        if tensor.numel() != 1:
            return
        v = local_value(tensor.detach())
        if v is None:
            return  # a loss spread over the ranks (loss parallel): no value this rank holds alone
        v = v.double().reshape(())
        scale = self.scaled.pop(id(tensor), None)
        if scale is not None:
            v = v / scale.double().reshape(()).to(v.device)
        self.loss = v if self.loss is None else self.loss + v

    def trains(self, module):
        if not self.trained_params:
            return None
        return any(id(p) in self.trained_params for p in module.parameters())

    def scaler_skipped(self):
        return any(s.is_enabled() and s.get_scale() < getattr(s, "_init_scale", 0) for s in list(self.scalers))

    def needs(self):
        needs = ["optimizer", "step"]
        if len(self.schedulers):
            needs.append("scheduler")
        if any(s.is_enabled() for s in list(self.scalers)):
            needs.append("scaler")
        return needs

    def exiting(self):
        if self.manual is not None:
            self._manual_step_at_exit()  # the last backward's update, made before the exit
        if self.probe.seq == 0 and (self.backwards or self.optimizers_made):  # training seen, but no step
            self.probe.fact("probe-saw", backwards=self.backwards, optimizers=self.optimizers_made)

    def exit_facts(self):
        self._schedule_facts()

    def final_digests(self):
        return {f"params.{i}" if i else "params": self._params(opt).hex() for i, opt in self.optimizers.indexed()}

    def forked(self):
        self.loss = self.grad_norm = self.closure_unrecorded = self.manual = None
        self.backwards = self.optimizers_made = 0
        self.optimizers, self.in_step = Held(), set()
        for state in (self.scaled, self.opt_steps, self.after_step, self.stale):
            state.clear()
        self.step_taken = set()

    # -- one step of the loop --------------------------------------------------------------------
    def _pre_step(self, optimizer, args, kwargs):
        probe = self.probe
        if not probe.on():
            return
        stale = self.stale.pop(id(optimizer), None)
        if stale is not None and stale[0].grad is stale[1]:  # not zeroed, nor set to None, since that backward
            probe.fact("backward-onto-last-step-grads", where=stale[2])
        if optimizer not in self.optimizers:
            self.optimizers.add(optimizer)
            groups = [{"weight_decay": float(g.get("weight_decay", 0) or 0), "params": len(g["params"]),
                       "one_dim": sum(1 for p in g["params"] if bias_or_norm(p))} for g in optimizer.param_groups]
            probe.fact("param-groups", once=False, where=self.created_at.get(optimizer),
                       groups=";".join(f"{g['weight_decay']!r}/{g['one_dim']}/{g['params']}" for g in groups))
            shared = sum(1 for g in optimizer.param_groups for p in g["params"]
                         if p.device.type == "cpu" and not hasattr(type(p), "to_local") and p.is_shared())
            if shared:  # a model in shared memory (Hogwild's model.share_memory()): other processes update it too
                probe.fact("params-in-shared-memory", once=False, where=self.created_at.get(optimizer), params=shared)
        index = self.optimizers.index(optimizer)
        values = {}
        for i, g in enumerate(optimizer.param_groups):
            values["lr" if i == 0 else f"lr.{i}"] = float(g["lr"])
        digests = {"params": self._params(optimizer).hex(), "optimizer": self._optimizer_state(optimizer),
                   "scheduler": self._scheduler_state(optimizer)}
        probe.tell("optimizer_stepping", optimizer, digests["params"])
        digests.update(probe.merged("step_digests"))  # the RNGs', the batch's
        scaler = self._scaler_state()
        if scaler is not None:
            digests["scaler"] = scaler
        sums = probe.ask("step_sums", optimizer)
        self._record_step(index, values, digests, self._opt_step(optimizer), user_frame(), sums)

    def _record_step(self, index, values, digests, opt_step, where, sums=None):
        """One record of the loop's step. An iteration that steps two optimizers (a GAN's D and G)
        is one step: the second optimizer's update joins the step the first began, its values and
        digests its own series ("opt1.loss", "opt1.params"). `index` is the optimizer's place
        among those stepped so far (None: an update without an optimizer, _manual_step)."""
        probe = self.probe
        probe.tell("step_begins")
        # A new step, unless this optimizer joins one another (still alive) began in this iteration.
        if probe.seq == 0 or index in self.in_step or any(
                i is not None and i not in dict(self.optimizers.indexed()) for i in self.in_step):
            probe.seq += 1
            self.in_step = {index}
        else:
            self.in_step.add(index)
        if os.environ.get("TRAINPROOF_INJECT_FAULT") == "probe-draws-a-random-number":
            probe.torch.rand(1)  # the negative control of ProbeTest: a probe that changes the script's results
        if self.loss is not None:
            values["loss"] = float(self.loss)
        if self.grad_norm is not None:
            values["grad_norm"] = float(self.grad_norm)
        prefix = f"opt{index}." if index else ""
        record = {"kind": "probe", "seq": probe.seq, "values": {prefix + k: v for k, v in values.items()},
                  "digests": {prefix + k: v for k, v in digests.items()}, "opt_step": opt_step, "where": where}
        if sums:
            samples = sums.pop("samples", None)
            record["sums"] = {prefix + k: v for k, v in sums.items()}
            if samples and not prefix:
                record["samples"] = samples
        probe.write(record)
        if probe.op_stop is not None and probe.seq >= probe.op_stop:
            os._exit(0)  # the rerun has what it came for: the ops up to the step where the runs parted
        self.loss = self.grad_norm = None
        self.scaled.clear()
        probe.tell("step_recorded")

    # -- a step without an optimizer ---------------------------------------------------------------
    def _manual_step(self):
        """A loop that updates its parameters itself (p.data.add_(p.grad, alpha=-lr), p -= lr * p.grad
        under no_grad): a step is a backward and the update of the parameters it reached. Each
        backward digests the trained model's parameters; where they moved since the last backward,
        that backward's step is recorded as it was then (its loss, batch, RNGs: before the update).
        Backwards with no update between them (accumulated micro-batches) are one step."""
        pending, now = self.manual, None
        if pending is not None:  # the parameters its backward reached: the model's it was taken of
            now = self._module_params(pending["module"])
            if now != pending["digests"]["params"]:  # (this iteration's forward: the next step's batch)
                self.manual = None
                self._record_step(None, {}, pending["digests"], None, pending["where"])
        module = self.probe.ask("trained_module")
        if self.manual is None and module is not None:
            digests = {"params": now if pending is not None and module is pending["module"] else
                       self._module_params(module)}
            digests.update(self.probe.merged("step_digests"))  # the RNGs', the batch's
            # The module held until its update shows: a script may drop it before (a model reloaded at the end).
            self.manual = {"digests": digests, "where": user_frame(), "module": module}

    def _manual_step_at_exit(self):
        pending = self.manual
        if pending is not None and self._module_params(pending["module"]) != pending["digests"]["params"]:
            self.manual = None
            self._record_step(None, {}, pending["digests"], None, pending["where"])

    def _module_params(self, module):
        d = Digest(self.probe.torch)
        for p in getattr(module, "_orig_mod", module).parameters():
            if p.requires_grad:
                d.tensor(p)
        return d.hex()

    def _post_step(self, optimizer, args, kwargs):
        if not self.probe.on() or self.probe.ask("torchs_own_step"):
            return
        pending = self.closure_unrecorded
        self.closure_unrecorded = None
        if pending is not None and pending[0] is optimizer and not pending[1]:
            self._pre_step(optimizer, args, kwargs)  # a closure the optimizer never called: recorded late
        if pending is not None:  # the closure's later calls (LBFGS's line search): not the next step's loss or batch
            self.loss = None
            self.probe.tell("step_inputs_dropped")
        self.opt_steps[id(optimizer)] = self.opt_steps.get(id(optimizer), 0) + 1
        self.scaled_step = self.unscaled_step = False
        for g in optimizer.param_groups:
            for p in g["params"]:
                if p.grad is not None:
                    self.after_step[id(optimizer)] = (p, p.grad, p.grad._version)
                    return

    def _params(self, optimizer):
        d = Digest(self.probe.torch)
        for g in optimizer.param_groups:
            for p in g["params"]:
                d.tensor(p)
        return d

    def _optimizer_state(self, optimizer):
        # The first sum alone: a third less of the probe's cost a step at nanoGPT's size (the state
        # is twice the parameters, for Adam). What a diagnosis asks of it is whether a restart
        # restored the state, and a state that was not restored differs in every word, not in
        # the top bits of a few (bench/probe_cost.py).
        d = Digest(self.probe.torch, high_halves=False)
        for g in optimizer.param_groups:
            for p in g["params"]:
                state = optimizer.state.get(p, {})
                for k in sorted(state):
                    d.value(k)
                    d.any(state[k])  # LBFGS keeps lists of tensors (its history): each exactly
        return d.hex()

    def _opt_step(self, optimizer):
        for g in optimizer.param_groups:
            for p in g["params"]:
                step = optimizer.state.get(p, {}).get("step")
                if step is not None:
                    return int(step.item() if isinstance(step, self.probe.torch.Tensor) else step)
        return None

    def _scheduler_state(self, optimizer):
        d = Digest(self.probe.torch)
        for s in self.schedulers:
            if self._base_optimizer(getattr(s, "optimizer", None)) is not optimizer:
                continue
            for k in sorted(vars(s)):
                v = vars(s)[k]
                if isinstance(v, (bool, int, float)) or (isinstance(v, list) and all(
                        isinstance(x, (int, float)) for x in v)):
                    d.value((k, v))
        return d.hex()


    def _scaler_state(self):
        states = [repr(sorted(s.state_dict().items())) for s in list(self.scalers) if s.is_enabled()]
        if not states:
            return None
        return blake2b_hex("|".join(states).encode())

    def _schedule_facts(self):
        # A SequentialLR's or ChainedScheduler's children step only in their own phase: the parent
        # is the schedule the loop steps, and is judged; its children are parts of it. A scheduler
        # freed before the exit (one per fold) is judged as it was last stepped.
        for s in self.schedule_list:
            live = s.ref()
            k = getattr(live, "last_epoch", None) if live is not None else s.last_epoch
            if s.child or k is None:
                continue
            n = self.opt_steps.get(s.optimizer, 0)
            span = s.span or next((e for e in (lambda_span(f, n) for f in s.lambdas) if e), None)
            self.probe.fact("schedule-at-exit", once=False, where=s.where, scheduler=s.kind, scheduler_steps=k,
                       optimizer_steps=n, span=span)


def lambda_span(f, n):
    """The step a LambdaLR's factor is sized for: where it first comes to its lowest after its peak,
    within twice the run's n optimizer steps (a warmup-cosine at its end, a linear decay at 0). A
    factor that decays for ever (0.95 ** epoch, the docs' per-epoch example) or only rises has no
    such step, and is None: its schedule says nothing of the unit it counts in."""
    horizon = 2 * n
    stride = max(1, horizon // 4096)
    try:
        values = [float(f(s)) for s in range(0, horizon + 1, stride)]
    except Exception:
        return None
    if not values:
        return None
    peak = values.index(max(values))
    low = min(values[peak:])
    if low >= values[peak]:
        return None
    end = next(i for i in range(peak, len(values)) if values[i] <= low + 1e-9 * (values[peak] - low))
    return end * stride if end < len(values) - 1 else None


class Schedule:
    """What the schedule-at-exit fact says of a scheduler, kept past its life: a script that makes one
    per fold frees it before the exit, and the probe does not keep it alive (nor its optimizer)."""

    def __init__(self, sched, optimizer, where):
        self.ref = weakref.ref(sched)
        self.kind, self.where, self.optimizer = type(sched).__name__, where, id(optimizer)
        self.span = getattr(sched, "total_steps", None) or getattr(sched, "T_max", None)
        self.lambdas = list(getattr(sched, "lr_lambdas", None) or [])
        self.last_epoch = getattr(sched, "last_epoch", None)
        self.child = False
