#!/usr/bin/env bash
# bench_sim of this tree against another git revision (default: main), side by side: the
# revision is exported (git archive) and built in a temporary folder, then both bench_sim
# binaries run alternately REPS times and the best simulated idle entries per second of
# each is kept; prints both and their ratio (this tree / the revision).  Benchmarks print
# figures; nothing is asserted.
#
# usage: bash bench/compare_main.sh BUILD_DIR [REVISION [SIMULATED_SECONDS [REPS]]]
#        (defaults: main, 1, 3)
set -u
build=${1:?usage: compare_main.sh BUILD_DIR [REVISION [SIMULATED_SECONDS [REPS]]]}
rev=${2:-main}
secs=${3:-1}
reps=${4:-3}
here=$build/bench_sim
[ -x "$here" ] || { echo "no $here (build the tree first)"; exit 2; }
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || exit 2
git -C "$root" rev-parse --verify -q "$rev^{commit}" >/dev/null || { echo "no revision $rev"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive "$rev" | tar -x -C "$tmp" || exit 1
cmake -S "$tmp" -B "$tmp/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
  cmake --build "$tmp/build" -j"$(nproc)" --target bench_sim >/dev/null || { echo "$rev does not build"; exit 1; }
rate() { # the idle entries per second of the longest run bench_sim prints
  "$1" "$secs" | awk '/idle entries\/s/ { for (i = 1; i <= NF; i++) if ($i == "M" && $(i + 1) == "idle") r = $(i - 1) } END { print r }'
}
best_here=0 best_rev=0
for r in $(seq "$reps"); do
  a=$(rate "$here") b=$(rate "$tmp/build/bench_sim")
  echo "  rep $r: this tree $a M/s, $rev $b M/s"
  best_here=$(awk -v x="$a" -v y="$best_here" 'BEGIN { print (x > y) ? x : y }')
  best_rev=$(awk -v x="$b" -v y="$best_rev" 'BEGIN { print (x > y) ? x : y }')
done
awk -v a="$best_here" -v b="$best_rev" -v rev="$rev" -v s="$secs" -v n="$reps" 'BEGIN {
  printf "bench_sim (%s s simulated, best of %d): this tree %.2f M idle entries/s, %s %.2f M/s, ratio %.2f\n",
    s, n, a, rev, b, (b > 0 ? a / b : 0) }'
