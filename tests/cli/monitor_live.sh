#!/usr/bin/env bash
# idlekit monitor on this machine: around a command and per interval, in text, JSON and CSV.
# Whether or not the machine has a cpuidle driver, it must say what it measures and exit 0.
set -eu
ik=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$ik" monitor -- sleep 0.2 > "$tmp/cmd.txt" || fail "monitor -- sleep 0.2"
grep -Eq "^report 1: [0-9.]+ s" "$tmp/cmd.txt" || { cat "$tmp/cmd.txt" >&2; fail "no report around the command"; }
if grep -q 'no cpuidle driver' "$tmp/cmd.txt"; then
	grep -q 'idle_%' "$tmp/cmd.txt" || fail "no idle time without cpuidle"
	echo "ok: no cpuidle driver here; monitor says so and reports idle time"
else
	grep -q 'residency_%' "$tmp/cmd.txt" || fail "no residency column"
	grep -q 'miss_%' "$tmp/cmd.txt" || fail "no mis-prediction column"
	grep -q '^not in an idle state: ' "$tmp/cmd.txt" || fail "no busy share"
	echo "ok: monitor around sleep 0.2 ($(grep -m1 '^report' "$tmp/cmd.txt"))"
fi
# The command's exit status is monitor's.
rc=0
"$ik" monitor -- sh -c 'exit 5' > /dev/null || rc=$?
[ "$rc" = 5 ] || fail "command exit status: $rc"

"$ik" monitor -i 0.1 -n 2 --json > "$tmp/json" || fail "monitor --json"
[ "$(grep -c '^{"schema": "idlekit.monitor/1", "report": [12], ' "$tmp/json")" = 2 ] ||
	fail "two JSON reports expected"
"$ik" monitor -i 0.1 -n 1 --csv --cpu 0 > "$tmp/csv" || fail "monitor --csv"
head -1 "$tmp/csv" | grep -Eq '^report,elapsed_s,cpu,' || fail "CSV header"
"$ik" monitor -i 0.1 -n 1 --per-cpu > /dev/null || fail "monitor --per-cpu"
# --per-cpu --json: each group's CPUs one by one beside its sums, which they add up to
"$ik" monitor -i 0.1 -n 1 --per-cpu --json > "$tmp/pjson" || fail "monitor --per-cpu --json"
python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).readline())
for g in d["groups"]:
    cpus = [c["cpu"] for c in g["per_cpu"]]
    assert len(cpus) >= 1 and cpus == sorted(cpus), cpus
    for k, st in enumerate(g["states"]):
        assert st["usage"] == sum(c["states"][k]["usage"] for c in g["per_cpu"]), (k, st)
        assert st["time_us"] == sum(c["states"][k]["time_us"] for c in g["per_cpu"]), (k, st)
' "$tmp/pjson" || fail "monitor --per-cpu --json: per_cpu missing or not adding up"

# Bad input.
for args in "--interval 0" "--interval x" "--count 0" "-i 1 -- true" "--cpu 99999"; do
	rc=0
	# shellcheck disable=SC2086
	"$ik" monitor $args > /dev/null 2> "$tmp/err" || rc=$?
	[ "$rc" = 2 ] || fail "monitor $args: exit $rc"
done
echo "ok: monitor"
