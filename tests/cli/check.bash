# Sourced by the tests in this folder (a .bash file, so that it is not itself a test):
# `check NAME CMD...` runs CMD, counts it in pass or fail, and on failure prints "FAIL: NAME".
pass=${pass:-0}
fail=${fail:-0}
check() {
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; fail=$((fail + 1)); fi
}
