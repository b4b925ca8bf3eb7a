#!/usr/bin/env bash
# idlekit compare: two results side by side, single runs picked with @N, and bad input.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
not_grep() { ! grep "$@"; }
. "$(dirname "$0")/check.bash" # check NAME CMD...: counted in pass or fail

"$bin" sim --runs 3 --set scenario.duration_ms=20 --json -o "$tmp/base.json"
"$bin" sim --runs 3 --set scenario.duration_ms=20 --set workload.work_ns=8000 --json -o "$tmp/slow.json"
"$bin" compare "$tmp/base.json" "$tmp/slow.json" >"$tmp/out.txt"
check "compare exit 0" test $? -eq 0
check "has seed-000 rows" grep -q "^CoefVar (%)" "$tmp/out.txt"
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

# Zero variance: the same run twice on both sides (equal: no test, no mark); two different
# constant results: still no test (nothing to test), no mark.
python3 - "$tmp/base.json" "$tmp/slow.json" "$tmp/flat1.json" "$tmp/flat2.json" <<'PY'
import json, sys
for src, dst in ((sys.argv[1], sys.argv[3]), (sys.argv[2], sys.argv[4])):
    d = json.load(open(src))
    d["runs"] = [d["runs"][0], d["runs"][0]]
    json.dump(d, open(dst, "w"))
PY
"$bin" compare "$tmp/flat1.json" "$tmp/flat1.json" >"$tmp/flat.txt"
check "zero variance, equal: no mark" bash -c "! grep -q ') \*' '$tmp/flat.txt'"
check "zero variance, equal: says why" grep -q "no test (equal, no spread)" "$tmp/flat.txt"
"$bin" compare "$tmp/flat1.json" "$tmp/flat2.json" >"$tmp/flat12.txt"
check "zero variance, different: no mark" bash -c "! grep -q ') \*' '$tmp/flat12.txt'"
check "zero variance, different: no test" grep -q "no test (no spread)" "$tmp/flat12.txt"
# A real difference: the mark, the p-value and the 95% interval of the difference.
check "real difference: p and CI" bash -c "grep -A1 '^AMean ' '$tmp/out.txt' | head -2 | grep -qE 'p<0.0001 \[-[0-9.]+, -[0-9.]+\]'"
check "spread changes are absolute" bash -c "grep '^Stddev ' '$tmp/out.txt' | head -1 | grep -qE '\([+-][0-9.]+\) *$'"
check "config difference warned" grep -q "^warning: .*slow.json differs from the baseline in 1 configuration key: workload.work_ns (4000 -> 8000)" "$tmp/out.txt"
check "same config: no warning" bash -c "! grep -q '^warning' '$tmp/same.txt'"

# Different state tables: every state of both, the missing ones shown as such.
"$bin" sim seed000-baseline --runs 2 --set scenario.duration_ms=10 --set scenario.warmup_ms=5 --json -o "$tmp/milan.json"
"$bin" sim seed000-baseline --runs 2 --set scenario.duration_ms=10 --set scenario.warmup_ms=5 --set scenario.platform=intel-spr --set cpuidle.driver=intel_idle --json -o "$tmp/spr.json"
"$bin" compare "$tmp/milan.json" "$tmp/spr.json" >"$tmp/tables.txt"
for st in POLL C1 C2 C1E C6; do
  check "state $st shown" bash -c "sed -n '/^residency per state/,/^\$/p' '$tmp/tables.txt' | grep -q '^$st '"
done
check "C2 missing on SPR" bash -c "grep '^C2 ' '$tmp/tables.txt' | head -1 | grep -q '(no such state)'"
check "C6 missing on Milan" bash -c "grep '^C6 ' '$tmp/tables.txt' | head -1 | grep -q '(no such state)'"
check "platform difference warned" grep -q "scenario.platform (amd-zen3-milan -> intel-spr)" "$tmp/tables.txt"

# --json and --csv.
"$bin" compare "$tmp/base.json" "$tmp/slow.json" --json >"$tmp/cmp.json"
check "json" python3 - "$tmp/cmp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "idlekit.compare/1"
f = {x["figure"]: x for x in d["figures"]}
mb = f["mb_per_s"]
assert mb["better"] == "higher"
r = mb["results"][1]
assert r["significant"] is True and r["p_value"] < 0.05
assert r["ci95_low"] < r["change"] < r["ci95_high"] < 0
assert "C1.residency_pct" in f
assert d["config_differences"] == [{"result": d["results"][1]["result"], "key": "workload.work_ns", "baseline": "4000", "value": "8000"}]
PY
"$bin" compare "$tmp/base.json" "$tmp/slow.json" --csv >"$tmp/cmp.csv"
check "csv header" grep -q "^figure,unit,better,result,n,amean,stddev,min,max,median,change,change_pct,stddev_change,p_value,ci95_low,ci95_high,significant$" "$tmp/cmp.csv"
check "csv significant row" grep -qE "^mb_per_s,MB/s,higher,[^,]*slow.json,3,.*,yes$" "$tmp/cmp.csv"

