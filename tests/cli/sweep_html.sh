#!/usr/bin/env bash
# The sweep's HTML page rendered by a headless Chromium (as html_chromium.sh does for the
# other pages): it loads, every plot is in the DOM with both axes, two axis labels and data
# marks, and Chromium's log has no console message about the page.  Pages: two numeric
# axes with a bad-run threshold (line plots, heat maps), one categorical axis, three axes.
# Without chromium: FAIL when CI is set (CI=true, as .ci/run sets it), else SKIP (77).
set -u
bin=$1
. "$(dirname "$0")/check.bash" # check NAME CMD...: counted in pass or fail; need_tool
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || need_tool chromium "scripts/install-deps installs it"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
check "three axes: small multiples, said" grep -q 'One plot per combination of the axes after the first two (2), sharing their scales' "$tmp/three/index.html"
# every point of the grid is a marker of the messages_per_s plots (their tooltips name it)
every_point() { # DIR AXES...: the distinct points the messages_per_s markers name = the grid's
  python3 - "$@" <<'PY'
import html, re, sys, csv
d, keys = sys.argv[1], sys.argv[2:]
page = open(d + "/index.html").read()
rows = list(csv.DictReader(open(d + "/summary.csv")))
grid = {tuple(r[k] for k in keys) for r in rows}
seen = set()
for svg in re.findall(r"<svg.*?</svg>", page, re.S):
    t = re.search(r"<title>([^<]*)</title>", svg)
    if not t or not t.group(1).startswith("messages_per_s, a line per"):
        continue
    for tip in re.findall(r'<circle class="data"[^>]*><title>([^<]*)</title>', svg):
        tip = html.unescape(tip)
        seen.add(tuple(re.search(re.escape(k) + r"=([^,:) ]+)", tip).group(1) for k in keys))
missing = grid - seen
assert not missing and seen <= grid, ("missing", sorted(missing), "extra", sorted(seen - grid))
print(len(seen))
PY
}
check "three axes: every one of the 8 points is on the page" every_point "$tmp/three" cpuidle.governor workload.pairs workload.placement
printf '[sweep]\nbase = default\nruns = 1\nvary.cpuidle.governor = menu,teo\nvary.workload.pairs = 1,2\nvary.workload.placement = same_core,same_package\nvary.workload.work_ns = 2000,8000\n%s\n' "$short" >"$tmp/four.ini"
"$bin" sweep "$tmp/four.ini" -o "$tmp/four" -q
check_page "four axes" "$tmp/four/index.html" 8
check "four axes: every one of the 16 points is on the page" every_point "$tmp/four" cpuidle.governor workload.pairs workload.placement workload.work_ns
check "four axes: a panel per combination of the last two" test "$(grep -c '<title>messages_per_s, a line per workload.pairs (workload.placement=' "$tmp/four/index.html")" -eq 4
# Five axes, 18 combinations of the last three: views of 12 behind a selector; every point
# is still on the page, the first view shows by default and #panels-2 shows the second.
printf '[sweep]\nbase = default\nruns = 1\nvary.cpuidle.governor = menu,teo\nvary.workload.pairs = 1,2\nvary.workload.placement = same_core,same_package\nvary.workload.work_ns = 2000,8000,16000\nvary.kernel.version = 6.6,6.19,5.15\n%s\n' "$short" >"$tmp/five.ini"
"$bin" sweep "$tmp/five.ini" -o "$tmp/five" -q
check_page "five axes" "$tmp/five/index.html" 18
check "five axes: every one of the 72 points is on the page" every_point "$tmp/five" cpuidle.governor workload.pairs workload.placement workload.work_ns kernel.version
check "five axes: a selector of two views, said" grep -q 'the selector shows 12 combinations at a time' "$tmp/five/index.html"
check "five axes: two options" test "$(grep -c '<option value="panels-' "$tmp/five/index.html")" -eq 2
check "five axes: views of 12 and 6 panels of messages_per_s" python3 -c '
import re, sys
page = open(sys.argv[1]).read()
views = re.findall(r"<section class=\"panel-view\" id=\"(panels-\d+)\">(.*?)</section>", page, re.S)
n = [len(re.findall(r"<title>messages_per_s, a line per", v)) for _, v in views]
assert [v for v, _ in views] == ["panels-1", "panels-2"] and n == [12, 6], n' "$tmp/five/index.html"
hidden_views() { # DOM: the ids of the views the page hides
  grep -o '<section class="panel-view" id="panels-[0-9]*"[^>]*>' "$1" | grep hidden | grep -o 'panels-[0-9]*' | tr '\n' ' '
}
check "five axes: the first view shown, the second hidden ($(hidden_views "$tmp/five/index.html.dom"))" test "$(hidden_views "$tmp/five/index.html.dom")" = "panels-2 "
timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
  --user-data-dir="$tmp/profile.hash" --dump-dom "file://$tmp/five/index.html#panels-2" >"$tmp/five-2.dom" 2>/dev/null
