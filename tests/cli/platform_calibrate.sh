#!/usr/bin/env bash
# `idlekit platform import` names what this machine runs, and `platform calibrate` measures
# its costs for real (a fraction of a second per figure): the file loads, `sim` on it runs
# the machine's driver and governor, the measured IPI and exit costs differ from the
# defaults and lie in plausible ranges, and every knob it turns is put back, also when it
# is stopped by SIGTERM.  Not root or no cpuidle: SKIP (exit 77), but FAIL when CI=true.
#
# The ranges, wide on purpose (a shared machine's figures move by 2x from run to run):
# - a wake-up of an idle CPU in a state that needs an IPI (IPI + exit) takes at least 1 us:
#   an interrupt must be delivered and the task scheduled, and the fastest such wake-up in
#   the sources (bare-metal Zen 3 from HLT, docs/platform-sources.md 2.4) took 1.7 us at
#   least, 2.0 us at the median; and less than 1 ms,
#   beyond which the figure is another task's run, not a wake-up;
# - an IPI (median) takes at least 100 ns and under 1 ms, for the same reasons;
# - a context switch of a pipe ping-pong on one CPU takes 100 ns to 100 us (two system
#   calls and a switch: 1-5 us on the machines in docs/host.md).
set -u
bin=${1:?usage: platform_calibrate.sh /path/to/idlekit}
bin=$(readlink -f "$bin")
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: $1 (CI=true: this test must run)"
		exit 1
	fi
	echo "SKIP: $1"
	exit 77
}
cpuidle=/sys/devices/system/cpu/cpuidle
# No cpuidle driver: nothing to import or measure a state of; calibrate says so, exits 1
# and writes nothing, from an import and --from a file alike.
if ! { [ -r $cpuidle/current_driver ] && [ "$(cat $cpuidle/current_driver)" != none ]; }; then
	[ -d /sys/devices/system/cpu/cpu1 ] || skip "one CPU and no cpuidle driver"
	for from in "" "--from kvm-guest-haltpoll"; do
		rc=0
		# shellcheck disable=SC2086
		"$bin" platform calibrate $from -q -o "$tmp/nd.ini" 2>"$tmp/nd.err" || rc=$?
		[ $rc -eq 1 ] || fail "no driver, calibrate $from: exit $rc: $(cat "$tmp/nd.err")"
		[ ! -e "$tmp/nd.ini" ] || fail "no driver, calibrate $from: wrote a file"
		grep -Eq 'no idle states to import \(cpuidle driver: none\)|has no cpuidle states to measure \(driver none\)' "$tmp/nd.err" ||
			fail "no driver, calibrate $from: message: $(cat "$tmp/nd.err")"
	done
	echo "note: this machine has no cpuidle driver: calibrate refuses, as it must; nothing was measured here"
	exit 0
fi
[ "$(nproc)" -ge 2 ] || skip "one CPU: nothing to wake from"
driver=$(cat $cpuidle/current_driver)
governor=$(cat $cpuidle/current_governor 2>/dev/null || cat $cpuidle/current_governor_ro)

# A value of [section] key in an INI file (without its comment).
value() { awk -v s="[$2]" -v k="$3" '/^\[/ { in_s = ($0 == s) } in_s && $1 == k { sub(/^[^=]*= */, ""); sub(/ *;.*/, ""); print; exit }' "$1"; }
# The median of a "lognormal M S" or "constant V" value.
median() { set -- $1; echo "$2"; }

# ---- import: the machine's driver and governor, without root ---------------------------
"$bin" platform import -o "$tmp/imported.ini" || fail "platform import: exit $?"
case $driver in
haltpoll | acpi_idle | intel_idle | none)
	if grep -q '^; driver = .*left out' "$tmp/imported.ini"; then
		echo "note: import left the driver out: $(grep '^; driver =' "$tmp/imported.ini")"
	else
		[ "$(value "$tmp/imported.ini" os driver)" = "$driver" ] || fail "[os] driver is not $driver"
	fi ;;
*) echo "note: driver $driver is not one idlekit models" ;;
esac
if [ "$driver" = haltpoll ]; then
	[ "$(value "$tmp/imported.ini" cpuid hypervisor)" = kvm ] || fail "haltpoll guest without [cpuid] hypervisor = kvm"
	[ "$(value "$tmp/imported.ini" haltpoll guest_halt_poll_ns)" = "$(cat /sys/module/haltpoll/parameters/guest_halt_poll_ns)" ] ||
		fail "[haltpoll] guest_halt_poll_ns is not the machine's"
