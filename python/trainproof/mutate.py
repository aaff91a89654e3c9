"""Mutants of a training script: the documents' mistakes planted, one a copy, for `trainproof mutate`.

    python -m trainproof.mutate list SCRIPT             the mutants, as JSON lines
    python -m trainproof.mutate write SCRIPT N OUT      the folder of SCRIPT copied to OUT, mutant N planted

A mutation finds its sites on the syntax tree (`ast`) of the script and of the modules beside it
that the script imports, and plants its mistake by rewriting exactly the source span of the
nodes it changes (the span the tree gives), so that every other line, and every line number,
stays as the team wrote it: a finding on a mutant names the same file:line as on the script.

Each mutation names the findings (or the law) that catch it; `trainproof mutate` judges the rest.
"""
import ast
import json
import os
import pathlib
import shutil
import sys

# The pieces of training state a checkpoint key stands for, by what its name holds.
_PIECES = (("opt", "optimizer"), ("sched", "scheduler"), ("scaler", "scaler"), ("rng", "RNG"),
           ("random", "RNG"), ("generator", "RNG"), ("iter", "data position"), ("step", "data position"),
           ("epoch", "data position"), ("batch", "data position"), ("order", "data position"),
           ("sampler", "data position"))


def _piece(key):
    key = key.lower()
    return next((piece for part, piece in _PIECES if part in key), None)


def _call_name(node):
    """'torch.nn.functional.cross_entropy' for a call of that dotted name, else ''."""
    f = node.func if isinstance(node, ast.Call) else node
    parts = []
    while isinstance(f, ast.Attribute):
        parts.append(f.attr)
        f = f.value
    if isinstance(f, ast.Name):
        parts.append(f.id)
        return ".".join(reversed(parts))
    return ".".join(reversed(parts)) if parts else ""


