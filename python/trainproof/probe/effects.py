"""What the steps do, and what trains where it should not: an optimizer whose steps change no
parameter, parameters an optimizer holds that never get a gradient, parameters that get one and are
in no optimizer; and an op that trains (dropout, batch norm, rrelu, attention's dropout) called by a
module set to eval."""
import weakref

from trainproof.probe.frames import user_frame

# torch.nn.functional's ops with a training flag: (the flag's name, its position, its default)
TRAINING_OPS = {"dropout": ("training", 2, True), "dropout1d": ("training", 2, True),
                "dropout2d": ("training", 2, True), "dropout3d": ("training", 2, True),
                "alpha_dropout": ("training", 2, False), "feature_alpha_dropout": ("training", 2, False),
                "batch_norm": ("training", 5, False), "rrelu": ("training", 3, False),
                "scaled_dot_product_attention": ("dropout_p", 4, 0.0)}
NAMES_SAID = 8  # the parameters a fact names, at most (and how many there are)
WATCHED_FORWARDS = 2  # eval-mode forwards watched per top module: the ops a module calls are the same each time


class Coverage:
    """One optimizer as this part knows it, kept in ids and names, not in the parameters themselves
    (a script whose model lives in main() has dropped it by the exit): where it was made, the
    parameters that required a gradient then, those it held and those that required none at its
    last step, those that got one at a step, and whether any step changed a parameter."""

    def __init__(self, optimizer, where):
        self.where = where
        self.required = {id(p) for g in optimizer.param_groups for p in g["params"] if p.requires_grad}
        # Held from its construction: an optimizer whose first steps a GradScaler skipped still holds its own.
        self.held = {id(p) for g in optimizer.param_groups for p in g["params"]}
        self.frozen_now, self.got_grad = set(), set()
        self.steps = 0
        self.digest = None  # the parameters' digest before the last step
        self.changed = False


