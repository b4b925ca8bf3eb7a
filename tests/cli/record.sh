#!/usr/bin/env bash
# `idlekit record`: a trace of this machine (drained while it runs, with the sched events) that
# analyze and replay accept, a full disk reported with nothing written, ended by the
# command, the duration or SIGINT, with its tracefs instance removed every time; bad options
# exit 2.  Skips (exit 0, SKIP) when not root or idlekit was built without libtracefs.
#
# usage (from the project root): bash tests/cli/record.sh /path/to/idlekit
set -u
bin=${1:?usage: record.sh /path/to/idlekit}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

"$bin" record --help | grep -q 'instance of its own' || fail "record --help"
"$bin" record --duration 1s 2>/dev/null
[ $? -eq 2 ] || fail "record without -o: exit status"
"$bin" record -o "$tmp/x" --duration 1parsec 2>/dev/null
[ $? -eq 2 ] || fail "record --duration 1parsec: exit status"
"$bin" record -o "$tmp/x" stray 2>/dev/null
[ $? -eq 2 ] || fail "record with a stray argument: exit status"

[ "$(id -u)" = 0 ] || { echo "SKIP: not root (tracefs)"; [ $failures -eq 0 ]; exit; }
if "$bin" record -o "$tmp/probe" --duration 0 2>&1 | grep -q 'built without libtracefs'; then
	echo "SKIP: built without libtracefs"
	[ $failures -eq 0 ]
	exit
fi
instances=/sys/kernel/tracing/instances
# An instance left behind: one named after a process that is gone (another record running
# at the same time, e.g. another build's tests, has a live one).
left_behind() {
	local d p
	for d in $instances/idlekit-record-*; do
		[ -d "$d" ] || continue
		p=${d##*-}
		kill -0 "$p" 2>/dev/null || return 0
	done
	return 1
}

# Ended by the command: the trace is valid, analyze and replay (on its own table) take it.
"$bin" record -o "$tmp/cmd.trace" -- sleep 0.3 2>"$tmp/err" || fail "record -- sleep: exit $?: $(cat "$tmp/err")"
grep -q 'events from .* kernel events over 0\.[0-9]* s' "$tmp/err" || fail "record summary: $(cat "$tmp/err")"
head -n 1 "$tmp/cmd.trace" | grep -q '^idlekit-trace 1\.1$' || fail "record: no 1.1 header"
"$bin" analyze "$tmp/cmd.trace" >/dev/null || fail "analyze of the recorded trace"
"$bin" replay "$tmp/cmd.trace" -g menu -p trace --compare-recorded >"$tmp/r" || fail "replay of the recorded trace"
grep -q '^agreement' "$tmp/r" || fail "replay: no agreement"
left_behind && fail "an instance was left behind"
# A machine with no cpuidle driver (whatever this one has: a tree that names none, as the
# kernel shows it): the table is the idle loop's own, POLL 0 and default_idle 1, no governor.
nd=$tmp/nodriver/sys/devices/system/cpu
mkdir -p $nd/cpuidle $nd/cpu0 $nd/cpu1
echo 0-1 >$nd/online
echo none >$nd/cpuidle/current_driver
echo menu >$nd/cpuidle/current_governor_ro
IDLEKIT_SYSFS_ROOT=$tmp/nodriver "$bin" record -o "$tmp/nd.trace" -- sleep 0.2 2>"$tmp/err" ||
	fail "record, no driver: exit $?: $(cat "$tmp/err")"
sed -n '/^driver/,/^events/p' "$tmp/nd.trace" >"$tmp/nd.table"
printf '%s\n' 'driver none 0-1' 'state POLL 0 0 0x1 cpu_idle_poll (idle=poll)' \
	"state default_idle 0 0 0x0 the arch's default routine" events | cmp -s - "$tmp/nd.table" ||
	fail "record, no driver: table: $(cat "$tmp/nd.table")"
grep -q '^governor' "$tmp/nd.trace" && fail "record, no driver: a governor in the header"
"$bin" analyze "$tmp/nd.trace" >"$tmp/nd.an" || fail "analyze of the no-driver trace"
grep -q 'driver none' "$tmp/nd.an" || fail "analyze, no driver: driver none not shown"
# Each CPU's package and core, as sysfs says.
for c in $(seq 0 $(($(nproc) - 1))); do
	t=/sys/devices/system/cpu/cpu$c/topology
	[ -r $t/core_id ] || continue
	grep -q "^cpu $c $(cat $t/physical_package_id) $(cat $t/core_id)\$" "$tmp/cmd.trace" ||
		fail "record: no 'cpu $c' topology line"
done
# The governor that ran and its integer module parameters, when sysfs says which it is.
gov=$(cat /sys/devices/system/cpu/cpuidle/current_governor 2>/dev/null || cat /sys/devices/system/cpu/cpuidle/current_governor_ro 2>/dev/null)
if [ -n "$gov" ]; then
	grep -q "^governor $gov\( \|\$\)" "$tmp/cmd.trace" || fail "record: no 'governor $gov' header line"
	if [ -r /sys/module/$gov/parameters/guest_halt_poll_ns ]; then
		grep -q "^governor $gov .*guest_halt_poll_ns=$(cat /sys/module/$gov/parameters/guest_halt_poll_ns)\b" "$tmp/cmd.trace" ||
			fail "record: guest_halt_poll_ns not in the header: $(grep ^governor "$tmp/cmd.trace")"
	fi
fi

# Streaming: a 2 s recording is drained every ~200 ms (not only at the end), and carries the
# sched events: task wake-ups (sleep itself is woken by a timer) and context switches.
"$bin" record -o "$tmp/s.trace" -- sleep 2 2>"$tmp/err" || fail "record -- sleep 2: exit $?: $(cat "$tmp/err")"
drains=$(sed -n 's/.*(\([0-9]*\) drains).*/\1/p' "$tmp/err")
[ "${drains:-0}" -ge 3 ] || fail "record -- sleep 2: drained ${drains:-0} times, expected several: $(cat "$tmp/err")"
grep -Eq '^[0-9]+ [0-9]+ task_wake [0-9]+ [0-9]+$' "$tmp/s.trace" || fail "record: no task_wake"
grep -Eq '^[0-9]+ [0-9]+ switch [0-9]+ [0-9]+$' "$tmp/s.trace" || fail "record: no switch"
# every IRQ that woke a CPU is named in the header (irq_handler_entry's name=, read as the
# trace.dat import reads it)
for n in $(sed -n 's/^[0-9]* [0-9]* wake irq \([0-9]*\)$/\1/p' "$tmp/s.trace" | sort -u); do
	grep -Eq "^irq $n [^ ]+" "$tmp/s.trace" || fail "record: IRQ $n woke a CPU but the header does not name it"
done
"$bin" analyze "$tmp/s.trace" >"$tmp/a" || fail "analyze of the 2 s trace: exit $?"
grep -q '^after the idle periods: [0-9]* ran a task, [0-9]* none' "$tmp/a" || fail "analyze: no task/empty line"
"$bin" replay "$tmp/s.trace" -g teo -p trace >/dev/null || fail "replay of the 2 s trace: exit $?"
# Sorted by time across CPUs (the merge): the reader checks it, and so does this.
awk 'NR > 1 && /^[0-9]+ [0-9]+ / { if ($1 < last) bad = 1; last = $1 } END { exit bad }' "$tmp/s.trace" ||
	fail "recorded trace not sorted by time"

# Events lost: a one-page buffer per CPU cannot hold 200 ms (one drain) of two CPUs
# handing a pipe to each other (ctxsw: thousands of wake-ups, switches and idle entries;
# a bulk copy through a pipe, tried first, can finish in a few hundred events): the loss is
# reported per CPU, the trace is still written and valid.
"$bin" record -o "$tmp/lost.trace" --buffer-kb 4 -- "$bin" ctxsw --test pipe --duration 1 >/dev/null 2>"$tmp/err" ||
	fail "record --buffer-kb 4: exit $?: $(cat "$tmp/err")"
grep -Eq '^idlekit record: CPU [0-9]+: [0-9]+ events lost \([0-9]+ overrun, [0-9]+ dropped\)' "$tmp/err" ||
	fail "record --buffer-kb 4: no loss reported: $(cat "$tmp/err")"
"$bin" analyze "$tmp/lost.trace" >/dev/null || fail "analyze of the trace with losses"

# A full disk: a message, a failure status, no output and no temporary file left.
mkdir "$tmp/small"
if mount -t tmpfs -o size=4k tmpfs "$tmp/small" 2>/dev/null; then
	"$bin" record -o "$tmp/small/full.trace" -- sleep 1 >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -ne 0 ] || fail "full disk: exit 0"
	grep -q 'No space left on device' "$tmp/err" || fail "full disk: message: $(cat "$tmp/err")"
	grep -q 'nothing written' "$tmp/err" || fail "full disk: not said that nothing was written: $(cat "$tmp/err")"
	[ -z "$(ls -A "$tmp/small")" ] || fail "full disk: files left: $(ls -A "$tmp/small")"
	umount "$tmp/small"
