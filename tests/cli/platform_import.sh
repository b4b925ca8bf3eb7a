#!/usr/bin/env bash
# idlekit platform import: from each captured machine, a platform file that `platform show`
# reads back with the dump's latency and residency, state by state, and that `sim` runs;
# from this machine's live tree too.
set -eu
ik=$1
fix=tests/fixtures/sysfs
dumps=(adl0 aml-y-2 bdwde0 bdwup0 cfl-u dell-9360-kbl dell-latitude-5420-tgl icx2s3 mtl-m-2
       skld0 snr0)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for d in "${dumps[@]}"; do
	f=$fix/$d.txt
	"$ik" platform import --sysfs-dump "$f" -o "$tmp/$d.ini" || fail "$d: import failed"
	"$ik" platform show "$tmp/$d.ini" > "$tmp/$d.show" || fail "$d: platform show failed"
	grep -q "^platform *$d\$" "$tmp/$d.show" || fail "$d: name"
	n=0
	for k in 0 1 2 3 4 5 6 7 8 9; do
		p=/sys/devices/system/cpu/cpu0/cpuidle/state$k
		grep -q "|$p/name|" "$f" || break
		name=$(grep "|$p/name|" "$f" | cut -d'|' -f3)
		lat=$(grep "|$p/latency|" "$f" | cut -d'|' -f3)
		res=$(grep "|$p/residency|" "$f" | cut -d'|' -f3)
		grep -Eq "^$k +$name .* $lat +$res " "$tmp/$d.show" ||
			{ cat "$tmp/$d.show" >&2; fail "$d: state $k ($name) latency $lat residency $res not shown"; }
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || fail "$d: no states"
	grep -q '^method = mwait$' "$tmp/$d.ini" || fail "$d: no MWAIT state guessed"
	echo "ok: $d ($n states)"
done

# The method and hint guessed from desc, for an acpi_idle table with an I/O port state.
cat > "$tmp/amd.txt" <<'DUMP'
rw|/sys/devices/system/cpu/cpuidle/current_driver|acpi_idle
rw|/sys/devices/system/cpu/cpu0/cpuidle/state0/name|POLL
rw|/sys/devices/system/cpu/cpu0/cpuidle/state0/desc|CPUIDLE CORE POLL IDLE
rw|/sys/devices/system/cpu/cpu0/cpuidle/state0/latency|0
rw|/sys/devices/system/cpu/cpu0/cpuidle/state0/residency|0
rw|/sys/devices/system/cpu/cpu0/cpuidle/state1/name|C1
rw|/sys/devices/system/cpu/cpu0/cpuidle/state1/desc|ACPI FFH MWAIT 0x0
rw|/sys/devices/system/cpu/cpu0/cpuidle/state1/latency|1
rw|/sys/devices/system/cpu/cpu0/cpuidle/state1/residency|2
rw|/sys/devices/system/cpu/cpu0/cpuidle/state2/name|C2
rw|/sys/devices/system/cpu/cpu0/cpuidle/state2/desc|ACPI IOPORT 0x414
rw|/sys/devices/system/cpu/cpu0/cpuidle/state2/latency|18
rw|/sys/devices/system/cpu/cpu0/cpuidle/state2/residency|36
rw|/sys/devices/system/cpu/cpu0/cpuidle/state2/default_status|disabled
rw|/sys/devices/system/cpu/cpu0/cpuidle/state3/name|halt idle
rw|/sys/devices/system/cpu/cpu0/cpuidle/state3/desc|ACPI HLT
rw|/sys/devices/system/cpu/cpu0/cpuidle/state3/latency|10
rw|/sys/devices/system/cpu/cpu0/cpuidle/state3/residency|20
DUMP
"$ik" platform import --sysfs-dump "$tmp/amd.txt" --name zen -o "$tmp/zen.ini" || fail "zen import"
grep -A8 '^\[state2\]' "$tmp/zen.ini" | grep -q '^method = ioport$' || fail "IOPORT -> ioport"
grep -A8 '^\[state2\]' "$tmp/zen.ini" | grep -q '^hint = 0x414$' || fail "IOPORT hint"
grep -A8 '^\[state2\]' "$tmp/zen.ini" | grep -q '^flags = off' || fail "default_status disabled -> off"
grep -A9 '^\[state3\]' "$tmp/zen.ini" | grep -q '^name = halt_idle$' || fail "name made valid"
grep -A9 '^\[state3\]' "$tmp/zen.ini" | grep -q '^method = hlt$' || fail "HLT -> hlt"
grep -A9 '^\[state3\]' "$tmp/zen.ini" | grep -q '^latency_us = 18$' || fail "table kept in order"
grep -q 'one package with every online CPU as a core' "$tmp/zen.ini" || fail "topology guess not said"
"$ik" platform show "$tmp/zen.ini" > /dev/null || fail "zen: platform show"

# The live machine (it may have no cpuidle driver: then say so, exit 1, write nothing).
rc=0
"$ik" platform import -o "$tmp/live.ini" 2> "$tmp/err" || rc=$?
if [ "$rc" = 0 ]; then
	"$ik" platform show "$tmp/live.ini" > /dev/null || fail "live: platform show"
	"$ik" sim default --set "scenario.platform=$tmp/live.ini" --set scenario.duration_ms=5 \
		> /dev/null || fail "live: sim does not accept the imported platform"
	grep -q '^; Guessed:' "$tmp/live.ini" || fail "live: guesses not said"
	echo "ok: live machine imported ($(grep -c '^\[state' "$tmp/live.ini") states)"
else
	grep -q 'no idle states to import' "$tmp/err" || fail "live: $(cat "$tmp/err")"
	[ ! -e "$tmp/live.ini" ] || fail "live: a file was written"
	echo "ok: live machine has no idle states to import"
fi
"$ik" sim default --set "scenario.platform=$tmp/dell-9360-kbl.ini" --set scenario.duration_ms=5 \
	> /dev/null || fail "sim does not accept an imported platform"

# Bad input: nothing written.
rc=0
"$ik" platform import --sysfs-dump "$tmp/missing.txt" -o "$tmp/x.ini" 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && [ ! -e "$tmp/x.ini" ] || fail "missing dump: exit $rc"
rc=0
"$ik" platform import --sysfs-dump "$fix/snr0.txt" --name 'bad name' 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "bad --name: exit $rc"
echo "ok: platform import"
