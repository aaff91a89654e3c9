"""The compiled region. While Dynamo traces the caller (a torch.compile'd model's inner modules,
its loss), every hook and wrapper of the probe asks `is_compiling()` first and does nothing:
Dynamo constant-folds the call, so the hook vanishes from the graph (no graph break, no
recompile, no side effect to track). A compiled model is observed from outside, where its
OptimizedModule's own forward runs eagerly."""
import os


def _not_compiling():
    return False


# torch.compiler.is_compiling once torch is loaded (watch()); read as this module's attribute.
is_compiling = _not_compiling


def watch(torch):
    global is_compiling
    is_compiling = getattr(getattr(torch, "compiler", None), "is_compiling", None) or _not_compiling
    if os.environ.get("TRAINPROOF_INJECT_FAULT") == "probe-traced-by-dynamo":
        is_compiling = _not_compiling  # the negative control of the compiled loop's test: hooks Dynamo traces
