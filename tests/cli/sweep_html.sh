#!/usr/bin/env bash
# The sweep's HTML page rendered by a headless Chromium (as html_chromium.sh does for the
# other pages): it loads, every plot is in the DOM with both axes, two axis labels and data
# marks, and Chromium's log has no console message about the page.  Pages: two numeric
# axes with a bad-run threshold (line plots, heat maps), one categorical axis, three axes.
# Without chromium: FAIL when CI is set (CI=true, as .ci/run sets it), else SKIP (77).
set -u
bin=$1
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
  if [ "${CI:-}" = true ]; then echo "FAIL: chromium is not installed (scripts/install-deps installs it)"; exit 1; fi
  echo "SKIP: chromium not installed (scripts/install-deps installs it)"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
check() {
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; fail=$((fail + 1)); fi
}
render() {
  timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-extensions --user-data-dir="$tmp/profile.$(basename "$(dirname "$1")")" \
    --enable-logging=stderr --v=0 --dump-dom "file://$1" >"$1.dom" 2>"$1.log"
}
incomplete_plots() {
  awk 'BEGIN { RS = "</svg>" }
       /<svg/ {
         n++
         s = substr($0, index($0, "<svg"))
         ax = gsub(/class="axis x"/, "&", s); ay = gsub(/class="axis y"/, "&", s)
         lab = gsub(/class="axis-label"/, "&", s); d = gsub(/class="data/, "&", s)
         if (ax != 1 || ay != 1 || lab != 2 || d < 1)
           printf "plot %d: axes %d/%d, axis labels %d, data marks %d\n", n, ax, ay, lab, d
       }' "$1"
}
check_page() {
  local name=$1 page=$2 min=$3
  render "$page"
  check "$name: chromium exit 0" test $? -eq 0
  check "$name: the DOM is the page" bash -c "grep -q '<h1>idlekit sweep' '$page.dom'"
  local want got bad
  want=$(grep -c '<svg ' "$page")
  got=$(grep -o '<svg ' "$page.dom" | wc -l)
  check "$name: all $want plots in the DOM (got $got)" test "$got" -eq "$want"
  check "$name: at least $min plots (got $want)" test "$want" -ge "$min"
  bad=$(incomplete_plots "$page.dom")
  [ -z "$bad" ] || echo "$bad"
  check "$name: every plot has axes, axis labels and data" test -z "$bad"
  bad=$(grep -E "CONSOLE.*source: file://$page|Page load failed|net::ERR_" "$page.log")
  [ -z "$bad" ] || echo "$bad"
  check "$name: no console error or failed load" test -z "$bad"
}

short=$'[scenario]\nduration_ms = 10\nwarmup_ms = 5'
printf '[sweep]\nbase = default\nruns = 3\nvary.workload.pairs = 1,2,4\nvary.workload.work_ns = log:1000:20000:3\nbad_below = messages_per_s:200000\n%s\n' "$short" >"$tmp/two.ini"
"$bin" sweep "$tmp/two.ini" -o "$tmp/two" -q
# 1 bad-fraction plot + 2 heat maps + line plots of every non-zero figure
check_page "two axes" "$tmp/two/index.html" 10
check "two axes: heat maps" test "$(grep -c 'median over runs</title>\|fraction</title>' "$tmp/two/index.html")" -ge 2
printf '[sweep]\nbase = default\nruns = 2\nvary.cpuidle.governor = menu,teo,ladder\n%s\n' "$short" >"$tmp/cat.ini"
"$bin" sweep "$tmp/cat.ini" -o "$tmp/cat" -q
check_page "a categorical axis" "$tmp/cat/index.html" 5
printf '[sweep]\nbase = default\nruns = 1\nvary.cpuidle.governor = menu,teo\nvary.workload.pairs = 1,2\nvary.workload.placement = same_core,same_package\n%s\n' "$short" >"$tmp/three.ini"
"$bin" sweep "$tmp/three.ini" -o "$tmp/three" -q
check_page "three axes" "$tmp/three/index.html" 5
check "three axes: says the third is fixed" grep -q 'Axes beyond the first two are at their first value' "$tmp/three/index.html"

echo "sweep_html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
