# Sourced by the tests in this folder (a .bash file, so that it is not itself a test):
# `check NAME CMD...` runs CMD, counts it in pass or fail, and on failure prints "FAIL: NAME".
pass=${pass:-0}
fail=${fail:-0}
check() {
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; fail=$((fail + 1)); fi
}
# `need_tool NAME HINT` when a tool the test needs is missing: FAIL when CI is set (CI=true,
# as .ci/run sets it: there it must be installed), else SKIP (exit 77).
need_tool() {
  if [ "${CI:-}" = true ]; then echo "FAIL: $1 is not installed ($2)"; exit 1; fi
  echo "SKIP: $1 not installed ($2)"; exit 77
}
