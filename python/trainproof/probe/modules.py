"""Module modes: the outermost forward of each call (the step's batch, a forward in eval mode
with gradients, a no-grad forward in train mode with Dropout or BatchNorm), and cross_entropy
given probabilities instead of logits."""
import weakref

from trainproof.probe import layout
from trainproof.probe.digest import Digest, local
from trainproof.probe.frames import user_frame


class ModuleModes:
    """A part of the probe (core.Probe): the outermost forward of each call, and what it was given."""

    def __init__(self, probe):
        self.probe = probe
        self.top = None  # the module of the outermost forward in flight
        self.batch = None  # the Digest of the step's grad-enabled forward inputs, until a step takes it
        self.layout_sums = layout.wanted()  # check --restart-nproc: a resume at another world size
        self.batch_inputs = []  # the step's forward inputs, kept only for the layout-free sums
        self.last_trained = None  # weakref to the outermost module of the last grad-enabled forward
        self.pending_eval = None  # a grad-enabled forward in eval mode, until a backward or the next forward
        self.seen_training = weakref.WeakSet()  # top modules seen in a grad-enabled forward in train mode
        self.seen_validation = weakref.WeakSet()  # top modules seen in a no-grad forward in eval mode
        self.stochastic = weakref.WeakKeyDictionary()  # top module -> its Dropout and BatchNorm modules
        self.ce_calls = {True: 0, False: 0}  # cross_entropy calls looked at, with grad enabled and not

    def install(self, torch):
        """The outermost forward of each call (a global pre- and post-hook), and cross_entropy's input."""
        from importlib import import_module  # torch.optim deletes its submodules' names: import them
        part, probe = self, self.probe
        module = import_module("torch.nn.modules.module")
        from torch.nn.modules.batchnorm import _BatchNorm
        from torch.nn.modules.dropout import _DropoutNd
        self.stochastic_types = (_DropoutNd, _BatchNorm)
        functional = import_module("torch.nn.functional")
        cross_entropy = functional.cross_entropy

        def cross_entropy_input(input):
            # The first three calls of training (grad enabled) and of validation (no grad) each: a
            # softmax before the loss in either is the same mistake.
            grad = torch.is_grad_enabled()
            if probe.on() and part.ce_calls[grad] < 3 and isinstance(input, torch.Tensor) and input.dim() >= 2:
                part.ce_calls[grad] += 1
                with torch.no_grad():
                    x = local(input.detach()).float()  # a DTensor's shard: no collective
                    probe.fact("cross-entropy-input", once=False, min=float(x.min()),
                               row_sum_dev=float((x.sum(1) - 1).abs().max()), dtype=str(input.dtype))

        def traced_cross_entropy(input, target, *args, **kwargs):
            probe.guarded(cross_entropy_input, input)
            return cross_entropy(input, target, *args, **kwargs)

        functional.cross_entropy = traced_cross_entropy
        module.register_module_forward_pre_hook(probe.observer(self._forward_pre))
        module.register_module_forward_hook(probe.observer(self._forward_post), with_kwargs=True)

    def _trained(self, module):
        """Whether an optimizer holds any of the module's parameters (all modules while none is made)."""
        trains = self.probe.ask("trains", module)
        return trains is None or trains

    def _forward_pre(self, module, inputs):
        if self.top is not None or not self.probe.on():
            return
        self.top = module
        self._flush_eval_forward()
        inner = getattr(module, "_orig_mod", module)  # a torch.compile'd model: the module it compiled
        stochastic = self.stochastic.get(module)
        if stochastic is None:
            stochastic = self.stochastic[module] = [
                m for m in inner.modules()
                if isinstance(m, self.stochastic_types) and not (isinstance(m, self.stochastic_types[0]) and m.p == 0)]
        if not self.probe.torch.is_grad_enabled():
            # The model left in train mode: a module set to train inside a model in eval mode is
            # meant (Monte Carlo dropout).
            training = sorted({type(m).__name__ for m in stochastic if m.training}) if inner.training else []
            if training and self._trained(inner):  # not an EMA teacher, a frozen scorer
                self.probe.fact("no-grad-forward-in-train-mode", modules=",".join(training))
            elif not inner.training:
                self.seen_validation.add(module)
            return
        if any(p.requires_grad for p in inner.parameters()):  # the model, not a loss module (nn.NLLLoss)
            self.last_trained = weakref.ref(module)  # a loop without an optimizer: whose parameters it updates
        if inner.training:
            self.seen_training.add(module)
        elif any(p.requires_grad for p in inner.parameters()):  # not a frozen module (a perceptual loss)
            self.pending_eval = {"where": user_frame(), "seen_training": module in self.seen_training,
                                 "after_validation": module in self.seen_validation,
                                 "stochastic": ",".join(sorted({type(m).__name__ for m in stochastic}))}

    def _flush_eval_forward(self, backward=False):
        """A grad-enabled forward in eval mode: a validation with grad where no backward followed it."""
        if self.pending_eval is not None:
            self.probe.fact("grad-forward-in-eval-mode", once=False, backward=backward, **self.pending_eval)
            self.pending_eval = None

    def _forward_post(self, module, inputs, kwargs, output):
        if module is not self.top:
            return
        self.top = None
        # The batch: the tensor inputs of a grad-enabled outermost forward, positional and by
        # keyword (Hugging Face models take theirs as model(**batch)).
        torch = self.probe.torch
        if not self.probe.on() or not torch.is_grad_enabled():
            return
        tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
        tensors += [kwargs[k] for k in sorted(kwargs) if isinstance(kwargs[k], torch.Tensor)]
        if tensors:
            self.probe.tell("batch_taken")
            if self.batch is None:
                self.batch = Digest(torch)
            for t in tensors:
                self.batch.tensor(t)
            if self.layout_sums:  # the samples themselves, for a resume at another world size (layout.py)
                self.batch_inputs.extend(tensors)

    # -- hooks (core.HOOKS) ------------------------------------------------------------------------
    def backward(self, tensor):
        self._flush_eval_forward(backward=True)

    def trained_module(self):
        return self.last_trained() if self.last_trained is not None else None

    def trained_modules(self):
        return list(self.seen_training)

    def step_digests(self):
        batch, self.batch = self.batch, None  # the next forward's inputs are the next step's batch
        return {"batch": batch.hex()} if batch is not None else {}

    def step_sums(self, optimizer):
        if not self.layout_sums:
            return None
        return self.probe.safely(layout.step_sums, self.probe.torch, optimizer, self.batch_inputs)

    def step_recorded(self):
        self.batch_inputs = []
        self.top = None

    def step_inputs_dropped(self):
        self.batch = None
        self.batch_inputs = []

    def exit_facts(self):
        self._flush_eval_forward()

    def forked(self):
        self.batch = self.top = self.pending_eval = None
        self.batch_inputs = []
