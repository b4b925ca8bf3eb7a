#!/usr/bin/env bash
# Kernel releases: `idlekit kernel list|show`, kernel.version and kernel.switch.NAME in
# scenarios, --kernel/--switch on govreplay and replay, the messages for an unknown release or switch
# (exit status 2, the known ones listed), and that every switch pair of the govreplay corpus
# (tests/govreplay/*-sw-*) really differs in its decisions.
#
# usage (from the project root): bash tests/cli/kernel.sh /path/to/idlekit
set -u
bin=${1:?usage: kernel.sh /path/to/idlekit}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# ---- kernel list / show -----------------------------------------------------------------
"$bin" kernel list >"$tmp/list" || fail "kernel list: exit $?"
for rel in 4.16 4.17 5.1 5.4 5.10 5.15 6.1 6.6 6.12 6.19 7.0; do
	grep -q "^$rel " "$tmp/list" || fail "kernel list: no release $rel"
done
grep -q '^6.19 .*(default)' "$tmp/list" || fail "kernel list: 6.19 not marked default"
grep -q '^menu_no_iowait .*38f83090f515' "$tmp/list" || fail "kernel list: menu_no_iowait row"
"$bin" kernel show 6.6 >"$tmp/show" || fail "kernel show 6.6: exit $?"
grep -q '^off\* menu_no_iowait' "$tmp/show" || fail "kernel show 6.6: menu_no_iowait should be off*"
grep -q '^on   menu_skip_timer_query' "$tmp/show" || fail "kernel show 6.6: skip query on"
grep -q 'teo .*not implemented' "$tmp/show" && fail "kernel show 6.6: teo should run"
"$bin" kernel show 6.15 >"$tmp/show" || fail "kernel show 6.15: exit $?"
grep -q 'teo .*runs as this release' "$tmp/show" || fail "kernel show 6.15: teo should run (6.14.0's code)"
grep -q '^off\* teo_tick_rework' "$tmp/show" || fail "kernel show 6.15: teo_tick_rework should be off (6.19)"
"$bin" kernel show 7.1 >"$tmp/show" || fail "kernel show 7.1: exit $?"
grep -q 'teo .*runs as this release' "$tmp/show" || fail "kernel show 7.1: teo should run (the patch mails' file)"
grep -q '^on \* teo_stopped_tick_safe_range' "$tmp/show" || fail "kernel show 7.1: teo_stopped_tick_safe_range on"
grep -q 'menu .*runs as this release' "$tmp/show" || fail "kernel show 7.1: menu should run (the patch mail's file)"
grep -q '^on \* menu_safe_timer_range' "$tmp/show" || fail "kernel show 7.1: menu_safe_timer_range on"
"$bin" kernel show 7.0 >"$tmp/show" || fail "kernel show 7.0: exit $?"
grep -q 'menu .*runs as this release' "$tmp/show" || fail "kernel show 7.0: menu should run"
grep -q '^off  teo_stopped_tick_safe_range' "$tmp/show" || fail "kernel show 7.0: teo_stopped_tick_safe_range off (7.1)"
grep -q '^on \* teo_intercepts_max_lookup' "$tmp/show" || fail "kernel show 7.0: teo_intercepts_max_lookup on"
"$bin" kernel show 6.6.9 >/dev/null || fail "a point release (6.6.9) should behave as 6.6"

