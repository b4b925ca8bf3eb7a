#!/usr/bin/env bash
# bench_sim and bench_govreplay of this tree against another revision, built the same way
# and run interleaved (A B A B ...) on the same machine, so both see the same load.
#
#   bash bench/compare_rev.sh BUILD_DIR BASE_BUILD_DIR [REPS [GOVREPLAY_LINES]]
#   bash bench/compare_rev.sh build /tmp/base/build 5 5000000
#
# BASE_BUILD_DIR is a build of the other revision, e.g. made with
#   git worktree add /tmp/base abcd2f0 &&
#   cmake -S /tmp/base -B /tmp/base/build -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
#   cmake --build /tmp/base/build -j2
# Prints, per benchmark, each run's rate, the median of each side and the ratio
# (this / base: above 1 = this tree is faster).  Wall-clock figures: run it on a quiet
# machine; the tests never assert them.
set -u
new=${1:?usage: compare_rev.sh BUILD_DIR BASE_BUILD_DIR [REPS [LINES]]}
base=${2:?usage: compare_rev.sh BUILD_DIR BASE_BUILD_DIR [REPS [LINES]]}
reps=${3:-5}
lines=${4:-5000000}
for b in "$new" "$base"; do
	for t in bench_sim bench_govreplay; do
		[ -x "$b/$t" ] || { echo "compare_rev: $b/$t not built" >&2; exit 2; }
	done
done

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# bench_sim: the 2.0 s line's "M idle entries/s"; bench_govreplay: "M lines/s".
sim_rate() { "$1/bench_sim" 2>&1 | sed -n 's/.*simulated 2.0 s: .* = \([0-9.]*\) M idle entries.*/\1/p'; }
gr_rate() { "$1/bench_govreplay" "$lines" "$2" 2>&1 | sed -n 's/.* = \([0-9.]*\) M lines\/s.*/\1/p'; }

run() { # name, command-prefix function, extra args
	local name=$1 fn=$2 arg=${3:-}
	local a=() b=()
	for ((i = 0; i < reps; i++)); do
		a+=("$($fn "$new" $arg)")
		b+=("$($fn "$base" $arg)")
	done
	local ma mb
	ma=$(printf '%s\n' "${a[@]}" | median)
	mb=$(printf '%s\n' "${b[@]}" | median)
	printf '%-26s this: %-34s median %6s | base: %-34s median %6s | ratio %s\n' "$name" \
		"${a[*]}" "$ma" "${b[*]}" "$mb" "$(awk -v x="$ma" -v y="$mb" 'BEGIN {printf "%.3f", x / y}')"
}

echo "compare_rev: this=$new base=$base reps=$reps govreplay lines=$lines"
run "bench_sim (M entries/s)" sim_rate
for g in menu teo ladder haltpoll; do
	run "bench_govreplay $g (M/s)" gr_rate "$g"
done
