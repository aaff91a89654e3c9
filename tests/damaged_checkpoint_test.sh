#!/usr/bin/env bash
# A truncated newest checkpoint is reported by name and the previous valid one is used;
# the resumed run ends bitwise where an uninterrupted one does.
set -u
bin=$1
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
"$bin" train textclf --ckpt-dir "$d/ref" --steps 120 --ckpt-every 20 >/dev/null || fail "reference run"
cp -r "$d/ref" "$d/run"   # a run that ended; its newest checkpoint is then damaged
newest=$(ls "$d/run"/ckpt-*.tpck | sort | tail -1)
truncate -s 100 "$newest"
rm -f "$d/run/final.tpck"
out=$("$bin" train textclf --ckpt-dir "$d/run" --steps 120 --ckpt-every 20 2>&1) || fail "resume"
grep -q "damaged checkpoint $newest" <<<"$out" || fail "damaged checkpoint not reported: $out"
grep -q "resumed from ckpt-00000100.tpck" <<<"$out" || fail "did not fall back to the previous checkpoint: $out"
cmp -s "$d/ref/final.tpck" "$d/run/final.tpck" || fail "resumed run differs from the uninterrupted one"
echo "1 passed, 0 failed"