# ---- Unknown release or switch: one message, the known ones listed, exit 2 --------------
expect_usage() { # what, then the command
	local what=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "$what: exit $rc, expected 2"
	[ ! -s "$tmp/out" ] || fail "$what: output on stdout: $(head -c 200 "$tmp/out")"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: expected one message, got: $(cat "$tmp/err")"
}
expect_usage "kernel show 9.9" "$bin" kernel show 9.9
grep -q 'known releases: 4.16 .* 6.19' "$tmp/err" || fail "kernel show 9.9: releases not listed"
expect_usage "govreplay --kernel 5.20" "$bin" govreplay -g menu -p intel-skx --kernel 5.20 -i /dev/null
grep -q "unknown kernel release '5.20'" "$tmp/err" || fail "--kernel 5.20: $(cat "$tmp/err")"
expect_usage "govreplay --switch" "$bin" govreplay -g menu -p intel-skx --switch menu_bogus=on -i /dev/null
grep -q "unknown switch 'menu_bogus'; known switches: .*menu_no_iowait" "$tmp/err" ||
	fail "--switch menu_bogus: $(cat "$tmp/err")"
expect_usage "govreplay --switch x=maybe" "$bin" govreplay -g menu -p intel-skx --switch menu_no_iowait=maybe -i /dev/null
expect_usage "teo at 5.0" "$bin" govreplay -g teo -p intel-skx --kernel 5.0 -i /dev/null
grep -q 'kernel 5.0 has no teo governor' "$tmp/err" || fail "teo at 5.0: $(cat "$tmp/err")"
printf 'sleep_ns,tick_ns,wake_ns\n' | "$bin" govreplay -g teo -p intel-skx --kernel 6.3 -q >/dev/null ||
	fail "teo at 6.3 (the 6.3.8 file) should run"
expect_usage "teo at 5.1 with teo_util" "$bin" govreplay -g teo -p intel-skx --kernel 5.1 --switch teo_util=on -i /dev/null
grep -q 'teo as kernel 5.1 behaves is not implemented (teo before its 5.14 rework' "$tmp/err" ||
	fail "teo at 5.1 +teo_util: $(cat "$tmp/err")"
expect_usage "menu at 4.17 without its tick rework" "$bin" govreplay -g menu -p intel-skx --kernel 4.17 \
	--switch menu_retain_tick=off -i /dev/null
grep -q "menu's 4.17 tick rework is modelled as a whole" "$tmp/err" || fail "menu 4.17 mixed: $(cat "$tmp/err")"
expect_usage "select_stop_tick off under the 4.17 loop" "$bin" govreplay -g ladder -p intel-skx \
	--switch select_stop_tick=off -i /dev/null
grep -q 'select_stop_tick=off needs idle_tick_governor_decides=off' "$tmp/err" ||
	fail "select_stop_tick off alone: $(cat "$tmp/err")"
expect_usage "sim kernel.version=4.15" "$bin" sim --set kernel.version=4.15 --set scenario.duration_ms=1 --set scenario.warmup_ms=0
grep -q 'known releases' "$tmp/err" || fail "sim kernel.version=4.15: $(cat "$tmp/err")"
# a release of a line with no listed change of its own runs as the one before it
"$bin" sim --set kernel.version=6.8 --set scenario.duration_ms=20 -q --json | grep -v '"version"' >"$tmp/608.json"
"$bin" sim --set kernel.version=6.6 --set scenario.duration_ms=20 -q --json | grep -v '"version"' >"$tmp/606.json"
cmp -s "$tmp/608.json" "$tmp/606.json" || fail "kernel.version=6.8 does not run as 6.6"
# every release from 4.16 to 7.1 is accepted, and show says what each behaves as; the LTS
# lines say they are
for rel in 4.16 4.17 4.18 4.19 4.20 $(seq -f '5.%g' 0 19) $(seq -f '6.%g' 0 19) 7.0 7.1; do
	"$bin" kernel show "$rel" >"$tmp/show" 2>&1 || fail "kernel show $rel: $(head -1 "$tmp/show")"
	"$bin" sim --set kernel.version="$rel" --set scenario.duration_ms=1 --set scenario.warmup_ms=0 -q >/dev/null 2>"$tmp/err" ||
		fail "kernel.version=$rel: $(cat "$tmp/err")"
	case $rel in
	4.19 | 5.4 | 5.10 | 5.15 | 6.1 | 6.6 | 6.12 | 6.18)
		head -1 "$tmp/show" | grep -q "^kernel $rel (LTS)" || fail "kernel show $rel: not marked LTS" ;;
	esac