def _calls(stmt, *tails):
    """The call an expression statement makes, when its dotted name is one of `tails` or, for a
    method (a tail without a dot), a call of that method on something (`model.train()`, not a
    function of the script's own named train)."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        name = _call_name(stmt.value)
        if any(name == t if "." in t else name.endswith("." + t) for t in tails):
            return stmt.value
    return None


def _blocks(tree):
    """Every statement list of the tree (bodies of modules, functions, loops, branches, withs)."""
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                yield stmts


class Edit:
    """One span of the source replaced: from (line, col) to (end_line, end_col), 1-based lines."""

    def __init__(self, node, text, marks=False):
        self.node = node
        self.marks = marks  # the text leaves the mark itself, where it runs (see MARK)
        self.start = (node.lineno, node.col_offset)
        self.end = (node.end_lineno, node.end_col_offset)
        lines = node.end_lineno - node.lineno
        # The same number of lines: a statement's lines padded with blank ones, an expression's
        # (inside brackets, where a newline is only white space) closed over them.
        self.text = text + "\n" * max(0, lines - text.count("\n")) if isinstance(node, ast.stmt) else text
        if not isinstance(node, ast.stmt) and text.count("\n") < lines:
            self.text = "(" + text + "\n" * (lines - text.count("\n")) + ")"


def apply_edits(source, edits):
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode()))
    raw = source.encode()

    def at(pos):
        return offsets[pos[0] - 1] + pos[1]  # ast's columns are UTF-8 byte offsets

    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        raw = raw[:at(e.start)] + e.text.encode() + raw[at(e.end):]
    return raw.decode()


class Mutation:
    """A documented mistake: where it can be planted (sites), and the edits that plant it."""
    id = ""  # its id: the catalog's planted_by names the findings that catch it (a broken law does too)
    what = ""  # what the mistake is, for the row
    absent = ""  # why it is not applicable where the script has no site
    resume = False  # a mistake of resume: it changes nothing before the first restart

    def __init__(self, source=""):
        self.source = source  # the text of the file whose tree sites() walks

    def seg(self, node):
        return ast.get_source_segment(self.source, node)

    def sites(self, tree):
        """(node the row names, [edits]) for each place the mistake can be planted."""
        return []

    def with_keyword(self, call, keyword, value):
        """The text of `call` with `keyword=value` after its last argument (where a comma or a
        comment after it cannot swallow it), on the same lines."""
        text = self.seg(call)
        given = call.args + call.keywords
        if not given:
            return text[:text.rindex(")")] + f"{keyword}={value})"
        last = max(given, key=lambda n: (n.end_lineno, n.end_col_offset))
        raw = text.encode()  # ast's columns are UTF-8 byte offsets
        lines = raw.split(b"\n")
        at = sum(len(line) + 1 for line in lines[:last.end_lineno - call.lineno])
        at += last.end_col_offset - (call.col_offset if last.end_lineno == call.lineno else 0)
        return (raw[:at] + f", {keyword}={value}".encode() + raw[at:]).decode()


class DeleteCall(Mutation):
    """A statement calling NAME deleted."""
    tails = ()
    functions = ()  # names called bare or from a module (`set_seed(0)`, `L.seed_everything(0)`)

    def sites(self, tree):
        for stmts in _blocks(tree):
            for s in stmts:
                call = _calls(s, *self.tails)
                if call is None and isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
                    call = s.value if _call_name(s.value).rsplit(".", 1)[-1] in self.functions else None
                if call is not None and self.wanted(call):
                    yield s, [Edit(s, "pass")]

    def wanted(self, call):
        return True


class DeleteZeroGrad(DeleteCall):
    id = "delete-zero-grad"
    what, absent = "zero_grad() deleted", "no zero_grad() call"
    tails = ("zero_grad",)


class DeleteEval(DeleteCall):
    id = "delete-eval"
    what, absent = "eval() deleted", "no .eval() call"
    tails = ("eval",)

    def wanted(self, call):
        return not call.args and not call.keywords


class DeleteTrain(DeleteCall):
    id = "delete-train"
    what, absent = "train() deleted", "no .train() call"
    tails = ("train",)

    def wanted(self, call):
        return not call.keywords and (not call.args or (isinstance(call.args[0], ast.Constant) and call.args[0].value is True))


class DeleteUnscale(DeleteCall):
    id = "delete-unscale"
    what, absent = "unscale_() deleted", "no GradScaler.unscale_() call"
    tails = ("unscale_",)


class DeleteManualSeed(DeleteCall):
    id = "delete-manual-seed"
    what, absent = "torch.manual_seed() deleted", "no torch.manual_seed() or framework seed call"
    tails = ("torch.manual_seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all")
    functions = ("set_seed", "seed_everything")  # transformers', accelerate's; Lightning's


class DeleteRestore(DeleteCall):
    """A restore on resume deleted: an optimizer's, scheduler's or scaler's load_state_dict, an RNG's
    set_state, accelerate's load_state(); or the checkpoint a framework resumes from dropped
    (Trainer.train's resume_from_checkpoint, Lightning's fit(ckpt_path=...)) made None."""
    id = "delete-restore"
    what = "a restore on resume deleted"
    absent = "no restore of optimizer, scheduler, scaler or RNG state, nor a checkpoint a framework resumes from"
    resume = True
    tails = ("load_state_dict", "set_rng_state", "set_state", "setstate", "load_state")
    RESUMED_FROM = (("train", "resume_from_checkpoint"), ("fit", "ckpt_path"))  # the method, its keyword

    def wanted(self, call):
        name = _call_name(call)
        if name.endswith("load_state_dict"):
            return _piece(name.rsplit(".", 1)[0]) in ("optimizer", "scheduler", "scaler")
        return True

    def sites(self, tree):
        yield from super().sites(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            for method, keyword in self.RESUMED_FROM:
                for kw in node.keywords:
                    if node.func.attr == method and kw.arg == keyword and not (
                            isinstance(kw.value, ast.Constant) and kw.value.value is None):
                        yield node, [Edit(kw.value, "None")]


class SoftmaxBeforeCrossEntropy(Mutation):
    id = "softmax-before-cross-entropy"
    what, absent = "softmax wrapped around the logits cross_entropy takes", "no cross_entropy call"

    def sites(self, tree):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node).endswith("cross_entropy") and node.args:
                logits = node.args[0]
                yield node, [Edit(logits, f"__import__('torch').softmax({self.seg(logits)}, dim=-1)")]


class NoDecayGetsDecay(Mutation):
    id = "no-decay-group-decayed"
    what, absent = "the no-decay param group given weight decay", "no param group with weight_decay 0"

    def sites(self, tree):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Dict):
                continue
            for k, v in zip(node.keys, node.values):
                if (isinstance(k, ast.Constant) and k.value == "weight_decay" and isinstance(v, ast.Constant)
                        and v.value == 0):
                    yield node, [Edit(v, "0.1")]


class SchedulerBeforeOptimizer(Mutation):
    id = "scheduler-before-optimizer"
    what, absent = "the scheduler stepped before the optimizer", "no scheduler.step() after an optimizer step"

    def sites(self, tree):
        owner = {}  # id of a statement list -> (the list that holds its owner, the owner's index there)
        for stmts in _blocks(tree):
            for i, s in enumerate(stmts):
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(s, field, None)
                    if isinstance(inner, list) and inner:
                        owner[id(inner)] = (stmts, i)
        for stmts in _blocks(tree):
            for i, s in enumerate(stmts):
                if _calls(s, "step") is None or _piece(_call_name(s.value)) != "scheduler":
                    continue
                block, at = stmts, i  # the nearest optimizer step before it, here or in the blocks around it
                while block is not None:
                    prev = next((p for p in reversed(block[:at]) if _calls(p, "step") is not None
                                 and _piece(_call_name(p.value)) != "scheduler"), None)
                    if prev is not None:
                        sched, opt = self.seg(s), self.seg(prev)
                        if "\n" not in sched and "\n" not in opt:
                            yield s, [Edit(prev, f"{sched}; {opt}"), Edit(s, "pass")]
                        break
                    block, at = owner.get(id(block), (None, 0))


def _owners(tree):
    """id of each statement list -> the statement that holds it; id of each statement -> (the list
    it is in, its index there)."""
    holder, place = {}, {}
    for stmts in _blocks(tree):
        for i, s in enumerate(stmts):
            place[id(s)] = (stmts, i)
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(s, field, None)
                if isinstance(inner, list) and inner:
                    holder[id(inner)] = s
    return holder, place


def _assigns_epoch(stmts):
    """Whether a statement of the list assigns a name with "epoch" in it (an epoch boundary)."""
    for s in stmts:
        targets = s.targets if isinstance(s, ast.Assign) else [s.target] if isinstance(s, ast.AugAssign) else []
        for t in targets:
            names = t.elts if isinstance(t, ast.Tuple) else [t]
            if any(isinstance(n, ast.Name) and "epoch" in n.id.lower() for n in names):
                return True
    return False


class SchedulerPerEpoch(Mutation):
    """A per-step scheduler stepped once per epoch: its step moved out of the batch loop, after it
    (an epoch loop around a batch loop), or into the branch where the epoch ends (one loop that
    counts its epochs)."""
    id = "scheduler-per-epoch"
    what, absent = ("the per-step scheduler stepped once per epoch",
                    "no scheduler.step() in a batch loop with an epoch loop around it or an epoch boundary in it")

    def sites(self, tree):
        holder, place = _owners(tree)
        for stmts in _blocks(tree):
            for s in stmts:
                if _calls(s, "step") is None or _piece(_call_name(s.value)) != "scheduler":
                    continue
                sched = self.seg(s)
                if "\n" in sched:
                    continue
                loop, block = None, stmts  # the nearest loop around it
                while id(block) in holder:
                    loop = holder[id(block)]
                    if isinstance(loop, (ast.For, ast.While)):
                        break
                    block, loop = place[id(loop)][0], None
                if loop is not None:
                    site = self._after_loop(loop, s, sched, holder, place) or self._into_epoch_branch(loop, s, sched)
                    if site:
                        yield s, site

    def _after_loop(self, loop, s, sched, holder, place):
        """An epoch loop around the batch loop: the step after the batch loop, in the epoch loop."""
        block, at = place.get(id(loop), (None, 0))
        outer = holder.get(id(block))
        if not isinstance(outer, (ast.For, ast.While)) or block is not outer.body:
            return None
        after = block[at + 1] if at + 1 < len(block) else None
        if after is not None and not hasattr(after, "body") and "\n" not in self.seg(after):
            # The mark where the step was: the mutant ran where the per-step scheduler would have stepped.
            return [Edit(s, "pass"), Edit(after, f"{sched}; {self.seg(after)}")]
        if loop.body[-1] is s:  # the step ends the batch loop: moved after it, on the same lines
            lines = self.seg(loop).split("\n")
            return [Edit(loop, "\n".join(lines[:-1]) + "\n" + " " * loop.col_offset + f"{MARK}; {sched}", marks=True)]
        return None

    def _into_epoch_branch(self, loop, s, sched):
        """One loop that counts its epochs: the step into the branch where an epoch ends."""
        for node in loop.body:
            first = node.body[0] if isinstance(node, ast.If) else None
            if (first is not None and _assigns_epoch(node.body) and not any(x is s for x in ast.walk(node))
                    and not hasattr(first, "body") and "\n" not in self.seg(first)):
                return [Edit(s, "pass"), Edit(first, f"{sched}; {self.seg(first)}")]
        return None


class FrameworkSetting(Mutation):
    """A framework's setting turned to the mistake: KEYWORD=VALUE in calls of CALLEE or a class
    named after it (Seq2SeqTrainingArguments), given otherwise, or not given where its default is
    not the mistake."""
    callee, keyword, value = "", "", ""
    default = ""  # the framework's default, as the value's text

    def sites(self, tree):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not _call_name(node).rsplit(".", 1)[-1].endswith(self.callee):
                continue
            given = [kw for kw in node.keywords if kw.arg == self.keyword]
            if not given and not any(kw.arg is None for kw in node.keywords) and self.default != self.value:
                yield node, [Edit(node, self.with_keyword(node, self.keyword, self.value))]
            for kw in given:
                if not (isinstance(kw.value, ast.Constant) and repr(kw.value.value) == self.value):
                    yield node, [Edit(kw.value, self.value)]


class SaveOnlyModel(FrameworkSetting):
    id = "save-only-model"
    what = "Trainer's checkpoints made model-only (save_only_model=True): no optimizer, scheduler or RNG"
    absent = "no TrainingArguments"
    resume = True
    callee, keyword, value, default = "TrainingArguments", "save_only_model", "True", "False"


class IgnoreDataSkip(FrameworkSetting):
    # The restarted epoch's sampler draws its order anew from the restored RNG: the RNG redrawn.
    id = "ignore-data-skip"
    what = "Trainer's resume made to restart the epoch's data (ignore_data_skip=True)"
    absent = "no TrainingArguments"
    resume = True
    callee, keyword, value, default = "TrainingArguments", "ignore_data_skip", "True", "False"


class UnseedableSampler(FrameworkSetting):
    id = "unseedable-sampler"
    what = "accelerate's seedable sampler turned off (use_seedable_sampler=False)"
    absent = "no DataLoaderConfiguration"
    resume = True
    callee, keyword, value, default = "DataLoaderConfiguration", "use_seedable_sampler", "False", "False"


class WeightsOnlyFalse(Mutation):
    id = "weights-only-false"
    what, absent = "torch.load made to unpickle anything (weights_only=False)", "no torch.load but weights_only=False ones"

    def sites(self, tree):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) == "torch.load":
                given = [kw for kw in node.keywords if kw.arg == "weights_only"]
                if not given and not any(kw.arg is None for kw in node.keywords):  # the default (True since 2.6)
                    yield node, [Edit(node, self.with_keyword(node, "weights_only", "False"))]
                for kw in given:
                    if not (isinstance(kw.value, ast.Constant) and kw.value.value is False):
                        yield node, [Edit(kw.value, "False")]


class DeleteNoGrad(Mutation):
    id = "delete-no-grad"
    what, absent = "no_grad() around validation deleted", "no `with torch.no_grad()` block"

    NO_GRAD = ("torch.no_grad", "torch.inference_mode", "no_grad", "inference_mode")

    def sites(self, tree):
        for node in ast.walk(tree):
            if isinstance(node, ast.With):
                for item in node.items:
                    if isinstance(item.context_expr, ast.Call) and _call_name(item.context_expr) in self.NO_GRAD:
                        yield node, [Edit(item.context_expr, "__import__('contextlib').nullcontext()")]
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):  # @torch.no_grad() on a validation
                for d in node.decorator_list:
                    if _call_name(d) in self.NO_GRAD:  # the mark when the function runs, not when defined
                        yield d, [Edit(d, "(lambda f: __import__('functools').wraps(f)(lambda *a, **k: "
                                          f"({MARK}, f(*a, **k))[1]))", marks=True)]


class DropCheckpointKey(Mutation):
    """A piece of state left out of the checkpoint torch.save writes."""
    id = "drop-checkpoint-key"
    what, absent = "a key dropped from the saved checkpoint", "no checkpoint dict saved with torch.save"
    resume = True

    def sites(self, tree):
        saved = set()  # names of dicts torch.save writes
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node).endswith("save") and node.args:
                if isinstance(node.args[0], ast.Name):
                    saved.add(node.args[0].id)
                elif isinstance(node.args[0], ast.Dict):
                    yield from self._keys(node.args[0])
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                t = node.targets[0]
                if isinstance(t, ast.Name) and t.id in saved and isinstance(node.value, ast.Dict):
                    yield from self._keys(node.value)
                elif (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in saved
                      and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str)
                      and _piece(t.slice.value)):
                    yield node, [Edit(node, "pass")]

    def _keys(self, d):
        for i, k in enumerate(d.keys):
            if isinstance(k, ast.Constant) and isinstance(k.value, str) and _piece(k.value):
                rest = ast.Dict(keys=d.keys[:i] + d.keys[i + 1:], values=d.values[:i] + d.values[i + 1:])
                text = "{" + ", ".join(f"{self.seg(a)}: {self.seg(b)}" if a is not None
                                       else f"**{self.seg(b)}" for a, b in zip(rest.keys, rest.values)) + "}"
                yield k, [Edit(d, text)]


class AtomicSaveMadeDirect(Mutation):
    id = "atomic-save-made-direct"
    what, absent = "an atomic save (write, then rename) made direct", "no torch.save followed by os.replace/rename"
    resume = True

    def sites(self, tree):
        for stmts in _blocks(tree):
            for i, s in enumerate(stmts[:-1]):
                save = _calls(s, "torch.save")
                move = _calls(stmts[i + 1], "os.replace", "os.rename", "replace", "rename")
                if save is None or move is None or len(save.args) < 2:
                    continue
                if len(move.args) == 2:
                    src, dst = move.args
                elif len(move.args) == 1:  # Path(tmp).replace(final)
                    src, dst = move.func.value, move.args[0]
                else:
                    continue
                if self.seg(src) == self.seg(save.args[1]):
                    yield s, [Edit(save.args[1], self.seg(dst)), Edit(stmts[i + 1], "pass")]


def _optimizer_calls(tree):
    """The calls that build a torch optimizer (torch.optim.AdamW(...), optim.SGD(...)), not a scheduler."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if name.startswith(("torch.optim.", "optim.")) and ".lr_scheduler." not in name + "." and node.args:
                yield node


