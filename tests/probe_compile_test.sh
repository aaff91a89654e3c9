#!/usr/bin/env bash
# The probe on a torch.compile'd model (inductor): the correct example trained compiled, without
# the probe and with it (as `trainproof check` loads it). With it the script must run, take the
# same graphs (Dynamo's counters: graphs, graph breaks, recompiles all equal), end with bitwise
# equal parameters, and record every optimizer step with its batch (seen outside the compiled
# region) and no failure of the probe's own.
#   probe_compile_test.sh PYTHON [control] [BACKEND]
# BACKEND: torch.compile's backend (default inductor); eager (Dynamo's graphs run as they are)
# is the quick form: what Dynamo traces is the same, the code generation is skipped.
# control: the negative control; the probe's hooks are left for Dynamo to trace
# (TRAINPROOF_INJECT_FAULT=probe-traced-by-dynamo), as before the probe stepped aside, and the
# comparison must catch it: the script breaks where Dynamo traced the probe, or its graphs or
# results change. Any other failure (a crash elsewhere, a file missing) fails the control.
set -uo pipefail
py=$1 control=${2:-} backend=${3:-inductor}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; tail -n 30 "$tmp/out.log" 2>/dev/null; echo "0 passed, 1 failed"; exit 1; }
boot="$src/python/trainproof_boot:$src/python"
# The example run as a script, Dynamo's counters printed as it exits.
cat >"$tmp/run.py" <<'PY'
import atexit, json, runpy, sys
def counters():
    from torch._dynamo.utils import counters as c
    print("dynamo-counters " + json.dumps({
        "graphs": c["stats"].get("unique_graphs", 0), "captured": c["stats"].get("calls_captured", 0),
        "graph_breaks": sum(c["graph_break"].values()), "recompiles": sum(c["recompiles"].values())}), flush=True)
atexit.register(counters)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
PY
run() {  # run NAME [ENV...]: the compiled example; its output in $tmp/NAME.log
  local name=$1
  shift
  env -u PYTHONPATH -u TRAINPROOF_PROBE -u TRAINPROOF_TRACE "$@" "$py" "$tmp/run.py" \
    "$src/examples/python_plain/train.py" --compile "$backend" --out "$tmp/$name" --final "$tmp/$name.pt" >"$tmp/$name.log" 2>&1
}
run without || { cp "$tmp/without.log" "$tmp/out.log"; fail "the compiled example failed without the probe"; }
fault=
[ "$control" = control ] && fault=probe-traced-by-dynamo
run with TRAINPROOF_INJECT_FAULT=$fault PYTHONPATH="$boot" TRAINPROOF_PROBE=1 TRAINPROOF_TRACE="$tmp/probe.trace"
rc=$?
cp "$tmp/with.log" "$tmp/out.log"
"$py" - "$tmp" "$rc" >"$tmp/verdict.log" 2>&1 <<'PY'
import json, sys, torch
tmp, rc = sys.argv[1], int(sys.argv[2])
if rc != 0:
    sys.exit(f"the compiled example failed under the probe (exit {rc})")
def counters(name):
    lines = [l for l in open(f"{tmp}/{name}.log") if l.startswith("dynamo-counters ")]
    return json.loads(lines[-1].split(" ", 1)[1])
a, b = counters("without"), counters("with")
if a["graphs"] == 0:
    sys.exit(f"no graph was compiled without the probe ({a}): nothing was compared")
if a != b:
    sys.exit(f"Dynamo's counters differ: without the probe {a}, with it {b}")
x, y = torch.load(f"{tmp}/without.pt"), torch.load(f"{tmp}/with.pt")
for k in x:
    if not torch.equal(x[k].view(torch.uint8), y[k].view(torch.uint8)):
        sys.exit(f"{k} differs with the probe")
records = [json.loads(l.rpartition("\t")[0]) for l in open(f"{tmp}/probe.trace") if l.startswith("{")]
steps = [r for r in records if r.get("kind") == "probe"]
errors = [r for r in records if r.get("kind") == "fact" and r.get("fact") == "probe-error"]
if errors:
    sys.exit(f"the probe failed inside the compiled script: {errors[0]}")
if len(steps) != 30 or not all("batch" in r["digests"] for r in steps):
    sys.exit(f"{len(steps)} steps recorded, {sum('batch' in r['digests'] for r in steps)} with their batch: expected 30 and 30")
print(f"compiled: counters equal with and without the probe ({a}); {len(x)} tensors bitwise equal; "
      f"{len(steps)} steps recorded, each with its batch")
PY
same=$?
cat "$tmp/verdict.log"
if [ "$control" = control ]; then
  [ "$same" -ne 0 ] || fail "a probe Dynamo traces went unnoticed: the comparison is blind"
  # Caught by what the comparison is for, not by any failure (a file missing, an unrelated
  # crash): the graphs or the results differ, or the script broke where Dynamo traced the probe
  # (its traceback runs through torch/_dynamo and into the probe's hooks).
  if ! grep -qE "^(Dynamo's counters differ|.* differs with the probe)" "$tmp/verdict.log"; then
    grep -q "^the compiled example failed under the probe" "$tmp/verdict.log" && grep -q "torch/_dynamo/" "$tmp/with.log" \
      && grep -q "trainproof/probe/" "$tmp/with.log" \
      || fail "the control failed, but not where Dynamo traced the probe: $(tail -1 "$tmp/verdict.log")"
  fi
else
  [ "$same" -eq 0 ] || fail "the probe changed the compiled script"
fi
echo "1 passed, 0 failed"
