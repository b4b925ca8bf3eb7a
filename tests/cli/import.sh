#!/usr/bin/env bash
# `idlekit import perf-script`: the real sample (tests/fixtures/traces/perf-script-sample.txt,
# see the README there) imported then analysed gives the expected per-state counts and wake
# causes, with a platform's table and with the generic one; standard input; replay on the
# result; bad input exits 2 with FILE:LINE and writes nothing (an existing output is kept);
# --lenient skips and counts.
#
# usage (from the project root): bash tests/cli/import.sh /path/to/idlekit
set -u
bin=${1:?usage: import.sh /path/to/idlekit}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}
fx=tests/fixtures/traces
sample=$fx/perf-script-sample.txt

# ---- The sample, with the machine's platform (POLL + HLT, state=1 is HLT) ---------------
"$bin" import perf-script $sample -o "$tmp/k.trace" --platform kvm-guest-haltpoll 2>"$tmp/err" ||
	fail "import --platform: exit $?: $(cat "$tmp/err")"
grep -q '456 events from 501 lines' "$tmp/err" || fail "import summary: $(cat "$tmp/err")"
grep -q 'note:' "$tmp/err" && fail "a note about the generic table with --platform"
head -10 "$tmp/k.trace" >"$tmp/head"
# format 1.1: the names of the IRQs irq_handler_entry gave
printf 'idlekit-trace 1.1\nhz 250\ncpus 2\nirq 34 virtio4-input\nirq 36 virtio1-req.0\nirq 41 virtio3-rx\ndriver table 0-1\nstate POLL 0 0 0x1 CPUIDLE CORE POLL IDLE\nstate HLT 1 1 0x0 HLT (VM exit)\nevents\n' >"$tmp/head.want"
diff -u "$tmp/head.want" "$tmp/head" || fail "imported header"
"$bin" analyze "$tmp/k.trace" --csv >"$tmp/csv" || fail "analyze of the import: exit $?"
cat >"$tmp/csv.want" <<'CSV'
cluster,core,cpu,C-state,min (us),max (us),avg (us),total (us),hits,over,under
0,0,0,POLL,0.000,0.000,0.000,0.000,0,0,0
0,0,0,HLT,33.000,50146.000,12782.394,1942924.000,152,0,0
0,1,1,POLL,0.000,0.000,0.000,0.000,0,0,0
0,1,1,HLT,0.000,0.000,0.000,0.000,0,0,0
CSV
diff -u "$tmp/csv.want" "$tmp/csv" || fail "per-state counts of the imported sample"
"$bin" analyze "$tmp/k.trace" >"$tmp/text" || fail "analyze (text): exit $?"
grep -q 'timer 46 (0) tick 83 (0) ipi 21 (0) irq 2 (0) unknown 0 (0) remote 0 (0) softirq 0 (0) none 0 (0)' "$tmp/text" ||
	fail "wake causes of the imported sample: $(grep 'wake causes' "$tmp/text" | head -1)"
"$bin" replay "$tmp/k.trace" -g haltpoll -p trace --compare-recorded >"$tmp/replay" ||
	fail "replay of the import: exit $?"
grep -q 'recorded idle periods 152' "$tmp/replay" || fail "replay: $(head -2 "$tmp/replay")"

# ---- No platform: the generic table, with a note -----------------------------------------
"$bin" import perf-script $sample -o "$tmp/g.trace" 2>"$tmp/err" || fail "import (generic): exit $?"
grep -q 'note: no --platform: a generic table state0..state1' "$tmp/err" || fail "generic note: $(cat "$tmp/err")"
grep -q '^state state1 0 0 0x0$' "$tmp/g.trace" || fail "generic table"
"$bin" analyze "$tmp/g.trace" --csv | grep -q '^0,0,0,state1,33.000,50146.000,12782.394,1942924.000,152,0,0$' ||
	fail "generic: per-state counts"

# ---- Standard input and standard output ---------------------------------------------------
"$bin" import perf-script - --platform kvm-guest-haltpoll <$sample >"$tmp/stdin.trace" 2>/dev/null ||
	fail "import from standard input: exit $?"