class OptimizerLrZero(Mutation):
    """The optimizer's learning rate made 0 (a config read as an integer, a typo): no step changes anything."""
    id = "optimizer-lr-zero"
    what, absent = "the optimizer's lr made 0", "no torch.optim optimizer built with lr="

    def sites(self, tree):
        for call in _optimizer_calls(tree):
            for kw in call.keywords:
                if kw.arg == "lr":
                    yield call, [Edit(kw.value, "0.0")]


class OptimizerDropsAParameter(Mutation):
    """An optimizer built over the model's parameters but its first: that one gets gradients and never trains."""
    id = "optimizer-drops-a-parameter"
    what, absent = "the optimizer built without the model's first parameter", "no optimizer over X.parameters()"

    def sites(self, tree):
        for call in _optimizer_calls(tree):
            params = self.seg(call.args[0])
            if params.endswith(".parameters()"):
                yield call, [Edit(call.args[0], f"list({params})[1:]")]


class FreezeAfterOptimizer(Mutation):
    """The model's first parameter frozen after the optimizer was built over it: it never gets a gradient."""
    id = "freeze-after-optimizer"
    what, absent = "a parameter frozen after the optimizer was built", "no one-line optimizer over X.parameters()"

    def sites(self, tree):
        calls = {id(c): c for c in _optimizer_calls(tree)}
        for stmts in _blocks(tree):
            for s in stmts:
                if isinstance(s, ast.Assign) and id(s.value) in calls and "\n" not in self.seg(s):
                    params = self.seg(s.value.args[0])
                    if params.endswith(".parameters()"):
                        yield s, [Edit(s, f"{self.seg(s)}; list({params})[0].requires_grad_(False)")]


