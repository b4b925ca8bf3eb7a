#!/usr/bin/env bash
# idlekit set on a stand-in tree and a stand-in /dev/cpu_dma_latency: changes are made, the
# PM QoS value is a binary s32 held open while the command runs, and everything is put back
# when the command ends or idlekit gets SIGINT or SIGTERM; errors change nothing.
set -eu
ik=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

materialize() {
	local dump=$1 root=$2 flag path value dir last=""
	while IFS='|' read -r flag path value; do
		case $path in /sys/*) ;; *) continue ;; esac
		dir=$root${path%/*}
		[ "$dir" = "$last" ] || { mkdir -p "$dir"; last=$dir; }
		printf '%s\n' "$value" > "$root$path"
	done < "$dump"
}

root=$tmp/root
materialize tests/fixtures/sysfs/dell-9360-kbl.txt "$root"
cpu=$root/sys/devices/system/cpu
qos=$tmp/cpu_dma_latency
: > "$qos"
# Everything that can change, to compare before and after.
snapshot() { grep -H . "$cpu"/cpu*/cpuidle/state*/disable "$cpu/cpuidle/current_governor" | md5sum; }
before=$(snapshot)

# Persistent changes (no command), like cpupower idle-set; by index and by name.
"$ik" set --sysfs-root "$root" -d 3,C6 --cpu 1-2 > "$tmp/out"
[ "$(cat "$cpu/cpu1/cpuidle/state3/disable")" = 1 ] || fail "state 3 not disabled"
[ "$(cat "$cpu/cpu2/cpuidle/state4/disable")" = 1 ] || fail "C6 not disabled"
[ "$(cat "$cpu/cpu0/cpuidle/state4/disable")" = 0 ] || fail "CPU 0 touched"
grep -q "cpu2/cpuidle/state4/disable: 0 -> 1" "$tmp/out" || fail "changes not listed"
"$ik" set --sysfs-root "$root" -E > /dev/null
[ "$(snapshot)" = "$before" ] || fail "--enable-all did not undo"

# Wait (up to 5 s) for a file to hold a value.
wait_for() {
	for _ in $(seq 100); do
		[ "$(cat "$1" 2>/dev/null)" = "$2" ] && return 0
		sleep 0.05
	done
	fail "$1 never became '$2'"
}

for sig in INT TERM; do
	: > "$qos"
	"$ik" set --sysfs-root "$root" --pm-qos-dev "$qos" --latency 20us -d C10 -g ladder \
		-- sleep 30 > "$tmp/out" 2> "$tmp/err" &
	pid=$!
	wait_for "$cpu/cpu3/cpuidle/state8/disable" 1
	wait_for "$cpu/cpuidle/current_governor" ladder
	for _ in $(seq 100); do [ "$(stat -c %s "$qos")" = 4 ] && break; sleep 0.05; done
	# The value: a binary s32, 20 (us), and the device is held open by idlekit.
	[ "$(od -An -td4 "$qos" | tr -d ' ')" = 20 ] || fail "PM QoS value is not the s32 20"
	[ "$(stat -c %s "$qos")" = 4 ] || fail "PM QoS value is not 4 bytes"
	ls -l "/proc/$pid/fd" | grep -q -- "-> $qos\$" || fail "PM QoS device not held open"
	# The command does not inherit it (close-on-exec).
	child=""
	for _ in $(seq 100); do
		child=$(tr -d ' ' < "/proc/$pid/task/$pid/children")
		[ -n "$child" ] && [ "$(cat "/proc/$child/comm" 2>/dev/null)" = sleep ] && break
		sleep 0.05
	done
	[ -n "$child" ] || fail "SIG$sig: the command was not started"
	! ls -l "/proc/$child/fd" | grep -q -- "-> $qos\$" || fail "the command inherited the PM QoS fd"
	kill -$sig "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = $((128 + $(kill -l $sig))) ] || fail "SIG$sig: exit $rc"
	[ "$(snapshot)" = "$before" ] || fail "SIG$sig: not restored"
	grep -q "restored 5 settings" "$tmp/err" || fail "SIG$sig: $(cat "$tmp/err")"
	! kill -0 "$child" 2>/dev/null || fail "SIG$sig: the command still runs"
	echo "ok: SIG$sig restores"
done

# The command ends by itself: its exit status, and things put back.
"$ik" set --sysfs-root "$root" --pm-qos-dev "$qos" --latency 1ms -d 1 -- \
	sh -c "cat $cpu/cpu0/cpuidle/state1/disable > $tmp/during; exit 7" 2> "$tmp/err" && rc=0 || rc=$?
[ "$rc" = 7 ] || fail "command's exit status $rc"
[ "$(cat "$tmp/during")" = 1 ] || fail "change not in place while the command ran"
[ "$(od -An -td4 "$qos" | tr -d ' ')" = 1000 ] || fail "1ms is not 1000 us"
[ "$(snapshot)" = "$before" ] || fail "not restored after the command"

