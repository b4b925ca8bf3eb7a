#!/usr/bin/env bash
# -o and --html naming one file (the same name, ./NAME, a path through another folder, a
# symbolic link) are refused before anything runs, in every command that takes both: one
# message, exit status 2, nothing written.  Two different files are still written.
set -u
bin=${1:?usage: same_output.sh IDLEKIT}
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/check.bash
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/d"
ln -s "$tmp/r.out" "$tmp/link"
: >"$tmp/old.out"
ln "$tmp/old.out" "$tmp/hard.out" # a hard link: two names of one existing file

"$bin" sim --set scenario.duration_ms=20 -q --json -o "$tmp/a.json"
trace=tests/fixtures/traces/two-cpus.trace
for cmd in "sim --set scenario.duration_ms=20 -q" "analyze $trace" "replay $trace -g menu -p intel-skx" \
	   "compare $tmp/a.json $tmp/a.json"; do
	for second in "$tmp/r.out" "$tmp/./r.out" "$tmp/d/../r.out" "$tmp/link"; do
		# shellcheck disable=SC2086 # the command's words
		$bin $cmd -o "$tmp/r.out" --html "$second" >"$tmp/stdout" 2>"$tmp/err"
		rc=$?
		name="${cmd%% *} -o r.out --html ${second#"$tmp"/}"
		check "$name: exit 2 (got $rc)" test $rc -eq 2
		check "$name: says so" grep -q 'name the same file' "$tmp/err"
		check "$name: one line" test "$(wc -l <"$tmp/err")" -eq 1
		check "$name: nothing written" test ! -e "$tmp/r.out"
	done
	# shellcheck disable=SC2086
	$bin $cmd -o "$tmp/old.out" --html "$tmp/hard.out" >/dev/null 2>"$tmp/err"
	rc=$?
	check "${cmd%% *} -o old.out --html hard.out (a hard link): exit 2 (got $rc)" test $rc -eq 2
	check "${cmd%% *}: the hard link said" grep -q 'name the same file' "$tmp/err"
	check "${cmd%% *}: the file untouched" test ! -s "$tmp/old.out"
	# shellcheck disable=SC2086
	$bin $cmd -o "$tmp/r.out" --html "$tmp/r.html" >/dev/null 2>&1
	check "${cmd%% *}: two files written" test -s "$tmp/r.out" -a -s "$tmp/r.html"
	rm -f "$tmp/r.out" "$tmp/r.html"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