cmp -s "$tmp/stdin.trace" "$tmp/k.trace" || fail "standard input/output import differs"

# ---- Bad input: FILE:LINE, exit 2, nothing written -----------------------------------------
{ head -3 $sample; echo "this is not perf script"; tail -n +4 $sample; } >"$tmp/bad.txt"
echo keep >"$tmp/out.trace"
"$bin" import perf-script "$tmp/bad.txt" -o "$tmp/out.trace" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "bad input: exit $rc, expected 2"
grep -q "^idlekit import: $tmp/bad.txt:4: expected perf script's 'COMM PID \[CPU\] SECONDS.FRACTION: SYS:EVENT: FIELDS', got 'this is not perf script'$" "$tmp/err" ||
	fail "bad input message: $(cat "$tmp/err")"
[ "$(cat "$tmp/out.trace")" = keep ] || fail "bad input replaced the existing output"
ls "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
# A state outside the platform's table.
sed '10s/state=1 /state=2 /' $sample >"$tmp/deep.txt"
"$bin" import perf-script "$tmp/deep.txt" -o "$tmp/d.trace" -p kvm-guest-haltpoll 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "state outside the table: exit $rc"
grep -q "deep.txt:10: expected a state 0..1 (the table's), got state=2" "$tmp/err" || fail "state message: $(cat "$tmp/err")"
[ -e "$tmp/d.trace" ] && fail "output written on bad input"

# ---- --lenient -----------------------------------------------------------------------------
"$bin" import perf-script "$tmp/bad.txt" -o "$tmp/l.trace" --lenient -p kvm-guest-haltpoll 2>"$tmp/err" ||
	fail "--lenient: exit $?"
grep -q -- "--lenient: 1 bad lines skipped; the first: $tmp/bad.txt:4:" "$tmp/err" || fail "--lenient report: $(cat "$tmp/err")"
cmp -s "$tmp/l.trace" "$tmp/k.trace" || fail "--lenient: the good lines do not give the same trace"

# ---- sched events and hrtimers (perf record -k mono; tests/fixtures/traces/README) -------
mono=$fx/perf-script-sched-mono.txt
"$bin" import perf-script $mono -o "$tmp/s.trace" -p kvm-guest-haltpoll 2>"$tmp/err" || fail "import sched: exit $?: $(cat "$tmp/err")"
head -1 "$tmp/s.trace" | grep -q '^idlekit-trace 1\.1$' || fail "import sched: not format 1.1"
[ "$(grep -c ' task_wake ' "$tmp/s.trace")" = 20 ] || fail "import sched: task_wake lines: $(grep -c ' task_wake ' "$tmp/s.trace")"
[ "$(grep -c ' switch ' "$tmp/s.trace")" = 35 ] || fail "import sched: switch lines"
[ "$(grep -c ' tick_stop ' "$tmp/s.trace")" = 8 ] || fail "import sched: tick_stop lines"
grep -q ' timer_start ' "$tmp/s.trace" && fail "import without --clock mono wrote timer_start"
grep -q "note: 92 hrtimer_start/_cancel events ignored: their expiry times are on CLOCK_MONOTONIC, and so is this input's clock: --clock mono imports them (55 tick expiries' now= from -1 to 0 us off their times, tolerance 20 us)" "$tmp/err" ||
	fail "import sched: the -k mono note: $(cat "$tmp/err")"
# Line 45: sched_waking of pid 15 on CPU 1, target_cpu=000, at 9682.472015620.
grep -q '^9682472015620 0 task_wake 1 15$' "$tmp/s.trace" || fail "import sched: remote task_wake line"
"$bin" analyze "$tmp/s.trace" >"$tmp/text" || fail "analyze sched: exit $?"
grep -q '^after the idle periods: 14 ran a task, 5 none (woken for nothing)$' "$tmp/text" ||
	fail "analyze sched: task/empty periods: $(grep after "$tmp/text")"
grep -q 'timer 6 (0) tick 5 (0) ipi 4 (0) irq 0 (0) unknown 0 (0) remote 4 (0) softirq 0 (0) none 0 (0)' "$tmp/text" ||
	fail "analyze sched: wake causes: $(grep -m1 'wake causes' "$tmp/text")"
