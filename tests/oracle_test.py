"""Oracle: PyTorch itself runs the document's Python code for a scenario
(tools/reference/scenarios.py) and the C++ scenario runs on the same machine; every
series must be bitwise identical (same LibTorch kernels underneath, and the C++
components follow PyTorch's Python arithmetic).
usage: oracle_test.py TRAINPROOF_BIN SCENARIO[,SCENARIO...] [--expect-different] [--device cuda] [--reference-dir DIR]
                      [--cpp-dir DIR]
--reference-dir: the Python side's traces already written (scenarios.py --all DIR, one start
of PyTorch for every scenario) instead of running the reference for this one.
--cpp-dir: the C++ side's traces already written (`trainproof regen TWIN... --path-set native
--golden DIR`, one start of the CLI for every scenario) instead of running the scenario here.
With --expect-different (a negative control, run with TRAINPROOF_INJECT_FAULT set) the
comparison must find a difference. With --device cuda both run on the GPU (the same
PyTorch build underneath); without one the test exits 77, which CTest counts as skipped."""
import os
import pathlib
import subprocess
import sys
import tempfile



def option(name):
    """The value given after flag NAME, or None."""
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv[3:] else None


binary, scenario = sys.argv[1], sys.argv[2]
expect_different = "--expect-different" in sys.argv[3:]
device = "cuda" if option("--device") == "cuda" else "cpu"
if device == "cuda":
    import torch
    if not torch.cuda.is_available():
        print("skipped: CUDA not available")
        sys.exit(77)
reference = pathlib.Path(__file__).resolve().parent.parent / "tools" / "reference" / "scenarios.py"
reference_dir, cpp_dir = option("--reference-dir"), option("--cpp-dir")

def oracle(scenario, tmp):
    """Whether the Python and the C++ traces of one scenario agree (or, as a negative control, differ)."""
    py_h5 = pathlib.Path(tmp) / f"python-{scenario}.h5"
    env_py = {k: v for k, v in os.environ.items() if k != "TRAINPROOF_INJECT_FAULT"}
    if reference_dir:
        py_h5 = pathlib.Path(reference_dir) / f"{scenario}.h5"
        if not py_h5.exists():
            print(f"FAIL: {py_h5}: the reference trace was not written (see OracleTest.reference)")
            return False
    else:
        subprocess.run([sys.executable, str(reference), "--device", device, scenario, str(py_h5)], check=True,
                       env=env_py)
    # One path (this machine as it is) is all the oracle compares; a negative control breaks
    # laws on purpose, which regen refuses unless forced.
    cpp_h5 = pathlib.Path(cpp_dir or tmp) / f"{scenario}.h5"
    if not cpp_dir:
        subprocess.run([binary, "regen", scenario, "--device", device, "--path-set", "native", "--golden", tmp]
                       + (["--force"] if expect_different else []), check=True, stdout=subprocess.DEVNULL)
    elif not cpp_h5.exists():
        print(f"FAIL: {cpp_h5}: the C++ trace was not written (see OracleTest.cpp)")
        return False
    r = subprocess.run([binary, "compare", str(py_h5), str(cpp_h5),
                        "--device", device, "--tolerance", "exact"], capture_output=True, text=True)
    print(r.stdout, r.stderr)
    if expect_different:
        ok = r.returncode == 1
        print(f"negative control ({os.environ.get('TRAINPROOF_INJECT_FAULT')}): "
              f"{'caught' if ok else 'NOT caught'}")
        return ok
    return r.returncode == 0


with tempfile.TemporaryDirectory() as tmp:
    results = [oracle(s, tmp) for s in scenario.split(",")]
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    sys.exit(0 if all(results) else 1)
