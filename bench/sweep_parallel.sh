#!/usr/bin/env bash
# The parallel efficiency of idlekit sweep on this machine: one sweep (seed000-baseline,
# 8 points x 2 runs of 100 ms simulated, default 16 runs of about a second each) timed with
# -j 1 and with -j 2; efficiency = T(1) / (2 T(2)).  The two results are compared too (they
# must be the same bytes).  Benchmarks print figures; nothing is asserted.
#
# usage: bash bench/sweep_parallel.sh BUILD_DIR [JOBS]     (default JOBS 2)
set -u
build=${1:?usage: sweep_parallel.sh BUILD_DIR [JOBS]}
jobs=${2:-2}
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
t0=$(now_ns); "$ik" sweep "$tmp/spec.ini" -o "$tmp/j1" -j 1 -q || exit 1; t1=$(now_ns)
"$ik" sweep "$tmp/spec.ini" -o "$tmp/jn" -j "$jobs" -q || exit 1; t2=$(now_ns)
same=yes
for f in rows.csv results.csv results.json summary.csv index.html; do
  cmp -s "$tmp/j1/$f" "$tmp/jn/$f" || same=no
done
awk -v a=$((t1 - t0)) -v b=$((t2 - t1)) -v j="$jobs" -v same=$same -v cpus="$(nproc)" 'BEGIN {
  printf "sweep of 8 points x 2 runs (seed000-baseline, 100 ms), %d CPUs online\n", cpus
  printf "  -j 1: %.2f s\n  -j %d: %.2f s\n", a / 1e9, j, b / 1e9
  printf "  speed-up %.2f, parallel efficiency %.0f%% on %d threads; results identical: %s\n",
    a / b, 100 * a / (j * b), j, same }'
