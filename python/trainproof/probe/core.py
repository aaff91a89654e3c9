"""The probe's core: the hooks by which its parts tell each other what they saw, writing records
and facts to the trace, and staying out of the script's way (every observation runs through
safely, every hook through observer)."""
import atexit
import os
import sys
import time
import weakref

from trainproof.probe import compiled
from trainproof.probe.digest import Digest
from trainproof.probe.environment import environment
from trainproof.probe.frames import json_safe, user_frame


def identity():
    """This process's name among the command's processes, the same in every run of it: "rank3" by
    RANK (torchrun, srun through it), "proc2" for the second process multiprocessing started
    (spawn or fork: mp.spawn's ranks, Hogwild's workers), both for a worker of a rank ("rank1.proc1"),
    "" for the command's own process."""
    rank = os.environ.get("RANK")
    name = f"rank{rank}" if rank not in (None, "") else ""
    mp = sys.modules.get("multiprocessing.process")
    ident = getattr(mp.current_process(), "_identity", ()) if mp is not None else ()
    if ident:
        name = (name + "." if name else "") + "proc" + ".".join(str(i) for i in ident)
    return name


def trace_path(trace, who):
    """The command's own process, or rank 0, writes $TRAINPROOF_TRACE; every other process its own
    file beside it, `<trace>.<identity>`: two processes' records never interleave in one file."""
    return trace if who in ("", "rank0") else f"{trace}.{who}"


class Held:
    """Objects of the script's the probe keeps track of (its optimizers, its schedulers) without
    keeping them alive: a script that makes one per fold or trial frees each as it would unwatched.
    Each keeps its place (an optimizer's index names its series) after it is gone."""

    def __init__(self):
        self._refs = []

    def add(self, obj):
        if obj not in self:
            self._refs.append(weakref.ref(obj))

    def __contains__(self, obj):
        return any(r() is obj for r in self._refs)

    def index(self, obj):
        return next(i for i, r in enumerate(self._refs) if r() is obj)

    def indexed(self):
        return [(i, o) for i, o in ((i, r()) for i, r in enumerate(self._refs)) if o is not None]

    def __iter__(self):
        return iter([o for _, o in self.indexed()])

    def __len__(self):
        return len(self.indexed())


HOOKS = {
    # name: what a part that defines it does (every part is told, in PARTS' order, unless marked "ask")
    "install": "(torch) installs the part's hooks and wrappers",
    "backward": "(tensor) a backward is about to run on tensor",
    "torchs_own_step": "ask () whether the optimizer step now running is one torch takes itself, not the loop's",
    "trains": "ask (module) whether an optimizer holds any of the module's parameters; None: none made yet",
    "trained_module": "ask () the module of the last grad-enabled forward that has trainable parameters",
    "trained_modules": "ask () the outermost modules seen in a grad-enabled forward in train mode",
    "scaler_skipped": "ask () whether an enabled GradScaler skipped a step (its scale fell below its first)",
    "optimizer_made": "(optimizer, where) an optimizer was built, at the user's file:line",
    "optimizer_stepping": "(optimizer, params_digest) an optimizer's step is recorded, before its update",
    "rng_digest": "ask () the torch RNG's state, digested (what a restore of a checkpoint saved now sets)",
    "batch_taken": "() a grad-enabled outermost forward took its inputs: the step's batch",
    "step_digests": "() -> dict: the part's digests of the step being recorded (it forgets what it gave)",
    "step_sums": "ask (optimizer) -> the step's layout-free sums (layout.py), where check asks for them",
    "step_begins": "() a step's record is about to be written",
    "step_recorded": "() a step's record is written: what was gathered for it is done with",
    "step_inputs_dropped": "() what forwards and backwards gave since the last record belongs to no step "
                           "(a closure called again after its step was recorded: LBFGS's line search)",
    "needs": "() -> list: the pieces of training state a resume needs, of those the part knows",
    "exiting": "() the process is exiting: steps still to record",
    "exit_facts": "() the process is exiting and has a trace: its last facts",
    "final_digests": "() -> dict: the digests of the final record",
    "forked": "() this process is a child made by fork: the parent's state is forgotten",
}


