#!/bin/bash
# A real trace-cmd recording with IPIs sent to a mask of CPUs (ipi:ipi_send_cpumask, whose
# cpumask is a dynamic bitmap in the file's longs): tests/fixtures/traces/trace-cmd-ipimask.dat,
# recorded in a 4-CPU guest (README; scripts/ipimask-vm/record).  The import must read every
# ipi_send_cpumask and ipi_send_cpu event (their count against trace-cmd's own report,
# trace-cmd-ipimask.sends), and every IPI wake it gives a sender must have that sender
# according to the report: the last IPI sent to the CPU before the wake (by cpu or mask).
# analyze then names the senders, and closed-loop replay moves IPI wakes with them.  With
# trace-cmd installed, also: its `report -t` text
# imports to the same trace, and the report gives the same sends.
#
# usage (from the project root): bash tests/cli/ipimask.sh /path/to/idlekit
bin=${1:?usage: ipimask.sh /path/to/idlekit}
cd "$(dirname "$0")/../.." || exit 1
fx=tests/fixtures/traces
dat=$fx/trace-cmd-ipimask.dat
sends=$fx/trace-cmd-ipimask.sends
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

if ! "$bin" import trace-dat $dat -o "$tmp/ipm.trace" 2>"$tmp/err"; then
	grep -q 'built without libtracecmd' "$tmp/err" &&
		{ echo "SKIP: this idlekit was built without libtracecmd"; exit 77; }
	echo "FAIL: import trace-dat: $(cat "$tmp/err")"
	exit 1
fi
# The counts of trace-cmd's report (trace-cmd-ipimask.sends: 187 ipi_send_cpu lines, 63
# ipi_send_cpumask naming 184 CPUs) and the 326 IPI wakes with a sender the check below
# confirms one by one; no event of another kind ignored.
grep -q 'IPIs sent: 187 ipi_send_cpu, 63 ipi_send_cpumask (to 184 CPUs in all); 326 idle periods ended by an IPI whose sender is known' "$tmp/err" ||
	fail "import: IPI counts: $(grep 'IPIs' "$tmp/err")"
grep -q '3210 events from 3694 records (0 events of other kinds ignored, 0 idle entries/exits out of order dropped, 6 partial periods at the edges), 4 CPUs' "$tmp/err" ||
	fail "import: summary: $(tail -1 "$tmp/err")"
python3 - "$sends" "$tmp/ipm.trace" <<'PY' || fail "sends: the committed list or the import's senders"
import collections, sys
sends = collections.defaultdict(list)  # target CPU -> [(time, sender, kind)]
n = collections.Counter()
for l in open(sys.argv[1]):
    if l.startswith("#"):
        continue
    t, src, kind, targets = l.split()
    n[kind] += 1
    for part in targets.split(","):
        a, _, b = part.partition("-")
        for c in range(int(a), int(b or a) + 1):
            n[kind + " targets"] += 1
            sends[c].append((int(t), int(src), kind))
assert (n["cpu"], n["cpumask"], n["cpumask targets"]) == (187, 63, 184), n
wakes = by_mask = 0
for l in open(sys.argv[2]):
    f = l.split()
    if len(f) == 5 and f[2:4] == ["wake", "ipi"]:
        t, cpu, src = int(f[0]), int(f[1]), int(f[4])
        before = [x for x in sends[cpu] if x[0] <= t]
        assert before, l
        last = max(before)
        assert last[1] == src, (l, last)  # the last IPI sent to this CPU came from SRC
        wakes += 1
        by_mask += last[2] == "cpumask"
assert (wakes, by_mask) == (326, 168), (wakes, by_mask)
PY
# analyze: every period has a cause (none 0), and the remote wakes by source
"$bin" analyze "$tmp/ipm.trace" --json >"$tmp/a.json" || fail "analyze: exit $?"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = d["all"]["wake_causes"]
assert (w["ipi"], w["tick"], w["timer"], w["irq"], w["none"]) == (326, 606, 44, 10, 0), w
src = [c["remote_from"] for c in d["per_cpu"]]
assert src == [{"1": 12, "2": 11, "3": 78}, {"0": 22, "2": 16, "3": 81},
               {"0": 4, "1": 4, "3": 70}, {"0": 14, "1": 2, "2": 12}], src
' "$tmp/a.json" || fail "analyze: causes and sources: $(head -c 600 "$tmp/a.json")"
# replay takes it, closed loop (where an IPI wake moves with its sender's delay)
"$bin" replay "$tmp/ipm.trace" -g menu,teo -p intel-skx --closed-loop --json >"$tmp/r.json" ||
	fail "replay: exit $?"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["trace"]["periods"] == 986 and all(r["periods"] == 986 for r in d["runs"]), d["trace"]
' "$tmp/r.json" || fail "replay: periods"
# replay follows the senders: in closed loop an IPI wake moves with its sender's delay, so
# the same trace with the senders removed ('wake ipi SRC' -> 'wake ipi') replays otherwise;
# in open loop nothing moves and they are the same
sed -E 's/^([0-9]+ [0-9]+ wake ipi) [0-9]+$/\1/' "$tmp/ipm.trace" >"$tmp/nosrc.trace"
[ "$(grep -c ' wake ipi$' "$tmp/nosrc.trace")" = 326 ] || fail "replay: senders not removed"
for loop in open closed; do
	flag=; [ $loop = closed ] && flag=--closed-loop
	for t in ipm nosrc; do
		"$bin" replay "$tmp/$t.trace" -g menu -p intel-skx $flag --json >"$tmp/$t-$loop.json" ||
			fail "replay $t $loop: exit $?"
	done
done
python3 -c '
import json, sys
def runs(f):
    return json.load(open(f))["runs"][0]
a, b, c, d = (runs(f) for f in sys.argv[1:5])
assert a == b, "open loop: the senders changed the replay"
assert c["wake_latency_ns"] != d["wake_latency_ns"] and c["measured_ms"] != d["measured_ms"], "closed loop: the senders changed nothing"
' "$tmp/ipm-open.json" "$tmp/nosrc-open.json" "$tmp/ipm-closed.json" "$tmp/nosrc-closed.json" ||
	fail "replay and the IPI senders"

# trace-cmd's own text of the file: the same sends, the same import
if command -v trace-cmd >/dev/null; then
	trace-cmd report -t $dat >"$tmp/report.txt" 2>/dev/null || fail "trace-cmd report: exit $?"
	sed -nE 's/.*\[0*([0-9]+)\] +([0-9]+)\.([0-9]{9}): ipi_send_(cpu|cpumask): +(cpu|cpumask)=([^ ]+).*/\2\3 \1 \4 \6/p' \
		"$tmp/report.txt" | diff -q - <(grep -v '^#' $sends) >/dev/null ||
		fail "trace-cmd report: sends differ from $sends"
	"$bin" import trace-cmd-report "$tmp/report.txt" -o "$tmp/text.trace" 2>"$tmp/err" ||
		fail "import trace-cmd-report: $(cat "$tmp/err")"
	cmp -s "$tmp/ipm.trace" "$tmp/text.trace" ||
		fail "trace-cmd report text imports differently: $(diff "$tmp/ipm.trace" "$tmp/text.trace" | head -4)"
else
	echo "note: no trace-cmd: its report of the file not checked"
fi
[ $failures = 0 ] && echo "ipimask: all passed"
exit $((failures > 0))
