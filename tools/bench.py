"""Side-by-side benchmark: each scenario's core loop in C++ (`trainproof bench`, timed
in-process) and the same loop in the Python reference (tools/reference/scenarios.py,
timed in this process), interleaved, several repetitions, medians; then `trainproof
verify` end to end and golden read+compare throughput.
    python tools/bench.py [--build build] [--repeat 5] [--store-elements 1e8]
Run it with the bootstrap venv's python (the same torch the C++ side links)."""
import argparse
import math
import os
import pathlib
import statistics
import subprocess
import sys
import time

root = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(root / "tools" / "reference"))
import scenarios as reference  # noqa: E402
import torch  # noqa: E402


def cpp_ms(binary, name):
    out = subprocess.run([binary, "bench", name, "--warmup", "1", "--repeat", "1"], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[1])


def py_ms(name):
    t0 = time.perf_counter()
    reference.SCENARIOS[name](reference.Trace())
    return (time.perf_counter() - t0) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=str(root / "build"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--store-elements", default="1e8")
    args = ap.parse_args()
    binary = str(pathlib.Path(args.build) / "trainproof")
    names = list(reference.SCENARIOS)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {os.cpu_count()} CPUs; "
          f"{args.repeat} interleaved repetitions, medians", flush=True)
    for name in names:  # warm-up: imports, first-call kernel selection
        py_ms(name)
    cpp, py = {n: [] for n in names}, {n: [] for n in names}
    for rep in range(args.repeat):
        for name in names:
            cpp[name].append(cpp_ms(binary, name))
            py[name].append(py_ms(name))
        print(f"  repetition {rep + 1}/{args.repeat} done", file=sys.stderr, flush=True)
    print(f"\n{'scenario':22} {'C++ ms':>10} {'Python ms':>10} {'ratio':>8}")
    ratios = []
    for name in names:
        c, p = statistics.median(cpp[name]), statistics.median(py[name])
        ratios.append(p / c)
        print(f"{name:22} {c:10.3f} {p:10.3f} {p / c:8.2f}")
    print(f"geomean speedup C++/Python: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}")

    walls = []
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([binary, "verify", "--device", "cpu"], check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
    print(f"\ntrainproof verify --device cpu (end to end, median of 3): {statistics.median(walls):.2f} s")
    store = subprocess.run([binary, "bench", "--store-elements", args.store_elements], check=True,
                           capture_output=True, text=True).stdout.strip()
    print(store)


if __name__ == "__main__":
    main()
