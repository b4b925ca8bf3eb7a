#!/usr/bin/env bash
# Import of a large `perf script` text in constant memory, beside a plain mawk pass over the
# same file in the same run.
#
# Generates SIZE of perf script text (default 256M; `bash bench/import_big.sh build 2G` for
# the 2 GB figure) with the events idlekit imports on 4 CPUs: power:cpu_idle entries and
# exits, irq_handler_entry with a name, hrtimer_expire_entry (tick and timers),
# sched_waking/sched_switch, ipi_send_cpu and call_function_single_entry, in time order
# across CPUs as perf script and ftrace merge them, with a straggler every 64 rounds.  Then, timed with
# /usr/bin/time -v (package `time`), each once:
#   - mawk: one pass that splits every line into fields and counts the events by name
#     (`mawk '{ n[$5]++ } END { ... }'`: the least a text reader must do);
#   - idlekit import perf-script FILE -o /dev/null.
# Prints, for each: wall time, MB/s, lines (events)/s, peak RSS (MB).  Nothing is asserted
# (the machine may be shared): the bar is peak RSS under 64 MB for 2 GB and at least half
# of mawk's throughput.
#
# usage: bash bench/import_big.sh BUILD_DIR [SIZE] [DIR]   (SIZE: bytes, or with K/M/G;
#        DIR: where the generated file goes, default a temporary directory; it is removed)
set -u
build=${1:?usage: import_big.sh BUILD_DIR [SIZE] [DIR]}
size=${2:-256M}
dir=${3:-}
ik=$build/idlekit
[ -x "$ik" ] || { echo "no $ik"; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package 'time')"; exit 2; }
command -v mawk >/dev/null || { echo "needs mawk (Debian package 'mawk')"; exit 2; }
case $size in
*K) bytes=$((${size%K} * 1024)) ;;
*M) bytes=$((${size%M} * 1024 * 1024)) ;;
*G) bytes=$((${size%G} * 1024 * 1024 * 1024)) ;;
*) bytes=$size ;;
esac
tmp=$(mktemp -d ${dir:+-p "$dir"})
trap '[ -n "${KEEP:-}" ] && cp "$txt" "$KEEP"; rm -rf "$tmp"' EXIT
txt=$tmp/big.txt

