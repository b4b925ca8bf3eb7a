#!/usr/bin/env bash
# tbench's wake structure on this machine, per request: how many idle entries and task
# wake-ups one tbench operation costs (issue 32 item 4; seed 000 is a tbench experiment).
#
# Runs dbench's tbench_srv and `tbench 1 127.0.0.1` (one client over loopback TCP), and
# while the client runs, records WINDOW seconds with `idlekit record` and reads every CPU's
# sysfs idle-state counters around the same window.  tbench prints its cumulative operation
# count once a second; the window's operations are that count interpolated at the window's
# ends.  Then the recording is analysed (idle entries and wake causes per CPU), its task
# wake-ups counted (task_wake lines; remote: woken from another CPU), and a workload learned
# from it (`idlekit workload learn`), whose own check prints the model's idle share and
# entries/s beside the recording's.
#
# The trace's figures are per operation at the window's rate over the trace's own span (a
# little shorter than the sysfs window: record's set-up and drain).
# Prints: operations/s and MB/s, then per operation: idle entries (sysfs, and the trace's),
# task wake-ups (all, remote), idle periods by wake cause; then the learned model's check.
# Needs root (tracefs, record), tbench and tbench_srv (Debian package dbench), python3.
#
# usage: sudo bash bench/tbench_structure.sh BUILD [WINDOW_S] [OUTDIR]
#        e.g. sudo bash bench/tbench_structure.sh build 2 /tmp/tbench-structure
set -euo pipefail
build=${1:?usage: tbench_structure.sh BUILD [WINDOW_S] [OUTDIR]}
win=${2:-2}
out=${3:-$(mktemp -d)}
bin=$(cd "$build" && pwd)/idlekit
[ -x "$bin" ] || { echo "tbench_structure: no $bin" >&2; exit 2; }
for t in tbench tbench_srv python3; do
	command -v $t >/dev/null || { echo "tbench_structure: needs $t (tbench: Debian package dbench)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "tbench_structure: needs root (idlekit record uses tracefs)" >&2; exit 2; }
mkdir -p "$out"

usage_sum() { cat /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*/usage 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
now() { date +%s.%N; }

srv_pid=
cl_pid=
cleanup() {
	[ -n "$cl_pid" ] && kill "$cl_pid" 2>/dev/null || true
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
tbench_srv >/dev/null 2>&1 &
srv_pid=$!
sleep 0.3
run_s=$((win + 4))
t_launch=$(now)
tbench -t "$run_s" 1 127.0.0.1 >"$out/tbench.out" 2>&1 &
cl_pid=$!
sleep 1.5 # tbench's start-up and first operations
u0=$(usage_sum)
t0=$(now)
"$bin" record --duration "${win}s" -o "$out/tbench.trace" 2>"$out/record.err"
t1=$(now)
u1=$(usage_sum)
wait "$cl_pid" || true
cl_pid=
kill "$srv_pid" 2>/dev/null || true
srv_pid=
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

"$bin" analyze "$out/tbench.trace" --json -o "$out/analyze.json" 2>"$out/analyze.err"
python3 - "$out" "$t_launch" "$t0" "$t1" "$u0" "$u1" <<'PYEOF'
import json, re, sys
out, t_launch, t0, t1, u0, u1 = sys.argv[1], *map(float, sys.argv[2:6]), *map(int, sys.argv[6:8])
# tbench's lines "   1    303016   800.10 MB/sec  execute   1 sec  latency 4.361 ms":
# clients, operations so far, throughput, phase, seconds since the clients were released
pts, mbs = [(0.0, 0)], []
for line in open(out + '/tbench.out'):
    m = re.match(r'\s*\d+\s+(\d+)\s+([\d.]+) MB/sec\s+execute\s+(\d+) sec', line)
    if m:
        pts.append((float(m.group(3)), int(m.group(1))))
        mbs.append(float(m.group(2)))
def ops_at(t):
    for (ta, a), (tb, b) in zip(pts, pts[1:]):
        if ta <= t <= tb:
            return a + (b - a) * (t - ta) / (tb - ta)
    raise SystemExit('tbench_structure: the window (%.2f s from tbench\'s start) is outside '
                     'its per-second counts (%s)' % (t, pts[-1]))
# the seconds count from about the launch (its start-up is a few ms)
ops = ops_at(t1 - t_launch) - ops_at(t0 - t_launch)
w = t1 - t0
a = json.load(open(out + '/analyze.json'))
periods = a['periods']
wakes = remote = 0
for line in open(out + '/tbench.trace'):
    f = line.split()
    if len(f) >= 4 and f[2] == 'task_wake':
        wakes += 1
        remote += f[3] != f[1]
span_s = (a['last_ns'] - a['first_ns']) / 1e9
rate = ops / w
tops = rate * span_s  # the trace's own span is inside the sysfs window (record's set-up and drain)
print('window %.3f s (sysfs), %.3f s of it traced; %.0f tbench operations in the window: %.0f ops/s, %.1f MB/s (tbench\'s last line)'
      % (w, span_s, ops, rate, mbs[-1] if mbs else float('nan')))
print('per operation:')
print('  idle entries (sysfs, all CPUs)     %.4f  (%d in the window, %.0f/s)' % ((u1 - u0) / ops, u1 - u0, (u1 - u0) / w))
print('  idle periods (trace, all CPUs)     %.4f  (%d)' % (periods / tops, periods))
print('  task wake-ups (trace)              %.4f  (%d; %d from another CPU: %.4f per operation)'
      % (wakes / tops, wakes, remote, remote / tops))
causes = a['all']['wake_causes']
print('  idle periods by wake cause         ' + ', '.join('%s %.4f' % (k, v / tops) for k, v in causes.items() if v))
for c in a['per_cpu']:
    print('  cpu%d: idle %.1f %% of the trace, %d idle periods (%.4f per operation)'
          % (c['cpu'], c['idle_pct'], sum(st['entries'] for st in c['states']),
             sum(st['entries'] for st in c['states']) / tops))
PYEOF
echo "--- the model learned from the recording (idlekit workload learn) ---"
"$bin" workload learn "$out/tbench.trace" -o "$out/tbench-learned" 2>&1 | tail -12
echo "files in $out"
