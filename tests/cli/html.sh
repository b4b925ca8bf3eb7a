#!/usr/bin/env bash
# idlekit sim --html and idlekit compare --html: self-contained pages, and no file on bad input.
# Also analyze, replay and wakelat --html, the timeline window, and a 512-CPU page's size.
# Rendering in a headless browser: tests/cli/html_chromium.sh.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
. "$(dirname "$0")/check.bash" # check NAME CMD...: counted in pass or fail

# sim: the normal output still goes to stdout (or -o), the page to --html.
"$bin" sim --runs 3 --set scenario.duration_ms=20 --html "$tmp/sim.html" --json -o "$tmp/base.json" >"$tmp/out.txt"
check "sim --html exit 0" test $? -eq 0
check "sim --html wrote the page" test -s "$tmp/sim.html"
check "sim still wrote its JSON" grep -q '"schema": "idlekit.sim/1"' "$tmp/base.json"
check "page starts with a doctype" bash -c "head -1 '$tmp/sim.html' | grep -q '^<!DOCTYPE html>'"
check "page ends with </html>" bash -c "tail -1 '$tmp/sim.html' | grep -q '^</html>$'"
check "page has plots" test "$(grep -c '^<svg ' "$tmp/sim.html")" -ge 6
check "page has no script" bash -c "! grep -qi '<script' '$tmp/sim.html'"
check "page fetches nothing" bash -c "! grep -qE '(src|href)=' '$tmp/sim.html'"
check "page has the settings" grep -q '<table class="settings">' "$tmp/sim.html"
check "page has the percentiles" grep -q '>p99.9 ' "$tmp/sim.html"
check "no temporary file left" bash -c "! ls '$tmp' | grep -q '\.tmp\.'"

# The residency bars of each run are the table's shares: each state's bar height (and its
# tooltip) against the text table's <state>_% of the same seed, the grey bar the rest.
# Both count the idle periods still open at the end of the window (ik__run_residency_pct).
bars_match_table() {
  python3 - "$1" "$2" <<'PY'
import re, sys
page, table = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines()
head = next(i for i, l in enumerate(table) if l.split()[:1] == ["seed"])
cols = table[head].split()
states = [c[:-2] for c in cols if c.endswith("_%")]
rows = {}
for l in table[head + 1:]:
    f = l.split()
    if len(f) != len(cols) or not f[0].isdigit():
        break
    rows[len(rows) + 1] = {s: float(f[cols.index(s + "_%")]) for s in states}
svg = next(s for s in re.findall(r"<svg.*?</svg>", page, re.S) if "<title>Residency per state, per run</title>" in s)
y = [float(v) for v in re.findall(r'<line class="axis y" x1="[^"]*" y1="([^"]*)" x2="[^"]*" y2="([^"]*)"', svg)[0]]
span = y[0] - y[1]
seen = 0
for h, run, name, val in re.findall(r'<rect class="data"[^>]* height="([^"]*)"[^>]*><title>(\d+): (.*) ([0-9.]+)</title>', svg):
    run, h, val = int(run), float(h), float(val)
    want = rows[run].get(name)
    if want is None:
        assert name.startswith("busy"), name
        want = 100 - sum(rows[run].values())
    assert abs(100 * h / span - want) < 0.1, (run, name, 100 * h / span, want)
    assert abs(val - want) < 0.011, (run, name, val, want)
    seen += 1
assert len(rows) == 3 and seen >= 3 * len(states), (len(rows), seen)
PY
}
"$bin" sim --runs 3 --set scenario.duration_ms=20 --html "$tmp/simt.html" >"$tmp/outt.txt"
check "residency bars = the table's shares, run by run" bars_match_table "$tmp/simt.html" "$tmp/outt.txt"

# The same run twice: the same bytes.
"$bin" sim --runs 3 --set scenario.duration_ms=20 --html "$tmp/sim2.html" >/dev/null
check "deterministic" cmp -s "$tmp/sim.html" "$tmp/sim2.html"

# Names with markup cannot come through --set (scenario names are checked); the escaping of
# names is tested in tests/unit/test_html.c.