# --latency alone, no command: held until interrupted, then released (exit 0).
"$ik" set --pm-qos-dev "$qos" --latency 0 2> "$tmp/err" &
pid=$!
for _ in $(seq 100); do ls -l "/proc/$pid/fd" 2>/dev/null | grep -q -- "-> $qos\$" && break; sleep 0.05; done
ls -l "/proc/$pid/fd" | grep -q -- "-> $qos\$" || fail "--latency without a command: not held"
sleep 0.1
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" = 0 ] || fail "--latency released by SIGINT: exit $rc"
[ "$(od -An -td4 "$qos" | tr -d ' ')" = 0 ] || fail "--latency 0"

# wakelat --state / --latency: one state alone on the wakee CPU for the run, put back on
# SIGINT (the benchmark runs on the real CPUs; the stand-in tree only takes the settings).
if [ "$(nproc)" -ge 2 ]; then
	: > "$qos"
	"$ik" wakelat --sysfs-root "$root" --pm-qos-dev "$qos" --latency 5us --state C1 \
		--wakee-cpu 1 -n 1000000 --gap 1ms > "$tmp/out" 2> "$tmp/err" &
	pid=$!
	wait_for "$cpu/cpu1/cpuidle/state8/disable" 1
	[ "$(cat "$cpu/cpu1/cpuidle/state1/disable")" = 0 ] || fail "wakelat --state: C1 not enabled"
	[ "$(cat "$cpu/cpu0/cpuidle/state8/disable")" = 0 ] || fail "wakelat --state: CPU 0 touched"
	for _ in $(seq 100); do [ "$(stat -c %s "$qos")" = 4 ] && break; sleep 0.05; done
	[ "$(od -An -td4 "$qos" | tr -d ' ')" = 5 ] || fail "wakelat --latency: not the s32 5"
	kill -INT "$pid"
	rc=0; wait "$pid" || rc=$?
	[ "$rc" = 130 ] || fail "wakelat SIGINT: exit $rc ($(cat "$tmp/err"))"
	[ "$(snapshot)" = "$before" ] || fail "wakelat SIGINT: not restored"
	grep -q 'interrupted; settings restored' "$tmp/err" || fail "wakelat SIGINT: $(cat "$tmp/err")"
	echo "ok: wakelat --state restores on SIGINT"
fi

# Errors change nothing.
expect_error() {
	local want=$1 needle=$2 rc=0
	shift 2
	"$ik" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	[ "$rc" = "$want" ] || fail "'$*': exit $rc, expected $want ($(cat "$tmp/err"))"
	grep -qF -- "$needle" "$tmp/err" || fail "'$*': '$(cat "$tmp/err")' lacks '$needle'"
	[ "$(snapshot)" = "$before" ] || fail "'$*' changed something"
}
expect_error 2 "no state 'C11' on CPU 0 (its states: 0=POLL 1=C1" set --sysfs-root "$root" -d C6 -d C11
expect_error 2 "state 9: CPU 0 has states 0..8" set --sysfs-root "$root" -d 9
expect_error 2 "--governor teo: not available (available: ladder menu)" set --sysfs-root "$root" -d 2 -g teo
expect_error 2 "--cpu 7: CPU 7 out of range" set --sysfs-root "$root" -d 2 --cpu 7
expect_error 2 "--latency: '1500ns' is not a whole number of microseconds" set --latency 1500ns -- true
expect_error 2 "a dump cannot be changed" set --sysfs-dump tests/fixtures/sysfs/snr0.txt -d 1
expect_error 2 "nothing to change" set --sysfs-root "$root" -- true
# An unreadable file (a directory here): a clear message, nothing written.
rm "$cpu/cpu3/cpuidle/state2/disable" && mkdir "$cpu/cpu3/cpuidle/state2/disable"
rc=0
"$ik" set --sysfs-root "$root" -d 2 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "unreadable file: exit $rc"
grep -q "$cpu/cpu3/cpuidle/state2/disable: cannot read: Is a directory" "$tmp/err" ||
	fail "unreadable file: $(cat "$tmp/err")"
[ "$(cat "$cpu/cpu0/cpuidle/state2/disable")" = 0 ] || fail "unreadable file: CPU 0 changed"
rmdir "$cpu/cpu3/cpuidle/state2/disable" && printf '0\n' > "$cpu/cpu3/cpuidle/state2/disable"
# Without write access ("needs root"): nothing written, exit 1.
if command -v setpriv > /dev/null && [ "$(id -u)" = 0 ]; then
	chmod -R a+rX "$tmp"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$ik" set --sysfs-root "$root" -d 1 \
		> "$tmp/out" 2> "$tmp/err" || rc=$?
	[ "$rc" = 1 ] || fail "unprivileged: exit $rc ($(cat "$tmp/err"))"
	grep -q "needs root (write access to $cpu/cpu0/cpuidle/state1/disable)" "$tmp/err" ||
		fail "unprivileged: $(cat "$tmp/err")"
	[ "$(snapshot)" = "$before" ] || fail "unprivileged run changed something"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$ik" set --pm-qos-dev "$qos" --latency 5 \
		-- true 2> "$tmp/err" || rc=$?
	[ "$rc" = 1 ] && grep -q "needs root (write access to $qos)" "$tmp/err" ||
		fail "unprivileged --latency: $rc $(cat "$tmp/err")"
	echo "ok: needs root"
else
	echo "SKIP: setpriv or root not available: the 'needs root' message is not tested"
fi
[ "$(snapshot)" = "$before" ] || fail "tree changed"
echo "ok: errors change nothing"
