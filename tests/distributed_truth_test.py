"""Truth for examples/distributed without trainproof: plain python/torchrun runs of each correct form
show what a checker must find there. usage: distributed_truth_test.py PYTHON TORCHRUN CASE, CASE one of
fsdp2, ddp, spawn (two uninterrupted runs and one killed after its step-8 checkpoint then resumed: bitwise
equal finals), fsdp2-no-optimizer (negative control: the resume differs), hogwild (three runs: they race),
reshard (2 processes stopped after the step-8 checkpoint, resumed on 1, and 1 resumed on 2: the final
weights within a band of the uninterrupted run's), reshard-per-rank-position (its twin: they are not);
tp (tensor parallelism, every rank fed the whole batch) and rng-beside (each rank's RNG state saved
into the step's folder beside DCP's files) as fsdp2, and reshard-tp as reshard."""
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

import torch

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples" / "distributed"
RUN_TIMEOUT = 120  # seconds, for each run
PACE = 0.3  # seconds per step in the run to be killed, so that steps 9-12 outlast the kill's aim
CASES = ("fsdp2", "ddp", "spawn", "fsdp2-no-optimizer", "hogwild", "reshard", "reshard-per-rank-position", "tp",
         "rng-beside", "reshard-tp")
BAND = 1e-4  # src/check/reshard.h's kReshardBand: how far a resharded resume's values may lie, relative


def fail(message):
    print(message)
    print("0 passed, 1 failed")
    sys.exit(1)


def descendants(pid):
    """Every process below PID, found through parent ids: torchrun puts its workers in sessions of
    their own, so killing its process group alone would leave them running."""
    found, todo = [], [pid]
    while todo:
        out = subprocess.run(["ps", "--ppid", str(todo.pop()), "-o", "pid="], capture_output=True, text=True).stdout
        children = [int(c) for c in out.split()]
        found += children
        todo += children
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is dead, only not yet reaped
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def kill_tree(proc):
    """SIGKILL the run: its process group, and every descendant recorded before the kill."""
    pids = descendants(proc.pid)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids):
        if time.monotonic() > deadline:
            fail(f"processes {[p for p in pids if alive(p)]} outlived SIGKILL")
        time.sleep(0.05)


def command(case, out, dump, resume=False, pace=0.0):
    if case == "spawn":
        argv = [PYTHON, str(EXAMPLES / "spawn_loop.py")]
    else:
        argv = [TORCHRUN, "--standalone", "--nproc-per-node", "2", str(EXAMPLES / "sharded_dcp.py"),
                "--wrap", case if case in ("ddp", "tp") else "fsdp2"]
        if case == "fsdp2-no-optimizer":
            argv += ["--mistake", "no-optimizer"]
        if case == "rng-beside":
            argv += ["--rng-beside"]
    argv += ["--out", out, "--dump-final", dump]
    if resume:
        argv.append("--resume")
    if pace:
        argv += ["--step-seconds", str(pace)]
    return argv


def start(argv, log):
    return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def tail(log):
    log.flush()
    with open(log.name, errors="replace") as f:
        return "".join(f.readlines()[-30:])


