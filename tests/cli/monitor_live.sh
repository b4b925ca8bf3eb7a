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
# (with no cpuidle driver: each CPU's idle share from /proc/stat instead)
check_pjson() {
	python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).readline())
if d["driver"] == "none" or "groups" not in d:
    assert "groups" not in d, "groups without a driver"
    assert d["idle_source"] is not None, "no idle source"
    assert len(d["cpus"]) >= 1, d["cpus"]
    for c in d["cpus"]:
        assert 0 <= c["idle_pct"] <= 100, c
    sys.exit(0)
for g in d["groups"]:
    cpus = [c["cpu"] for c in g["per_cpu"]]
    assert len(cpus) >= 1 and cpus == sorted(cpus), cpus
    for k, st in enumerate(g["states"]):
        assert st["usage"] == sum(c["states"][k]["usage"] for c in g["per_cpu"]), (k, st)
        assert st["time_us"] == sum(c["states"][k]["time_us"] for c in g["per_cpu"]), (k, st)
' "$1"
}
check_pjson "$tmp/pjson" || fail "monitor --per-cpu --json: per_cpu missing or not adding up"

# A machine with no cpuidle driver, whatever this one has: a tree whose cpuidle directory
# names no driver (as the kernel shows it when none registered) and a /proc/stat beside it.
nd=$tmp/nodriver
mkdir -p "$nd/sys/devices/system/cpu/cpuidle" "$nd/proc"
for c in 0 1; do mkdir -p "$nd/sys/devices/system/cpu/cpu$c"; done
echo 0-1 > "$nd/sys/devices/system/cpu/online"
echo 0-1 > "$nd/sys/devices/system/cpu/possible"
echo none > "$nd/sys/devices/system/cpu/cpuidle/current_driver"
printf 'cpu  300 0 100 600 0 0 0 0 0 0\ncpu0 150 0 50 300 0 0 0 0 0 0\ncpu1 150 0 50 300 0 0 0 0 0 0\n' \
	> "$nd/proc/stat"
"$ik" monitor --sysfs-root "$nd" -i 0.1 -n 1 > "$tmp/nd.txt" || fail "monitor, no driver: exit status"
grep -q "no cpuidle driver (driver 'none')" "$tmp/nd.txt" || fail "monitor, no driver: not said"
grep -Eq '^1 +0\.00$' "$tmp/nd.txt" || { cat "$tmp/nd.txt" >&2; fail "monitor, no driver: cpu1 line"; }
"$ik" monitor --sysfs-root "$nd" -i 0.1 -n 1 --per-cpu --json > "$tmp/nd.json" ||
	fail "monitor, no driver: --json exit status"
check_pjson "$tmp/nd.json" || fail "monitor, no driver: JSON"
echo "ok: monitor on a tree with no cpuidle driver"

# Bad input.
for args in "--interval 0" "--interval x" "--count 0" "-i 1 -- true" "--cpu 99999"; do
	rc=0
	# shellcheck disable=SC2086
	"$ik" monitor $args > /dev/null 2> "$tmp/err" || rc=$?
	[ "$rc" = 2 ] || fail "monitor $args: exit $rc"
done
echo "ok: monitor"
