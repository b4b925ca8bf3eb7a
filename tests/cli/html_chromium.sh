#!/usr/bin/env bash
# Every kind of HTML report (sim, compare, analyze, replay, wakelat) rendered by a headless
# Chromium: the page loads (no error page), the DOM holds every plot with its axes, axis
# labels and data marks, Chromium's log has no console message about the page (an
# invalid SVG attribute, for one, is reported there) and no failed load, and no text label
# is clipped by its plot or overlaps another (their rendered boxes, tests/cli/html_boxes.js).
# Without chromium: FAIL when CI is set (CI=true, as .ci/run sets it), else SKIP.
set -u
bin=$1
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
  if [ "${CI:-}" = true ]; then
    echo "FAIL: chromium is not installed (scripts/install-deps installs it)"
    exit 1
  fi
  echo "SKIP: chromium not installed (scripts/install-deps installs it)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
. "$(dirname "$0")/check.bash" # check NAME CMD...: counted in pass or fail

# render PAGE: the DOM to PAGE.dom, Chromium's log to PAGE.log.  A fresh profile each time,
# nothing fetched in the background; a generous timeout, as the machine may be busy.
render() {
  local page=$1
  timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-extensions --user-data-dir="$tmp/profile.$(basename "$page")" \
    --enable-logging=stderr --v=0 --dump-dom "file://$page" >"$page.dom" 2>"$page.log"
}

# The plots of a DOM that lack axes, two axis labels or a data mark, one line each.
incomplete_plots() {
  awk 'BEGIN { RS = "</svg>" }
       /<svg/ {
         n++
         s = substr($0, index($0, "<svg"))
         ax = gsub(/class="axis x"/, "&", s); ay = gsub(/class="axis y"/, "&", s)
         lab = gsub(/class="axis-label"/, "&", s); d = gsub(/class="data"/, "&", s)
         if (ax != 1 || ay != 1 || lab != 2 || d < 1)
           printf "plot %d: axes %d/%d, axis labels %d, data marks %d\n", n, ax, ay, lab, d
       }' "$1"
}

# Problems about the page in Chromium's log: console messages from it (the pages have no
# script, so any is the browser reporting a fault) and a failed load.  Chromium's own noise
# (D-Bus, sandbox, GPU) names no page and is left alone.
page_errors() {
  grep -E "CONSOLE.*source: file://$1|Page load failed|net::ERR_" "$1.log"
}

# The labels of PAGE that are clipped or overlap, one line each: the page with
# tests/cli/html_boxes.js added, rendered; the script writes its findings into the DOM.
label_problems() {
  local page=$1 boxed="$1.boxes.html"
  { sed 's#</body>.*##' "$page"; printf '<script>\n'; cat tests/cli/html_boxes.js
    printf '</script></body></html>\n'; } >"$boxed"
  timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-extensions --user-data-dir="$tmp/profile.boxes.$(basename "$page")" \
    --dump-dom "file://$boxed" >"$boxed.dom" 2>/dev/null
  if ! grep -q '<pre id="boxcheck">BOXCHECK' "$boxed.dom"; then
    echo "label check did not run on $page"
    return
  fi
  sed -n '/<pre id="boxcheck">BOXCHECK/,/^END/p' "$boxed.dom" | grep -v 'BOXCHECK\|^END\|^none$'
}

# check_page NAME PAGE MIN_PLOTS
check_page() {
  local name=$1 page=$2 min=$3
  render "$page"
  check "$name: chromium exit 0" test $? -eq 0
  check "$name: the DOM is the page (no error page)" \
    bash -c "grep -q '<h1>idlekit' '$page.dom' && ! grep -qiE 'chrome-error|neterror|ERR_FILE' '$page.dom'"
  local want got
  want=$(grep -c '<svg ' "$page")
  got=$(grep -o '<svg ' "$page.dom" | wc -l)
  check "$name: all $want plots in the DOM (got $got)" test "$got" -eq "$want"
  check "$name: at least $min plots" test "$want" -ge "$min"
  local bad
  bad=$(incomplete_plots "$page.dom")
  [ -z "$bad" ] || echo "$bad"
  check "$name: every plot has axes, axis labels and data" test -z "$bad"
  bad=$(page_errors "$page")
  [ -z "$bad" ] || echo "$bad"
  check "$name: no console error or failed load" test -z "$bad"
  bad=$(label_problems "$page")
  [ -z "$bad" ] || echo "$bad"
  check "$name: no clipped or overlapping labels" test -z "$bad"
}

