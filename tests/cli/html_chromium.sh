#!/usr/bin/env bash
# Every kind of HTML report (sim, compare, analyze, replay, wakelat) rendered by a headless
# Chromium: the page loads (no error page), the DOM holds every plot with its axes, axis
# labels and data marks, and Chromium's log has no console message about the page (an
# invalid SVG attribute, for one, is reported there) and no failed load.
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
check() {
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; fail=$((fail + 1)); fi
}

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
