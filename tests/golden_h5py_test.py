"""Goldens are readable with h5py and h5dump, follow schema v2 (every measured tolerance
carries its provenance: spread, safety factor, floor, ceiling, the paths that differed, and
the paths measured, at least 5 including ATen's generic path and one thread), and an edit
made with h5py is caught by `trainproof verify` with the series and the first divergent index.
usage: golden_h5py_test.py TRAINPROOF_BIN GOLDEN_DIR"""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

import h5py

binary, golden_dir = sys.argv[1], pathlib.Path(sys.argv[2])
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        print(f"FAIL: {what}")
        sys.exit(1)


files = sorted(golden_dir.glob("*.h5"))
check(len(files) >= 3, f"goldens present in {golden_dir}")
for path in files:
    with h5py.File(path, "r") as f:
        check(f.attrs["schema_version"] == 2, f"{path.name}: schema_version")
        check(f.attrs["scenario"] == path.stem, f"{path.name}: scenario attribute")
        for device, group in f.items():
            check(device in ("cpu", "cuda"), f"{path.name}: device group {device}")
            json.loads(group.attrs["fingerprint"])
            paths = [p["name"] for p in json.loads(group.attrs["paths_measured"])]
            if device == "cpu":
                check(len(paths) >= 5 and {"native", "aten-default", "threads-1"} <= set(paths),
                      f"{path.name}:/{device} measured on >= 5 paths incl. the generic one and 1 thread: {paths}")
            for name, ds in group.items():
                check(ds.ndim == 1, f"{path.name}:/{device}/{name} is 1-D")
                for attr in ("dtype_produced", "tolerance", "tolerance_cross", "unit"):
                    check(attr in ds.attrs, f"{path.name}:/{device}/{name} has {attr}")
                if ds.attrs["tolerance_cross"] != "any":
                    for attr in ("cross_spread_abs", "cross_spread_rel", "cross_safety_factor", "cross_floor",
                                 "cross_ceiling", "cross_paths_differing"):
                        check(attr in ds.attrs, f"{path.name}:/{device}/{name} has provenance {attr}")
                    check(ds.attrs["cross_safety_factor"] >= 1, f"{path.name}:/{device}/{name} safety factor")
if shutil.which("h5dump"):
    r = subprocess.run(["h5dump", "-H", str(files[0])], capture_output=True, text=True)
    check(r.returncode == 0 and "schema_version" in r.stdout, "h5dump reads a golden")

with tempfile.TemporaryDirectory() as tmp:
    edited = pathlib.Path(tmp) / "resume_exact.h5"
    shutil.copy(golden_dir / "resume_exact.h5", edited)
    with h5py.File(edited, "r+") as f:
        f["cpu/params_uninterrupted"][17] += 1e-3
    r = subprocess.run([binary, "verify", "resume_exact", "--device", "cpu", "--golden", tmp],
                       capture_output=True, text=True)
    out = r.stdout + r.stderr
    check(r.returncode == 1, f"verify exits 1 after an h5py edit (got {r.returncode})\n{out}")
    check("params_uninterrupted" in out and "first at [17]" in out, f"verify names the series and index\n{out}")
print(f"{checks} passed, 0 failed")