# --fail-if: exit 3 for a regression past the threshold, the report still written.
"$bin" compare "$tmp/base.json" "$tmp/slow.json" --fail-if mb_per_s:worse-than:5 >"$tmp/gate.txt" 2>"$tmp/gate.err"
check "fail-if exit 3" test $? -eq 3
check "fail-if says why" grep -q "mb_per_s:worse-than:5: .*slow.json is 41\.[0-9]*% worse" "$tmp/gate.err"
check "fail-if report written" grep -q "^AMean" "$tmp/gate.txt"
"$bin" compare "$tmp/base.json" "$tmp/slow.json" --fail-if mb_per_s:worse-than:50 --fail-if wake_p99_us:worse-than:10 >/dev/null 2>&1
check "fail-if within the threshold: exit 0" test $? -eq 0
"$bin" compare "$tmp/slow.json" "$tmp/base.json" --fail-if mb_per_s:worse-than:5 >/dev/null 2>&1
check "fail-if better is not worse" test $? -eq 0

# Replay and analyze results: replay/1 and analyze from the committed fixtures, a replay/2
# (written by hand to its shape) with one result per governor.
"$bin" replay tests/fixtures/traces/recorded-sched.trace -g menu -p trace --json >"$tmp/replay1.json"
"$bin" compare "$tmp/replay1.json" tests/fixtures/traces/two-cpus.json >"$tmp/ra.txt"
check "replay/1 and analyze accepted" test $? -eq 0
check "analyze accuracy read" grep -qE "^too deep \(% of entries\) +0.00 +25.00 \(\+25.00\)" "$tmp/ra.txt"
check "analyze states read" bash -c "grep -A4 '^entries per state' '$tmp/ra.txt' | grep -qE '^C6 +\(no such state\) +2.00'"
"$bin" compare tests/fixtures/compare/replay2-two-governors.json >"$tmp/r2.txt"
check "replay/2: one result per governor" grep -q "replay2-two-governors.json@teo differs from the baseline in 1 configuration key: governor (menu -> teo)" "$tmp/r2.txt"
check "replay/2: figures" grep -qE "^too deep \(% of entries\) +6.00 +1.50 \(-75.00%\)" "$tmp/r2.txt"
"$bin" compare tests/fixtures/compare/replay2-two-governors.json@teo tests/fixtures/compare/replay2-two-governors.json@menu --fail-if too_deep_pct:worse-than:10 >/dev/null 2>"$tmp/r2.err"
check "replay/2: fail-if on a governor" test $? -eq 3
# replay/2 as replay writes it: several governors on a platform with power figures, and on
# the trace's own table (no power: energy is null there)
"$bin" replay tests/fixtures/traces/two-cpus.trace -g menu,teo,ladder -p intel-skx --json >"$tmp/rp2.json"
"$bin" compare "$tmp/rp2.json" --json >"$tmp/rp2-cmp.json"
check "replay/2 from replay: one result per governor" grep -c '"result": "[^"]*rp2.json@\(menu\|teo\|ladder\)"' "$tmp/rp2-cmp.json"
"$bin" compare "$tmp/rp2.json@teo" "$tmp/rp2.json@menu" >"$tmp/rp2.txt"
check "replay/2 from replay: energy compared" grep -q '^energy (J)' "$tmp/rp2.txt"
"$bin" replay tests/fixtures/traces/two-cpus.trace -g menu,teo -p trace --json >"$tmp/rp2t.json"
"$bin" compare "$tmp/rp2t.json@menu" "$tmp/rp2t.json@teo" >/dev/null
check "replay/2 without power figures compares" test $? -eq 0

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
expect2 "bad run number" "FILE@N" "$tmp/base.json@0"
expect2 "governor pick in a sim result" "@x: expected @N" "$tmp/base.json@x"
expect2 "no such governor" "no run of governor 'ladder'" tests/fixtures/compare/replay2-two-governors.json@ladder
expect2 "bad gate figure" "no such figure in $tmp/base.json" "$tmp/base.json" --fail-if nosuch:worse-than:5
expect2 "bad gate figure's spelling" "expected FIGURE:worse-than:PCT with FIGURE one of" "$tmp/base.json" --fail-if 'no-such:worse-than:5'
expect2 "gate on a figure with no direction" "expected FIGURE:worse-than:PCT" "$tmp/base.json" --fail-if idle_entries_per_cpu_per_s:worse-than:5
expect2 "bad gate percentage" "expected a percentage" "$tmp/base.json" --fail-if mb_per_s:worse-than:lots
expect2 "bad gate form" "e.g. mb_per_s:worse-than:5" "$tmp/base.json" --fail-if mb_per_s:better-than:5
expect2 "json and csv" "exclude each other" "$tmp/base.json" --json --csv