# ~105 bytes a line: lines = bytes / 105, in blocks of 10 events per CPU round.
mawk -v want="$bytes" 'BEGIN {
	t = 1000000000000; srand(7); out = 0
	while (out < want) {
		for (c = 0; c < 4; c++) {
			cpu = sprintf("%03d", c)
			t0 = t + c * 3000
			l[1] = sprintf("         swapper     0 [%s] %d.%09d: power:cpu_idle: state=%d cpu_id=%d", cpu, int(t0 / 1e9), t0 % 1e9, 1 + (c % 2), c)
			t1 = t0 + 40000 + int(rand() * 900000)
			if (c == 0)
				l[2] = sprintf("         swapper     0 [%s] %d.%09d: timer:hrtimer_expire_entry: hrtimer=0xffff888627c1c6f8 function=tick_nohz_handler now=%d", cpu, int(t1 / 1e9), t1 % 1e9, t1)
			else if (c == 1)
				l[2] = sprintf("         swapper     0 [%s] %d.%09d: irq:irq_handler_entry: irq=%d name=eth0-rx-%d", cpu, int(t1 / 1e9), t1 % 1e9, 24 + c, c)
			else if (c == 2)
				l[2] = sprintf("         swapper     0 [%s] %d.%09d: irq_vectors:call_function_single_entry: vector=251", cpu, int(t1 / 1e9), t1 % 1e9)
			else
				l[2] = sprintf("         swapper     0 [%s] %d.%09d: timer:hrtimer_expire_entry: hrtimer=0xffff88810bc8e4c8 function=hrtimer_wakeup now=%d", cpu, int(t1 / 1e9), t1 % 1e9, t1)
			t2 = t1 + 2000
			l[3] = sprintf("         swapper     0 [%s] %d.%09d: power:cpu_idle: state=4294967295 cpu_id=%d", cpu, int(t2 / 1e9), t2 % 1e9, c)
			t3 = t2 + 1000
			l[4] = sprintf("         swapper     0 [%s] %d.%09d: sched:sched_waking: comm=worker pid=%d prio=120 target_cpu=%03d", cpu, int(t3 / 1e9), t3 % 1e9, 300 + c, c)
			t4 = t3 + 2000
			l[5] = sprintf("         swapper     0 [%s] %d.%09d: sched:sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=%d next_prio=120", cpu, int(t4 / 1e9), t4 % 1e9, c, 300 + c)
			t5 = t4 + 5000
			l[6] = sprintf("          worker %5d [%s] %d.%09d: ipi:ipi_send_cpu: cpu=%d callsite=ttwu_queue_wakelist+0x1 callback=generic_smp_call_function_single_interrupt+0x0", 300 + c, cpu, int(t5 / 1e9), t5 % 1e9, (c + 2) % 4)
			t6 = t5 + 30000
			l[7] = sprintf("          worker %5d [%s] %d.%09d: sched:sched_switch: prev_comm=worker prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120", 300 + c, cpu, int(t6 / 1e9), t6 % 1e9, 300 + c, c)
			for (k = 1; k <= 7; k++) {
				n++
				line[n] = l[k]
				tm[n] = (k == 1 ? t0 : k == 2 ? t1 : k == 3 ? t2 : k == 4 ? t3 : k == 5 ? t4 : k == 6 ? t5 : t6)
			}
		}
		# the round in time order (insertion sort of its 28 lines), then printed; every
		# 64 rounds two neighbours stay swapped: a straggler for the reorder window
		for (i = 2; i <= n; i++) {
			x = line[i]; y = tm[i]
			for (j = i - 1; j >= 1 && tm[j] > y; j--) { line[j + 1] = line[j]; tm[j + 1] = tm[j] }
			line[j + 1] = x; tm[j + 1] = y
		}
		if (round % 64 == 0) { x = line[2]; line[2] = line[3]; line[3] = x }
		for (i = 1; i <= n; i++) {
			print line[i]
			out += length(line[i]) + 1
		}
		n = 0
		t += 1000000
		round++
	}
}' >"$txt" || exit 1
mb=$(( $(stat -c %s "$txt") / 1024 / 1024 ))
lines=$(mawk 'END { print NR }' "$txt")
echo "generated: $txt, $mb MB, $lines lines (events)"

# run NAME CMD...: wall seconds and peak RSS from /usr/bin/time -v
run() {
	local name=$1
	shift
	/usr/bin/time -v "$@" >"$tmp/$name.out" 2>"$tmp/$name.time" || { echo "$name failed:"; tail -5 "$tmp/$name.time"; return 1; }
	local wall rss
	wall=$(mawk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$tmp/$name.time")
	rss=$(mawk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/$name.time")
	mawk -v n="$name" -v w="$wall" -v r="$rss" -v mb="$mb" -v l="$lines" 'BEGIN {
		if (w <= 0) w = 0.01
		printf "%-34s %8.2f s %9.1f MB/s %12.0f events/s  peak RSS %7.1f MB\n", n, w, mb / w, l / w, r / 1024 }'
	echo "$wall" >"$tmp/$name.wall"
}
run "mawk (fields, count by event)" mawk '{ n[$5]++ } END { for (k in n) print k, n[k] }' "$txt"
run "idlekit import perf-script" "$ik" import perf-script "$txt" -o /dev/null
mawk_w=$(cat "$tmp/mawk (fields, count by event).wall" 2>/dev/null || echo 0)
ik_w=$(cat "$tmp/idlekit import perf-script.wall" 2>/dev/null || echo 0)
mawk -v a="$mawk_w" -v b="$ik_w" 'BEGIN { if (a > 0 && b > 0) printf "idlekit import / mawk throughput: %.2f\n", a / b }'
tail -1 "$tmp/idlekit import perf-script.time" >/dev/null
grep -h "idlekit import: " "$tmp/idlekit import perf-script.time" | tail -1
