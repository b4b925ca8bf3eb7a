#!/usr/bin/env bash
# Three of rt-app's own examples (tests/fixtures/rtapp/upstream/: tutorial/example1.json, a
# 20 ms run and an 80 ms sleep; tutorial/example2.json, a 10 ms run on a 100 ms timer;
# template.json, the same with a "sleep": 0) run for real by the rt-app binary for 2 s, and
# simulated by idlekit on this machine's imported platform (idlekit platform import); rt-app's
# own per-activation log (its period and run columns) against idlekit's rtapp figures:
# the mean period of a timer's file within 2 %; runs (and a file without a timer's period)
# within 40 %, as far as rt-app's own runs hold still on this kind of machine (below).
#
# What both sides run is one copy of each file: its logging keys sent to a scratch
# directory (and ftrace/gnuplot off: Debian's rt-app 1.0 takes ftrace as a boolean), its
# duration 2 s, and its calibration a number: rt-app's own "CPU0" calibration, taken once
# per run of rt-app, varies from 22 to 25 ns per loop on a shared machine, which moves its
# runs by 14 %; so rt-app calibrates three times here and the smallest (the least disturbed
# by other processes) is written into the copy.  idlekit reads a number as ns per loop too.
#
# This measures the machine: it must run alone (other processes stretch rt-app's runs), so
# ctest runs it with no other test beside it (RUN_SERIAL in CMakeLists.txt); on a machine
# shared with other work, CTEST_EXCLUDE='cli/validate' leaves it out.
# Needs rt-app (Debian package rt-app, in scripts/install-deps): skipped without (exit 77),
# failed under CI.  The figures are printed (one line per file) whether or not they pass.
set -u
bin=${1:?usage: validate_rtapp_upstream.sh IDLEKIT}
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/check.bash

command -v rt-app >/dev/null || need_tool rt-app "Debian package rt-app; scripts/install-deps installs it"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" platform import -o "$tmp/here.ini" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	# a machine with no cpuidle driver has no platform to import
	grep -q 'no cpuidle' "$tmp/err" && { echo "SKIP: $(head -c 200 "$tmp/err")"; exit 77; }
	check "platform import (exit $rc: $(head -c 300 "$tmp/err"))" false
	exit 1
fi

# rt-app's calibration, three times: the smallest ns per loop
calib=
cat >"$tmp/calib.json" <<EOF
{ "tasks": { "c": { "loop": 1, "run": 1000 } },
  "global": { "duration": 1, "calibration": "CPU0", "logdir": "$tmp", "log_basename": "calib",
              "ftrace": false, "gnuplot": false } }
EOF
for i in 1 2 3; do
	timeout 120 rt-app "$tmp/calib.json" >"$tmp/calib.out" 2>&1
	n=$(sed -n 's/.*pLoad = \([0-9]*\)ns.*/\1/p' "$tmp/calib.out" | head -1)
	[ -n "$n" ] || { check "rt-app calibrates: $(tail -2 "$tmp/calib.out")" false; exit 1; }
	if [ -z "$calib" ] || [ "$n" -lt "$calib" ]; then calib=$n; fi
done
echo "rt-app calibration: $calib ns per loop (the smallest of 3)"

# rt-app's log: the mean period and the median run, in us
log_figures() {
	awk '/^#idx/ { for (i = 1; i <= NF; i++) c[$i] = i; next } /^#/ { next }
	     NF > 3 { print $c["period"], $c["run"] }' "$1" |
	sort -k2,2n | awk '{ p += $1; r[NR] = $2 } END { if (NR) printf "%d %.1f %.1f\n", NR, p / NR, r[int((NR + 1) / 2)] }'
}

for f in tutorial/example1 tutorial/example2 template; do
	b=$(basename "$f")
	copy=$tmp/$b.json
	sed -e "s#\"logdir\" *: *\"[^\"]*\"#\"logdir\" : \"$tmp\"#" \
	    -e "s#\"log_basename\" *: *\"[^\"]*\"#\"log_basename\" : \"$b\"#" \
	    -e 's#"ftrace" *: *"[^"]*"#"ftrace" : false#' \
	    -e 's#"gnuplot" *: *true#"gnuplot" : false#' \
	    -e 's#"duration" *: *[0-9]*#"duration" : 2#' \
	    -e "s#\"calibration\" *: *\"CPU0\"#\"calibration\" : $calib#" \
	    "tests/fixtures/rtapp/upstream/$f.json" >"$copy"
	check "$b: the copy changes only logging, duration and calibration" \
		test "$(diff "tests/fixtures/rtapp/upstream/$f.json" "$copy" | grep -c '^>')" -le 6
	timeout 120 rt-app "$copy" >"$tmp/$b.out" 2>&1
	rc=$?
	check "$b: rt-app runs it (exit $rc: $(tail -2 "$tmp/$b.out"))" test $rc -eq 0
	logs=("$tmp/$b"-*.log)
	check "$b: rt-app wrote one log" test "${#logs[@]}" -eq 1 -a -s "${logs[0]}"
	read -r n real_period real_run < <(log_figures "${logs[0]}")
	check "$b: rt-app logged activations (${n:-0})" test "${n:-0}" -ge 15

	"$bin" sim --set workload.type=rtapp --set workload.file="$copy" \
		--set scenario.platform="$tmp/here.ini" --set scenario.duration_ms=2100 \
		--set scenario.warmup_ms=0 -q --json -o "$tmp/$b.sim.json" 2>"$tmp/err"
	rc=$?
	check "$b: idlekit simulates it (exit $rc: $(grep -v ': note:' "$tmp/err" | head -c 300))" test $rc -eq 0
	read -r sn sim_period sim_run < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["rtapp"]
print(r["activations"], r["period_ns"]["mean"] / 1000, r["run_ns"]["p50"] / 1000)' "$tmp/$b.sim.json")
	line=$(awk -v b="$b" -v n="$n" -v sn="$sn" -v rp="$real_period" -v sp="$sim_period" \
		-v rr="$real_run" -v sr="$sim_run" 'BEGIN {
		printf "%s: rt-app %d activations, period mean %.1f us, run median %.1f us; " \
		       "idlekit %d, %.1f us, %.1f us; error period %+.2f %%, run %+.2f %%\n",
		       b, n, rp, rr, sn, sp, sr, (sp - rp) / rp * 100, (sr - rr) / rr * 100 }')
	echo "$line"
	# A timer's period is the timer's: within 2 %.  A run is rt-app's loop count at its
	# calibration, and what one loop costs moves from run to run on this kind of machine
	# (a KVM guest: the host's frequency and its other guests): measured here, quiet,
	# the same calibration ran a 20 ms run in 19.6 ms and then in 27.5 ms, and the three
	# files' runs came out -3 % to +37 % from theirs.  So runs, and the period of a file
	# without a timer (example1: run then sleep), are held to 40 %, which catches a model
	# that drops or doubles a run, not the machine's drift; the figures are printed.
	if grep -q '"timer"' "$copy"; then pmax=0.02; else pmax=0.40; fi
	check "$b: period within $(awk -v m=$pmax 'BEGIN { print m * 100 }') % ($line)" \
		awk -v r="$real_period" -v s="$sim_period" -v m="$pmax" \
		'BEGIN { d = (s - r) / r; exit !(d <= m && d >= -m) }'
	check "$b: run within 40 % ($line)" awk -v r="$real_run" -v s="$sim_run" \
		'BEGIN { d = (s - r) / r; exit !(d <= 0.40 && d >= -0.40) }'
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
