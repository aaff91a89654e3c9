"""Module modes: the outermost forward of each call (the step's batch, a forward in eval mode
with gradients, a no-grad forward in train mode with Dropout or BatchNorm), and cross_entropy
given probabilities instead of logits."""
import weakref

from trainproof.probe import compiled
from trainproof.probe.digest import Digest, local
from trainproof.probe.frames import user_frame


class ModuleModes:
    def _trained(self, module):
        """Whether an optimizer holds any of the module's parameters (all modules while none is made)."""
        return not self.trained_params or any(id(p) in self.trained_params for p in module.parameters())


    def _install_modules(self, torch):
        """The outermost forward of each call (a global pre- and post-hook), and cross_entropy's input."""
        from importlib import import_module  # torch.optim deletes its submodules' names: import them
        probe = self
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
            if probe._on() and probe.ce_calls[grad] < 3 and isinstance(input, torch.Tensor) and input.dim() >= 2:
                probe.ce_calls[grad] += 1
                with torch.no_grad():
                    x = local(input.detach()).float()  # a DTensor's shard: no collective
                    probe._fact("cross-entropy-input", once=False, min=float(x.min()),
                                row_sum_dev=float((x.sum(1) - 1).abs().max()), dtype=str(input.dtype))

        def traced_cross_entropy(input, target, *args, **kwargs):
            if not compiled.is_compiling():
                probe._safely(cross_entropy_input, input)
            return cross_entropy(input, target, *args, **kwargs)

        functional.cross_entropy = traced_cross_entropy
        module.register_module_forward_pre_hook(self._observer(self._forward_pre))
        module.register_module_forward_hook(self._observer(self._forward_post), with_kwargs=True)

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
        if any(p.requires_grad for p in inner.parameters()):  # the model, not a loss module (nn.NLLLoss)
            self.last_trained = weakref.ref(module)  # a loop without an optimizer: whose parameters it updates
        if inner.training:
            self.seen_training.add(module)
        elif any(p.requires_grad for p in inner.parameters()):  # not a frozen module (a perceptual loss)
            self.pending_eval = {"where": user_frame(), "seen_training": module in self.seen_training,
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
                self.batch = Digest(self.torch)
            for t in tensors:
                self.batch.tensor(t)
            if self.layout_sums:  # the samples themselves, for a resume at another world size (layout.py)
                self.batch_inputs.extend(tensors)