class StepEffects:
    """A part of the probe (core.Probe): what the optimizers' steps change, which parameters train,
    and ops that train inside a module set to eval."""

    def __init__(self, probe):
        self.probe = probe
        self.coverage = {}  # id(optimizer) -> Coverage, in the order they were made
        self.in_no_optimizer = {}  # name -> where it was seen with a gradient, in no optimizer
        self.names = {}  # id(parameter) -> its name in a module that trained (seen at a step)
        self.watched = weakref.WeakKeyDictionary()  # top module -> its eval-mode forwards watched
        self.watching = None  # the TorchFunctionMode of the watched forward in flight
        self.in_flight = []  # the modules whose forward runs inside it, innermost last
        self.said = set()  # (op, where) of each train-op-in-eval-mode fact

    def install(self, torch):
        """A global forward pre- and post-hook: the first WATCHED_FORWARDS outermost forwards of each
        module in eval mode run under a TorchFunctionMode that sees each op of TRAINING_OPS called
        (and the modules in flight, to tell which one called it). Nothing is replaced: TorchScript
        and Dynamo see torch's own functions, and every other forward runs as it would."""
        from importlib import import_module
        from torch.overrides import TorchFunctionMode
        module, functional = import_module("torch.nn.modules.module"), import_module("torch.nn.functional")
        self.ops = {getattr(functional, n): (n,) + flag for n, flag in TRAINING_OPS.items() if hasattr(functional, n)}
        self.torchs_own = "torch."  # torch's own modules decide their ops' flags themselves
        part = self

        class Watch(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                if func in part.ops:
                    part.probe.guarded(part._op_called, part.ops[func], args, kwargs)
                return func(*args, **kwargs)

        self.watch_mode = Watch
        module.register_module_forward_pre_hook(self.probe.observer(self._entered))
        module.register_module_forward_hook(self.probe.observer(self._left))

    def _entered(self, module, inputs):
        if self.watching is not None:
            self.in_flight.append(module)
            if len(self.in_flight) > 512:  # forwards that raised never left: stop watching
                self._stop()
            return
        if module.training or not self.probe.on() or type(module).__name__ == "OptimizedModule":
            return
        seen = self.watched.get(module, 0)
        if seen >= WATCHED_FORWARDS:
            return
        self.watched[module] = seen + 1
        self.watching = self.watch_mode()
        self.watching.__enter__()
        self.in_flight = [module]

    def _left(self, module, inputs, output):
        if self.watching is None:
            return
        while self.in_flight and self.in_flight.pop() is not module:
            pass
        if not self.in_flight:  # the outermost forward is done
            self._stop()

    def _stop(self):
        watching, self.watching, self.in_flight = self.watching, None, []
        watching.__exit__(None, None, None)

    def _op_called(self, op, args, kwargs):
        name, key, position, default = op
        value = kwargs.get(key, args[position] if len(args) > position else default)
        p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
        trains = bool(value) and (name in ("rrelu", "scaled_dot_product_attention") or p != 0)
        if name == "batch_norm":  # without running statistics it normalizes by the batch by design
            trains = bool(value) and (kwargs.get("running_mean", args[1] if len(args) > 1 else None) is not None)
        inner = self.in_flight[-1] if self.in_flight else None
        if not trains or inner is None or inner.training or type(inner).__module__.startswith(self.torchs_own):
            return
        where = user_frame()
        if (name, where) in self.said:
            return
        self.said.add((name, where))
        self.probe.fact("train-op-in-eval-mode", once=False, where=where, op=name,
                        flag=f"{key}={value!r}", module=type(inner).__name__)

    # -- hooks (core.HOOKS) ------------------------------------------------------------------------
    def optimizer_made(self, optimizer, where):
        self.coverage[id(optimizer)] = Coverage(optimizer, where)

    def optimizer_stepping(self, optimizer, params_digest):
        """Before an optimizer's update: its gradients, and whether its last step changed anything."""
        c = self.coverage.get(id(optimizer))
        if c is None:
            return
        c.steps += 1
        c.changed = c.changed or (c.digest is not None and params_digest != c.digest)
        c.digest = params_digest
        c.held, c.frozen_now = set(), set()  # as it is now (add_param_group adds to it)
        for g in optimizer.param_groups:
            for p in g["params"]:
                c.held.add(id(p))
                if not p.requires_grad:
                    c.frozen_now.add(id(p))
                if p.grad is not None:
                    c.got_grad.add(id(p))
        held = set().union(*(other.held for other in self.coverage.values()))
        for top in self.probe.ask("trained_modules") or ():
            for n, p in getattr(top, "_orig_mod", top).named_parameters():
                n = n[len("module."):] if n.startswith("module.") else n  # a DDP wrapper's prefix
                self.names.setdefault(id(p), n)
                if p.grad is not None and id(p) not in held and n not in self.in_no_optimizer:
                    self.in_no_optimizer[n] = c.where

    def exit_facts(self):
        scaler_skipped = self.probe.ask("scaler_skipped")
        for c in self.coverage.values():
            if c.steps >= 3 and not c.changed and not scaler_skipped:
                held = sorted(self.names.get(i, "?") for i in c.held)
                self.probe.fact("optimizer-steps-change-nothing", once=False, where=c.where, steps=c.steps,
                                params=len(held), names=",".join(held[:NAMES_SAID]), with_grad=len(c.got_grad))
            never = [i for i in c.required if i not in c.got_grad and i in c.held]
            if c.steps and never:
                frozen = sorted(self.names.get(i, "?") for i in never if i in c.frozen_now)
                unused = sorted(self.names.get(i, "?") for i in never if i not in c.frozen_now)
                self.probe.fact("optimizer-params-without-grad", once=False, where=c.where, steps=c.steps,
                                frozen=",".join(frozen[:NAMES_SAID]), frozen_count=len(frozen),
                                unused=",".join(unused[:NAMES_SAID]), unused_count=len(unused))
        if self.in_no_optimizer:
            first = sorted(self.in_no_optimizer)
            self.probe.fact("grad-params-in-no-optimizer", once=False, where=self.in_no_optimizer[first[0]],
                            names=",".join(first[:NAMES_SAID]), count=len(first))

    def forked(self):
        self.coverage, self.in_no_optimizer, self.names, self.said = {}, {}, {}, set()
