#!/usr/bin/env bash
# A damaged trace.dat is refused, never a crash: the file cut at many lengths (inside its
# header, its sections, its data) and 40 copies with bytes flipped.  libtracecmd reads the
# file in a child process (src/cli/import.c), so a reader that faults or aborts on it (a
# header cut short makes it free twice) ends the import with one message and exit 2; no
# output is left.  A copy the reader takes whole may import (exit 0).
set -u
bin=${1:?usage: trace_dat_hostile.sh IDLEKIT}
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/check.bash
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dat=tests/fixtures/traces/trace-cmd-sample.dat
if ! "$bin" import trace-dat "$dat" -o "$tmp/whole.trace" 2>"$tmp/err"; then
	grep -q 'built without libtracecmd' "$tmp/err" &&
		{ echo "SKIP: this idlekit was built without libtracecmd"; exit 77; }
	echo "FAIL: the whole file: $(cat "$tmp/err")"
	exit 1
fi
size=$(stat -c %s "$dat")
one() { # NAME FILE
	"$bin" import trace-dat "$2" -o "$tmp/out.trace" >"$tmp/stdout" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 0 ]; then
		check "$1: imported whole" test -s "$tmp/out.trace"
	else
		check "$1: exit 2, not a crash (got $rc: $(head -c 200 "$tmp/err"))" test $rc -eq 2
		check "$1: one message line" test "$(grep -vc ': note: ' "$tmp/err")" -eq 1
		check "$1: no output" test ! -e "$tmp/out.trace"
	fi
	rm -f "$tmp/out.trace"
}
for cut in 16 100 400 1000 2000 3000 4000 6000 8000 10000 $((size - 100)) $((size - 1)); do
	[ "$cut" -lt "$size" ] || continue
	head -c "$cut" "$dat" >"$tmp/cut.dat"
	one "cut at $cut bytes" "$tmp/cut.dat"
done
for seed in $(seq 1 40); do
	python3 -c "
import random, sys
random.seed($seed)
b = bytearray(open(sys.argv[1], 'rb').read())
for _ in range(8):
    b[random.randrange(len(b))] = random.randrange(256)
open(sys.argv[2], 'wb').write(b)" "$dat" "$tmp/flip.dat"
	one "flipped copy $seed" "$tmp/flip.dat"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
