#!/usr/bin/env bash
# The memory and the output size of idlekit sweep as the grid grows: one axis of 100, 1,000
# and 10,000 points (the default scenario, 1 run of 1 ms simulated per point, so that the
# grid's size and not the simulation dominates), each timed with /usr/bin/time: wall time,
# peak RSS, and the size of each file the sweep writes.  Benchmarks print figures; nothing
# is asserted.
#
# usage: bash bench/sweep_memory.sh BUILD_DIR [JOBS]      (default JOBS 2)
set -u
build=${1:?usage: sweep_memory.sh BUILD_DIR [JOBS]}
jobs=${2:-2}
ik=$build/idlekit
[ -x "$ik" ] || { echo "no $ik"; exit 2; }
[ -x /usr/bin/time ] || { echo "no /usr/bin/time (Debian package: time)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%8s %9s %13s  %s\n' points "wall s" "peak RSS KiB" "files (KiB)"
for n in 100 1000 10000; do
  # work_ns 1 us, 2 us, ... : an integer step, as the key wants
  printf '[sweep]\nbase = default\nruns = 1\nvary.workload.work_ns = lin:1000:%d:%d\n[scenario]\nduration_ms = 1\nwarmup_ms = 0\n' \
    $((1000 * n)) "$n" >"$tmp/spec$n.ini"
  /usr/bin/time -f '%e %M' -o "$tmp/time$n" "$ik" sweep "$tmp/spec$n.ini" -o "$tmp/out$n" -j "$jobs" -q ||
    { echo "sweep of $n points failed"; exit 1; }
  read -r wall rss <"$tmp/time$n"
  files=$(cd "$tmp/out$n" && for f in results.csv results.json summary.csv index.html rows.csv; do
    printf '%s %d  ' "$f" $(( $(stat -c %s "$f") / 1024 )); done)
  printf '%8d %9s %13s  %s\n' "$n" "$wall" "$rss" "$files"
done
