#!/usr/bin/env bash
# Progress lines on a terminal: script(1) (bsdutils) gives the command a pseudo-terminal,
# and IDLEKIT_PROGRESS_AFTER_MS=0 shows the line at once instead of after a second, so the
# short inputs of a test show it.  sim (simulated ms), sweep (runs) and import (MB read of
# a regular file) draw it; -q silences it; with standard error not a terminal it is never
# drawn.  Without script: SKIP (77), or FAIL when CI is set.
set -u
bin=$(realpath "$1")
. "$(dirname "$0")/check.bash" # check NAME CMD...: counted in pass or fail; need_tool
command -v script >/dev/null || need_tool "script(1)" "Debian package bsdutils"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# on_tty LOG CMD: CMD on a pseudo-terminal (its output in LOG), the line shown at once
on_tty() {
  local log=$1; shift
  IDLEKIT_PROGRESS_AFTER_MS=0 script -qec "$*" "$log" >/dev/null 2>&1
}
fixture=$PWD/tests/fixtures/traces/perf-script-sample.txt

on_tty "$tmp/import.log" "$bin" import perf-script "$fixture" -o "$tmp/a.trace"
check "import: MB read shown on a terminal" grep -aEq 'idlekit import: [0-9]+/1 MB read \([0-9]+%\)' "$tmp/import.log"
check "import: the trace written as without the line" test -s "$tmp/a.trace"
"$bin" import perf-script "$fixture" -o "$tmp/b.trace" 2>/dev/null
check "import: the same trace with and without a terminal" cmp -s "$tmp/a.trace" "$tmp/b.trace"
on_tty "$tmp/importq.log" "$bin" import perf-script "$fixture" -o "$tmp/c.trace" -q
check "import -q: no progress line" bash -c "! grep -aq 'MB read' '$tmp/importq.log'"
IDLEKIT_PROGRESS_AFTER_MS=0 "$bin" import perf-script "$fixture" -o "$tmp/d.trace" 2>"$tmp/err"
check "import: no progress line when standard error is a file" bash -c "! grep -q 'MB read' '$tmp/err'"

on_tty "$tmp/sim.log" "$bin" sim --set scenario.duration_ms=20 --set scenario.warmup_ms=5 --runs 2
check "sim: simulated ms shown on a terminal" grep -aEq 'idlekit sim: [0-9]+/50 simulated ms' "$tmp/sim.log"

printf '[sweep]\nbase = default\nruns = 2\nvary.workload.pairs = 1,2\n[scenario]\nduration_ms = 5\nwarmup_ms = 1\n' >"$tmp/s.ini"
on_tty "$tmp/sweep.log" "$bin" sweep "$tmp/s.ini" -o "$tmp/out"
check "sweep: runs shown on a terminal" grep -aEq 'idlekit sweep: [0-9]+/4 runs' "$tmp/sweep.log"

# A malformed wait is ignored (the default second): the short import shows nothing.
IDLEKIT_PROGRESS_AFTER_MS=soon script -qec "$bin import perf-script $fixture -o $tmp/e.trace" "$tmp/bad.log" >/dev/null 2>&1
check "IDLEKIT_PROGRESS_AFTER_MS=soon: the default wait" bash -c "! grep -aq 'MB read' '$tmp/bad.log'"

echo "progress: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
