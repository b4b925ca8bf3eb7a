#!/usr/bin/env bash
# The parallel efficiency of idlekit sweep on this machine: one sweep (seed000-baseline,
# 8 points x 2 runs of 100 ms simulated, default 16 runs of about a second each) timed with
# -j 1 and with -j JOBS, alternately, REPS times, the best of each kept (a shared machine's
# other load only slows a run down); efficiency = T(1) / (JOBS T(JOBS)).  The results are
# compared too (they must be the same bytes).  Benchmarks print figures; nothing is asserted.
#
# usage: bash bench/sweep_parallel.sh BUILD_DIR [JOBS [REPS]]     (default JOBS 2, REPS 3)
set -u
build=${1:?usage: sweep_parallel.sh BUILD_DIR [JOBS [REPS]]}
jobs=${2:-2}
reps=${3:-3}
ik=$build/idlekit
[ -x "$ik" ] || { echo "no $ik"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/spec.ini" <<'INI'
[sweep]
base = seed000-baseline
runs = 2
vary.acpi.pm_timer_read_ns = 1300,1400,1500,1600
template.acpi.pm_timer_read_ns = lognormal {} 0.1
vary.workload.start_spread_us = 2300,2900
[scenario]
duration_ms = 100
INI
now_ns() { date +%s%N; }
best1=0 bestn=0 same=yes
for r in $(seq "$reps"); do
  rm -rf "$tmp/j1" "$tmp/jn"
  t0=$(now_ns); "$ik" sweep "$tmp/spec.ini" -o "$tmp/j1" -j 1 -q || exit 1; t1=$(now_ns)
  "$ik" sweep "$tmp/spec.ini" -o "$tmp/jn" -j "$jobs" -q || exit 1; t2=$(now_ns)
  for f in rows.csv results.csv results.json summary.csv index.html; do
    cmp -s "$tmp/j1/$f" "$tmp/jn/$f" || same=no
  done
  a=$((t1 - t0)) b=$((t2 - t1))
  if [ "$best1" = 0 ] || [ "$a" -lt "$best1" ]; then best1=$a; fi
  if [ "$bestn" = 0 ] || [ "$b" -lt "$bestn" ]; then bestn=$b; fi
  echo "  rep $r: -j 1 $((a / 1000000)) ms, -j $jobs $((b / 1000000)) ms"
done
awk -v a=$best1 -v b=$bestn -v j="$jobs" -v same=$same -v cpus="$(nproc)" -v reps="$reps" 'BEGIN {
  printf "sweep of 8 points x 2 runs (seed000-baseline, 100 ms), %d CPUs online, best of %d\n", cpus, reps
  printf "  -j 1: %.2f s\n  -j %d: %.2f s\n", a / 1e9, j, b / 1e9
  printf "  speed-up %.2f, parallel efficiency %.0f%% on %d threads; results identical: %s\n",
    a / b, 100 * a / (j * b), j, same }'