done
"$bin" kernel show 4.19 | grep -qx '  behaves as 4.18 here: no catalogued change landed in 4.19' ||
	fail "kernel show 4.19: does not say it behaves as 4.18"
"$bin" kernel show 6.1 | grep -q 'behaves as' && fail "kernel show 6.1: a catalogued release 'behaves as' another"
"$bin" kernel list | grep -qx '4.19 LTS behaves as 4.18 (no catalogued change landed in it)' ||
	fail "kernel list: no 4.19 LTS line"
expect_usage "sim kernel.switch" "$bin" sim --set kernel.switch.nope=on --set scenario.duration_ms=1 --set scenario.warmup_ms=0
grep -q 'known switches' "$tmp/err" || fail "sim kernel.switch.nope: $(cat "$tmp/err")"
expect_usage "sim teo at 7.1 with a gap" "$bin" sim --set kernel.version=7.1 --set kernel.switch.teo_zero_size_bins=off \
	--set cpuidle.governor=teo --set scenario.duration_ms=1 --set scenario.warmup_ms=0
grep -q 'in the order they were applied' "$tmp/err" || fail "sim teo 7.1 -teo_zero_size_bins: $(cat "$tmp/err")"

expect_usage "replay --switch" "$bin" replay tests/fixtures/traces/two-cpus.trace -g menu -p intel-skx --switch menu_bogus=on
grep -q 'known switches' "$tmp/err" || fail "replay --switch menu_bogus: $(cat "$tmp/err")"

# ---- replay --switch: the run says it and the decisions follow the switch ----------------
"$bin" replay tests/fixtures/traces/two-cpus.trace -g menu -p intel-skx --json >"$tmp/rp0.json" || fail "replay: exit $?"
"$bin" replay tests/fixtures/traces/two-cpus.trace -g menu -p intel-skx \
	--switch menu_skip_timer_query=off --json >"$tmp/rp1.json" || fail "replay --switch: exit $?"
grep -q '"governor": "menu as 6.19 -menu_skip_timer_query"' "$tmp/rp1.json" ||
	fail "replay --switch: label: $(grep -m1 governor "$tmp/rp1.json")"
cmp -s <(grep -v '"governor"' "$tmp/rp0.json") <(grep -v '"governor"' "$tmp/rp1.json") &&
	fail "replay --switch menu_skip_timer_query=off changed nothing on two-cpus.trace"

# ---- The release is recorded in the output ------------------------------------------------
"$bin" sim --set kernel.version=6.12 --set kernel.switch.menu_no_iowait=on \
	--set scenario.duration_ms=5 --set scenario.warmup_ms=0 --json >"$tmp/sim.json" || fail "sim as 6.12: exit $?"
grep -q '"kernel": {"version": "6.12", "switches": {"menu_no_iowait": "on"}}' "$tmp/sim.json" ||
	fail "sim --json: kernel block missing: $(grep kernel "$tmp/sim.json")"
"$bin" sim --set kernel.version=6.12 --set scenario.duration_ms=5 --set scenario.warmup_ms=0 >"$tmp/sim.txt" || fail "sim text"
grep -q '^kernel *6.12$' "$tmp/sim.txt" || fail "sim text header: no 'kernel 6.12' line"
"$bin" sim --set scenario.duration_ms=5 --set scenario.warmup_ms=0 >"$tmp/sim619.txt" || fail "sim default"
grep -q '^kernel *6.19$' "$tmp/sim619.txt" || fail "sim text header: no 'kernel 6.19' line"
"$bin" govreplay -g menu -p intel-skx --kernel 5.4 --switch ns_units=on --json \
	-i tests/govreplay/menu-deep.csv >"$tmp/gr.json" 2>/dev/null || fail "govreplay --json"
