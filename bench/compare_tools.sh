#!/usr/bin/env bash
# Speed of idlekit on real recordings beside the tools that read the same recordings:
#
#   perf.data  -> `perf script`                        (text, events/s)
#              -> `perf script` text -> `idlekit import perf-script` -> `idlekit analyze`/`replay`
#   trace.dat  -> `trace-cmd report`                   (text, events/s)
#              -> `idlekit import trace-dat` -> `idlekit analyze`/`replay`
#   tracefs    -> `idlekit record` (its own recording of the same workload) -> analyze/replay
#
# The perf.data and the trace.dat are two recordings of the same workload (`perf bench sched
# pipe`, which keeps waking the CPUs from idle) with the same events; each tool is timed on
# the events of its own input, and every figure is events per second of wall time (one run,
# the best of REPS; the machine may be shared).  Benchmarks print figures, nothing is asserted.
#
# usage (root; perf, trace-cmd): bash bench/compare_tools.sh BUILD_DIR [LOOPS [REPS]]
#        (default LOOPS 50000 round trips of `perf bench sched pipe`, REPS 3)
set -u
build=${1:?usage: compare_tools.sh BUILD_DIR [LOOPS [REPS]]}
loops=${2:-50000}
reps=${3:-3}
ik=$build/idlekit
[ -x "$ik" ] || { echo "no $ik"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "root needed (perf -a, tracefs)"; exit 2; }
command -v perf >/dev/null || { echo "perf needed"; exit 2; }
tmp=$(mktemp -d)
inst=/sys/kernel/tracing/instances/ikbench-$$
cleanup() {
	[ -d "$inst" ] && { echo 0 >"$inst/tracing_on"; rmdir "$inst"; }
	rm -rf "$tmp"
}
trap cleanup EXIT
workload() { perf bench sched pipe -l "$loops" >/dev/null 2>&1; }
events=(power:cpu_idle irq:irq_handler_entry timer:hrtimer_start timer:hrtimer_cancel
	timer:hrtimer_expire_entry sched:sched_waking sched:sched_switch timer:tick_stop)

# Best wall time of REPS runs of "$@" in ns (stdout of the command discarded).
best_ns() {
	local best=0 s e i
	for ((i = 0; i < reps; i++)); do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; echo 0; return; }
		e=$(date +%s%N)
		((best == 0 || e - s < best)) && best=$((e - s))
	done
	echo $best
}
# "NAME EVENTS NS": a line with events/s.
row() {
	awk -v n="$1" -v ev="$2" -v ns="$3" -v what="$4" 'BEGIN {
		s = ns / 1e9; printf "  %-44s %10d events %9.3f s %12.0f events/s  (%s)\n", n, ev, s, (s > 0 ? ev / s : 0), what }'
}

echo "machine: $(nproc) CPUs, $(uname -r); workload: perf bench sched pipe -l $loops; best of $reps"

# ---- perf ---------------------------------------------------------------------------------
pe=()
for e in "${events[@]}"; do pe+=(-e "$e"); done
perf record -q -k mono -o "$tmp/perf.data" "${pe[@]}" -a -- perf bench sched pipe -l "$loops" >/dev/null 2>&1 ||
	{ echo "perf record failed"; exit 1; }
perf script -i "$tmp/perf.data" --ns >"$tmp/perf.txt" 2>/dev/null
n_perf=$(grep -c . "$tmp/perf.txt")
echo
echo "perf.data: $n_perf events ($(du -h "$tmp/perf.data" | cut -f1)); perf script text $(du -h "$tmp/perf.txt" | cut -f1)"
row "perf script --ns" "$n_perf" "$(best_ns perf script -i "$tmp/perf.data" --ns)" "perf.data -> text"
row "idlekit import perf-script --clock mono" "$n_perf" \
	"$(best_ns "$ik" import perf-script "$tmp/perf.txt" --clock mono -o "$tmp/p.trace")" "text -> trace"
"$ik" import perf-script "$tmp/perf.txt" --clock mono -o "$tmp/p.trace" 2>/dev/null
n_pt=$(($(grep -c . "$tmp/p.trace") - $(grep -n '^events$' "$tmp/p.trace" | cut -d: -f1)))
row "idlekit analyze (the import)" "$n_pt" "$(best_ns "$ik" analyze "$tmp/p.trace")" "trace events"
row "idlekit replay -g menu -p trace (the import)" "$n_pt" "$(best_ns "$ik" replay "$tmp/p.trace" -g menu -p trace)" "trace events"
s1=$(best_ns perf script -i "$tmp/perf.data" --ns)
s2=$(best_ns "$ik" import perf-script "$tmp/perf.txt" --clock mono -o "$tmp/p.trace")
s3=$(best_ns "$ik" analyze "$tmp/p.trace")
row "perf script + idlekit import + analyze" "$n_perf" $((s1 + s2 + s3)) "perf.data -> analysis"

# ---- trace-cmd ----------------------------------------------------------------------------
if command -v trace-cmd >/dev/null; then
	mkdir "$inst"
	echo mono >"$inst/trace_clock"
	echo 65536 >"$inst/buffer_size_kb"
	for e in "${events[@]}"; do
		[ -e "$inst/events/${e/://}/enable" ] && echo 1 >"$inst/events/${e/://}/enable"
	done
	echo 1 >"$inst/tracing_on"
	workload
	echo 0 >"$inst/tracing_on"
	trace-cmd extract -B "ikbench-$$" -o "$tmp/trace.dat" >/dev/null 2>&1 || echo "trace-cmd extract failed"
	if [ -s "$tmp/trace.dat" ]; then
		trace-cmd report -i "$tmp/trace.dat" >"$tmp/report.txt" 2>/dev/null
		n_tc=$(grep -c ': *[a-z_]*: ' "$tmp/report.txt")
		echo
		echo "trace.dat: $n_tc events ($(du -h "$tmp/trace.dat" | cut -f1))"
		row "trace-cmd report" "$n_tc" "$(best_ns trace-cmd report -i "$tmp/trace.dat")" "trace.dat -> text"
		row "idlekit import trace-dat" "$n_tc" "$(best_ns "$ik" import trace-dat "$tmp/trace.dat" -o "$tmp/t.trace")" "trace.dat -> trace"
		"$ik" import trace-dat "$tmp/trace.dat" -o "$tmp/t.trace" 2>/dev/null
		n_tt=$(($(grep -c . "$tmp/t.trace") - $(grep -n '^events$' "$tmp/t.trace" | cut -d: -f1)))
		row "idlekit analyze (the import)" "$n_tt" "$(best_ns "$ik" analyze "$tmp/t.trace")" "trace events"
	fi
	[ -d "$inst" ] && { echo 0 >"$inst/tracing_on"; rmdir "$inst"; } # extract may remove it
fi

# ---- idlekit record -----------------------------------------------------------------------
"$ik" record -o "$tmp/r.trace" -- perf bench sched pipe -l "$loops" >/dev/null 2>"$tmp/rec.err" || cat "$tmp/rec.err"
n_rt=$(($(grep -c . "$tmp/r.trace") - $(grep -n '^events$' "$tmp/r.trace" | cut -d: -f1)))
echo
echo "idlekit record: $(sed 's/^idlekit record: //' "$tmp/rec.err" | head -1)"
row "idlekit analyze (the recording)" "$n_rt" "$(best_ns "$ik" analyze "$tmp/r.trace")" "trace events"
row "idlekit replay -g menu -p trace" "$n_rt" "$(best_ns "$ik" replay "$tmp/r.trace" -g menu -p trace)" "trace events"
