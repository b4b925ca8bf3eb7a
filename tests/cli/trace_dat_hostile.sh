#!/usr/bin/env bash
# A damaged trace.dat is refused, never a crash: each committed trace.dat cut at many lengths
# (inside its header, its sections, its data) and 60 copies of each with bytes flipped, 225
# in all (run under ASan and UBSan by SANITIZE=1 scripts/test).  The file's structure is
# checked first (src/trace/dat_check.c: a refusal names the offset and the section), then
# libtracecmd reads it in a child process (src/cli/import.c), so a reader that faults or
# aborts on it ends the import with one message saying what it was doing, and exit 2; no
# output is left.  A copy the reader takes whole may import (exit 0).  The counts of each
# outcome are printed.
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
imported=0 checked=0 crashed=0 other=0
one() { # NAME FILE
	"$bin" import trace-dat "$2" -o "$tmp/out.trace" >"$tmp/stdout" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 0 ]; then
		check "$1: imported whole" test -s "$tmp/out.trace"
		imported=$((imported + 1))
	else
		check "$1: exit 2, not a crash (got $rc: $(head -c 200 "$tmp/err"))" test $rc -eq 2
		check "$1: one message line" test "$(grep -vc ': note: ' "$tmp/err")" -eq 1
		check "$1: no output" test ! -e "$tmp/out.trace"
		if grep -q 'not a trace.dat idlekit can read: offset [0-9]*, ' "$tmp/err"; then
			checked=$((checked + 1))
		elif grep -q 'crashed on it' "$tmp/err"; then
			crashed=$((crashed + 1))
			check "$1: the crash says what the reader was doing" \
				grep -Eq 'crashed on it while (opening|reading|closing) ' "$tmp/err"
			sed 's/.*crashed on it while \([^(]*\)(.*/\1/' "$tmp/err" >>"$tmp/stages"
		else
			other=$((other + 1))
		fi
	fi
	rm -f "$tmp/out.trace"
}
# Each committed trace.dat: cut at 15 lengths (inside its header, its sections, its data),
# and 60 copies with 8 bytes flipped: 225 damaged copies in all.
for dat in tests/fixtures/traces/trace-cmd-sample.dat tests/fixtures/traces/trace-cmd-mono.dat \
	tests/fixtures/traces/trace-cmd-ipimask.dat; do
	size=$(stat -c %s "$dat")
	name=$(basename "$dat" .dat)
	for cut in 10 16 30 37 100 400 1000 2000 4000 6000 6060 8000 10000 $((size - 100)) $((size - 1)); do
		[ "$cut" -lt "$size" ] || continue
		head -c "$cut" "$dat" >"$tmp/cut.dat"
		one "$name cut at $cut bytes" "$tmp/cut.dat"
	done
	python3 -c "
import random, sys
b0 = open(sys.argv[1], 'rb').read()
for seed in range(1, 61):
    random.seed(seed)
    b = bytearray(b0)
    for _ in range(8):
        b[random.randrange(len(b))] = random.randrange(256)
    open('%s/flip-%02d.dat' % (sys.argv[2], seed), 'wb').write(b)" "$dat" "$tmp"
	for f in "$tmp"/flip-*.dat; do
		one "$name flipped copy $(basename "$f" .dat)" "$f"
		rm -f "$f"
	done
done
# The cuts inside the header and its sections never reach libtracecmd.
head -c 6060 tests/fixtures/traces/trace-cmd-sample.dat >"$tmp/cut.dat"
"$bin" import trace-dat "$tmp/cut.dat" -o "$tmp/out.trace" 2>"$tmp/err"
check "cut in the options section: refused by the structure check, naming it" \
	grep -q "not a trace.dat idlekit can read: offset 6060, options section: the file ends at 6060" "$tmp/err"
[ -s "$tmp/stages" ] && echo "libtracecmd's crashes, while: $(sort "$tmp/stages" | uniq -c | tr '\n' ';')"
echo "damaged copies: $imported imported, $checked refused by the structure check, $crashed by libtracecmd's crash in its child, $other by its refusal"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