# a figure that is not a number is named, not dropped; a file over the limit is refused
# before it is read (the limit: IDLEKIT_COMPARE_MAX_MB); memory running out is said
python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); d['runs'][0]['energy_j'] = '12'
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/base.json" "$tmp/str.json"
expect2 "a figure that is a string" 'str.json: a result.s "energy_j": expected a number' "$tmp/base.json" "$tmp/str.json"
"$bin" sim --runs 40 --set scenario.duration_ms=2 -q --json -o "$tmp/big.json" # over 1 MB
export IDLEKIT_COMPARE_MAX_MB=1
expect2 "a file over the limit" "larger than compare reads \(1 MB; IDLEKIT_COMPARE_MAX_MB" "$tmp/big.json"
unset IDLEKIT_COMPARE_MAX_MB

# The workload's own figures: two server sims (the second at twice the load) give request
# latency, queue and load with Welch's test; no throughput rows (a server passes no
# messages: no zeros that read as measured); --fail-if on a workload figure.
"$bin" sim --set workload.type=server --set workload.load_pct=40 --runs 3 --set scenario.duration_ms=50 --json -o "$tmp/srv1.json"
"$bin" sim --set workload.type=server --set workload.load_pct=80 --runs 3 --set scenario.duration_ms=50 --json -o "$tmp/srv2.json"
"$bin" compare "$tmp/srv1.json" "$tmp/srv2.json" >"$tmp/srv.txt"
check "server: the workload's figures" grep -q "^the workload's figures (AMean)" "$tmp/srv.txt"
for f in "requests.latency_p50_us (us)" "requests.latency_p99_us (us)" "requests.latency_p99_9_us (us)" \
	"requests.queue_p99_us (us)" "requests.achieved_load_pct (%)" "requests.requests_per_s (1/s)"; do
	check "server: row $f" grep -qF "$f" "$tmp/srv.txt"
done
check "server: twice the load is significantly more requests/s" \
	bash -c "grep -A0 '^requests.requests_per_s' '$tmp/srv.txt' | grep -qE '\(\+[0-9.]+%\) \*'"
check "server: a Welch line under the latency" bash -c "grep -A1 '^requests.latency_p99_us' '$tmp/srv.txt' | grep -q 'Welch p\|p='"
check "server: no throughput rows" not_grep -q '^throughput (MB/s)' "$tmp/srv.txt"
"$bin" compare "$tmp/srv1.json" "$tmp/srv2.json" --fail-if requests.queue_p99_us:worse-than:5 >/dev/null 2>"$tmp/gate.err"
rc=$?
check "server: --fail-if requests.queue_p99_us exits 3 when the queue grows ($(cat "$tmp/gate.err"))" test $rc -eq 3
check "server: the gate says by how much" grep -q 'requests.queue_p99_us:worse-than:5: .* worse than the baseline (requests.queue_p99_us ' "$tmp/gate.err"
"$bin" compare "$tmp/srv1.json" "$tmp/srv2.json" --fail-if requests.requests_per_s:worse-than:5 >/dev/null 2>&1
check "server: --fail-if requests.requests_per_s passes when it rises" test $? -eq 0
"$bin" compare "$tmp/srv1.json" "$tmp/srv2.json" --fail-if requests.arrived:worse-than:5 >/dev/null 2>"$tmp/gate.err"
check "server: a figure with no better side is no gate (exit 2)" test $? -eq 2
"$bin" compare "$tmp/srv1.json" "$tmp/srv2.json" --fail-if request_latency_p99:worse-than:5 >/dev/null 2>"$tmp/gate.err"
check "server: --fail-if request_latency_p99 (the words of requests.latency_p99_us) exits 3" test $? -eq 3
check "server: ... and says what it took the name for" grep -q 'request_latency_p99: taken as requests.latency_p99_us (us)' "$tmp/gate.err"
"$bin" compare "$tmp/srv1.json" "$tmp/srv2.json" --fail-if request_latency_p42:worse-than:5 -o "$tmp/nogate.txt" 2>"$tmp/gate.err"
check "server: a gate on no figure of the results is bad input (exit 2)" test $? -eq 2
check "server: ... named in one line" test "$(grep -c 'request_latency_p42: no such figure in' "$tmp/gate.err")" -eq 1
check "server: ... and nothing written" test ! -e "$tmp/nogate.txt"
"$bin" compare "$tmp/srv1.json" "$tmp/srv2.json" --json >"$tmp/srv.cmp.json"
check "server: the JSON rows name the workload's figures" grep -q '"figure": "requests.latency_p99_us"' "$tmp/srv.cmp.json"