# Bad input: no file.
"$bin" sim no-such-scenario --html "$tmp/bad.html" >/dev/null 2>&1
check "bad scenario exit 2" test $? -eq 2
check "bad scenario: no file" test ! -e "$tmp/bad.html"
"$bin" sim --set scenario.duration_ms=10 --html "$tmp/no/such/dir/x.html" >/dev/null 2>&1
check "unwritable: exit 2 (checked before the run)" test $? -eq 2
"$bin" sim --html >/dev/null 2>&1
check "--html without FILE: exit 2" test $? -eq 2

# compare
"$bin" sim --runs 3 --set scenario.duration_ms=20 --set workload.work_ns=8000 --json -o "$tmp/slow.json"
"$bin" compare "$tmp/base.json" "$tmp/slow.json" --html "$tmp/cmp.html" >"$tmp/cmp.txt"
check "compare --html exit 0" test $? -eq 0
check "compare still prints its table" grep -q "^CoefVar (%)" "$tmp/cmp.txt"
check "compare page written" test -s "$tmp/cmp.html"
check "compare page has plots" test "$(grep -c '^<svg ' "$tmp/cmp.html")" -ge 5
check "compare legend names the results" bash -c "grep -q 'base.json</text>' '$tmp/cmp.html' && grep -q 'slow.json</text>' '$tmp/cmp.html'"
check "compare page ends with </html>" bash -c "tail -1 '$tmp/cmp.html' | grep -q '^</html>$'"
check "compare overlays the latency percentiles" grep -q '>Wake latency percentiles, per result</text>' "$tmp/cmp.html"
check "compare overlays the idle durations" grep -q '>Idle durations, per result</text>' "$tmp/cmp.html"
check "compare plots power" grep -q '>Average power, one dot per run</text>' "$tmp/cmp.html"
check "compare plots energy" grep -q '>Energy, one dot per run</text>' "$tmp/cmp.html"
# doubling the work per message: throughput falls, significantly; the mark carries p
check "compare page marks significance" grep -qE '<td class="num" title="Welch p = [0-9.]+">[0-9.]+ \*</td>' "$tmp/cmp.html"
"$bin" compare "$tmp/base.json" "$tmp/base.json" --html "$tmp/self.html" >/dev/null
check "compare page: no mark for a file against itself" bash -c "! grep -q ' \*</td>' '$tmp/self.html'"
# the sim page: accuracy by time, the wake-up cost, idle durations by count and by time,
# and no grey for CPUs that are only idle
check "sim page: accuracy by time" grep -q '>Governor accuracy by time, per run</text>' "$tmp/sim.html"
check "sim page: wake-up cost" grep -q '>Wake-ups from a deeper state than the shallowest, per run</text>' "$tmp/sim.html"
check "sim page: idle durations by count" grep -q '>Idle durations, all CPUs, all runs: by count</text>' "$tmp/sim.html"
check "sim page: idle durations by time" grep -q '>Idle durations, all CPUs, all runs: by time</text>' "$tmp/sim.html"
"$bin" sim --set scenario.duration_ms=20 --set workload.pairs=1 --html "$tmp/idle.html" >/dev/null
# 126 of 128 CPUs are idle all along: their bars carry no busy grey
check "never-woken CPUs are not grey" bash -c "! grep -qE '<title>(1[0-9]|[2-9][0-9]|1[0-2][0-9])(-[0-9]+)?: busy \+ idle-loop code (0\.0[1-9]|0\.[1-9]|[1-9])' '$tmp/idle.html'"
# one step line per result in the idle-duration overlay
check "idle-duration overlay has a line per result" test "$(awk '/>Idle durations, per result</,/<\/svg>/' "$tmp/cmp.html" | grep -c '<path class="data"\|<polyline class="data"')" -ge 2
# A result written before idle_duration_hist existed: the page says so, no plot, exit 0.
sed 's/"idle_duration_hist": \[[0-9, ]*\],\{0,1\}//' "$tmp/base.json" >"$tmp/old.json"
check "old result has no histogram" bash -c "! grep -q idle_duration_hist '$tmp/old.json'"
"$bin" compare "$tmp/old.json" "$tmp/slow.json" --html "$tmp/cmpold.html" >/dev/null
check "compare of an older result exit 0" test $? -eq 0
# A corrupt histogram: exit 2, no page.
sed 's/"idle_duration_hist": \[[0-9]*/"idle_duration_hist": [-5/' "$tmp/base.json" >"$tmp/neg.json"
"$bin" compare "$tmp/neg.json" "$tmp/slow.json" --html "$tmp/cmpneg.html" >/dev/null 2>"$tmp/neg.err"
check "negative histogram count exit 2" test $? -eq 2
check "negative histogram count: message names it" grep -q "idle_duration_hist" "$tmp/neg.err"
check "negative histogram count: no page" test ! -e "$tmp/cmpneg.html"
echo '{"not": "a result"}' >"$tmp/junk.json"
"$bin" compare "$tmp/base.json" "$tmp/junk.json" --html "$tmp/cmpbad.html" >/dev/null 2>&1
check "compare bad input exit 2" test $? -eq 2
check "compare bad input: no file" test ! -e "$tmp/cmpbad.html"
"$bin" compare "$tmp/base.json" --html >/dev/null 2>&1
check "compare --html without FILE: exit 2" test $? -eq 2