grep -q '"kernel": {"version": "5.4", "switches": {"ns_units": "on"}}' "$tmp/gr.json" ||
	fail "govreplay --json: kernel block: $(grep kernel "$tmp/gr.json")"
# A release as kernel.version in a scenario file, and the seed scenarios at older releases.
for rel in 5.1 5.4 5.10 6.1 6.12; do
	"$bin" sim seed000-baseline --set kernel.version=$rel --set scenario.duration_ms=5 --set scenario.warmup_ms=0 \
		>/dev/null 2>"$tmp/err" || fail "seed000 as $rel: $(cat "$tmp/err")"
done

# ---- seed 003 as 4.16, 5.1 and 6.19 --------------------------------------------------------
# POWER9, powernv, menu, HZ 250: 20 CPUs run a 30 us periodic task, then it stops and they
# have nothing to do for 1.5 s.  4.16 stopped the tick on idle entry and its menu, trained
# on short idle periods, picks stop0_lite with nothing to correct it: no CPU leaves the lite
# state within the 1.5 s (leave_lite_ns counts the CPUs that did, and when).  5.1 and 6.19
# keep the tick for a short prediction, so every CPU is out within a few ticks (< 50 ms).
for rel in 4.16 5.1 6.19; do
	"$bin" sim seed003-tick --set kernel.version=$rel --set scenario.duration_ms=1500 --json \
		-o "$tmp/s3-$rel.json" 2>"$tmp/err" || fail "seed003 as $rel: $(cat "$tmp/err")"
done
lite() { # file field
	sed -n 's/.*"leave_lite_ns": {\(.*\)}.*/\1/p' "$1" | tr ',' '\n' | sed -n "s/.*\"$2\": //p"
}
[ "$(lite "$tmp/s3-4.16.json" count)" = 0 ] ||
	fail "seed003 as 4.16: $(lite "$tmp/s3-4.16.json" count) CPUs left stop0_lite within 1.5 s, expected none"
"$bin" sim seed003-tick --set kernel.version=4.16 --set scenario.duration_ms=1500 >"$tmp/s3.txt" 2>&1
lite_us=$(awk '$2 == "stop0_lite" {print $6}' "$tmp/s3.txt")
[ "${lite_us:-0}" -gt 30000000 ] || fail "seed003 as 4.16: stop0_lite time ${lite_us:-?} us, expected > 20 CPUs x 1.5 s"
for rel in 5.1 6.19; do
	[ "$(lite "$tmp/s3-$rel.json" count)" = 20 ] ||
		fail "seed003 as $rel: $(lite "$tmp/s3-$rel.json" count) of 20 CPUs left stop0_lite"
	max=$(lite "$tmp/s3-$rel.json" max)
	[ "${max:-999999999}" -lt 50000000 ] || fail "seed003 as $rel: left stop0_lite after ${max:-?} ns, expected < 50 ms"
done

# ---- replay --kernel: each governor instance and device as the release ---------------------
trace=tests/fixtures/traces/recorded-sched.trace
"$bin" replay $trace -g menu -p intel-skx --json -o "$tmp/r619.json" || fail "replay as 6.19"
"$bin" replay $trace -g menu -p intel-skx --kernel 4.16 --json -o "$tmp/r416.json" || fail "replay as 4.16"
grep -q '"menu as 4.16"' "$tmp/r416.json" || fail "replay --kernel 4.16: the run's label does not say the release"
cmp -s "$tmp/r619.json" "$tmp/r416.json" && fail "replay --kernel 4.16: same result as 6.19"
expect_usage "replay teo at 7.1 with a gap" "$bin" replay $trace -g menu,teo -p intel-skx --kernel 7.1 \
	--switch teo_zero_size_bins=off