class FunctionalTrainingTrue(Mutation):
    """A functional dropout or batch norm given training=True instead of the module's mode."""
    id = "functional-training-true"
    what, absent = "a functional dropout or batch norm given training=True", "no F.dropout/F.batch_norm(training=...)"
    OPS = ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "batch_norm", "rrelu")

    def sites(self, tree):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node).rsplit(".", 1)[-1] in self.OPS:
                for kw in node.keywords:
                    if kw.arg == "training" and not (isinstance(kw.value, ast.Constant) and kw.value.value is True):
                        yield node, [Edit(kw.value, "True")]


MUTATIONS = [DeleteZeroGrad, DeleteEval, DeleteTrain, DeleteUnscale, DeleteManualSeed, SoftmaxBeforeCrossEntropy,
             NoDecayGetsDecay, SchedulerBeforeOptimizer, SchedulerPerEpoch, WeightsOnlyFalse, DeleteNoGrad, DropCheckpointKey,
             DeleteRestore, AtomicSaveMadeDirect, SaveOnlyModel, IgnoreDataSkip, UnseedableSampler, OptimizerLrZero,
             OptimizerDropsAParameter, FreezeAfterOptimizer, FunctionalTrainingTrue]


def _files(script):
    """The script and the modules beside it that it imports (by name), each once."""
    script = pathlib.Path(script).resolve()
    folder, out, todo = script.parent, [], [script]
    while todo:
        f = todo.pop()
        if f in out or not f.exists():
            continue
        out.append(f)
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            todo += [folder / (n.split(".")[0] + ".py") for n in names]
    return folder, out