# analyze and replay: the text output still goes to stdout, the page to --html.
trace=tests/fixtures/traces/two-cpus.trace
"$bin" analyze "$trace" --html "$tmp/an.html" >"$tmp/an.txt"
check "analyze --html exit 0" test $? -eq 0
check "analyze still prints its report" grep -q '^all CPUs$' "$tmp/an.txt"
check "analyze page: 4 plots" test "$(grep -c '^<svg ' "$tmp/an.html")" -eq 4
check "analyze page: wake causes" grep -q '<title>Wake causes, all CPUs</title>' "$tmp/an.html"
check "analyze page: target residency marked" grep -q '>C6 target 400 us</text>' "$tmp/an.html"
check "analyze page: timeline of both CPUs" bash -c "grep -q '<title>CPU 0: ' '$tmp/an.html' && grep -q '<title>CPU 1: ' '$tmp/an.html'"
check "analyze page ends with </html>" bash -c "tail -1 '$tmp/an.html' | grep -q '^</html>$'"
"$bin" analyze "$trace" --html "$tmp/an2.html" --json >/dev/null
check "analyze page deterministic (and the same with --json)" cmp -s "$tmp/an.html" "$tmp/an2.html"
# a window of 100 us from 0.9 ms after the first event (1 us): CPU 0 enters POLL at its last
# microsecond, CPU 1 is in C1 throughout (still open at the end: drawn to the last event)
"$bin" analyze "$trace" --html "$tmp/an3.html" --timeline-window 900us:100us >/dev/null
check "analyze --timeline-window: the window named" grep -q 'Window: 0.900 ms to 1.000 ms after the first event' "$tmp/an3.html"
check "analyze --timeline-window: CPU 0 in POLL 1 us" grep -q '<title>CPU 0: POLL, 1.0 us in 1 stretch</title>' "$tmp/an3.html"
check "analyze --timeline-window: CPU 1 in C1 100 us" grep -q '<title>CPU 1: C1, 100.0 us in 1 stretch</title>' "$tmp/an3.html"
"$bin" replay "$trace" -g menu -p trace --compare-recorded --html "$tmp/rp.html" >"$tmp/rp.txt"
check "replay --html exit 0" test $? -eq 0
check "replay still prints its report" grep -q '^agreement with the recorded state' "$tmp/rp.txt"
check "replay page: confusion plot" grep -q "<title>Governor&#39;s choice against the recorded state</title>" "$tmp/rp.html"
check "replay page: 6 plots (the governors' wake latency: histogram and CDF)" test "$(grep -c '^<svg ' "$tmp/rp.html")" -eq 6
check "replay page: the governors side by side" grep -q '<h2>Governors side by side</h2>' "$tmp/rp.html"
"$bin" replay "$trace" -g menu,teo,ladder -p arm-juno --html "$tmp/rp3.html" >/dev/null
check "replay page, 3 governors on arm-juno: energy plot" grep -q '<title>Energy per governor</title>' "$tmp/rp3.html"
check "replay page, 3 governors: a row each" test "$(grep -c '^<tr><td>\(menu\|teo\|ladder\)</td>' "$tmp/rp3.html")" -eq 3
"$bin" replay "$trace" -g menu -p trace --html "$tmp/rp2.html" >/dev/null
check "replay page without --compare-recorded: no confusion" bash -c "! grep -q 'Governor&#39;s choice' '$tmp/rp2.html'"

