#!/usr/bin/env bash
# `idlekit govreplay`: the hand-derived corpus (tests/govreplay/), every governor on every
# built-in platform, bad input (line number and reason, exit status 2), atomic -o, --json,
# and a generated stream of a million lines.
#
# usage (from the project root): bash tests/cli/govreplay.sh /path/to/idlekit
set -u
bin=${1:?usage: govreplay.sh /path/to/idlekit}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# ---- The corpus: tests/govreplay/<governor>-<case>.csv against <case>.expected ----------
# The governor is the file name's first word; other options are on the '# args:' line.
ncases=0
for csv in tests/govreplay/*.csv; do
	name=$(basename "$csv" .csv)
	governor=${name%%-*}
	args=$(sed -n 's/^# args: //p' "$csv" | head -n 1)
	# shellcheck disable=SC2086 # the args line is a list of options
	"$bin" govreplay --governor "$governor" $args --input "$csv" -q >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
		fail "$name: exit $rc: $(cat "$tmp/err")"
	elif ! diff -u "tests/govreplay/$name.expected" "$tmp/out" >"$tmp/diff"; then
		fail "$name: decisions differ from $name.expected:"
		cat "$tmp/diff"
	fi
	ncases=$((ncases + 1))
done
[ "$ncases" -ge 16 ] || fail "only $ncases corpus cases found"

# The same stream from standard input ('-' and the default) gives the same decisions.
csv=tests/govreplay/menu-timer-bands.csv
"$bin" govreplay -g menu -p intel-skx -q <"$csv" >"$tmp/stdin1" || fail "stdin (default)"
"$bin" govreplay -g menu -p intel-skx -q -i - <"$csv" >"$tmp/stdin2" || fail "stdin (-)"
cmp -s "$tmp/stdin1" tests/govreplay/menu-timer-bands.expected || fail "stdin: other decisions"
cmp -s "$tmp/stdin1" "$tmp/stdin2" || fail "'-i -' differs from the default input"

# ---- Every governor on every built-in platform ------------------------------------------
cat >"$tmp/mixed.csv" <<'EOF'
sleep_ns,tick_ns,wake_ns,latency_req_ns,tick_stopped
3000000,4000000,-,-,0
-,4000000,50000,-,0
10000000,1000000,-,-,1
1500,4000000,-,-,0
-,4000000,-,0,0
300000,100000,20000,50000,0
EOF
platforms=$("$bin" platform list | awk '{print $1}')
[ -n "$platforms" ] || fail "idlekit platform list printed nothing"
for platform in $platforms; do
	for governor in menu teo ladder haltpoll; do
		out=$("$bin" govreplay -g "$governor" -p "$platform" -i "$tmp/mixed.csv" -q 2>&1)
		rc=$?
		lines=$(printf '%s\n' "$out" | grep -c '^[0-9],[01]$')
		if [ $rc -ne 0 ] || [ "$lines" -ne 6 ]; then
			fail "$governor on $platform: exit $rc, $lines decisions: $out"
		fi
	done
done

# ---- The summary and --json ---------------------------------------------------------------
"$bin" govreplay -g menu -p intel-skx -i "$csv" >"$tmp/out" 2>"$tmp/summary" ||
	fail "menu with summary"
grep -q '^govreplay: 8 lines, governor menu, platform intel-skx, HZ 250' "$tmp/summary" ||
	fail "summary line: $(head -1 "$tmp/summary")"
"$bin" govreplay -g menu -p intel-skx -i "$csv" --json >"$tmp/json" 2>"$tmp/err" || fail "--json"
[ -s "$tmp/err" ] && fail "--json wrote to stderr: $(cat "$tmp/err")"
grep -q '"lines": 8,' "$tmp/json" || fail "--json lines"
grep -q '"stop_tick_decisions": 1,' "$tmp/json" || fail "--json stop_tick_decisions"
grep -q '"governor": "menu"' "$tmp/json" || fail "--json governor"
grep -q '"hz": 250' "$tmp/json" || fail "--json hz"
grep -q '{"index": 3, "name": "C6", "disabled": false, "usage": 3, "time_us": 14399, "above": 0, "below": 0, "rejected": 0}' "$tmp/json" ||
	fail "--json C6 counters: $(grep C6 "$tmp/json")"
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert sum(s["usage"] for s in d["states"]) == d["lines"]' "$tmp/json" ||
		fail "--json is not valid JSON or usage does not add up"
fi

# ---- -o writes the file whole, or not at all --------------------------------------------
"$bin" govreplay -g teo -p amd-zen3 -i "$csv" -q -o "$tmp/decisions" || fail "-o"
[ "$(wc -l <"$tmp/decisions")" -eq 8 ] || fail "-o: expected 8 lines"
printf 'sleep_ns,tick_ns,wake_ns\n1000,4000000,-\n1000,zz,-\n' >"$tmp/bad.csv"
"$bin" govreplay -g teo -p amd-zen3 -i "$tmp/bad.csv" -q -o "$tmp/partial" 2>"$tmp/err"
[ $? -eq 2 ] || fail "-o with bad input: exit status"
[ -e "$tmp/partial" ] && fail "-o with bad input left a file"
ls "$tmp" | grep -q 'partial.tmp' && fail "-o with bad input left a temporary file"
grep -q "$tmp/bad.csv:3: column 'tick_ns'" "$tmp/err" || fail "-o bad input message: $(cat "$tmp/err")"

# ---- Bad input: line number and reason, exit status 2 -----------------------------------
# Each case: input (printf format) | text the message must contain.
check_bad() {
	printf "$1" >"$tmp/in.csv"
	"$bin" govreplay -g menu -p intel-skx -i "$tmp/in.csv" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 2 ]; then
		fail "bad input '$1': exit $rc, expected 2"
	elif ! grep -qF -- "$2" "$tmp/err"; then
		fail "bad input '$1': message '$(cat "$tmp/err")' lacks '$2'"
	elif [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		fail "bad input '$1': more than one line on stderr: $(cat "$tmp/err")"
	fi
	# Nothing on stdout when the first data line is the bad one (or there is none).
	if [ -n "${3:-}" ] && [ -s "$tmp/out" ]; then
		fail "bad input '$1': wrote to stdout: $(cat "$tmp/out")"
	fi
}
check_bad '' "in.csv: no header line" empty
check_bad '1000,4000000,-\n' "in.csv:1: missing header" empty
check_bad '# comment\n1000,4000000,-\n' "in.csv:2: missing header" empty
check_bad 'sleep_ns,tick_ns\n' "in.csv:1: header: column 'wake_ns' is missing" empty
check_bad 'sleep_ns,tick_ns,wake_ns,bogus\n' "in.csv:1: header: unknown column 'bogus'" empty
check_bad 'sleep_ns,tick_ns,wake_ns\n1,1\n' "in.csv:2: expected 3 columns (sleep_ns,tick_ns,wake_ns), got 2" empty
check_bad 'sleep_ns,tick_ns,wake_ns\n1,1,1,1\n' "in.csv:2: expected 3 columns (sleep_ns,tick_ns,wake_ns), got 4" empty
check_bad 'sleep_ns,tick_ns,wake_ns\n1,x,-\n' "in.csv:2: column 'tick_ns': expected an integer 1..4000000 (TICK_NSEC at HZ 250), got 'x'" empty
check_bad 'sleep_ns,tick_ns,wake_ns\nabc,1,-\n' "in.csv:2: column 'sleep_ns': expected an integer 0..9223372036854775807 (ns) or '-' (no timer), got 'abc'" empty
check_bad 'sleep_ns,tick_ns,wake_ns\n-5,1,-\n' "got '-5' (negative)" empty
check_bad 'sleep_ns,tick_ns,wake_ns\n5,1,-7\n' "in.csv:2: column 'wake_ns'" empty
check_bad 'sleep_ns,tick_ns,wake_ns\n5,0,-\n' "column 'tick_ns': expected an integer 1..4000000 (TICK_NSEC at HZ 250), got '0'" empty
check_bad 'sleep_ns,tick_ns,wake_ns\n5,4000001,-\n' "got '4000001'" empty
check_bad 'sleep_ns,tick_ns,wake_ns,tick_stopped\n5,1,-,2\n' "column 'tick_stopped': expected 0 or 1, got '2'" empty
check_bad 'sleep_ns,tick_ns,wake_ns,latency_req_ns\n5,1,-,1.5\n' "column 'latency_req_ns'" empty
check_bad 'sleep_ns,tick_ns,wake_ns\n1,1,-\n# fine\n\n1,1,-\n2,2,two\n' "in.csv:6: column 'wake_ns'"
# The tick range follows --hz.
printf 'sleep_ns,tick_ns,wake_ns\n1,1000001,-\n' >"$tmp/in.csv"
"$bin" govreplay -g menu -p intel-skx --hz 1000 -i "$tmp/in.csv" 2>"$tmp/err" >/dev/null
[ $? -eq 2 ] && grep -qF "expected an integer 1..1000000 (TICK_NSEC at HZ 1000)" "$tmp/err" ||
	fail "--hz 1000 tick range: $(cat "$tmp/err")"
# Decisions for the good lines before a bad one are on stdout (the output streams).
printf 'sleep_ns,tick_ns,wake_ns\n3000000,4000000,-\n3000000,4000000,oops\n' >"$tmp/in.csv"
out=$("$bin" govreplay -g menu -p intel-skx -i "$tmp/in.csv" 2>/dev/null)
[ "$out" = "3,0" ] || fail "streamed output before a bad line: '$out'"

# ---- Bad options: exit status 2, a message naming the problem ---------------------------
check_usage() {
	"$bin" govreplay "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "options '$*': exit $rc, expected 2"
	[ -s "$tmp/err" ] || fail "options '$*': no message"
}
check_usage -p intel-skx
check_usage -g menu
check_usage -g nosuch -p intel-skx
check_usage -g menu -p nosuch-platform
check_usage -g menu -p intel-skx --disable C9
check_usage -g menu -p intel-skx --hz 123
check_usage -g menu -p intel-skx -i /nonexistent/file.csv
check_usage -g menu -p intel-skx --bogus
check_usage -g menu -p intel-skx extra-argument
grep -qF "no state named 'C9'" <("$bin" govreplay -g menu -p intel-skx --disable C9 2>&1 </dev/null) ||
	fail "--disable C9 message"
"$bin" govreplay --help | grep -q 'Example' || fail "--help has no example"
"$bin" help govreplay | grep -q 'usage: idlekit govreplay' || fail "idlekit help govreplay"
"$bin" --help | grep -q 'govreplay' || fail "idlekit --help does not list govreplay"

# ---- A million lines, generated ---------------------------------------------------------
awk 'BEGIN {
	print "sleep_ns,tick_ns,wake_ns,latency_req_ns,tick_stopped"
	srand(7)
	for (i = 0; i < 1000000; i++) {
		r = rand()
		sleep = r < 0.1 ? "-" : int(rand() * (r < 0.5 ? 100000 : 20000000))
		wake = rand() < 0.5 ? "-" : int(rand() * 200000)
		lat = rand() < 0.02 ? int(rand() * 200000) : "-"
		print sleep "," 1 + int(rand() * 3999999) "," wake "," lat "," (rand() < 0.1 ? 1 : 0)
	}
}' >"$tmp/million.csv"
for governor in menu teo ladder haltpoll; do
	"$bin" govreplay -g "$governor" -p intel-skx -i "$tmp/million.csv" -q >"$tmp/out" ||
		fail "million lines ($governor): exit $?"
	n=$(wc -l <"$tmp/out")
	[ "$n" -eq 1000000 ] || fail "million lines ($governor): $n decisions"
done
"$bin" govreplay -g menu -p intel-skx -i "$tmp/million.csv" --json >"$tmp/json" ||
	fail "million lines --json"
grep -q '"lines": 1000000,' "$tmp/json" || fail "million lines --json: line count"

if [ "$failures" -ne 0 ]; then
	echo "govreplay: $failures failure(s)"
	exit 1
fi
echo "govreplay: all passed ($ncases corpus cases)"