else
	echo "note: no tmpfs mount: the full-disk check is skipped"
fi
left_behind && fail "an instance was left behind"

# The command's failure is the exit status; the trace is still written.
"$bin" record -o "$tmp/false.trace" -- false 2>/dev/null
[ $? -eq 1 ] || fail "record -- false: exit status"
[ -s "$tmp/false.trace" ] || fail "record -- false: no trace"

# Ended by SIGINT: a clean trace, exit 0, no instance left.
"$bin" record -o "$tmp/int.trace" --duration 60s 2>"$tmp/err" &
pid=$!
# SIGINT once the instance exists (a background job starts with SIGINT ignored until record
# installs its handler), then a little recording.
for _ in $(seq 100); do [ -d $instances/idlekit-record-$pid ] && break; sleep 0.05; done
sleep 0.3
kill -INT $pid
wait $pid || fail "record stopped by SIGINT: exit $?"
grep -q 'stopped by a signal' "$tmp/err" || fail "SIGINT not reported: $(cat "$tmp/err")"
"$bin" analyze "$tmp/int.trace" >/dev/null || fail "analyze of the SIGINT trace"
ls $instances 2>/dev/null | grep -q "idlekit-record-$pid" && fail "SIGINT left the instance"

# The global tracer was not touched.
[ "$(cat /sys/kernel/tracing/tracing_on)" = 1 ] || echo "note: global tracing_on is 0 (not changed by record)"

if [ $failures -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "record: all checks passed"