# The checks themselves can fail: a page with an invalid SVG attribute, a plot without
# data, and a missing file are each caught.
cat >"$tmp/broken.html" <<'EOF'
<!DOCTYPE html><html><body><h1>idlekit broken</h1>
<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><line class="axis x"/>
<line class="axis y"/><text class="axis-label">x</text><text class="axis-label">y</text>
<rect class="data" x="1" y="1" width="-5" height="3"/></svg>
<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><line class="axis x"/>
<line class="axis y"/><text class="axis-label">x</text><text class="axis-label">y</text></svg>
</body></html>
EOF
render "$tmp/broken.html"
check "self-check: an invalid SVG attribute is reported" \
  bash -c "$(declare -f page_errors); page_errors '$tmp/broken.html' | grep -q 'negative value'"
check "self-check: a plot without data is found" \
  bash -c "$(declare -f incomplete_plots); incomplete_plots '$tmp/broken.html.dom' | grep -q '^plot 2: .*data marks 0'"
render "$tmp/missing.html"
check "self-check: a missing page is reported" \
  bash -c "$(declare -f page_errors); page_errors '$tmp/missing.html' | grep -q 'Page load failed'"

# The label check can fail: two overlapping labels, one running off its plot and two
# rotated labels drawn over each other are found; two rotated labels apart are not.
cat >"$tmp/labels.html" <<'EOF'
<!DOCTYPE html><html><body><h1>idlekit labels</h1>
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100" font-size="12">
<text x="10" y="20">p50 12.3</text><text x="30" y="22">p90 12.9</text>
<text x="150" y="60">a legend that runs off</text>
<text x="50" y="90" transform="rotate(-60 50 90)">96-99</text><text x="54" y="90" transform="rotate(-60 54 90)">100-103</text>
<text x="100" y="90" transform="rotate(-60 100 90)">x</text><text x="130" y="90" transform="rotate(-60 130 90)">y</text>
</svg></body></html>
EOF
label_problems "$tmp/labels.html" >"$tmp/labels.out"
check "self-check: overlapping labels are found" grep -q 'overlap: "p50 12.3" and "p90 12.9"' "$tmp/labels.out"
check "self-check: a clipped label is found" grep -q 'clipped: "a legend that runs off"' "$tmp/labels.out"
check "self-check: overlapping rotated labels are found" grep -q 'overlap: "96-99" and "100-103"' "$tmp/labels.out"
check "self-check: nothing else" test "$(wc -l <"$tmp/labels.out")" -eq 3

# sim, and a 512-CPU sim (grouped bars, a 64-row timeline)
"$bin" sim --runs 3 --set scenario.duration_ms=20 --json -o "$tmp/base.json" --html "$tmp/sim.html" >/dev/null
check "sim --html" test -s "$tmp/sim.html"
check_page sim "$tmp/sim.html" 7
"$bin" sim --set platform.packages=4 --set scenario.duration_ms=5 --html "$tmp/big.html" >/dev/null
check "sim --html, 512 CPUs" test -s "$tmp/big.html"
check_page sim-512 "$tmp/big.html" 7

# compare
"$bin" sim --runs 3 --set scenario.duration_ms=20 --set cpuidle.governor=teo --json -o "$tmp/teo.json" >/dev/null
"$bin" compare "$tmp/base.json" "$tmp/teo.json" --html "$tmp/compare.html" >/dev/null
check "compare --html" test -s "$tmp/compare.html"
check_page compare "$tmp/compare.html" 5

# analyze and replay on the fixture trace
trace=tests/fixtures/traces/two-cpus.trace
"$bin" analyze "$trace" --html "$tmp/analyze.html" >/dev/null
check "analyze --html" test -s "$tmp/analyze.html"
check_page analyze "$tmp/analyze.html" 4
"$bin" replay "$trace" -g menu -p trace --compare-recorded --html "$tmp/replay.html" >/dev/null
check "replay --html" test -s "$tmp/replay.html"
check_page replay "$tmp/replay.html" 6

# wakelat measures this machine (two CPUs if there are two, as wakelat_ctxsw.sh does)
[ "$(nproc)" -ge 2 ] && wakee=1 || wakee=0
"$bin" wakelat -n 300 --warmup 20 --gap 50us --wakee-cpu $wakee --html "$tmp/wakelat.html" >/dev/null
check "wakelat --html" test -s "$tmp/wakelat.html"
check_page wakelat "$tmp/wakelat.html" 2

echo "html_chromium: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
