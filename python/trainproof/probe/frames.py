"""Where the script did something: the user's own file:line (through a framework's frames), and
records made safe for JSON."""
import math
import os
import sys

_SKIP_DIRS = []  # torch's package, this package, the boot folder
_STDLIB_DIRS = []  # the standard library's folders (an installed package inside them is not skipped as one)


def _installed_package(path):
    """The installed package a file belongs to ("transformers"), or "" for a file of the user's own."""
    parts = path.split(os.sep)
    for i, part in enumerate(parts[:-2]):
        if part in ("site-packages", "dist-packages"):
            return parts[i + 1][:-3] if parts[i + 1].endswith(".py") else parts[i + 1]
    return ""


def user_frame():
    """`file:line` of the innermost frame of the user's own code: not torch, not trainproof, not an
    installed package, not the standard library. Where the call came through an installed package
    (a framework's loop), its innermost frame follows as context: "train.py:41 via transformers
    trainer.py:1989"; with no frame of the user's own on the stack, that frame alone."""
    if not _SKIP_DIRS:
        import sysconfig
        import torch
        import trainproof
        _SKIP_DIRS.extend(os.path.dirname(os.path.abspath(m.__file__)) + os.sep for m in (torch, trainproof))
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


def json_safe(v):
    """A record with every non-finite float as its repr ("nan", "inf"), as the Recorder writes them:
    a loop whose loss went NaN is the team's to hear about, not a trace check cannot read."""
    if isinstance(v, float):
        return v if math.isfinite(v) else repr(v)
    if isinstance(v, dict):
        return {k: json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [json_safe(x) for x in v]
    return v



def hide_probe_frames():
    """The script's tracebacks as they would be without the probe: an exception raised through one of
    its wrappers (torch.load's, on a checkpoint that is not there) is printed without the probe's
    frames, so that what the user reads runs from their line straight into torch."""
    here = os.path.dirname(os.path.abspath(__file__)) + os.sep

    def strip(tb):
        head = last = None
        while tb is not None:
            if not os.path.abspath(tb.tb_frame.f_code.co_filename).startswith(here):
                if last is None:
                    head = tb
                else:
                    last.tb_next = tb
                last = tb
            tb = tb.tb_next
        if last is not None:
            last.tb_next = None
        return head

    def clean(exc, depth=0):
        if exc is None or depth > 8:
            return
        try:
            exc.__traceback__ = strip(exc.__traceback__)
        except Exception:
            pass
        clean(exc.__cause__, depth + 1)
        clean(exc.__context__, depth + 1)

    original = sys.excepthook

    def excepthook(kind, value, tb):
        try:
            clean(value)
            tb = value.__traceback__ if value is not None else tb
        except Exception:
            pass
        return original(kind, value, tb)

    sys.excepthook = excepthook