grep -q '^  remote wakes by source: CPU 1 4$' "$tmp/text" || fail "analyze sched: remote sources"
"$bin" analyze "$tmp/s.trace" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["per_cpu"][0]["remote_from"] == {"1": 4} and d["task_periods"] == 14, d["per_cpu"][0]' ||
	fail "analyze sched --json"
"$bin" replay "$tmp/s.trace" -g menu -p trace >/dev/null || fail "replay sched: exit $?"
# --clock mono: the hrtimers too, on the events' time line.
"$bin" import perf-script $mono --clock mono -o "$tmp/m.trace" -p kvm-guest-haltpoll 2>"$tmp/err" ||
	fail "import --clock mono: exit $?: $(cat "$tmp/err")"
[ "$(grep -c ' timer_start ' "$tmp/m.trace")" = 76 ] || fail "--clock mono: timer_start lines"
[ "$(grep -c ' timer_cancel ' "$tmp/m.trace")" = 16 ] || fail "--clock mono: timer_cancel lines"
[ "$(grep -c ' timer_expire ' "$tmp/m.trace")" = 61 ] || fail "--clock mono: timer_expire lines"
grep -q '^9682462027264 0 timer_start 9682464000000 18446612708506846968$' "$tmp/m.trace" ||
	fail "--clock mono: the first tick timer_start"
"$bin" replay "$tmp/m.trace" -g menu -p trace >/dev/null || fail "replay --clock mono: exit $?"
# A tick expiry 5 ms away from its time: perf was not on CLOCK_MONOTONIC: exit 2, nothing.
sed '20s/now=9682464008131/now=9682469008131/' $mono >"$tmp/notmono.txt"
"$bin" import perf-script "$tmp/notmono.txt" --clock mono -o "$tmp/nm.trace" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "--clock mono on a non-mono input: exit $rc"
grep -q "notmono.txt:20: expected perf's clock to be CLOCK_MONOTONIC (perf record -k mono) with --clock mono, got a tick hrtimer expiring at now=9682469008131 ns, 4999 us from the event's time" "$tmp/err" ||
	fail "--clock mono check message: $(cat "$tmp/err")"
[ -e "$tmp/nm.trace" ] && fail "--clock mono: output written on bad input"
"$bin" import perf-script $mono --clock boot -o "$tmp/x" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "--clock boot: exit $rc"
# A constant 594 us offset (another clock, well inside the old 1 ms tolerance): the offsets'
# spread is under 1 us, so the tolerance is 20 us and the input is not taken as CLOCK_MONOTONIC.
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^now=/) { $i = sprintf("now=%.0f", substr($i, 5) + 594000) } print }' $mono >"$tmp/off.txt"
"$bin" import perf-script "$tmp/off.txt" --clock mono -o "$tmp/off.trace" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/off.trace" ] || fail "--clock mono with a 594 us offset: exit $rc"
grep -q "us from the event's time (tolerance 20 us: twice the offsets' spread of 0 us" "$tmp/err" ||
	fail "--clock mono with a 594 us offset: $(cat "$tmp/err")"
"$bin" import perf-script "$tmp/off.txt" -o "$tmp/off.trace" 2>"$tmp/err" || fail "594 us offset without --clock mono: exit $?"
grep -q "this input's clock is not: perf record -k mono, then --clock mono, imports them (55 tick expiries' now= from 592 to 593 us off" "$tmp/err" ||
	fail "594 us offset note: $(cat "$tmp/err")"
# A bad sched line: FILE:LINE.
sed '4s/target_cpu=000/target_cpu=x/' $mono >"$tmp/badsched.txt"
"$bin" import perf-script "$tmp/badsched.txt" -o "$tmp/bs.trace" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "bad sched line: exit $rc"
grep -q "badsched.txt:4: expected 'pid=N ... target_cpu=C'" "$tmp/err" || fail "bad sched message: $(cat "$tmp/err")"