grep -q 'in the order they were applied' "$tmp/err" || fail "replay teo 7.1 -teo_zero_size_bins: $(cat "$tmp/err")"
"$bin" replay $trace -g menu -p intel-skx --kernel 7.1 -o /dev/null || fail "replay menu as 7.1 should run"
"$bin" replay $trace -g teo -p intel-skx --kernel 7.1 -o /dev/null || fail "replay teo as 7.1 should run"
"$bin" replay $trace -g teo -p intel-skx --kernel 6.17 -o /dev/null || fail "replay teo as 6.17 (6.14.0's code) should run"
"$bin" replay $trace -g teo -p intel-skx --kernel 5.9 -o /dev/null || fail "replay teo as 5.9 (the 5.9.1 file) should run"
expect_usage "replay --kernel 3.0" "$bin" replay $trace -g menu -p intel-skx --kernel 3.0
grep -q 'known releases' "$tmp/err" || fail "replay --kernel 3.0: $(cat "$tmp/err")"

# ---- Every switch pair of the corpus differs --------------------------------------------
# Files tests/govreplay/<gov>-sw-<name>-<variant>.csv: the variants of one name must not
# all give the same decisions, or the case shows nothing about its switch.
for first in tests/govreplay/*-sw-*.expected; do
	stem=${first%-*}
	[ "$first" = "$(ls "$stem"-*.expected | head -n 1)" ] || continue
	distinct=$(for e in "$stem"-*.expected; do md5sum <"$e"; done | sort -u | wc -l)
	[ "$distinct" -ge 2 ] || fail "$(basename "$stem"): all variants give the same decisions"
done

# ---- the pre-4.17 idle loop: the tick stopped on entry, before select -----------------------
# With idle_tick_governor_decides off, a stream whose tick is running gives the decisions of
# the same stream with the tick stopped at every entry (and the governor's word on the tick
# is ignored: stop_tick stays 1).
grep -v '^#' tests/govreplay/menu-tick-stopped.csv | sed '1!s/,[01]$/,0/' >"$tmp/run.csv"
grep -v '^#' tests/govreplay/menu-tick-stopped.csv | sed '1!s/,[01]$/,1/' >"$tmp/stopped.csv"
"$bin" govreplay -g menu -p intel-skx -i "$tmp/stopped.csv" -q >"$tmp/stopped.out" || fail "govreplay stopped"
"$bin" govreplay -g menu -p intel-skx -i "$tmp/run.csv" -q >"$tmp/run.out" || fail "govreplay running"
"$bin" govreplay -g menu -p intel-skx -i "$tmp/run.csv" -q --switch idle_tick_governor_decides=off \
	>"$tmp/run416.out" || fail "govreplay with the 4.16 idle loop"
cmp -s "$tmp/stopped.out" "$tmp/run416.out" || fail "4.16 idle loop: the tick is not stopped before select"
cmp -s "$tmp/run.out" "$tmp/run416.out" && fail "4.16 idle loop: no decision changed"

# ---- the release and a flipped switch travel with the result -------------------------------
rel=(--set kernel.version=5.10 --set kernel.switch.menu_no_iowait=on --set scenario.duration_ms=30)
"$bin" sim "${rel[@]}" --json -o "$tmp/rel.json" || fail "sim as 5.10: exit $?"
"$bin" sim "${rel[@]}" --print-config >"$tmp/rel.ini" || fail "print-config as 5.10"
grep -qx 'version = 5.10' "$tmp/rel.ini" || fail "printed config lacks kernel.version"
grep -qx 'switch.menu_no_iowait = on' "$tmp/rel.ini" || fail "printed config lacks the switch"
"$bin" sim "$tmp/rel.ini" --json -o "$tmp/rel2.json" || fail "sim of the printed 5.10 config"
cmp -s "$tmp/rel.json" "$tmp/rel2.json" || fail "the printed 5.10 config does not reproduce the result"

if [ "$failures" -ne 0 ]; then
	echo "kernel: $failures failure(s)"
	exit 1
fi
echo "kernel: all passed"