# govreplay results decision by decision: menu and teo on one input (by hand from the two
# decision lists: lines 34 and 39 are POLL,0 under menu and C6,1 under teo, the rest agree)
gin=tests/govreplay/menu-timer-bands.csv
(cd "$(dirname "$0")/../.." && "$bin" govreplay -g menu -p intel-skx --input $gin --json -q -o "$tmp/g-menu.json" &&
	"$bin" govreplay -g teo -p intel-skx --input $gin --json -q -o "$tmp/g-teo.json" &&
	"$bin" compare "$tmp/g-menu.json" "$tmp/g-teo.json" >"$tmp/gcmp.txt" 2>"$tmp/gcmp.err")
check "govreplay: exit 0 ($(cat "$tmp/gcmp.err"))" test $? -eq 0
check "govreplay: how many differ" grep -qF "g-teo.json against the baseline: 2 of 8 decisions differ (25.00%): the state in 2 (25.00%), stop_tick in 2 (25.00%)" "$tmp/gcmp.txt"
check "govreplay: the matrix's POLL row" grep -Eq '^POLL +1 +0 +0 +2$' "$tmp/gcmp.txt"
check "govreplay: the matrix's C6 row" grep -Eq '^C6 +0 +0 +0 +3$' "$tmp/gcmp.txt"
check "govreplay: the first differing line with its input" grep -Eq '^ +34  POLL,0 +C6,1 +-,4000000,-$' "$tmp/gcmp.txt"
"$bin" compare "$tmp/g-menu.json" "$tmp/g-menu.json" >"$tmp/gsame.txt"
check "govreplay: itself, nothing differs" grep -qF "0 of 8 decisions differ (0.00%)" "$tmp/gsame.txt"
(cd "$(dirname "$0")/../.." && "$bin" govreplay -g menu -p intel-skx --input tests/govreplay/teo-disabled.csv --json -q -o "$tmp/g-other.json")
"$bin" compare "$tmp/g-menu.json" "$tmp/g-other.json" >"$tmp/gbad.txt" 2>"$tmp/gbad.err"
rc=$?
check "govreplay: another input is refused (exit 2, nothing out) ($(cat "$tmp/gbad.err"))" test $rc -eq 2 -a ! -s "$tmp/gbad.txt"
check "govreplay: says the inputs differ" grep -q "replay different inputs (8 and 4 decisions" "$tmp/gbad.err"
"$bin" compare "$tmp/g-menu.json" "$tmp/base.json" >/dev/null 2>"$tmp/gbad.err"
check "govreplay beside a sim result: refused" grep -q "expected a govreplay result" "$tmp/gbad.err"
"$bin" compare "$tmp/g-menu.json" "$tmp/g-teo.json" --json >/dev/null 2>"$tmp/gbad.err"
check "govreplay: --json is refused" grep -q "decision by decision, as text only" "$tmp/gbad.err"

# validate results: two sides each (@measured, @predicted), every figure named as in the
# JSON, the predicted side's error per figure; two validate results compare by error
vi=tests/fixtures/compare/validate-imported.json
vc=tests/fixtures/compare/validate-calibrated.json
"$bin" compare "$vi" >"$tmp/v.txt" 2>"$tmp/v.err"
check "validate: read (exit 0) ($(head -c 300 "$tmp/v.err"))" test $? -eq 0
check "validate: two sides" grep -q "^compare: 2 result(s), baseline $vi@measured" "$tmp/v.txt"
check "validate: a figure with its unit and Welch's test (-30.63%, p=0.0002)" \
	grep -Eq '^validate.cpu0 busy \(%\) +7.40 +5.13 \(-30.63%\) \*$' "$tmp/v.txt"
check "validate: the predicted side's error (31.08% for cpu0 busy, medians 7.4 and 5.1)" \
	grep -Eq '^abs_error_pct.cpu0 busy \(%\) +\(missing\) +31.08 \(no baseline\)' "$tmp/v.txt"
check "validate: no empty sections" not_grep -q "entries per method\|other figures" "$tmp/v.txt"
check "validate: the model's kernel against the machine's" \
	grep -q "kernel (6.1.0-test -> 6.1)" "$tmp/v.txt"