def mutants(script):
    """Every mutant of the script: (mutation, file, node the row names, edits), in a stable order;
    and the mutations with no site, with why."""
    folder, files = _files(script)
    found, absent = [], []
    for cls in MUTATIONS:
        m = cls()
        n = 0
        for f in files:
            m.source = f.read_text()
            for node, edits in m.sites(ast.parse(m.source, str(f))):
                found.append((m, f, node, edits))
                n += 1
        if not n:
            absent.append(m)
    return folder, found, absent


# What the planted line does besides its mistake: it leaves a mark where `trainproof mutate` asks
# (TRAINPROOF_MUTANT_RAN), so that a mutant whose line never ran is told from one that survived.
# Builtins only: the mutant imports nothing the script does not.
MARK = "open(__import__('os').environ.get('TRAINPROOF_MUTANT_RAN', '/dev/null'), 'a').close()"


def _marked(edit):
    if edit.marks:
        return edit
    if isinstance(edit.node, ast.stmt):
        edit.text = MARK + "; " + edit.text
    else:  # an expression: the mark, then its value
        edit.text = f"({MARK}, {edit.text})[1]"
    return edit


def plant(script, index, out):
    folder, found, _ = mutants(script)
    m, f, node, edits = found[index]
    edits = [_marked(edits[0])] + edits[1:]
    out = pathlib.Path(out)
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(folder, out, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", ".git"))
    mutated = apply_edits(f.read_text(), edits)
    compile(mutated, str(f), "exec")  # a mutant that does not parse is a bug of the mutation
    (out / f.relative_to(folder)).write_text(mutated)
    return out / pathlib.Path(script).resolve().relative_to(folder)


def main(argv):
    if len(argv) >= 2 and argv[0] == "list":
        folder, found, absent = mutants(argv[1])
        for i, (m, f, node, _) in enumerate(found):
            print(json.dumps({"index": i, "id": m.id, "what": m.what, "resume": m.resume,
                              "where": f"{f.relative_to(folder)}:{node.lineno}"}))
        for m in absent:
            print(json.dumps({"index": -1, "id": m.id, "what": m.what, "resume": m.resume,
                              "absent": m.absent}))
        return 0
    if len(argv) == 4 and argv[0] == "write":
        print(plant(argv[1], int(argv[2]), argv[3]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
