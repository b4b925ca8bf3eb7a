#!/usr/bin/env bash
# idlekit sim --html and idlekit compare --html: self-contained pages, and no file on bad input.
# With chromium installed (not a dependency), also checks that a headless browser renders it.
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
check "unwritable: exit 1" test $? -eq 1
"$bin" sim --html >/dev/null 2>&1
check "--html without FILE: exit 2" test $? -eq 2

# compare
"$bin" sim --runs 3 --set scenario.duration_ms=20 --set workload.work_ns=8000 --json -o "$tmp/slow.json"
"$bin" compare "$tmp/base.json" "$tmp/slow.json" --html "$tmp/cmp.html" >"$tmp/cmp.txt"
check "compare --html exit 0" test $? -eq 0
check "compare still prints its table" grep -q "AMean CoefVar" "$tmp/cmp.txt"
check "compare page written" test -s "$tmp/cmp.html"
check "compare page has plots" test "$(grep -c '^<svg ' "$tmp/cmp.html")" -ge 5
check "compare legend names the results" bash -c "grep -q 'base.json</text>' '$tmp/cmp.html' && grep -q 'slow.json</text>' '$tmp/cmp.html'"
check "compare page ends with </html>" bash -c "tail -1 '$tmp/cmp.html' | grep -q '^</html>$'"
echo '{"not": "a result"}' >"$tmp/junk.json"
"$bin" compare "$tmp/base.json" "$tmp/junk.json" --html "$tmp/cmpbad.html" >/dev/null 2>&1
check "compare bad input exit 2" test $? -eq 2
check "compare bad input: no file" test ! -e "$tmp/cmpbad.html"
"$bin" compare "$tmp/base.json" --html >/dev/null 2>&1
check "compare --html without FILE: exit 2" test $? -eq 2

# Headless Chromium, when installed: the page renders, every plot in the DOM.
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
  echo "SKIP: chromium not installed (headless rendering check)"
else
  profile=$(mktemp -d)
  timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --dump-dom "file://$tmp/sim.html" >"$tmp/dom.html" 2>/dev/null
  check "chromium renders the page" test "$(grep -c '<svg' "$tmp/dom.html")" -ge 6
  rm -rf "$profile"
fi

echo "html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
