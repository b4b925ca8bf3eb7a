#!/usr/bin/env bash
# idlekit sim from the command line: default scenario, determinism, seeds, runs, outputs,
# and bad input (exit status 2, a message naming the place, no output file left).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
. "$(dirname "$0")/check.bash" # check NAME CMD...: counted in pass or fail
# expect_error NAME PATTERN ARGS...: exit 2, stderr matches PATTERN, stdout empty
expect_error() {
  local name=$1 pattern=$2; shift 2
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL: $name: exit $rc, expected 2"; cat "$tmp/err"; fail=$((fail + 1)); return; fi
  if ! grep -qE -- "$pattern" "$tmp/err"; then echo "FAIL: $name: stderr lacks /$pattern/:"; cat "$tmp/err"; fail=$((fail + 1)); return; fi
  if [ -s "$tmp/out" ]; then echo "FAIL: $name: wrote to stdout"; fail=$((fail + 1)); return; fi
  pass=$((pass + 1))
}

# The default scenario runs with no arguments and prints its tables with units.
"$bin" sim >"$tmp/default.txt"
check "default runs" grep -q "residency_%" "$tmp/default.txt"
check "default has wake latency" grep -q "p99_us" "$tmp/default.txt"
check "default has throughput" grep -q "MB/s" "$tmp/default.txt"
check "no-argument idlekit is a usage error (exit 2, usage on stderr, no run)" bash -c "'$bin' >'$tmp/noarg.txt' 2>'$tmp/noarg.err'; [ \$? -eq 2 ] && [ ! -s '$tmp/noarg.txt' ] && grep -q '^usage: idlekit COMMAND' '$tmp/noarg.err'"

# Same inputs and seed, same bytes; another seed, other bytes.
"$bin" sim scenarios/default.ini --json >"$tmp/a.json"
"$bin" sim scenarios/default.ini --json >"$tmp/b.json"
"$bin" sim scenarios/default.ini --json --seed 2 >"$tmp/c.json"
check "json deterministic" cmp -s "$tmp/a.json" "$tmp/b.json"
check "seed changes json" bash -c "! cmp -s '$tmp/a.json' '$tmp/c.json'"
check "json has schema" grep -q '"schema": *"idlekit.sim/1"' "$tmp/a.json"
if command -v python3 >/dev/null; then
  check "json parses" python3 -c "import json,sys; json.load(open('$tmp/a.json'))"
fi

# Several runs: a summary across seeds.
"$bin" sim --runs 3 --set scenario.duration_ms=20 >"$tmp/runs.txt"
check "runs summary has CoefVar" grep -q "CoefVar" "$tmp/runs.txt"
check "runs summary has HMean" grep -q "HMean" "$tmp/runs.txt"

# --set reaches the scenario and the platform.
"$bin" sim --set cpuidle.disable=C2 --set scenario.duration_ms=20 --csv-table states >"$tmp/noc2.csv"
check "csv header" grep -q "^scenario,platform,driver,governor,governor_sha256,governor_params,seed,state,name" "$tmp/noc2.csv"
check "disabled C2 never used" bash -c "grep -E '^default,amd-zen3,table,menu,,,[0-9]+,2,C2,' '$tmp/noc2.csv' | cut -d, -f12 | grep -qx 0"
# one table per output, chosen by name; the default is the runs
"$bin" sim --set scenario.duration_ms=20 --csv >"$tmp/runs.csv"
check "csv default is runs" grep -q "^scenario,platform,driver,governor,governor_sha256,governor_params,seed,measured_ms," "$tmp/runs.csv"
check "csv one table" bash -c "! grep -qx '' '$tmp/runs.csv'"
check "csv no float noise" bash -c "! grep -qE '[.][0-9]{7,}' '$tmp/runs.csv'"
for t in states per_cpu summary config; do
  check "csv table $t" bash -c "'$bin' sim --set scenario.duration_ms=20 --csv-table $t | head -1 | grep -q ,"
done
"$bin" sim --set scenario.duration_ms=20 --set kernel.hz=1000 --csv-table config >"$tmp/config.csv"
check "csv config records --set" grep -qx "[^,]*,kernel,hz,1000,set" "$tmp/config.csv"
expect_error "unknown csv table" "--csv-table: expected runs, states, per_cpu, summary or config, got 'nope'" sim --csv-table nope

# Output files are written whole, through a temporary name.
"$bin" sim --set scenario.duration_ms=20 --json -o "$tmp/out.json"
check "output file written" test -s "$tmp/out.json"
check "no temporary left" bash -c "! ls '$tmp' | grep -q '\.tmp\.'"

# Bad input.
printf '[scenario]\nname = x\nplatform = amd-zen3\n[workload]\npairs = abc\n' >"$tmp/bad-int.ini"
expect_error "bad integer" "bad-int.ini:5: \[workload\] pairs" sim "$tmp/bad-int.ini"
printf '[scenario]\nname = x\nplatform = amd-zen3\n[workload]\nfrobnicate = 1\n' >"$tmp/bad-key.ini"
expect_error "unknown key" "bad-key.ini:5:.*frobnicate" sim "$tmp/bad-key.ini"
printf '[scenario\nname = x\n' >"$tmp/malformed.ini"
expect_error "malformed ini" "malformed.ini:1" sim "$tmp/malformed.ini"
printf '[scenario]\nname = x\nplatform = no-such-platform\n' >"$tmp/noplat.ini"
expect_error "unknown platform" "no-such-platform" sim "$tmp/noplat.ini"
expect_error "negative value" "pairs" sim --set workload.pairs=-3
expect_error "absurd value" "duration_ms" sim --set scenario.duration_ms=99999999999
expect_error "--set on a missing key" "workload.nosuchkey" sim --set workload.nosuchkey=1
expect_error "--set without =" "workload.pairs" sim --set workload.pairs
expect_error "unknown governor" "governor" sim --set cpuidle.governor=nosuch
expect_error "missing scenario file" "nosuch.ini" sim nosuch.ini
expect_error "unknown option" "--frob" sim --frob
expect_error "bad --runs" "--runs" sim --runs zero
"$bin" sim --set workload.pairs=abc -o "$tmp/never.json" 2>/dev/null
check "no output file on bad input" test ! -e "$tmp/never.json"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
