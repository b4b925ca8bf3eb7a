#!/usr/bin/env bash
# Do two builds print the same bytes?  For a change that must not alter any result (a
# faster simulator, a refactoring): every built-in scenario (scenarios/*.ini) under each
# governor menu, teo, ladder and haltpoll (short: 40 ms simulated, 2 runs), as JSON and as
# the states table; govreplay on the committed corpus (tests/govreplay/*.csv, with each
# file's '# args:' line); replay of the committed traces (tests/fixtures/traces/*.trace)
# with all four governors, open and closed loop.  Standard output, standard error and the
# exit status of each command are compared; a scenario a governor cannot run (an error)
# must fail the same way in both.  The version string ("0.1.0 (git 0c954a7)") is the one
# part allowed to differ: it is cut to "0.1.0" before comparing.  Prints one line per difference and a count; exit 1 if
# any differ.
#
# usage (from anywhere): bash bench/identical_outputs.sh BUILD_A BUILD_B [DURATION_MS]
#        e.g. bash bench/identical_outputs.sh /tmp/main-build build
set -u
a=${1:?usage: identical_outputs.sh BUILD_A BUILD_B [DURATION_MS]}
b=${2:?usage: identical_outputs.sh BUILD_A BUILD_B [DURATION_MS]}
ms=${3:-40}
a=$(cd "$a" && pwd)/idlekit
b=$(cd "$b" && pwd)/idlekit
for bin in "$a" "$b"; do [ -x "$bin" ] || { echo "no $bin"; exit 2; }; done
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ncmd=0 ndiff=0

# run LABEL ARGS...: the command under both builds; report a difference.
run() {
	local label=$1
	shift
	local side bin
	for side in a b; do
		if [ $side = a ]; then bin=$a; else bin=$b; fi
		"$bin" "$@" >"$tmp/$side.raw" 2>"$tmp/$side.err"
		echo "exit $?" >>"$tmp/$side.err"
		sed -E 's/ \(git [^)]*\)//g' "$tmp/$side.raw" >"$tmp/$side.out"
	done
	ncmd=$((ncmd + 1))
	if ! cmp -s "$tmp/a.out" "$tmp/b.out" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
		ndiff=$((ndiff + 1))
		echo "DIFFERS: $label: idlekit $*"
	fi
}

for ini in scenarios/*.ini; do
	name=$(basename "$ini" .ini)
	for gov in menu teo ladder haltpoll; do
		set -- sim "$name" --set scenario.duration_ms="$ms" --set scenario.runs=2 \
			--set cpuidle.governor="$gov" -q -j 1
		run "$name/$gov json" "$@" --json
		run "$name/$gov states" "$@" --csv-table states
	done
done

for csv in tests/govreplay/*.csv; do
	name=$(basename "$csv" .csv)
	args=$(sed -n 's/^# args: //p' "$csv" | head -n 1)
	# shellcheck disable=SC2086 # the args line is a list of options
	run "govreplay $name" govreplay --governor "${name%%-*}" $args --input "$csv" -q
done

for trace in tests/fixtures/traces/*.trace; do
	name=$(basename "$trace")
	for platform in trace intel-skx; do
		run "replay $name $platform" replay "$trace" -g menu,teo,ladder,haltpoll -p "$platform" --json
		run "replay $name $platform closed" replay "$trace" -g menu,teo,ladder,haltpoll -p "$platform" \
			--closed-loop --json
	done
done

echo "identical_outputs: $ncmd commands, $ndiff differ"
[ "$ndiff" -eq 0 ]