# bad input: exit 2 and no page
"$bin" analyze tests/fixtures/traces/bad-lines.trace --html "$tmp/bad1.html" >/dev/null 2>"$tmp/err"
check "analyze bad trace: exit 2" test $? -eq 2
check "analyze bad trace: names file and line" grep -q 'bad-lines.trace:[0-9]*:' "$tmp/err"
check "analyze bad trace: no page" test ! -e "$tmp/bad1.html"
"$bin" replay tests/fixtures/traces/bad-lines.trace -g menu -p trace --html "$tmp/bad2.html" >/dev/null 2>&1
check "replay bad trace: exit 2" test $? -eq 2
check "replay bad trace: no page" test ! -e "$tmp/bad2.html"
for args in "analyze $trace --html $tmp/bad3.html --timeline-window 1:0" \
	    "analyze $trace --html $tmp/bad3.html --timeline-window 1:2parsecs" \
	    "analyze $trace --timeline-window 0:1ms" \
	    "replay $trace -g menu -p trace --html $tmp/bad3.html --timeline-window x" \
	    "sim --html $tmp/bad3.html --timeline-window 0:-1"; do
  # shellcheck disable=SC2086
  "$bin" $args >/dev/null 2>"$tmp/err"
  check "$args: exit 2" test $? -eq 2
  check "$args: a message" grep -q 'timeline-window' "$tmp/err"
done
check "bad --timeline-window: no page" test ! -e "$tmp/bad3.html"

# sim's timeline: the window is named, and the JSON is the same with or without the page
"$bin" sim --set scenario.duration_ms=20 --json >"$tmp/plain.json"
"$bin" sim --set scenario.duration_ms=20 --json --html "$tmp/tl.html" --timeline-window 1ms:3ms >"$tmp/withtl.json"
check "sim JSON unchanged by the timeline capture" cmp -s "$tmp/plain.json" "$tmp/withtl.json"
check "sim page: timeline window" grep -q 'from 1.000 ms to 4.000 ms after the warm-up' "$tmp/tl.html"

# wakelat measures this machine (as wakelat_ctxsw.sh does)
[ "$(nproc)" -ge 2 ] && wakee=1 || wakee=0
"$bin" wakelat -n 300 --warmup 20 --gap 50us --wakee-cpu $wakee --html "$tmp/wl.html" >"$tmp/wl.txt"
check "wakelat --html exit 0" test $? -eq 0
check "wakelat still prints its percentiles" grep -Eq '^ +50% +[0-9]+ ns$' "$tmp/wl.txt"
check "wakelat page: histogram and CDF" test "$(grep -c '^<svg ' "$tmp/wl.html")" -ge 2
# the page's p50 row is the text output's p50
p50=$(sed -n 's/^ *50% *\([0-9]*\) ns$/\1/p' "$tmp/wl.txt")
check "wakelat page: the same p50 ($p50 ns)" grep -q "<tr><th>p50</th><td class=\"num\">$p50</td></tr>" "$tmp/wl.html"
"$bin" wakelat -n 10 --html "$tmp/no/such/dir/wl.html" >/dev/null 2>&1
check "wakelat unwritable page: exit 2 (checked before the run)" test $? -eq 2

# 512 CPUs (4 x amd-zen3): the page stays small; 64 bars and 64 timeline rows
"$bin" sim --set platform.packages=4 --set scenario.duration_ms=5 --html "$tmp/big.html" >/dev/null
size=$(stat -c %s "$tmp/big.html")
echo "512-CPU page: $size bytes"
check "512-CPU page under 3 MB ($size bytes)" test "$size" -lt 3000000
check "512-CPU page: 64 bars of 8 CPUs" grep -q '512 CPUs in 64 bars' "$tmp/big.html"
check "512-CPU page: 64 timeline rows" grep -q 'CPUs 0 to 63 of 512 shown' "$tmp/big.html"

# Headless rendering of every page type: tests/cli/html_chromium.sh.

echo "html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
