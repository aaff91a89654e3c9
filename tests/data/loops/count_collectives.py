"""Runs a training script (argv[2:]) with every collective its process issues counted, by name,
into OUT/collectives.<RANK>.json (argv[1]) at exit: torch.distributed's collectives, and the
functional ones DTensor redistributes with. probe_collectives_test.py compares the counts of a run
with trainproof's probe and one without it."""
import atexit
import json
import os
import re
import runpy
import sys

out, script = sys.argv[1], sys.argv[2]
counts = {}
# Registered before torch is imported (and the probe with it): it runs after the probe's own exit work.
atexit.register(lambda: json.dump(counts, open(os.path.join(out, f"collectives.{os.environ.get('RANK', '0')}.json"), "w")))

import torch.distributed as dist  # noqa: E402  (after the exit hook: see above)
import torch.distributed._functional_collectives as funcol  # noqa: E402
import torch.distributed.distributed_c10d as c10d  # noqa: E402

# Every collective, by the names both modules give them in this torch (all_gather_single and
# reduce_scatter_single, FSDP2's, are recent): a pattern, not a list, so that a new name is counted too.
COLLECTIVE = re.compile(r"^(all_|reduce|broadcast|gather|scatter|barrier|send|recv|isend|irecv|monitored_barrier|"
                        r"batch_isend_irecv|permute)")


def counted(module, name, label):
    fn = getattr(module, name, None)
    if not callable(fn) or isinstance(fn, type):
        return None

    def wrapper(*args, **kwargs):
        counts[label] = counts.get(label, 0) + 1
        return fn(*args, **kwargs)

    setattr(module, name, wrapper)
    return wrapper


for name in [n for n in dir(c10d) if COLLECTIVE.match(n)]:
    w = counted(c10d, name, name)
    if w is not None and hasattr(dist, name):
        setattr(dist, name, w)  # torch.distributed re-exports them: the same counter under both names
for name in [n for n in dir(funcol) if COLLECTIVE.match(n)]:
    counted(funcol, name, "functional." + name)

sys.argv = [script] + sys.argv[3:]
runpy.run_path(script, run_name="__main__")
