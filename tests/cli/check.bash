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
# `need_validate NAME`: what a test that runs idlekit validate on this machine needs: rt-app,
# rt-tests' cyclictest and python3 installed, and root.  SKIP without (exit 77), FAIL under CI.
need_validate() {
  command -v rt-app >/dev/null || need_tool rt-app "Debian package rt-app; scripts/install-deps installs it"
  command -v cyclictest >/dev/null || need_tool cyclictest "Debian package rt-tests; scripts/install-deps installs it"
  command -v python3 >/dev/null || need_tool python3 "to read the JSON"
  if [ "$(id -u)" != 0 ]; then
    if [ "${CI:-}" = true ]; then echo "FAIL: $1 needs root under CI"; exit 1; fi
    echo "SKIP: not root"; exit 77
  fi
}
