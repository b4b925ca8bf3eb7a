#!/usr/bin/env bash
# idlekit compare: two results side by side, single runs picked with @N, and bad input.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
check() {
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; fail=$((fail + 1)); fi
}

"$bin" sim --runs 3 --set scenario.duration_ms=20 --json -o "$tmp/base.json"
"$bin" sim --runs 3 --set scenario.duration_ms=20 --set workload.work_ns=8000 --json -o "$tmp/slow.json"
"$bin" compare "$tmp/base.json" "$tmp/slow.json" >"$tmp/out.txt"
check "compare exit 0" test $? -eq 0
check "has seed-000 rows" grep -q "AMean CoefVar" "$tmp/out.txt"
check "has HMean" grep -q "^HMean" "$tmp/out.txt"
check "has per-state residency" grep -q "residency per state" "$tmp/out.txt"
check "has entry methods" grep -q "entries per method" "$tmp/out.txt"
# Doubling the work per message roughly halves the message rate: a large, significant drop.
check "throughput drop is significant" bash -c "grep '^AMean ' '$tmp/out.txt' | head -1 | grep -qE '\( *-[3-6][0-9]\.[0-9]+%\) \*'"
# A file against itself: no change, nothing significant.
"$bin" compare "$tmp/base.json" "$tmp/base.json" >"$tmp/same.txt"
check "self compare has no significant change" bash -c "! grep -q ') \*' '$tmp/same.txt'"
# One run of a file.
"$bin" compare "$tmp/base.json@1" "$tmp/base.json@3" >"$tmp/runs.txt"
check "single runs" grep -q "base.json@3" "$tmp/runs.txt"

expect2() {
  local name=$1 pattern=$2; shift 2
  "$bin" compare "$@" >"$tmp/o" 2>"$tmp/e"
  local rc=$?
  if [ $rc -eq 2 ] && grep -qE -- "$pattern" "$tmp/e" && [ ! -s "$tmp/o" ]; then pass=$((pass + 1))
  else echo "FAIL: $name (exit $rc)"; cat "$tmp/e"; fail=$((fail + 1)); fi
}
printf '{"schema": "idlekit.sim/1", "runs": [' >"$tmp/trunc.json"
expect2 "truncated json" "trunc.json:1:" "$tmp/trunc.json"
echo '{"hello": 1}' >"$tmp/other.json"
expect2 "not a sim result" "idlekit.sim/1" "$tmp/other.json"
expect2 "missing file" "nosuch.json" "$tmp/nosuch.json"
expect2 "run out of range" "run 9" "$tmp/base.json@9"
expect2 "bad run number" "FILE@N" "$tmp/base.json@x"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
