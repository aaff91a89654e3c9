#!/usr/bin/env bash
# `trainproof ddp-check` under torchrun itself (Gloo on the CPU, --standalone): the ranks
# rendezvous through the TCPStore torchrun's environment names, and rank 0 writes every rank's
# verdict. Cases:
#   laws N         all laws hold on N ranks, the resume law after torchrun restarted the group
#   control FAULT  a planted mistake (TRAINPROOF_INJECT_FAULT) breaks the law named by LAW
#   hang | dies    rank 1 hangs or dies, and the output names it
#   worker         our own rank program (ddp-worker) takes torchrun's environment too
# usage: torchrun_test.sh TRAINPROOF_BIN TORCHRUN CASE [ARG] [LAW]
set -uo pipefail
bin=$1 torchrun=$2 case=$3 arg=${4:-} law=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nproc=${arg:-2}
[ "$case" = laws ] || nproc=2
restarts=1
case $case in hang | dies) restarts=0 ;; esac
run() {
  timeout 300 "$torchrun" --standalone --nproc-per-node "$nproc" --max-restarts "$restarts" --no-python \
    "$bin" ddp-check --run-dir "$tmp/run" --json "$tmp/result.json" --junit "$tmp/result.xml" >"$tmp/out.log" 2>&1
}
fail() { echo "FAIL: $*"; echo "--- torchrun output:"; tail -60 "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }

case $case in
  laws)
    run || fail "torchrun exited $? on $nproc ranks"
    python3 - "$tmp/result.json" "$nproc" <<'PY' || fail "the combined result does not show every law held on every rank"
import json, re, sys
r = json.load(open(sys.argv[1])); n = int(sys.argv[2])
assert r["command"] == "ddp-check", r["command"]
ctx = r["context"]
assert ctx["launcher"] == "torchrun" and ctx["world"] == str(n), ctx
assert int(ctx["attempt"]) >= 1, "torchrun did not restart the group: the resume law was not exercised"
ranks = {}
for row in r["results"]:
    ranks.setdefault(int(re.match(r"rank (\d+) \(", row["device"]).group(1)), []).append(row)
assert sorted(ranks) == list(range(n)), sorted(ranks)
assert r["failed"] == 0 and r["skipped"] == 0, [c for c in r["results"] if c["status"] != "pass"]
for rows in ranks.values():
    laws = [c["name"] for c in rows]
    assert any(l.startswith("killed and restarted by the launcher") for l in laws), laws
    assert any(l.startswith(f"world {n} even: matches the full batch") for l in laws), laws
series = [c for c in r["results"] if c["kind"] == "series"]
assert len(series) == 3, series  # full batch, even and uneven by size, all in the golden for N = 2 and 4
assert all(c["device"].startswith("rank 0 ") for c in series), series  # rank 0 holds the golden, as verify does
import xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1][:-len(".json")] + ".xml").getroot().find("testsuite")
checks = len(r["results"])
assert int(suite.get("tests")) == checks and int(suite.get("failures")) == 0, (suite.attrib, checks)
print(f"{n} ranks: {checks} checks held (the JUnit report too); attempt {ctx['attempt']}")
PY
    ;;
  control)
    TRAINPROOF_INJECT_FAULT=$arg run && fail "torchrun exited 0 with the mistake $arg planted"
    grep -q "BROKEN on rank [0-9]* ([^)]*): $law" "$tmp/out.log" || fail "no rank reported '$law' BROKEN under $arg"
    grep -q "<failure message=\"BROKEN\"" "$tmp/result.xml" || fail "the JUnit report shows no broken law under $arg"
    # Ranks that read one shard also move the gradient off the golden's: its series fails, as in verify.
    if [ "$arg" = ranks-read-the-same-shard ]; then
      grep -q "BROKEN on rank 0 ([^)]*): golden grad_world2_even_float64 within" "$tmp/out.log" ||
        fail "the golden's series grad_world2_even_float64 is not reported failing under $arg"
      grep -q "<failure message=\"FAIL: first divergence at" "$tmp/result.xml" ||
        fail "the JUnit report shows no failing series (with where it first diverges) under $arg"
    fi
    ;;
  worker)
    timeout 300 "$torchrun" --standalone --nproc-per-node 2 --no-python "$bin" ddp-worker --task grad \
      --options '{"rule": "size", "uneven": true}' --out "$tmp" >"$tmp/out.log" 2>&1 || fail "ddp-worker under torchrun exited $?"
    grep -q "rank 1 of 2: shard" "$tmp/out.log" || fail "rank 1 did not compute its shard"
    cmp -s "$tmp/rank0.tpck" "$tmp/rank1.tpck" || fail "the ranks hold different all-reduced gradients"
    ;;
  hang)
    # 5 s: a healthy rank joins in under 1 s on a loaded core, so the test runs beside others
    # (waiting on the hung rank takes no core), and holds a slot for only that long.
    TRAINPROOF_INJECT_FAULT=rank1-hangs TRAINPROOF_RANK_TIMEOUT_S=5 run && fail "torchrun exited 0 with a hung rank"
    grep -q "rank(s) 1 of 2 did not join the rendezvous within 5 s" "$tmp/out.log" || fail "the hung rank is not named"
    ;;
  dies)
    TRAINPROOF_INJECT_FAULT=rank1-dies run && fail "torchrun exited 0 with a dead rank"
    # named by trainproof (rank 0, stopped by torchrun while it waited), not only in torchrun's own summary
    grep -q "ddp-check: rank 0 was stopped by its launcher while waiting for rank(s) 1 of 2 to join the rendezvous" \
      "$tmp/out.log" || fail "the dead rank is not named by trainproof"
    ;;
  *) echo "torchrun_test: unknown case $case" >&2; exit 2 ;;
esac
echo "torchrun $case ${arg}: ok"
echo "1 passed, 0 failed"
