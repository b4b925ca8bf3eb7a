#!/usr/bin/env bash
# The real-machine commands' fixes (docs/host.md): CPUs from 'present' when a cpuN directory
# is missing; a dump cut off mid-line is an error; info --dump writes what --sysfs-dump reads
# (round trip: the same report); set --disable-above; wakelat --rt-priority and its warning
# for a wakee that never idled; record removes the instance a killed recording left.
#
# usage (from the project root): bash tests/cli/host_fixes.sh /path/to/idlekit
set -u
bin=$(realpath "${1:?usage: host_fixes.sh /path/to/idlekit}")
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}
fx=tests/fixtures/sysfs

# A dump as a directory tree (ROOT/sys/devices/system/cpu/...).
materialize() {
	local dump=$1 root=$2 flag path value dir last=""
	while IFS='|' read -r flag path value; do
		case $path in /sys/*) ;; *) continue ;; esac
		dir=$root${path%/*}
		[ "$dir" = "$last" ] || { mkdir -p "$dir"; last=$dir; }
		printf '%s\n' "$value" >"$root$path"
	done <"$dump"
}

# ---- present/online without cpuN directories ----------------------------------------------
# adl0 says present 0-15, online 0-15; drop everything of cpu0/
grep -v '/system/cpu/cpu0/' $fx/adl0.txt >"$tmp/nocpu0.txt"
"$bin" info --sysfs-dump "$tmp/nocpu0.txt" >"$tmp/out" 2>"$tmp/err" || fail "no cpu0/: exit $?: $(cat "$tmp/err")"
grep -q '^CPUs present: *0-15 (16), online: 0-15 (16)$' "$tmp/out" || fail "no cpu0/: header: $(grep present "$tmp/out")"
grep -q '^CPU 0: present but not in the dump (no cpuN directory: a partial copy?)$' "$tmp/out" ||
	fail "no cpu0/: CPU 0 not reported as missing from the dump: $(tail -2 "$tmp/out")"
grep -q '^CPUs 1-15: 5 idle states' "$tmp/out" || fail "no cpu0/: CPUs 1-15 not shown"
"$bin" info --sysfs-dump "$tmp/nocpu0.txt" --cpu 0 >"$tmp/out" 2>"$tmp/err" || fail "--cpu 0 of a dump without cpu0/: exit $?: $(cat "$tmp/err")"
"$bin" info --sysfs-dump "$tmp/nocpu0.txt" --json | grep -q '"cpu": 0, "online": true, "cpuidle": false, "group": null, "in_tree": false' ||
	fail "no cpu0/: JSON in_tree"
# only the lists, no cpuN at all: every CPU reported as not in the dump
grep -E '\|/sys/devices/system/cpu/(online|present|cpuidle/)' $fx/adl0.txt >"$tmp/lists.txt"
"$bin" info --sysfs-dump "$tmp/lists.txt" >"$tmp/out" 2>"$tmp/err" || fail "lists only: exit $?: $(cat "$tmp/err")"
grep -q '^CPUs 0-15: present but not in the dump' "$tmp/out" || fail "lists only: $(cat "$tmp/out")"

# ---- a truncated dump ----------------------------------------------------------------------
head -c -1 $fx/adl0.txt >"$tmp/cut.txt" # the last newline gone
lines=$(wc -l <$fx/adl0.txt)
"$bin" info --sysfs-dump "$tmp/cut.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "truncated dump: exit $rc, expected 2"
grep -q "^idlekit info: $tmp/cut.txt:$lines: the last line has no end of line (a truncated dump?), got '" "$tmp/err" ||
	fail "truncated dump message: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "truncated dump: output written"
# cut in the middle of a value
head -c 20000 $fx/adl0.txt >"$tmp/cut2.txt"
"$bin" info --sysfs-dump "$tmp/cut2.txt" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "cut2.txt:[0-9]*: the last line has no end of line" "$tmp/err" || fail "dump cut mid-value: $(cat "$tmp/err")"

# ---- info --dump: written, read back, the same report ----------------------------------------
for d in adl0 dell-9360-kbl; do
	"$bin" info --sysfs-dump $fx/$d.txt --dump "$tmp/$d.rt" 2>"$tmp/err" || fail "$d: info --dump: exit $?: $(cat "$tmp/err")"
	for fmt in "" --json --csv --per-cpu; do
		"$bin" info --sysfs-dump $fx/$d.txt $fmt | grep -v '^source:\|"source":' >"$tmp/a"
		"$bin" info --sysfs-dump "$tmp/$d.rt" $fmt | grep -v '^source:\|"source":' >"$tmp/b"
		cmp -s "$tmp/a" "$tmp/b" || fail "$d: info $fmt differs after --dump and --sysfs-dump: $(diff "$tmp/a" "$tmp/b" | head -5)"
	done
done
# from a tree (as the live machine is read): the same report, and ro/rw from the file modes
materialize $fx/dell-9360-kbl.txt "$tmp/root"
chmod 444 "$tmp/root/sys/devices/system/cpu/cpu0/cpuidle/state1/usage"
"$bin" info --sysfs-root "$tmp/root" --dump "$tmp/tree.rt" || fail "tree: info --dump: exit $?"
grep -q '^ro|/sys/devices/system/cpu/cpu0/cpuidle/state1/usage|' "$tmp/tree.rt" || fail "tree dump: a 0444 file not 'ro'"
grep -q '^rw|/sys/devices/system/cpu/cpu0/cpuidle/state1/disable|0$' "$tmp/tree.rt" || fail "tree dump: disable not 'rw|...|0'"
"$bin" info --sysfs-root "$tmp/root" --json | grep -v '"source":' >"$tmp/a"
"$bin" info --sysfs-dump "$tmp/tree.rt" --json | grep -v '"source":' >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "tree: info --json differs after --dump: $(diff "$tmp/a" "$tmp/b" | head -5)"
# sorted, one line per file, each ending in a newline
grep -v '^#' "$tmp/tree.rt" | LC_ALL=C sort -c -t'|' -k2,2 || fail "the dump is not sorted by path"
[ "$(tail -c1 "$tmp/tree.rt" | od -An -c | tr -d ' ')" = '\n' ] || fail "the dump's last line has no newline"
# this machine: whatever it has, the dump reads back
"$bin" info --dump "$tmp/live.txt" 2>"$tmp/err" || fail "live info --dump: exit $?: $(cat "$tmp/err")"
"$bin" info --sysfs-dump "$tmp/live.txt" >/dev/null 2>"$tmp/err" || fail "live dump does not read back: $(cat "$tmp/err")"
"$bin" info --dump - --json >/dev/null 2>&1
[ $? -eq 2 ] || fail "--dump with --json: exit status"

# ---- set --disable-above -----------------------------------------------------------------
# dell-9360-kbl: POLL 0, C1 2, C1E 10, C3 70, C6 85, C7s 124, C8 200, C9 480, C10 890 us
cpu=$tmp/root/sys/devices/system/cpu
echo 1 >"$cpu/cpu0/cpuidle/state1/disable" # C1 disabled beforehand: -D enables it again
"$bin" set --sysfs-root "$tmp/root" --disable-above 70us >"$tmp/out" 2>"$tmp/err" || fail "set -D: exit $?: $(cat "$tmp/err")"
got=$(cat "$cpu"/cpu0/cpuidle/state{0..8}/disable | tr -d '\n')
[ "$got" = 000011111 ] || fail "set --disable-above 70us: disable flags $got, expected 000011111 (C3 = 70 us stays enabled)"
got=$(cat "$cpu"/cpu3/cpuidle/state{0..8}/disable | tr -d '\n')
[ "$got" = 000011111 ] || fail "set -D: CPU 3 flags $got"
grep -qx "idlekit set: --disable-above 70 us on CPU 0: disabled C6 (85 us), C7s (124 us), C8 (200 us), C9 (480 us), C10 (890 us); enabled POLL (0 us), C1 (2 us), C1E (10 us), C3 (70 us)" "$tmp/err" ||
	fail "set -D: does not say which states: $(cat "$tmp/err")"
"$bin" set --sysfs-root "$tmp/root" -D 0 >/dev/null 2>&1 || fail "set -D 0: exit $?"
got=$(cat "$cpu"/cpu0/cpuidle/state{0..8}/disable | tr -d '\n')
[ "$got" = 011111111 ] || fail "set -D 0: flags $got, expected only POLL enabled"
# with a command: held while it runs, then undone
"$bin" set --sysfs-root "$tmp/root" -E >/dev/null
"$bin" set --sysfs-root "$tmp/root" -D 1ms -- sh -c "cat '$cpu/cpu0/cpuidle/state8/disable' >'$tmp/during'" >/dev/null 2>&1
[ "$(cat "$tmp/during")" = 0 ] || fail "-D 1ms: C10 (890 us) disabled"
"$bin" set --sysfs-root "$tmp/root" -D 100us -- sh -c "cat '$cpu/cpu0/cpuidle/state6/disable' >'$tmp/during'" >/dev/null 2>&1
[ "$(cat "$tmp/during")" = 1 ] || fail "-D 100us -- CMD: C8 not disabled while CMD ran"
[ "$(cat "$cpu/cpu0/cpuidle/state6/disable")" = 0 ] || fail "-D 100us -- CMD: not undone"
"$bin" set --sysfs-root "$tmp/root" -D abc >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- '--disable-above' "$tmp/err" || fail "-D abc: $(cat "$tmp/err")"

# ---- wakelat: --rt-priority, the no-idle warning -----------------------------------------------
"$bin" wakelat -n 50 --rt-priority 0 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- '--rt-priority: expected an integer 1..99' "$tmp/err" || fail "--rt-priority 0: $(cat "$tmp/err")"
if [ "$(id -u)" = 0 ]; then
	if "$bin" wakelat -n 50 --rt-priority 10 --json >"$tmp/out" 2>"$tmp/err"; then
		grep -q '"rt_priority": 10,' "$tmp/out" || fail "--rt-priority 10: not in the JSON"
	else
		grep -q -- '--rt-priority 10: not permitted' "$tmp/err" || fail "--rt-priority 10 failed: $(cat "$tmp/err")"
	fi
fi
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	# without the privilege: one clear error
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$bin" wakelat -n 50 --rt-priority 10 >/dev/null 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q -- '--rt-priority 10: not permitted to use SCHED_FIFO' "$tmp/err" ||
		fail "--rt-priority unprivileged: $(cat "$tmp/err")"
fi
# the wakee's counters from a stand-in tree that never moves: "never idled"
"$bin" wakelat -n 50 --sysfs-root "$tmp/root" >"$tmp/out" 2>"$tmp/err" || fail "wakelat on a still tree: exit $?: $(cat "$tmp/err")"
grep -q '^idlekit wakelat: warning: CPU 1 entered no idle state during the run' "$tmp/err" ||
	fail "no warning for a wakee that never idled: $(cat "$tmp/err")"
# a tree whose POLL counter moved only: still never idled (a test hook is not needed: the
# counters are read from files; one moving POLL is a live effect, so only the still case is
# checked here)

# ---- record: the instance a killed recording left -------------------------------------------
ft=$tmp/tracefs
mkdir -p "$ft/instances"
# a dead process's instance (empty: removable), one that cannot be removed (a file in it:
# rmdir fails outside a real tracefs), a live idlekit's, and someone else's
sh -c 'exit 0' & dead=$!; wait $dead
mkdir "$ft/instances/idlekit-record-$dead"
sh -c 'exit 0' & dead2=$!; wait $dead2
mkdir "$ft/instances/idlekit-record-$dead2"; touch "$ft/instances/idlekit-record-$dead2/trace"
ln -s "$(command -v sleep)" "$tmp/idlekit"
"$tmp/idlekit" 30 & live=$!
mkdir "$ft/instances/idlekit-record-$live" "$ft/instances/other-tool"
IDLEKIT_TRACEFS=$ft "$bin" record -o "$tmp/r.trace" --duration 100ms >/dev/null 2>"$tmp/err"
rc=$?
kill $live 2>/dev/null; wait $live 2>/dev/null
# a stand-in tracefs has none of an instance's files: the first write names its file
[ $rc -eq 1 ] && grep -q "^idlekit record: $ft/instances/idlekit-record-[0-9]*/tracing_on: cannot write \"0\": No such file or directory$" "$tmp/err" ||
	fail "record on a stand-in tracefs: exit $rc: $(cat "$tmp/err")"
[ -e "$tmp/r.trace" ] && fail "record on a stand-in tracefs: output written"
[ -e "$ft/instances/idlekit-record-$dead" ] && fail "record: the dead recording's instance is still there"
grep -q "^idlekit record: removed the tracefs instance idlekit-record-$dead left by a killed recording (process $dead is gone)$" "$tmp/err" ||
	fail "record: no message for the removed instance: $(cat "$tmp/err")"
grep -q "warning: the tracefs instance idlekit-record-$dead2 is left by a killed recording (process $dead2 is gone) and cannot be removed: Directory not empty; remove it with: rmdir $ft/instances/idlekit-record-$dead2" "$tmp/err" ||
	fail "record: no report of the instance it cannot remove: $(cat "$tmp/err")"
[ -d "$ft/instances/idlekit-record-$live" ] || fail "record: removed a running idlekit's instance"
[ -d "$ft/instances/other-tool" ] || fail "record: removed another tool's instance"
grep -q "idlekit-record-$live" "$tmp/err" && fail "record: reported a running idlekit's instance"
# a directory that is no tracefs at all (no instances in it): refused, exit 2
mkdir -p "$tmp/not-tracefs"
IDLEKIT_TRACEFS=$tmp/not-tracefs "$bin" record -o "$tmp/r.trace" --duration 100ms >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "IDLEKIT_TRACEFS=$tmp/not-tracefs: not a tracefs (expected a directory with an instances directory in it)" "$tmp/err" ||
	fail "record, IDLEKIT_TRACEFS not a tracefs: exit $rc: $(cat "$tmp/err")"

if [ $failures -ne 0 ]; then
	echo "host_fixes: $failures failure(s)"
	exit 1
fi
echo "host_fixes: all passed"
