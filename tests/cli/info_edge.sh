#!/usr/bin/env bash
# idlekit info (and monitor) on awkward trees: files an older kernel lacks, offline CPUs, no
# cpuidle driver at all; and bad input, which must give a clear message and exit 2.
set -eu  # no pipefail: "idlekit ... | grep -q" may end idlekit early with SIGPIPE
ik=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A dump written out as a tree: ROOT/sys/devices/system/cpu/...
materialize() {
	local dump=$1 root=$2 flag path value dir last=""
	while IFS='|' read -r flag path value; do
		case $path in /sys/*) ;; *) continue ;; esac
		dir=$root${path%/*}
		[ "$dir" = "$last" ] || { mkdir -p "$dir"; last=$dir; }
		printf '%s\n' "$value" > "$root$path"
	done < "$dump"
}

# Runs idlekit, expects exit status $1 and stderr containing $2.
expect_error() {
	local want=$1 needle=$2 rc=0
	shift 2
	"$ik" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	[ "$rc" = "$want" ] || fail "'$*': exit $rc, expected $want ($(cat "$tmp/err"))"
	grep -qF -- "$needle" "$tmp/err" || fail "'$*': message '$(cat "$tmp/err")' lacks '$needle'"
	[ "$(wc -l < "$tmp/err")" = 1 ] || fail "'$*': message is not one line"
}

root=$tmp/kbl
materialize tests/fixtures/sysfs/dell-9360-kbl.txt "$root"
cpu=$root/sys/devices/system/cpu

# Agrees with the dump it came from.
"$ik" info --sysfs-root "$root" --csv > "$tmp/tree.csv"
"$ik" info --sysfs-dump tests/fixtures/sysfs/dell-9360-kbl.txt --csv > "$tmp/dump.csv"
cmp -s "$tmp/tree.csv" "$tmp/dump.csv" || fail "tree and dump disagree"

# An older kernel: no above, below, rejected, default_status, s2idle on CPU 2.
rm -f "$cpu"/cpu2/cpuidle/state*/{above,below,rejected,default_status}
"$ik" info --sysfs-root "$root" --cpu 2 > "$tmp/old.txt" || fail "info without optional files"
grep -Eq '^4 +C6 +MWAIT 0x20 +85 +200 +0 +[0-9]+ +[0-9]+ +- +- +- +0 +-$' "$tmp/old.txt" ||
	{ cat "$tmp/old.txt" >&2; fail "missing files are not shown as '-'"; }
"$ik" info --sysfs-root "$root" --cpu 2 --json | grep -q '"above": null, "below": null' ||
	fail "missing files are not null in JSON"
"$ik" info --sysfs-root "$root" --cpu 2 --csv | grep -Eq '^2,1,0,intel_idle,4,C6,MWAIT 0x20,85,200,0,[0-9]+,[0-9]+,,,,0,$' ||
	fail "missing files are not empty in CSV"
# ... and CPU 2 now has a table of its own (fewer files): two groups.
"$ik" info --sysfs-root "$root" | grep -q '^CPU 2: 9 idle states' || fail "CPU 2 not in its own group"

# Offline CPUs: 3 goes offline.
printf '0-2\n' > "$cpu/online"
printf '3\n' > "$cpu/offline"
printf '0\n' > "$cpu/cpu3/online"
"$ik" info --sysfs-root "$root" > "$tmp/off.txt"
grep -q '^CPU 3: offline$' "$tmp/off.txt" || fail "offline CPU not reported"
grep -q 'online: 0-2 (3), offline: 3' "$tmp/off.txt" || fail "header lacks offline CPUs"
"$ik" info --sysfs-root "$root" --json | grep -q '"cpu": 3, "online": false, "cpuidle": true, "group": null' ||
	fail "offline CPU in JSON"
# Without the global file, each CPU's own online file counts.
rm "$cpu/online"
"$ik" info --sysfs-root "$root" | grep -q '^CPU 3: offline$' || fail "cpuN/online not used"

# No cpuidle driver (VMs, containers): say so, name the default idle routine.
none=$tmp/none
mkdir -p "$none/sys/devices/system/cpu/cpuidle" "$none/sys/devices/system/cpu/cpu0" \
	"$none/sys/devices/system/cpu/cpu1" "$none/proc"
printf 'none\n' > "$none/sys/devices/system/cpu/cpuidle/current_driver"
printf 'menu\n' > "$none/sys/devices/system/cpu/cpuidle/current_governor_ro"
printf '0-1\n' > "$none/sys/devices/system/cpu/online"
printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu vme sse2 hypervisor\n\n' > "$none/proc/cpuinfo"
printf 'cpu  10 0 10 1000 0 0 0 0 0 0\ncpu0 5 0 5 500 0 0 0 0 0 0\ncpu1 5 0 5 500 0 0 0 0 0 0\n' > "$none/proc/stat"
"$ik" info --sysfs-root "$none" > "$tmp/none.txt" || fail "info on a tree without cpuidle"
grep -q '^driver: *none (no cpuidle driver' "$tmp/none.txt" || fail "driver none not said"
grep -q "^default idle: *HLT (default_idle): no 'monitor' flag in $none/proc/cpuinfo" "$tmp/none.txt" ||
	{ cat "$tmp/none.txt" >&2; fail "default idle routine not named"; }
grep -q '^CPUs 0-1: no cpuidle directory (no driver)$' "$tmp/none.txt" || fail "CPUs without cpuidle"
"$ik" info --sysfs-root "$none" --json | grep -q '"default_idle": "HLT (default_idle)' ||
	fail "default idle in JSON"
sed -i 's/sse2/sse2 monitor/' "$none/proc/cpuinfo"
"$ik" info --sysfs-root "$none" | grep -q '^default idle: *MWAIT C1 (mwait_idle) if CPUID leaf 5' ||
	fail "MONITOR flag not seen"
printf 'BOOT_IMAGE=/vmlinuz idle=poll quiet\n' > "$none/proc/cmdline"
"$ik" info --sysfs-root "$none" | grep -q '^default idle: *polling loop (idle=poll' ||
	fail "idle=poll not seen"
"$ik" monitor --sysfs-root "$none" -i 0.05 -n 1 > "$tmp/mon.txt" || fail "monitor without cpuidle"
grep -q "no cpuidle driver (driver 'none')" "$tmp/mon.txt" || fail "monitor does not say there is no driver"
grep -q "^Idle time per CPU from $none/proc/stat" "$tmp/mon.txt" || fail "monitor: no /proc/stat fallback"
grep -Eq '^1 +[0-9.]+$' "$tmp/mon.txt" || fail "monitor: no idle % for CPU 1"
# No cpuidle directory at all (CONFIG_CPU_IDLE=n).
rm -r "$none/sys/devices/system/cpu/cpuidle"
"$ik" info --sysfs-root "$none" | grep -q '^driver: *none' || fail "no cpuidle directory: driver none"

# Bad input: exit 2 and a message naming the file (and line).
expect_error 2 "$tmp/nowhere/sys/devices/system/cpu: no such directory" info --sysfs-root "$tmp/nowhere"
expect_error 2 "--cpu 0-600: CPU 4-600 out of range (CPUs present in $cpu: 0-3)" info --sysfs-root "$root" --cpu 0-600
expect_error 2 "CPU list 'x': expected a CPU number at 'x'" info --sysfs-root "$root" --cpu x
expect_error 2 "--sysfs-root and --sysfs-dump exclude each other" info --sysfs-root "$root" --sysfs-dump x
expect_error 2 "$tmp/none.dump: cannot open" info --sysfs-dump "$tmp/none.dump"
rm "$cpu/cpu1/cpuidle/state1/usage" && mkdir "$cpu/cpu1/cpuidle/state1/usage"
expect_error 2 "$cpu/cpu1/cpuidle/state1/usage: cannot read: Is a directory" info --sysfs-root "$root"
rmdir "$cpu/cpu1/cpuidle/state1/usage"
rm "$cpu/cpu0/cpuidle/state3/latency"
expect_error 2 "$cpu/cpu0/cpuidle/state3/latency: missing (a partial tree?" info --sysfs-root "$root"
printf 'ten\n' > "$cpu/cpu0/cpuidle/state3/latency"
expect_error 2 "$cpu/cpu0/cpuidle/state3/latency: expected an unsigned integer, got 'ten'" info --sysfs-root "$root"
bad=$tmp/bad.txt
{ head -4 tests/fixtures/sysfs/dell-9360-kbl.txt; echo 'rw /sys/devices/system/cpu/cpu0/x 1'; tail -n +5 tests/fixtures/sysfs/dell-9360-kbl.txt; } > "$bad"
expect_error 2 "$bad:5: expected 'rw|/sys/devices/system/cpu/...|value', got 'rw /sys/devices/system/cpu/cpu0/x 1'" info --sysfs-dump "$bad"
expect_error 2 "$bad:5:" monitor --sysfs-dump "$bad" -n 1
expect_error 2 "$bad:5:" platform import --sysfs-dump "$bad"
grep -v 'cpu1/cpuidle/state2/residency' tests/fixtures/sysfs/dell-9360-kbl.txt > "$bad"
expect_error 2 "$bad: no line for /sys/devices/system/cpu/cpu1/cpuidle/state2/residency (a partial dump?" info --sysfs-dump "$bad"
echo "ok: missing files, offline CPUs, no cpuidle, bad input"