# ---- ftrace text and trace-cmd report text (hand-written, tests/fixtures/traces/README) ----
for f in ftrace:ftrace-sample.txt trace-cmd-report:trace-cmd-report-sample.txt; do
	"$bin" import ${f%%:*} $fx/${f#*:} -o "$tmp/${f%%:*}.trace" 2>"$tmp/err" || fail "import ${f%%:*}: exit $?: $(cat "$tmp/err")"
	sed -n '/^events$/,$p' "$tmp/${f%%:*}.trace" >"$tmp/${f%%:*}.events"
	"$bin" analyze "$tmp/${f%%:*}.trace" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
w = d["all"]["wake_causes"]
assert (w["ipi"], w["irq"], w["none"]) == (1, 1, 1), w
assert d["per_cpu"][0]["remote_from"] == {"1": 1} and d["irqs"][0]["name"] == "eth0-rx", d
' || fail "import ${f%%:*}: causes"
done
grep -q "note: 1 '\[LOST N EVENTS\]' lines" "$tmp/err" && fail "trace-cmd report: a LOST note"
cmp -s "$tmp/ftrace.events" "$tmp/trace-cmd-report.events" || fail "ftrace and trace-cmd report: other events"
grep -q '^500000404000 0 task_wake 1 300$' "$tmp/ftrace.events" || fail "ftrace: the wakeup in the IPI handler"
"$bin" import ftrace $fx/ftrace-sample.txt -o /dev/null 2>"$tmp/err"
grep -q "note: 1 '\[LOST N EVENTS\]' lines" "$tmp/err" || fail "ftrace: no LOST note: $(cat "$tmp/err")"
printf '  a-1 [000] d..1. 1.0: cpu_idle: state=1\n  a-1 [000] d..1. x: cpu_idle: state=1\n' >"$tmp/bad-ftrace.txt"
"$bin" import ftrace "$tmp/bad-ftrace.txt" -o "$tmp/bf.trace" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/bf.trace" ] && grep -q 'bad-ftrace.txt:2: expected perf' "$tmp/err" ||
	fail "ftrace bad line: exit $rc: $(cat "$tmp/err")"
# Out of order by more than the reorder window: each CPU's events in order, the CPUs far
# apart (CPU 0's exit 70000 lines late, after CPU 1's): the per-CPU spill makes it exact,
# the same trace as from the input sorted by time.
python3 - "$tmp/late.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("a 1 [000] 1.000000: power:cpu_idle: state=1 cpu_id=0\n")
    for i in range(70000):
        f.write("a 1 [001] %d.%06d: irq:irq_handler_entry: irq=5 name=x\n" % (2 + i // 1000000, i % 1000000))
    f.write("a 1 [000] 1.500000: power:cpu_idle: state=4294967295 cpu_id=0\n")
PY
sort_by_time() { # a stable sort of a perf script or ftrace text by its SECONDS.FRACTION:
	python3 -c '
import re, sys
lines = open(sys.argv[1]).read().splitlines(True)
def t(l):  # header lines (no time) first
    m = re.search(r"\] (?:[^ ]+ +)?([0-9]+\.[0-9]+):", l)
    return float(m.group(1)) if m else -1.0
sys.stdout.write("".join(sorted(lines, key=t)))' "$1"
}
sort_by_time "$tmp/late.txt" >"$tmp/late-sorted.txt"
"$bin" import perf-script "$tmp/late.txt" -o "$tmp/late.trace" 2>"$tmp/err" || fail "beyond the reorder window: exit $?: $(cat "$tmp/err")"
"$bin" import perf-script "$tmp/late-sorted.txt" -o "$tmp/late-sorted.trace" 2>/dev/null || fail "the sorted input"
cmp -s "$tmp/late.trace" "$tmp/late-sorted.trace" || fail "beyond the reorder window: not the sorted input's trace"
grep -q '^1500000000 0 idle_exit$' "$tmp/late.trace" || fail "beyond the reorder window: CPU 0's exit"
# trace_pipe read per CPU (ftrace): four CPUs, each a stream of idle periods with IRQ, IPI
# (ipi_send_cpumask), softirq, frequency and wake events, printed in blocks of 100000
# lines per CPU: out of order by far more than the window, exact.
python3 - "$tmp/pipe.txt" <<'PY'
import sys
cpus, n = 4, 60000
streams = []
for c in range(cpus):
    ev, t = [], 1_000_000 + c * 7   # us
    for k in range(n // 6):
        us = lambda x: "%d.%06d" % (x // 1_000_000, x % 1_000_000)
        p = "  <idle>-0 [%03d] d..1. " % c
        ev.append(p + us(t) + ": cpu_idle: state=%d cpu_id=%d" % (1 + k % 3, c))
        ev.append(p + us(t + 40) + ": irq_handler_entry: irq=%d name=dev%d" % (20 + c, c))
        ev.append(p + us(t + 41) + ": softirq_entry: vec=%d [action=TIMER]" % (1 + k % 9))
        ev.append(p + us(t + 42) + ": cpu_idle: state=4294967295 cpu_id=%d" % c)
        ev.append(p + us(t + 43) + ": ipi_send_cpumask: cpumask=%d-%d callsite=x callback=y" % ((c + 1) % cpus, (c + 1) % cpus))
        ev.append(p + us(t + 44) + ": cpu_frequency: state=%d cpu_id=%d" % (1_000_000 + 1000 * (k % 5), c))
        t += 100 + (k * 37 + c * 11) % 300
    streams.append(ev)
with open(sys.argv[1], "w") as f:
    f.write("# tracer: nop\n#\n")
    for start in range(0, n, 100000 // 6 * 6):
        for c in range(cpus):
            f.write("\n".join(streams[c][start:start + 100000 // 6 * 6]) + "\n")
PY
sort_by_time "$tmp/pipe.txt" >"$tmp/pipe-sorted.txt"
cmp -s "$tmp/pipe.txt" "$tmp/pipe-sorted.txt" && fail "the per-CPU input is not out of order"
"$bin" import ftrace "$tmp/pipe.txt" -o "$tmp/pipe.trace" 2>"$tmp/err" || fail "per-CPU blocks: exit $?: $(cat "$tmp/err")"
"$bin" import ftrace "$tmp/pipe-sorted.txt" -o "$tmp/pipe-sorted.trace" 2>/dev/null || fail "per-CPU blocks sorted"
cmp -s "$tmp/pipe.trace" "$tmp/pipe-sorted.trace" || fail "per-CPU blocks: not the sorted input's trace"
# every period has its cause: its IRQ, or the IPI its neighbour sent it while it idled
[ "$(grep -c ' wake \(irq\|ipi\) ' "$tmp/pipe.trace")" -eq 40000 ] || fail "per-CPU blocks: the wake causes"
# One CPU's own events out of order by more than the window: one message, exit 2, nothing
# written (its stream cannot be put back in order in bounded memory).
python3 - "$tmp/late1.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("a 1 [000] 1.000000: power:cpu_idle: state=1 cpu_id=0\n")
    for i in range(70000):
        f.write("a 1 [001] %d.%06d: irq:irq_handler_entry: irq=5 name=x\n" % (2 + i // 1000000, i % 1000000))
    f.write("a 1 [001] 1.500000: power:cpu_idle: state=1 cpu_id=1\n")
PY
"$bin" import perf-script "$tmp/late1.txt" -o "$tmp/late1.trace" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/late1.trace" ] && grep -q "late1.txt:70002: expected each CPU's events in time order within 65536 events of each other, got one traced on CPU 1 at 1500000000 ns, before its 2004463000 ns already written" "$tmp/err" ||
	fail "one CPU beyond the reorder window: exit $rc: $(cat "$tmp/err")"

# ---- trace-cmd's trace.dat (tests/fixtures/traces/trace-cmd-sample.dat, see the README) ---
dat=$fx/trace-cmd-sample.dat
have_dat=0
if "$bin" import trace-dat $dat -o "$tmp/dat.trace" -p kvm-guest-haltpoll 2>"$tmp/err"; then
	have_dat=1
	grep -q '213 events from 256 records (0 events of other kinds ignored, 0 idle entries/exits out of order dropped, 1 partial periods at the edges), 2 CPUs' "$tmp/err" &&
		grep -q 'partial idle periods at the edges: 1 at the start (an exit before any entry' "$tmp/err" ||
		fail "trace-dat summary: $(cat "$tmp/err")"
	"$bin" analyze "$tmp/dat.trace" --csv >"$tmp/csv" || fail "analyze of the trace-dat import: exit $?"
	grep -q '^0,0,0,HLT,5.949,50135.639,7363.396,611161.919,83,0,0$' "$tmp/csv" ||
		fail "trace-dat: per-state counts: $(cat "$tmp/csv")"
	"$bin" analyze "$tmp/dat.trace" | grep -q 'timer 14 (0) tick 30 (0) ipi 3 (0) irq 0 (0) unknown 0 (0) remote 0 (0) softirq 0 (0) none 36 (0)' ||
		fail "trace-dat: wake causes"
	sed -n 9,10p "$tmp/dat.trace" | tr '\n' ' ' | grep -q '^6489689100600 0 idle_enter 1 6489689107260 0 idle_exit $' ||
		fail "trace-dat: first events: $(sed -n 9,10p "$tmp/dat.trace")"
	# irq_handler_entry's name: the header's irq line (format 1.1)
	head -4 "$tmp/dat.trace" | tr '\n' ' ' | grep -q '^idlekit-trace 1.1 hz 250 cpus 2 irq 36 virtio1-req.0 $' ||
		fail "trace-dat: the IRQ name: $(head -4 "$tmp/dat.trace")"
	"$bin" import trace-dat $sample -o "$tmp/x.trace" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc -eq 2 ] || fail "trace-dat on a text file: exit $rc"
	grep -q 'not a trace.dat idlekit can read: offset 0, the magic: not a trace.dat (17 08 44 "tracing" expected)' "$tmp/err" ||
		fail "trace-dat on a text file: $(cat "$tmp/err")"
	# The same file in the version 6 layout (trace-cmd convert): the same trace.
	"$bin" import trace-dat $fx/trace-cmd-sample-v6.dat -o "$tmp/dat6.trace" -p kvm-guest-haltpoll 2>"$tmp/err" ||
		fail "trace-dat v6: $(cat "$tmp/err")"
	cmp -s "$tmp/dat.trace" "$tmp/dat6.trace" || fail "trace-dat v6: not the trace of the v7 file"
	[ -e "$tmp/x.trace" ] && fail "trace-dat: output written on bad input"
	# Its clock is "local": the tick expiries' now= are 25 ms off, so no hrtimer_start/_cancel
	# (none were recorded either), and --clock mono is refused, naming the first such tick.
	grep -q ' timer_start ' "$tmp/dat.trace" && fail "trace-dat local clock: timer_start written"
	"$bin" import trace-dat $dat --clock mono -o "$tmp/xm.trace" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc -eq 2 ] || fail "trace-dat --clock mono on a local-clock file: exit $rc"
	grep -q "expected the trace's clock to be CLOCK_MONOTONIC with --clock mono, got a tick hrtimer on CPU 0 at [0-9]* ns whose now= is -25[0-9]* us away (tolerance 20 us" "$tmp/err" ||
		fail "trace-dat --clock mono: $(cat "$tmp/err")"
	[ -e "$tmp/xm.trace" ] && fail "trace-dat --clock mono: output written on bad input"
	# trace-cmd-mono.dat: recorded on the mono clock with hrtimer_start/_cancel: found from the
	# ticks, and the timers come through with expiry times on the trace's time line.
	"$bin" import trace-dat $fx/trace-cmd-mono.dat -o "$tmp/mono.trace" 2>"$tmp/err" || fail "trace-dat mono: exit $?"
	grep -q "the trace's clock is CLOCK_MONOTONIC (6 tick expiries' now= from -5 to 0 us off their times, tolerance 20 us)" "$tmp/err" ||
		fail "trace-dat mono: $(cat "$tmp/err")"
	[ "$(grep -c ' timer_start ' "$tmp/mono.trace")" = 51 ] || fail "trace-dat mono: timer_start count"
	[ "$(grep -c ' timer_cancel ' "$tmp/mono.trace")" = 27 ] || fail "trace-dat mono: timer_cancel count"
	# every expiry time within 10 s of its start event: the same clock
	awk '$3 == "timer_start" { d = $4 - $1; if (d < -1e10 || d > 1e10) bad++ } END { exit bad > 0 }' "$tmp/mono.trace" ||
		fail "trace-dat mono: timer expiry times not on the trace's clock"
	"$bin" import trace-dat $fx/trace-cmd-mono.dat --clock mono -o "$tmp/mono2.trace" 2>/dev/null &&
		cmp -s "$tmp/mono.trace" "$tmp/mono2.trace" || fail "trace-dat mono: --clock mono changes the output"
elif grep -q 'built without libtracecmd' "$tmp/err"; then
	echo "SKIP: trace-dat (this idlekit was built without libtracecmd)"
else
	fail "import trace-dat: $(cat "$tmp/err")"
fi

# ---- A live trace.dat with sched events (root, trace-cmd): every sched_switch becomes a
# switch line, every sched_waking a task_wake on its target CPU -------------------------------
if [ "$(id -u)" = 0 ] && command -v trace-cmd >/dev/null && [ -d /sys/kernel/tracing/instances ] &&
	[ $have_dat = 1 ]; then
	name=ikimport-test-$$
	I=/sys/kernel/tracing/instances/$name
	trap '[ -d "$I" ] && rmdir "$I"; rm -rf "$tmp"' EXIT
	mkdir "$I" && echo mono >"$I/trace_clock"
	for e in power/cpu_idle sched/sched_waking sched/sched_switch timer/tick_stop timer/hrtimer_expire_entry; do
		echo 1 >"$I/events/$e/enable"
	done
	echo 1 >"$I/tracing_on"
	sh -c 'yes | head -c 2000000 >/dev/null'
	sleep 0.2
	echo 0 >"$I/tracing_on"
	trace-cmd extract -B $name -o "$tmp/live.dat" >/dev/null 2>&1 || fail "trace-cmd extract"
	[ -d "$I" ] && rmdir "$I"
	trace-cmd report -i "$tmp/live.dat" 2>/dev/null >"$tmp/live.txt"
	if ! grep -q ' cpu_idle: ' "$tmp/live.txt"; then
		echo "SKIP: live trace-dat: no CPU went idle during the recording (a busy machine)"
	else
	# (a sanitizer build: libtraceevent's own leak is suppressed, see the file)
	LSAN_OPTIONS=suppressions=$PWD/tests/lsan-system-libs.supp \
		"$bin" import trace-dat "$tmp/live.dat" -o "$tmp/live.trace" 2>"$tmp/err" || fail "live trace-dat: exit $?: $(cat "$tmp/err")"
	head -1 "$tmp/live.trace" | grep -q '^idlekit-trace 1\.1$' || fail "live trace-dat: not format 1.1"
	n_sw=$(grep -c ' sched_switch: ' "$tmp/live.txt")
	n_wk=$(grep -c ' sched_waking: ' "$tmp/live.txt")
	[ "$n_sw" -gt 0 ] && [ "$(grep -c ' switch ' "$tmp/live.trace")" = "$n_sw" ] ||
		fail "live trace-dat: $n_sw sched_switch, $(grep -c ' switch ' "$tmp/live.trace") switch lines"
	[ "$n_wk" -gt 0 ] && [ "$(grep -c ' task_wake ' "$tmp/live.trace")" = "$n_wk" ] ||
		fail "live trace-dat: $n_wk sched_waking, $(grep -c ' task_wake ' "$tmp/live.trace") task_wake lines"
	"$bin" analyze "$tmp/live.trace" | grep -q '^after the idle periods:' || fail "live trace-dat: analyze"
	fi
else
	echo "SKIP: live trace-dat (not root, no trace-cmd or no libtracecmd)"
fi

# ---- Usage ---------------------------------------------------------------------------------
"$bin" import --help | grep -q 'perf-script' || fail "import --help"
"$bin" help import | grep -q 'perf-script' || fail "help import"
"$bin" import systemtap $sample >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "unknown format: exit $rc"
"$bin" import perf-script "$tmp/nonexistent" -o "$tmp/x" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "missing file: exit $rc"
"$bin" import perf-script $sample -p no-such-platform -o "$tmp/x" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "unknown platform: exit $rc"
"$bin" import perf-script $sample --hz 0 -o "$tmp/x" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--hz 0: exit $rc"

if [ $failures -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "import: all passed"
