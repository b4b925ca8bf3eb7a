#!/usr/bin/env bash
# rt-app's own example files (tests/fixtures/rtapp/upstream/, copied from rt-app's
# doc/examples/) load as rt-app reads them: the 22 complete workload files run (with notes
# for what idlekit reads otherwise or leaves out, never silently), the 6 fragments of
# merge/ are refused with a message that says what they are.
set -u
bin=${1:?usage: rtapp_upstream.sh IDLEKIT}
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/check.bash
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
for f in $(find tests/fixtures/rtapp/upstream -name '*.json' -not -path '*/merge/*' | sort); do
	"$bin" sim --set workload.type=rtapp --set workload.file="$f" --set scenario.duration_ms=200 \
		-q --json -o "$tmp/r.json" 2>"$tmp/err"
	rc=$?
	check "$f runs (exit $rc: $(head -c 300 "$tmp/err"))" test $rc -eq 0
	check "$f: a run with activations" grep -q '"activations"' "$tmp/r.json"
	if grep -v ': note: ' "$tmp/err" | grep -q .; then
		check "$f: only notes on stderr, got: $(grep -v ': note: ' "$tmp/err" | head -1)" false
	fi
	n=$((n + 1))
done
check "22 complete upstream files (found $n)" test "$n" -eq 22

for f in tests/fixtures/rtapp/upstream/merge/*.json; do
	"$bin" sim --set workload.type=rtapp --set workload.file="$f" -q >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$f refused with exit 2 (got $rc)" test $rc -eq 2
	check "$f: says what it is" grep -qE 'a fragment of an rt-app file|the pre-2015 rt-app format' "$tmp/err"
	check "$f: nothing on stdout" test ! -s "$tmp/out"
done

# what is read otherwise is said: the repeated keys, the key with no value, what is ignored
v=tests/fixtures/rtapp/upstream/video-short.json
"$bin" sim --set workload.type=rtapp --set workload.file="$v" --set scenario.duration_ms=50 -q \
	>/dev/null 2>"$tmp/err"
check "video: repeated keys noted" grep -q 'repeated keys numbered in file order' "$tmp/err"
check "video: the bare \"suspend\" noted" grep -q 'with no value (not JSON' "$tmp/err"
check "video: ignored globals named" grep -q "global's .*frag" "$tmp/err"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
