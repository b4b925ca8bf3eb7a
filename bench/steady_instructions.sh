#!/usr/bin/env bash
# Instructions per simulated second at steady state: a scenario run twice under
# callgrind, for SHORT_MS and LONG_MS of measured time, and the difference divided by the
# difference in length, so that start-up (building the machine, the warm-up's first
# milliseconds) drops out.  Instruction counts do not depend on the machine's load, which
# is why they, not wall time, compare two builds on a shared machine.
#
#   bash bench/steady_instructions.sh BUILD [SCENARIO [SHORT_MS LONG_MS]]
#   bash bench/steady_instructions.sh build seed000-baseline 100 300
#
# Prints both totals and the steady-state figure (M instructions per simulated second).
# Needs valgrind.  Takes about a minute for seed 000 at 100 and 300 ms.
set -u
build=${1:?usage: steady_instructions.sh BUILD [SCENARIO [SHORT_MS LONG_MS]]}
scenario=${2:-seed000-baseline}
short=${3:-100}
long=${4:-300}
bin=$(cd "$build" && pwd)/idlekit
[ -x "$bin" ] || { echo "steady_instructions: no $bin" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "steady_instructions: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# count MS: total instructions of one run of MS measured milliseconds
count() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bin" sim "$scenario" \
		--set scenario.duration_ms="$1" --runs 1 -j 1 -q 2>&1 >/dev/null |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
a=$(count "$short")
b=$(count "$long")
[ -n "$a" ] && [ -n "$b" ] || { echo "steady_instructions: a run failed" >&2; exit 1; }
awk -v a="$a" -v b="$b" -v s="$short" -v l="$long" -v sc="$scenario" 'BEGIN {
	printf "%s: %d ms %.0f M, %d ms %.0f M instructions\n", sc, s, a / 1e6, l, b / 1e6
	printf "steady state: %.0f M instructions per simulated second\n", (b - a) / 1e6 / ((l - s) / 1000)
}'