fi

# bad options: one message, exit 2, before anything is measured
bad() {
	local want=$1
	shift
	"$bin" platform calibrate "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF -- "$want" "$tmp/err" ||
		fail "calibrate $*: exit $rc, $(cat "$tmp/err"), expected 2 and '$want'"
	[ ! -s "$tmp/out" ] || fail "calibrate $*: wrote to stdout"
}
bad "--samples: expected an integer 10..10000000, got '3'" --samples 3
bad "--waker-cpu and --wakee-cpu must differ (both 1)" --waker-cpu 1
bad "--waker-cpu 4096: " --waker-cpu 4096
bad "--from: unknown platform 'nosuch'" --from nosuch
bad "--gap: expected more than 0" --gap 0
bad "--background-time" --background-time soon

[ "$(id -u)" = 0 ] || skip "not root: calibrate changes idle states"

# ---- what calibrate changes, to see that it is put back --------------------------------
knobs() {
	cat /sys/devices/system/cpu/cpu1/cpuidle/state*/disable
	cat /sys/module/haltpoll/parameters/guest_halt_poll_ns 2>/dev/null || true
}
knobs >"$tmp/before"

"$bin" platform calibrate --samples 300 --ctxsw-time 300ms --background-time 1s -o "$tmp/cal.ini" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "platform calibrate: exit $?"; }
knobs >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "calibrate left the machine changed: $(diff "$tmp/before" "$tmp/after")"
grep -q 'calibrate: \[1/' "$tmp/err" || fail "no progress on stderr"
cat "$tmp/err"

# the file loads, and sim on it runs what the machine runs
"$bin" platform show "$tmp/cal.ini" >/dev/null || fail "the calibrated file does not load"
printf '[scenario]\nname = t\nplatform = %s\nduration_ms = 50\n[workload]\ntype = pingpong\npairs = 1\n' \
	"$tmp/cal.ini" >"$tmp/s.ini"
"$bin" sim "$tmp/s.ini" -q >"$tmp/sim" || fail "sim on the calibrated file: exit $?"
case $driver in
haltpoll | acpi_idle | intel_idle | none)
	grep -q '^; driver = .*left out' "$tmp/cal.ini" ||
		grep -Eq "^driver +$driver\$" "$tmp/sim" || fail "sim runs $(grep ^driver "$tmp/sim"), not $driver" ;;
esac
case $governor in
menu | teo | ladder | haltpoll)
	grep -Eq "^governor +$governor(,|\$)" "$tmp/sim" || fail "sim runs $(grep ^governor "$tmp/sim"), not $governor" ;;
esac
case $governor in
menu | teo | ladder | haltpoll)
	"$bin" sim "$tmp/s.ini" --print-config | grep -q '^cpuidle.governor = platform' ||
		fail "--print-config does not say the governor came from the platform" ;;
esac

# measured, different from the defaults, plausible
ipi=$(value "$tmp/cal.ini" platform ipi_ns)
cs=$(value "$tmp/cal.ini" platform context_switch_ns)
[ "$ipi" != "constant 1000" ] && [ -n "$ipi" ] || fail "ipi_ns is the default ($ipi)"
grep -q '^ipi_ns = .*; measured on ' "$tmp/cal.ini" || fail "ipi_ns has no 'measured' comment"
ipi_p50=$(median "$ipi")
[ "$ipi_p50" -ge 100 ] && [ "$ipi_p50" -lt 1000000 ] || fail "IPI median $ipi_p50 ns out of 100 ns..1 ms"
[ "$cs" -ge 100 ] && [ "$cs" -le 100000 ] || fail "context switch $cs ns out of 100 ns..100 us"
n=$(sed -n 's/^\[state\([0-9]\)\]$/\1/p' "$tmp/cal.ini" | tail -1)
deep=$(value "$tmp/cal.ini" "state$n" exit_ns)
latency=$(value "$tmp/cal.ini" "state$n" latency_us)
[ -n "$deep" ] && [ "$deep" != "constant $((latency * 1000))" ] || fail "state$n exit_ns is the default ($deep)"
grep -q '^exit_timer_ns = .*; measured on ' "$tmp/cal.ini" || fail "no measured exit_timer_ns"
wake=$((ipi_p50 + $(median "$deep")))
[ "$wake" -ge 1000 ] && [ "$wake" -lt 1000000 ] || fail "state$n: IPI + exit = $wake ns out of 1 us..1 ms"
# the exit after longer idles: the deepest state's curves from the gap (50 us, extra 0) to
# 100 ms, non-decreasing; none for POLL; the idle path's busy time for every state
for key in exit_after_idle_ns exit_timer_after_idle_ns; do
	curve=$(value "$tmp/cal.ini" "state$n" $key)
	python3 -c '
