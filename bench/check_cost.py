"""What `trainproof check --kills K` costs against plain runs of the same script, measured side
by side in one invocation: the issue's budget is 5 runs of the script plus 10% for --kills 3.

    python bench/check_cost.py build/trainproof [--repeat 3] [--steps 100] [--kills 3]
        [--loop python|cpp|both] [--cpp-loop build/examples/cpp_loop/cpp_loop]

Each repeat times, alternately, 5 plain runs of the loop (each in a fresh run folder, as check
starts them) and one `check --kills K` of it (a new seed per repeat, so the kills land
elsewhere). Medians are reported; the exit code is 1 when check's median exceeds the budget.
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def timed(cmd, env=None):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"check_cost: {' '.join(map(str, cmd))} exited {r.returncode}:\n{r.stdout[-3000:]}")
    return dt, r.stdout


def plain_runs(loop, n):
    """n runs of the loop as check starts them: a fresh folder, a trace to record into."""
    total = 0.0
    for _ in range(n):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, TRAINPROOF_TRACE=f"{d}/trace", TRAINPROOF_RUN_DIR=f"{d}/run")
            total += timed([a.replace("{run_dir}", f"{d}/run") for a in loop], env)[0]
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trainproof")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--kills", type=int, default=3)
    ap.add_argument("--loop", choices=("python", "cpp", "both"), default="both")
    ap.add_argument("--python", default=sys.executable, help="the Python that runs the Python loop")
    ap.add_argument("--cpp-loop", default=str(ROOT / "build/examples/cpp_loop/cpp_loop"))
    a = ap.parse_args()
    lr = f"warmup-cosine --lr 3e-3 --warmup 6 --total {a.steps}"
    loops = {
        "python": [a.python, str(ROOT / "examples/python_loop/train.py")],
        "cpp": [a.cpp_loop],
    }
    chosen = ["python", "cpp"] if a.loop == "both" else [a.loop]
    budget_runs, slack = 5, 0.10
    print(f"check --kills {a.kills} vs {budget_runs} plain runs, {a.steps}-step loops, "
          f"{a.repeat} repeats, medians (budget: {budget_runs} runs + {slack:.0%})")
    print(f"{'loop':<8} {'1 run s':>8} {'5 runs s':>9} {'check s':>8} {'check/5 runs':>13} {'starts':>7}  verdict")
    over = False
    for name in chosen:
        loop = loops[name] + ["--run-dir", "{run_dir}", "--steps", str(a.steps)]
        fives, checks, starts = [], [], 0
        for r in range(a.repeat):
            fives.append(plain_runs(loop, budget_runs))
            with tempfile.TemporaryDirectory() as keep:
                dt, _ = timed([a.trainproof, "check", "--kills", str(a.kills), "--seed", str(r + 1), "--expect-lr", lr,
                               "--keep", keep, "--"] + loop)
                logs = pathlib.Path(keep).glob("*.log")
                starts = sum(p.read_text().count("--- trainproof check: start") for p in logs)
            checks.append(dt)
        five, chk = statistics.median(fives), statistics.median(checks)
        ratio = chk / five
        ok = ratio <= 1 + slack
        over = over or not ok
        print(f"{name:<8} {five / budget_runs:>8.2f} {five:>9.2f} {chk:>8.2f} {ratio:>13.2f} {starts:>7}  "
              f"{'within budget' if ok else 'OVER BUDGET'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