"$bin" compare "$vi@predicted" "$vc@predicted" --fail-if "abs_error_pct.cpu0 busy:worse-than:0" \
	--json -o "$tmp/vc.json" 2>"$tmp/vc.err"
check "validate: the calibrated prediction's error is no worse (exit 0) ($(cat "$tmp/vc.err"))" test $? -eq 0
"$bin" compare "$vc@predicted" "$vi@predicted" --fail-if "abs_error_pct.cpu0 busy:worse-than:0" \
	>/dev/null 2>"$tmp/vc.err"
check "validate: the imported prediction's error is worse (exit 3)" test $? -eq 3
check "validate: the gate says by how much (31.08 against 4.05)" \
	grep -q "abs_error_pct.cpu0 busy:worse-than:0: .* (abs_error_pct.cpu0 busy 4.054 -> 31.08, lower is better)" "$tmp/vc.err"
python3 - "$tmp/vc.json" <<'PY' || { echo "FAIL: validate compare JSON"; fail=$((fail + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["figure"]: r for r in d["figures"]}
r = rows["abs_error_pct.wake latency p50"]
assert r["better"] == "lower" and r["unit"] == "%", r
assert abs(r["results"][0]["amean"] - 45.0) < 1e-9 and abs(r["results"][1]["amean"] - 7.5) < 1e-9, r
assert rows["validate.all CPUs idle entries/s"]["results"][1]["n"] == 3
PY
"$bin" compare "$vi@nosuch" >/dev/null 2>"$tmp/vbad.err"
check "validate: @nosuch refused (exit 2)" test $? -eq 2
check "validate: @nosuch names the sides" grep -q "two sides, @measured and @predicted" "$tmp/vbad.err"
# the HTML page: a table of the named figures, one row per figure compare lists
"$bin" compare "$vi" "$vc@predicted" --json -o "$tmp/v3.json" --html "$tmp/v3.html"
nrows=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for r in d['figures'] if r['figure'].startswith(('validate.','abs_error_pct.'))))" "$tmp/v3.json")
nhtml=$(sed -n '/<table class="named">/,/<\/table>/p' "$tmp/v3.html" | grep -c '^<tr><td>')
check "html: every named figure in its table ($nhtml rows, $nrows figures)" test "$nhtml" -eq "$nrows" -a "$nrows" -eq 8
check "html: a missing figure is '-', never 0" grep -q '<td>abs_error_pct.cpu0 busy</td><td>%</td><td class="num">-</td>' "$tmp/v3.html"
check "html: the measured and predicted idle durations overlaid" grep -q "Idle durations" "$tmp/v3.html"
# a server sim's workload figures on the page too
"$bin" sim --runs 1 --set scenario.platform=amd-zen3 --set workload.type=server \
	--set workload.load_pct=50 --set scenario.duration_ms=50 --json -q -o "$tmp/srv.json"
"$bin" compare "$tmp/srv.json" "$tmp/srv.json" --html "$tmp/srv.html" >/dev/null
check "html: a server's request latency row" grep -q '<td>requests.latency_p99_us</td>' "$tmp/srv.html"

# what a configuration difference means: another kernel release; the same kernel: path
# with other contents (their sha256)
"$bin" sim --runs 1 --set scenario.duration_ms=20 --set kernel.version=5.15 --json -q -o "$tmp/k515.json"
"$bin" compare "$tmp/k515.json" "$tmp/base.json" >"$tmp/rel.txt"
check "release: compare says the results ran different releases" \
	grep -q "ran kernel release 6.19, the baseline 5.15: the governors and the core decide as each release's code" "$tmp/rel.txt"
cp tests/kgov/params.c "$tmp/gov.c"
"$bin" sim --runs 1 --set scenario.duration_ms=20 --set "cpuidle.governor=kernel:$tmp/gov.c" --json -q -o "$tmp/ga.json" 2>/dev/null
echo "/* another version of the file */" >>"$tmp/gov.c"
"$bin" sim --runs 1 --set scenario.duration_ms=20 --set "cpuidle.governor=kernel:$tmp/gov.c" --json -q -o "$tmp/gb.json" 2>/dev/null
"$bin" compare "$tmp/ga.json" "$tmp/gb.json" >"$tmp/sha.txt" 2>&1
check "sha256: the same path with other contents is told" \
	grep -q "name the same governor kernel:$tmp/gov.c, but its file differed (sha256" "$tmp/sha.txt"
check "sha256: the long path is shown whole (its tail) in the key list" \
	grep -q "governor_sha256 (" "$tmp/sha.txt"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
