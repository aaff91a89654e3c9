#!/usr/bin/env bash
# The wheel's CLI (trainproof-lite: the same sources built without LibTorch, as `pip install` builds
# them) lists the findings and the laws byte for byte as the LibTorch build does, and says that
# its `list` of scenarios needs the LibTorch build (exit 2). The control: two lists that differ
# are told apart by the same comparison.
#   list_lite_test.sh TRAINPROOF_BIN TRAINPROOF_LITE_BIN
set -uo pipefail
full=$1 lite=$2
passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
no() { echo "FAIL: $*"; failed=$((failed + 1)); }
for args in "--findings" "--findings --json" "--laws" "--laws --json"; do
  want=$("$full" list $args) got=$("$lite" list $args)
  if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "list $args: the same in both builds"; else no "list $args differs:
$(diff <(echo "$want") <(echo "$got") | head -20)"; fi
done
out=$("$lite" list 2>&1)
rc=$?
if [ $rc -eq 2 ] && grep -q "built without LibTorch" <<<"$out"; then ok "list (scenarios) without LibTorch: exit 2, says why"
else no "list (scenarios) without LibTorch: exit $rc: $out"; fi
if [ "$("$full" list --findings)" = "$("$lite" list --laws)" ]; then no "the control: two different lists compare equal"
else ok "the control: two different lists are told apart"; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
