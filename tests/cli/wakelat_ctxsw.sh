#!/usr/bin/env bash
# idlekit wakelat and ctxsw run on this machine (CPUs 0 and 1) and print figures with their
# units.  No figure is checked against a wall-clock expectation: only that there are some.
set -eu
ik=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

nproc=$(nproc)
[ "$nproc" -ge 2 ] && wakee=1 || wakee=0

for method in futex pipe eventfd; do
	"$ik" wakelat --method $method -n 300 --warmup 20 --gap 50us --wakee-cpu $wakee \
		> "$tmp/$method" || fail "wakelat --method $method"
	for p in 25 50 75 90 95 99 99.5 99.9 99.95 99.99; do
		grep -Eq "^ *$p% +[0-9]+ ns\$" "$tmp/$method" || fail "$method: no p$p in ns"
	done
	grep -Eq '^ +min +[0-9]+ ns$' "$tmp/$method" && grep -Eq '^ +max +[0-9]+ ns$' "$tmp/$method" ||
		fail "$method: no min/max"
	echo "ok: wakelat $method: $(grep -E '^ +50%' "$tmp/$method" | tr -s ' ')"
done
"$ik" wakelat --json -n 200 --wakee-cpu $wakee > "$tmp/json" || fail "wakelat --json"
grep -q '"schema": "idlekit.wakelat/1"' "$tmp/json" || fail "wakelat JSON schema"
grep -Eq '"percentiles_ns": \{"25": [0-9]+, "50": [0-9]+, .*"99.99": [0-9]+\}' "$tmp/json" ||
	fail "wakelat JSON percentiles"
# min <= p50 <= max
min=$(sed -n 's/.*"min_ns": \([0-9]*\).*/\1/p' "$tmp/json")
max=$(sed -n 's/.*"max_ns": \([0-9]*\).*/\1/p' "$tmp/json")
p50=$(sed -n 's/.*"50": \([0-9]*\).*/\1/p' "$tmp/json")
[ "$min" -le "$p50" ] && [ "$p50" -le "$max" ] || fail "min $min p50 $p50 max $max out of order"

for t in pipe futex yield; do
	"$ik" ctxsw --test $t --duration 1 > "$tmp/ctx.$t" || fail "ctxsw --test $t"
	grep -Eq '^ +1 +[0-9]+ switches/s$' "$tmp/ctx.$t" || fail "$t: no per-second figure"
	grep -Eq '^overall: [0-9]+ switches in [0-9.]+ s = [1-9][0-9]* switches/s$' "$tmp/ctx.$t" ||
		fail "$t: no overall figure"
	echo "ok: ctxsw $t: $(tail -1 "$tmp/ctx.$t")"
done
"$ik" ctxsw --duration 1 --json > "$tmp/ctx.json" || fail "ctxsw --json"
grep -Eq '"switches_per_s": [1-9][0-9]*' "$tmp/ctx.json" || fail "ctxsw JSON"

# Bad input: exit 2.
for args in "wakelat --method spin" "wakelat --gap 5parsecs" "wakelat --wakee-cpu 8191" \
	    "wakelat -n 0" "ctxsw --test sleep" "ctxsw --cpus 0" "ctxsw --cpus 0,8191" \
	    "ctxsw --duration 0"; do
	rc=0
	# shellcheck disable=SC2086
	"$ik" $args > /dev/null 2> "$tmp/err" || rc=$?
	[ "$rc" = 2 ] || fail "$args: exit $rc ($(cat "$tmp/err"))"
	[ -s "$tmp/err" ] || fail "$args: no message"
done
echo "ok: wakelat and ctxsw"