class Probe:
    """The probe's core: what every part shares, and nothing of what a part observes.

    The parts (PARTS in __init__.py) are objects of their own, each made with this core, each
    owning its state: they tell each other what they saw only through the hooks in HOOKS, the
    core calling each part that defines one (`tell`), or the first that answers (`ask`). The
    core writes records and facts (`write`, `fact`), counts the loop's steps (`seq`, advanced by
    the part that records them), and keeps every observation out of the script's way
    (`safely`, `observer`)."""

    def __init__(self, torch, parts):
        from trainproof import Recorder
        self.torch = torch
        self.pid = os.getpid()
        self.identity = None  # this process's name among the command's (identity()), known at its first record
        self.rec = None
        self._recorder = Recorder
        self.seq = 0  # the loop's steps recorded in this process
        self.failed = set()  # the observations that failed once (said once, then skipped quietly)
        self.facts_said = set()
        # TRAINPROOF_PROBE_CLOCK=1 (bench/probe_cost.py): the time spent in the probe's own work,
        # said on stderr at exit: seconds by the step they were spent before (the median over the
        # steps after the first three, which compile and warm up, as the bench's loops time theirs).
        self.clock_s = {} if os.environ.get("TRAINPROOF_PROBE_CLOCK") == "1" else None
        self.clock_inside = False
        self.parts = [make(self) for make in parts]
        self.tell("install", torch)
        atexit.register(lambda: self.safely(self._final))
        os.register_at_fork(after_in_child=lambda: self.safely(self._forked))
        self.op_stop = None
        spec = os.environ.get("TRAINPROOF_OP_DIGESTS")  # only in check's rerun of two runs that parted
        if spec:  # [F:]S: the ops while F <= steps done < S, then the process ends at step S
            first, _, stop = spec.rpartition(":")
            self.op_stop, first = int(stop), int(first or 0)
            if first < self.op_stop:
                from trainproof import op_digests
                op_digests.install(self, Digest, user_frame, first, self.op_stop)

    def part(self, kind):
        """The registered part of that class (for a test that looks inside one)."""
        return next(p for p in self.parts if isinstance(p, kind))

    # -- the parts' hooks ------------------------------------------------------------------------
    def hooks(self, hook):
        """The parts' methods of that hook, in PARTS' order."""
        assert hook in HOOKS, f"not a hook of the probe's: {hook}"
        return [getattr(p, hook) for p in self.parts if hasattr(p, hook)]

    def tell(self, hook, *args):
        """Calls the hook on every part that defines it, in PARTS' order; their results, in that order."""
        return [told(*args) for told in self.hooks(hook)]

    def merged(self, hook, *args):
        """The dicts the parts that define the hook return, merged into one, in PARTS' order."""
        out = {}
        for part_out in self.tell(hook, *args):
            out.update(part_out)
        return out

    def ask(self, hook, *args):
        """The first answer other than None of the parts that define the hook, or None."""
        assert HOOKS.get(hook, "").startswith("ask"), f"not a question of the probe's: {hook}"
        for asked in self.hooks(hook):
            answer = asked(*args)
            if answer is not None:
                return answer
        return None

    # -- writing -------------------------------------------------------------------------------
    def on(self):
        """Whether this is the process the probe was installed in (a forked child becomes one at _forked)."""
        return os.getpid() == self.pid

    def write(self, record):
        if self.rec is None:
            self.identity = identity()
            self.rec = self._recorder(trace_path(os.environ["TRAINPROOF_TRACE"], self.identity), fsync=False)
            # TRAINPROOF_LAUNCH: which of check's starts of the command this is (1, then 2 after kill 1, ...):
            # a rank that a restart adds (a resume on more processes) records the restart in a file of its own.
            self.rec._record({"kind": "start", "pid": self.pid, "argv": sys.argv, "process": self.identity,
                              "launch": int(os.environ.get("TRAINPROOF_LAUNCH", "0") or 0),
                              "env": self.safely(environment, self.torch) or {}})
            if "." in self.identity or self.identity.startswith("proc"):  # a multiprocessing child: it may
                import multiprocessing.util  # leave by os._exit (fork), after its finalizers, not atexit's
                multiprocessing.util.Finalize(self, lambda: self.safely(self._final), exitpriority=0)
        self.rec._record(json_safe(record))

    def _forked(self):
        """A child made by fork: a process of its own, with a record of its own (never the parent's)."""
        self.pid = os.getpid()
        self.rec = self.identity = None
        self.seq = 0
        self.facts_said, self.failed = set(), set()
        self.tell("forked")

    def fact(self, fact, once=True, **data):
        """An observation check may judge as a finding: what was seen, where, at which step."""
        if once and fact in self.facts_said:
            return
        self.facts_said.add(fact)
        self.write({"kind": "fact", "fact": fact, "seq": self.seq, "where": data.pop("where", None) or user_frame(),
                    "data": data})

    # -- staying out of the script's way ---------------------------------------------------------
    def safely(self, observe, *args, **kwargs):
        """Runs one observation of the probe; a failure in it is reported once and swallowed."""
        if self.clock_s is not None and not self.clock_inside:  # the outermost observation: timed
            self.clock_inside = True
            t0 = time.perf_counter()
            try:
                return self.safely(observe, *args, **kwargs)
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
                    self.fact("probe-error", once=False, observation=what, error=f"{type(e).__name__}: {e}")
                except Exception:
                    pass
            return None

    def observer(self, observe):
        """A hook that does nothing where Dynamo traces it, and never raises into the script."""
        probe = self

        def hook(*args, **kwargs):
            probe.guarded(observe, *args, **kwargs)
            return None

        hook.__name__ = getattr(observe, "__name__", "hook")
        return hook

    def guarded(self, observe, *args, **kwargs):
        """observe(*args, **kwargs), safely, unless Dynamo is tracing the caller: the probe's part of a
        wrapper of torch's, which then calls the wrapped function exactly as the script called it."""
        if not compiled.is_compiling():
            return self.safely(observe, *args, **kwargs)
        return None

    # -- at exit -------------------------------------------------------------------------------
    def _final(self):
        if not self.on():
            return
        self.tell("exiting")
        if self.rec is None or self.rec._fd is None:
            return
        self.tell("exit_facts")
        self.write({"kind": "final", "digests": self.merged("final_digests")})
        self.rec.close()
        if self.clock_s is not None:
            steady = sorted(self.clock_s.get(seq, 0.0) for seq in range(4, self.seq + 1))
            if steady:
                print(f"trainproof probe: {steady[len(steady) // 2] * 1e3:.3f} ms of its own a step (median of "
                      f"{len(steady)} steps)", file=sys.stderr)