import sys
pts = [tuple(int(x) for x in p.split(":")) for p in sys.argv[1].split()]
assert [i for i, _ in pts] == [50000, 100000, 300000, 1000000, 3000000, 10000000, 30000000, 100000000], pts
assert pts[0][1] == 0 and all(a[1] <= b[1] for a, b in zip(pts, pts[1:])), pts' "$curve" ||
		fail "state$n $key: '$curve' is not a curve from 50 us to 100 ms"
	grep -q "^$key = .*; measured on .*p50 after each idle" "$tmp/cal.ini" || fail "$key has no 'measured' comment"
	[ "$(sed -n '/^\[state0\]/,/^\[state1\]/p' "$tmp/cal.ini" | grep -c "^$key")" = 0 ] ||
		fail "POLL (state0) got a $key"
done
for i in $(seq 0 "$n"); do
	eb=$(value "$tmp/cal.ini" "state$i" entry_busy_ns)
	[ -n "$eb" ] && [ "$eb" -ge 0 ] && [ "$eb" -lt 1000000 ] || fail "state$i entry_busy_ns '$eb'"
done
slack=$(value "$tmp/cal.ini" os timer_slack_ns)
[ -n "$slack" ] && grep -q '^timer_slack_ns = .*; measured on ' "$tmp/cal.ini" || fail "no measured timer slack"
# the background: measured on the CPUs that were idle, or said why not (every CPU busy)
bg=$(value "$tmp/cal.ini" os background_hz)
if [ -n "$bg" ]; then
	grep -q '^background_hz = .*; measured on .*idle entries/s of [0-9]* CPUs over 1 s of nothing' "$tmp/cal.ini" ||
		fail "background_hz has no 'measured' comment"
	python3 -c 'import sys; v = float(sys.argv[1]); assert 0 <= v < 100000, v' "$bg" || fail "background_hz $bg"
	"$bin" sim "$tmp/s.ini" --print-config | grep -q '^kernel.housekeeping_hz = platform' ||
		fail "--print-config does not say housekeeping_hz came from the platform's background"
else
	grep -q '^; Note: .*background: .* left out, so it was not measured' "$tmp/cal.ini" ||
		fail "no background_hz and no note saying why"
fi
echo "ok: ipi $ipi, state$n exit $deep, context switch $cs ns, timer slack $slack ns, background ${bg:-not measured}/s"

# --from keeps the file and changes the measured keys only
"$bin" platform calibrate -q --from kvm-guest-haltpoll --samples 100 --ctxsw-time 100ms --background-time 0 \
	-o "$tmp/from.ini" || fail "calibrate --from: exit $?"
grep -q '^name = kvm-guest-haltpoll' "$tmp/from.ini" || fail "--from lost the name"
! grep -q '^background_hz' "$tmp/from.ini" || fail "--background-time 0 wrote background_hz"
grep -q '^; estimate' "$tmp/from.ini" || grep -q 'estimate' "$tmp/from.ini" || fail "--from lost the comments"
[ "$(value "$tmp/from.ini" platform ipi_ns)" != "lognormal 3000 0.3" ] || fail "--from: ipi_ns unchanged"
"$bin" platform show "$tmp/from.ini" >/dev/null || fail "--from: the file does not load"

# stopped half-way by SIGTERM: exit 128+15, nothing written, everything put back
"$bin" platform calibrate -q --samples 200000 --background-time 0 -o "$tmp/killed.ini" &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || fail "SIGTERM: exit $rc, expected 143"
[ ! -e "$tmp/killed.ini" ] || fail "SIGTERM: a file was written"
knobs >"$tmp/after2"
cmp -s "$tmp/before" "$tmp/after2" || fail "SIGTERM left the machine changed: $(diff "$tmp/before" "$tmp/after2")"
echo "ok: platform calibrate"
