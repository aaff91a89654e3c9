# What the check test scripts share; source it after setting bin (trainproof), loop (the
# command as an array, --run-dir {run_dir} included) and log (the file each run writes).
# fail WHAT: print the last run's output and end the test failed.
fail() { echo "FAIL: $*"; cat "$log"; echo "0 passed, 1 failed"; exit 1; }
# expect CODE WHAT CHECK_ARGS... [-- LOOP_ARGS...]: `check CHECK_ARGS -- LOOP LOOP_ARGS` exits CODE.
expect() {
  local want=$1 what=$2 check_args=() rc
  shift 2
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do check_args+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  "$bin" check "${check_args[@]}" -- "${loop[@]}" "$@" >"$log" 2>&1
  rc=$?
  [ "$rc" -eq "$want" ] || fail "$what: exit $rc, expected $want"
}
# says PATTERN WHAT: the last run's output matches PATTERN (grep -E).
says() { grep -qE -- "$1" "$log" || fail "$2"; }