check "five axes: #panels-2 shows the second view ($(hidden_views "$tmp/five-2.dom"))" test "$(hidden_views "$tmp/five-2.dom")" = "panels-1 "
heat_legend() { # the legend entries of the first heat map (a median's)
  python3 -c '
import re, sys
page = open(sys.argv[1]).read()
for svg in re.findall(r"<svg.*?</svg>", page, re.S):
    t = re.search(r"<title>([^<]*)</title>", svg)
    if t and t.group(1).endswith("median over runs"):
        g = re.search(r"<g class=\"legend\">(.*?)</g>", svg, re.S)
        print(len(re.findall(r"<text ", g.group(1))))
        break' "$1"
}
check "heat map: a legend of five steps ($(heat_legend "$tmp/two/index.html"))" test "$(heat_legend "$tmp/two/index.html")" = 5

# An axis of 2,000 values: no marker per point, and the lines thinned to the pixel column
# (first, lowest, highest and last vertex of each): every vertex is one of the points, and
# each column's extremes are kept.  (Before, such a page had a marker with a tooltip per
# point and figure: 10,000 values made a page of 29 MB.)
printf '[sweep]\nbase = default\nruns = 1\nvary.workload.work_ns = lin:1000:40980:2000\n[scenario]\nduration_ms = 1\nwarmup_ms = 0\n' >"$tmp/wide.ini"
"$bin" sweep "$tmp/wide.ini" -o "$tmp/wide" -q
check_page "2,000 values on an axis" "$tmp/wide/index.html" 5
check "2,000 values: no marker per point" test "$(grep -c '<circle' "$tmp/wide/index.html")" -eq 0
check "2,000 values: the plot says so" grep -q 'no marker per point (more than 300 values' "$tmp/wide/index.html"
thinned() {
  python3 - "$1" <<'PY'
import csv, math, re, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/summary.csv")))
xs = [float(r["workload.work_ns"]) for r in rows]
ys = [float(r["messages_per_s_median"]) for r in rows]
line = re.search(r'<polyline class="data"[^>]*points="([^"]*)"', open(d + "/index.html").read()).group(1)
v = [tuple(map(float, p.split(","))) for p in line.split()]
assert len(rows) == 2000 and 100 < len(v) < 2000, (len(rows), len(v))
# the first and last vertices are the first and last points: the axes' maps from them
cx = (v[-1][0] - v[0][0]) / (xs[-1] - xs[0])
cy = (v[-1][1] - v[0][1]) / (ys[-1] - ys[0])
pts = [(v[0][0] + cx * (x - xs[0]), v[0][1] + cy * (y - ys[0])) for x, y in zip(xs, ys)]
near = lambda a, b: abs(a[0] - b[0]) < 0.15 and abs(a[1] - b[1]) < 0.15
assert all(any(near(q, p) for p in pts) for q in v), "a vertex that is no point"
cols = {}
for p in pts:
    cols.setdefault(math.floor(p[0]), []).append(p)
checked = 0
for c, ps in cols.items():
    if any(abs(p[0] - round(p[0])) < 0.15 for p in ps):
        continue  # a point near the column's edge: which column it fell in is unsure
    mine = [q for q in v if c - 0.15 <= q[0] < c + 1.15]
    for e in (min(ps, key=lambda p: p[1]), max(ps, key=lambda p: p[1])):
        assert any(near(q, e) for q in mine), ("column", c, "lost", e)
    checked += 1
assert checked > 100, checked
assert len(v) <= 4 * len(cols), (len(v), len(cols))
PY
}
check "2,000 values: the median line thinned to the pixel, every column's extremes kept" thinned "$tmp/wide"

# Two axes of 60 x 45 values: more cells than a heat map is drawn for, and the page says so.
printf '[sweep]\nbase = default\nruns = 1\nvary.workload.work_ns = lin:1000:60000:60\nvary.workload.pairs = lin:1:45:45\n[scenario]\nduration_ms = 1\nwarmup_ms = 0\n' >"$tmp/big2.ini"
"$bin" sweep "$tmp/big2.ini" -o "$tmp/big2" -q
check "60 x 45 points: no heat map, and why" grep -q 'No heat map of messages_per_s: the first two axes make 2700 cells, more than the 2500' "$tmp/big2/index.html"

echo "sweep_html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
