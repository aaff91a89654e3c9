"""The probe's core: its state, writing records and facts to the trace, and staying out of the
script's way (every observation runs through _safely, every hook through _observer)."""
import atexit
import os
import sys
import time
import weakref

from trainproof.probe import compiled, layout
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


class ProbeCore:
    def __init__(self, torch):
        from trainproof import Recorder
        self.torch = torch
        self.pid = os.getpid()
        self.identity = None  # this process's name among the command's (identity()), known at its first record
        self.rec = None
        self._recorder = Recorder
        self.seq = 0
        self.loss = None
        self.grad_norm = None
        self.batch = None
        self.layout_sums = layout.wanted()  # check --restart-nproc: a resume at another world size
        self.batch_inputs = []  # the step's forward inputs, kept only for the layout-free sums
        self.top = None  # the module of the outermost forward in flight
        self.scaled = {}  # id(tensor scaler.scale returned) -> the scale
        self.schedulers = Held()  # whose state a step's digest holds
        self.schedules = weakref.WeakKeyDictionary()  # scheduler -> its Schedule (optimizer.py)
        self.schedule_list = []  # every Schedule, judged at exit (its scheduler alive then or not)
        self.scalers = weakref.WeakSet()
        self.optimizers = Held()  # by their order of first step; their final parameters digested at exit
        # For the facts behind check's findings (see _fact):
        self.opt_steps = {}  # id(optimizer) -> steps taken in this process
        self.created_at = weakref.WeakKeyDictionary()  # optimizer or scheduler -> file:line that made it
        self.after_step = {}  # id(optimizer) -> (param, its grad tensor, the grad's version) after a step
        self.stale = {}  # id(optimizer) -> (param, grad, file:line of the backward) onto a step's gradients
        self.step_taken = set()  # id(optimizer) of each a GradScaler stepped (or skipped, on inf)
        self.trained_params = set()  # id() of every parameter an optimizer holds
        self.constructing = 0  # inside a scheduler's _initial_step
        self.failed = set()  # the observations that failed once (said once, then skipped quietly)
        self.closure_unrecorded = None  # (optimizer, [taken]) of a step given a closure, until it ends
        self.pending_eval = None  # a grad-enabled forward in eval mode, until a backward or the next forward
        self.seen_training = weakref.WeakSet()  # top modules seen in a grad-enabled forward in train mode
        self.seen_validation = weakref.WeakSet()  # top modules seen in a no-grad forward in eval mode
        self.stochastic = weakref.WeakKeyDictionary()  # top module -> its Dropout and BatchNorm modules
        self.scaled_step = self.unscaled_step = False  # an enabled scaler's scale()/unscale_() this step
        self.ce_calls = {True: 0, False: 0}  # cross_entropy calls looked at, with grad enabled and not
        self.facts_said = set()
        self.backwards = self.optimizers_made = 0  # said at exit where no step was recorded ("probe-saw")
        self.in_step = set()  # the optimizers (by index; None: a manual update) recorded in the current step
        self.last_trained = None  # weakref to the outermost module of the last grad-enabled forward
        self.manual = None  # a loop without an optimizer: its backward's step, until its update shows
        # TRAINPROOF_PROBE_CLOCK=1 (bench/probe_cost.py): the time spent in the probe's own work,
        # said on stderr at exit: seconds by the step they were spent before (the median over the
        # steps after the first three, which compile and warm up, as the bench's loops time theirs).
        self.clock_s = {} if os.environ.get("TRAINPROOF_PROBE_CLOCK") == "1" else None
        self.clock_inside = False
        self.seeded = False
        self.rng_at_install = torch.get_rng_state()
        self.rng_at_first_step = None
        self.first_draw = None  # file:line of the first draw from the global RNG before any seed
        self._hook(torch)
        atexit.register(lambda: self._safely(self._final))
        os.register_at_fork(after_in_child=lambda: self._safely(self._forked))
        self.op_stop = None
        spec = os.environ.get("TRAINPROOF_OP_DIGESTS")  # only in check's rerun of two runs that parted
        if spec:  # [F:]S: the ops while F <= steps done < S, then the process ends at step S
            first, _, stop = spec.rpartition(":")
            self.op_stop, first = int(stop), int(first or 0)
            if first < self.op_stop:
                from trainproof import op_digests
                op_digests.install(self, Digest, user_frame, first, self.op_stop)


    # -- writing -------------------------------------------------------------------------------
    def _on(self):
        return os.getpid() == self.pid

    def _write(self, record):
        if self.rec is None:
            self.identity = identity()
            self.rec = self._recorder(trace_path(os.environ["TRAINPROOF_TRACE"], self.identity), fsync=False)
            # TRAINPROOF_LAUNCH: which of check's starts of the command this is (1, then 2 after kill 1, ...):
            # a rank that a restart adds (a resume on more processes) records the restart in a file of its own.
            self.rec._record({"kind": "start", "pid": self.pid, "argv": sys.argv, "process": self.identity,
                              "launch": int(os.environ.get("TRAINPROOF_LAUNCH", "0") or 0),
                              "env": self._safely(environment, self.torch) or {}})
            if "." in self.identity or self.identity.startswith("proc"):  # a multiprocessing child: it may
                import multiprocessing.util  # leave by os._exit (fork), after its finalizers, not atexit's
                multiprocessing.util.Finalize(self, lambda: self._safely(self._final), exitpriority=0)
        self.rec._record(json_safe(record))

    def _forked(self):
        """A child made by fork: a process of its own, with a record of its own (never the parent's)."""
        self.pid = os.getpid()
        self.rec = self.identity = self.loss = self.grad_norm = self.batch = self.top = None
        self.closure_unrecorded = self.pending_eval = None
        self.seq = self.backwards = self.optimizers_made = 0
        self.optimizers, self.in_step, self.manual = Held(), set(), None
        for state in (self.scaled, self.opt_steps, self.after_step, self.stale):
            state.clear()
        self.step_taken, self.facts_said, self.failed = set(), set(), set()

    def _fact(self, fact, once=True, **data):
        """An observation check may judge as a finding: what was seen, where, at which step."""
        if once and fact in self.facts_said:
            return
        self.facts_said.add(fact)
        self._write({"kind": "fact", "fact": fact, "seq": self.seq, "where": data.pop("where", None) or user_frame(),
                     "data": data})

    # -- staying out of the script's way ---------------------------------------------------------
    def _safely(self, observe, *args, **kwargs):
        """Runs one observation of the probe; a failure in it is reported once and swallowed."""
        if self.clock_s is not None and not self.clock_inside:  # the outermost observation: timed
            self.clock_inside = True
            t0 = time.perf_counter()
            try:
                return self._safely(observe, *args, **kwargs)
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
                    self._fact("probe-error", once=False, observation=what, error=f"{type(e).__name__}: {e}")
                except Exception:
                    pass
            return None

    def _observer(self, observe):
        """A hook that does nothing where Dynamo traces it, and never raises into the script."""
        probe = self

        def hook(*args, **kwargs):
            if compiled.is_compiling():
                return None
            probe._safely(observe, *args, **kwargs)
            return None

        hook.__name__ = getattr(observe, "__name__", "hook")
        return hook

    # -- at exit -------------------------------------------------------------------------------
    def _final(self):
        if not self._on():
            return
        if self.manual is not None:
            self._manual_step_at_exit()  # the last backward's update, made before the exit
        if self.seq == 0 and (self.backwards or self.optimizers_made):  # training seen, but no step
            self._fact("probe-saw", backwards=self.backwards, optimizers=self.optimizers_made)
        if self.rec is None or self.rec._fd is None:
            return
        self._flush_eval_forward()
        self._schedule_facts()
        digests = {}
        for i, opt in self.optimizers.indexed():
            digests[f"params.{i}" if i else "params"] = self._params(opt).hex()
        self._write({"kind": "final", "digests": digests})
        self.rec.close()
        if self.clock_s is not None:
            steady = sorted(self.clock_s.get(seq, 0.0) for seq in range(4, self.seq + 1))
            if steady:
                print(f"trainproof probe: {steady[len(steady) // 2] * 1e3:.3f} ms of its own a step (median of "
                      f"{len(steady)} steps)", file=sys.stderr)