def run(argv, log):
    """Run to the end; a failure or a timeout fails the test."""
    proc = start(argv, log)
    try:
        rc = proc.wait(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        kill_tree(proc)
        fail(f"{' '.join(argv)} ran past {RUN_TIMEOUT} s:\n{tail(log)}")
    if rc != 0:
        fail(f"{' '.join(argv)} exited {rc}:\n{tail(log)}")


def checkpointed_step(case, out):
    """The step of the newest complete checkpoint in OUT, or 0."""
    if case == "spawn":
        try:
            return torch.load(os.path.join(out, "ckpt.pt"), weights_only=True)["step"]
        except (FileNotFoundError, EOFError, RuntimeError):  # not there yet (the save is atomic)
            return 0
    done = [int(n[5:]) for n in os.listdir(out)
            if n.startswith("step-") and os.path.exists(os.path.join(out, n, ".metadata"))]
    return max(done, default=0)


def killed_then_resumed(case, out, dump, log):
    """Kill the run right after its step-8 checkpoint is complete, then restart it with --resume."""
    proc = start(command(case, out, dump, pace=PACE), log)
    deadline = time.monotonic() + RUN_TIMEOUT
    while checkpointed_step(case, out) < 8:
        if proc.poll() is not None:
            fail(f"the run to be killed exited {proc.returncode} before its step-8 checkpoint:\n{tail(log)}")
        if time.monotonic() > deadline:
            kill_tree(proc)
            fail(f"no step-8 checkpoint within {RUN_TIMEOUT} s:\n{tail(log)}")
        time.sleep(0.02)
    if proc.poll() is not None:
        fail(f"the run ended (exit {proc.returncode}) before the kill landed")
    kill_tree(proc)
    if checkpointed_step(case, out) != 8 or any(pathlib.Path(out).glob("final*")):
        fail(f"the kill landed after step 8's checkpoint was superseded:\n{tail(log)}")
    run(command(case, out, dump, resume=True), log)
    if "at step 9" not in tail(log):
        fail(f"the restarted run did not resume at step 9:\n{tail(log)}")


def first_difference(a, b):
    """(rank, tensor name) of the first difference between two runs' dumps, or None."""
    for rank in (0, 1):
        x, y = (torch.load(f"{d}.rank{rank}.pt", weights_only=True) for d in (a, b))
        if x.keys() != y.keys():
            return rank, f"tensor names {sorted(x.keys() ^ y.keys())}"
        for name in x:
            if not torch.equal(x[name], y[name]):
                return rank, name
    return None


def resume_case(case):
    with tempfile.TemporaryDirectory() as tmp:
        dumps = []
        for i, kind in enumerate(("uninterrupted", "uninterrupted", "killed")):
            out = os.path.join(tmp, f"run{i}")
            os.makedirs(out)
            dump = os.path.join(out, "final")
            with open(os.path.join(tmp, f"run{i}.log"), "w") as log:
                if kind == "killed":
                    killed_then_resumed(case, out, dump, log)
                else:
                    run(command(case, out, dump), log)
            dumps.append(dump)
        between = first_difference(dumps[0], dumps[1])
        if between:
            fail(f"{case}: two uninterrupted runs differ on rank {between[0]}, {between[1]}")
        resumed = first_difference(dumps[0], dumps[2])
        if case == "fsdp2-no-optimizer":
            if not resumed:
                fail(f"{case}: the resumed run equals the uninterrupted ones, though its checkpoint lacks the"
                     " optimizer")
            print(f"{case}: the resumed run differs from the uninterrupted ones (rank {resumed[0]}, {resumed[1]}),"
                  " as a resume without the optimizer state must")
        else:
            if resumed:
                fail(f"{case}: the killed and resumed run differs from the uninterrupted ones on rank {resumed[0]},"
                     f" {resumed[1]}")
            print(f"{case}: 3 runs, final shards bitwise equal on every rank")


def hogwild_case():
    with tempfile.TemporaryDirectory() as tmp:
        finals = []
        for i in range(3):
            final = os.path.join(tmp, f"final{i}.pt")
            with open(os.path.join(tmp, f"run{i}.log"), "w") as log:
                run([PYTHON, str(EXAMPLES / "hogwild.py"), "--out", os.path.join(tmp, f"run{i}"),
                     "--dump-final", final], log)
            finals.append(torch.load(final, weights_only=True))
        differ = [(i, j) for i in range(3) for j in range(i + 1, 3)
                  if any(not torch.equal(finals[i][n], finals[j][n]) for n in finals[i])]
        if not differ:
            fail("hogwild: 3 runs ended bitwise equal: the workers' updates did not race")
        print(f"hogwild: 3 runs, final parameters differ between runs {differ} (the workers' updates race)")


def full_weights(dump, world, wrap):
    """The final parameters whole: the ranks' shards (FSDP2 shards along the first dimension) joined;
    under tensor parallelism each rank dumped them whole."""
    parts = [torch.load(f"{dump}.rank{r}.pt", weights_only=True) for r in range(1 if wrap == "tp" else world)]
    return {n: torch.cat([p[n] for p in parts]) for n in parts[0] if n.startswith("param.")}


def reshard_case(mistake, wrap="fsdp2"):
    """Resumes at another world size, with plain torchrun: the uninterrupted run on 2 processes; one
    on 2 ended after step 8 (--stop-after, its step-8 checkpoint complete) and resumed on 1; one on 1
    ended after step 4 and resumed on 2. Correct, each final weight lies within the band of the
    uninterrupted run's; with the data position kept per rank, both lie far outside it."""
    loop = str(EXAMPLES / "sharded_dcp.py")

    def torchrun(world, out, *extra):
        return [TORCHRUN, "--standalone", "--nproc-per-node", str(world), loop, "--out", out,
                "--mistake", mistake, "--wrap", wrap, *extra]

    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "runs.log"), "w") as log:
            run(torchrun(2, os.path.join(tmp, "straight"), "--dump-final", os.path.join(tmp, "straight")), log)
            for name, before, after, stop in (("2to1", 2, 1, 8), ("1to2", 1, 2, 4)):
                out = os.path.join(tmp, name)
                run(torchrun(before, out, "--stop-after", str(stop)), log)
                run(torchrun(after, out, "--resume", "--dump-final", out), log)
                if f"at step {stop + 1}" not in tail(log):
                    fail(f"{name}: the restart did not resume at step {stop + 1}:\n{tail(log)}")
        straight = full_weights(os.path.join(tmp, "straight"), 2, wrap)
        worst = {}
        for name, world in (("2to1", 1), ("1to2", 2)):
            got = full_weights(os.path.join(tmp, name), world, wrap)
            worst[name] = max(((got[n] - w).abs().max() / w.abs().max()).item() for n, w in straight.items())
        far = {k: v for k, v in worst.items() if v > BAND}
        if mistake == "none" and far:
            fail(f"reshard: a resharded resume's final weights lie outside rel {BAND:g} of the uninterrupted run's: {far}")
        if mistake != "none" and len(far) != 2:
            fail(f"reshard-{mistake}: the lost data position left the final weights within rel {BAND:g}: {worst}")
        print(f"reshard{'' if mistake == 'none' else '-' + mistake}{'' if wrap == 'fsdp2' else ' ' + wrap}: the final "
              f"weights' largest difference from the "
              f"uninterrupted run's, relative to each weight's largest: {worst} (band {BAND:g})")


if len(sys.argv) != 4 or sys.argv[3] not in CASES:
    print(__doc__)
    sys.exit(2)
PYTHON, TORCHRUN, CASE = sys.argv[1:]
if CASE == "hogwild":
    hogwild_case()
elif CASE == "reshard-tp":
    reshard_case("none", "tp")
elif CASE.startswith("reshard"):
    reshard_case(CASE[len("reshard-"):] or "none")
else:
    resume_case(CASE)
print("1 passed, 0 failed")
