#!/usr/bin/env bash
# `idlekit analyze` and `idlekit replay`: the hand-checked fixture (tests/fixtures/traces/),
# errors with FILE:LINE and exit status 2, --lenient, atomic -o, standard input, every
# governor, --compare-recorded, JSON that parses, and a generated trace of 100000 events.
#
# usage (from the project root): bash tests/cli/trace.sh /path/to/idlekit
set -u
bin=${1:?usage: trace.sh /path/to/idlekit}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}
fx=tests/fixtures/traces

# ---- analyze: the expected outputs, worked out by hand in docs/trace-format.md ---------
"$bin" analyze $fx/two-cpus.trace --csv >"$tmp/csv" 2>"$tmp/err" || fail "analyze --csv: exit $?"
diff -u $fx/two-cpus.csv "$tmp/csv" || fail "analyze --csv differs from two-cpus.csv"
[ -s "$tmp/err" ] && fail "analyze --csv wrote to stderr: $(cat "$tmp/err")"
"$bin" analyze $fx/two-cpus.trace --json >"$tmp/json" || fail "analyze --json: exit $?"
diff -u $fx/two-cpus.json "$tmp/json" || fail "analyze --json differs from two-cpus.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["all"]["states"][2]["too_deep"] == 1' \
	"$tmp/json" || fail "analyze --json does not parse or lost too_deep"
"$bin" analyze $fx/two-cpus.trace >"$tmp/text" || fail "analyze (text): exit $?"
grep -q 'min_us' "$tmp/text" || fail "analyze text: no unit in the column names"
grep -q 'irq 1 (1)' "$tmp/text" || fail "analyze text: the IRQ did not end the too-deep period"
grep -q '1 still open at the end' "$tmp/text" || fail "analyze text: open period not reported"
"$bin" analyze - --csv <$fx/two-cpus.trace >"$tmp/stdin" || fail "analyze -: exit $?"
cmp -s "$tmp/stdin" $fx/two-cpus.csv || fail "analyze from standard input differs"

# ---- Errors: FILE:LINE, exit 2; --lenient skips and counts -------------------------------
"$bin" analyze $fx/bad-lines.trace >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "bad trace: exit $rc, expected 2"
grep -q "^idlekit analyze: $fx/bad-lines.trace:10: expected idle_exit on CPU 0 before idle_enter, got idle_enter$" "$tmp/err" ||
	fail "bad trace message: $(cat "$tmp/err")"
"$bin" analyze $fx/bad-lines.trace --lenient --csv >"$tmp/out" 2>"$tmp/err" || fail "--lenient: exit $?"
grep -q -- '--lenient: 2 bad lines skipped; the first: .*bad-lines.trace:10:' "$tmp/err" ||
	fail "--lenient message: $(cat "$tmp/err")"
grep -q '^0,0,0,C1,50.000,50.000,50.000,50.000,1,0,0$' "$tmp/out" || fail "--lenient C1 row: $(cat "$tmp/out")"
grep -q '^0,0,0,POLL,1.000,1.000,1.000,1.000,1,0,0$' "$tmp/out" || fail "--lenient POLL row: $(cat "$tmp/out")"
printf 'idlekit-trace 1\nhz 250\ncpus 1\nstate C1 1 2 0\n' >"$tmp/bad.trace"
"$bin" analyze "$tmp/bad.trace" 2>"$tmp/err" >/dev/null
[ $? -eq 2 ] || fail "bad header: exit status"
grep -q "bad.trace:4: expected 'driver NAME CPULIST', got 'state C1 1 2 0'" "$tmp/err" || fail "bad header message: $(cat "$tmp/err")"
"$bin" analyze "$tmp/missing.trace" 2>/dev/null
[ $? -eq 2 ] || fail "missing file: exit status"
"$bin" analyze 2>/dev/null
[ $? -eq 2 ] || fail "no file: exit status"
"$bin" analyze $fx/two-cpus.trace --json --csv 2>/dev/null
[ $? -eq 2 ] || fail "--json --csv: exit status"

# -o is atomic: a good run writes the file, a bad one leaves nothing.
"$bin" analyze $fx/two-cpus.trace --csv -o "$tmp/o.csv" && cmp -s "$tmp/o.csv" $fx/two-cpus.csv || fail "-o"
"$bin" analyze $fx/bad-lines.trace -o "$tmp/bad.out" 2>/dev/null
[ -e "$tmp/bad.out" ] && fail "-o left a file after bad input"
ls "$tmp" | grep -q '\.tmp\.' && fail "-o left a temporary file"

# ---- replay ---------------------------------------------------------------------------------
for g in menu teo ladder haltpoll; do
	"$bin" replay $fx/two-cpus.trace --governor $g --platform intel-skx --compare-recorded \
		>"$tmp/r" 2>"$tmp/err" || fail "replay $g: exit $?: $(cat "$tmp/err")"
	grep -q '^recorded idle periods 4,' "$tmp/r" || fail "replay $g: periods: $(head -3 "$tmp/r")"
	grep -q '^agreement with the recorded state' "$tmp/r" || fail "replay $g: no agreement line"
	grep -q 'time_us' "$tmp/r" || fail "replay $g: no unit"
	"$bin" replay -g $g -p intel-skx --json --compare-recorded $fx/two-cpus.trace >"$tmp/rj" ||
		fail "replay $g --json: exit $?"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["runs"][0]; assert d["schema"] == "idlekit.replay/2" and r["periods"] == 4 and len(r["confusion"]) == 3' \
		"$tmp/rj" || fail "replay $g --json"
done
# ---- The what-if: several governors in one pass, energy, wake latency, loops -------------
lx=$fx/one-long-exit.trace
"$bin" replay $lx -g menu,teo,ladder,haltpoll -p arm-juno --json >"$tmp/w.json" 2>"$tmp/err" ||
	fail "replay -g four --json: exit $?: $(cat "$tmp/err")"
python3 - "$tmp/w.json" <<'PY' || fail "replay -g four --json: figures"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "idlekit.replay/2" and d["settings"]["loop"] == "open", d["settings"]
assert [r["governor"] for r in d["runs"]] == ["menu", "teo", "ladder", "haltpoll"]
assert d["platform"]["name"] == "arm-juno" and d["trace"]["periods"] == 41
for r in d["runs"]:
    # the figure names of an idlekit.sim/1 run object
    for k in ("states", "wake_latency_ns", "energy_j", "avg_power_w", "accuracy", "measured_ms"):
        assert k in r, k
    for st in r["states"]:
        assert set(("index", "name", "desc", "latency_us", "residency_us", "usage", "time_us", "above",
                    "below", "rejected", "residency_pct")) <= set(st), st
    acc = r["accuracy"]
    assert acc["entries"] == sum(s["usage"] for s in r["states"]) == r["idle_entries"]
    assert acc["too_deep"] == sum(s["above"] for s in r["states"])
    assert acc["too_deep"] + acc["too_shallow"] + acc["right"] == acc["entries"]
    # one wake latency per recorded period; arm-juno's exits cost 1.2 ms (WFI: 1 us)
    lat = r["wake_latency_ns"]
    assert lat["count"] == r["periods"] == 41, lat
    assert set(("p25", "p50", "p75", "p90", "p95", "p99", "p99_5", "p99_9", "p99_95", "p99_99")) <= set(lat)
    assert lat["max"] <= 1200000 + 400000, lat
    # energy: idle states + entry/exit + busy and package, all positive on arm-juno
    parts = r["energy_parts_j"]
    assert r["energy_j"] > 0 and abs(sum(parts.values()) - r["energy_j"]) < 1e-12, parts
    assert abs(r["avg_power_w"] - r["energy_j"] / (r["measured_ms"] / 1000)) < 1e-9
    assert sum(s["residency_pct"] for s in r["states"]) <= 100.0 + 1e-9
    m = {(x["recorded_name"], x["replayed_name"], x["by"]) for x in r["mapping"]}
    assert m == {("WFI", "WFI", "name"), ("deep", "cluster-sleep", "depth")}, m
# a deeper choice costs more exit time than a shallower one: ladder starts at WFI
runs = {r["governor"]: r for r in d["runs"]}
assert runs["menu"]["entry_exit_us"] > runs["ladder"]["entry_exit_us"], (runs["menu"]["entry_exit_us"], runs["ladder"]["entry_exit_us"])
PY
# The package deep state (docs/replay.md "The package"): two-cpus.trace on amd-zen3-milan,
# every entry in CC6 (core_off): CPU 0 gated 2..202 us (its wake irq comes after the exit:
# the exit minus C6's 100 us) and 400..900 us, CPU 1 5..705.1 us (its second period is open
# at the end): both at once 5..202 and 400..705.1 us, 502.1 us.
"$bin" replay $fx/two-cpus.trace -g menu,teo -p amd-zen3-milan --json >"$tmp/pk.json" ||
	fail "replay package: exit $?"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    assert r["packages"] == 1 and r["package_deep_us"] == 502.1, (r["packages"], r["package_deep_us"])
    # pkg_idle_mw 49525 while deep, pkg_active_mw 90160 otherwise (platforms/amd-zen3-milan.ini)
    ms = r["measured_ms"]
    want = (502.1e-6 * 49525 + (ms / 1000 - 502.1e-6) * 90160) / 1000
    assert abs(r["package_j"] - want) < 1e-12, (r["package_j"], want)
    assert r["package_j"] < r["energy_parts_j"]["busy_and_package"]
assert d["settings"]["energy_leaves_out"] is None, d["settings"]
assert "pkg_exit_ns" in d["settings"]["package_exit"], d["settings"]
' "$tmp/pk.json" || fail "replay package deep state"
# The package's exit (docs/replay.md "The package"): the same on a copy of amd-zen3-milan
# with pkg_exit_ns a constant 30 us (its own is 0).  By hand: the deep stretch 5..202 us ends
# at CPU 0's wake (202 us), 400..705.1 us at CPU 1's (705.1 us); CPU 0's wake at 900 us finds
# CPU 1 awake (its period from 810 us is open at the end, not replayed), its wake at 1000 us
# was pending.  So 2 exits, both the work's wakes: the wake latency sum is 2 x 30 us more,
# over the same 4 wakes (the package draws from its own generator, so every CPU draw is the
# same).  The exits move the work: CPU 1's last delay (work start - recorded exit) is 30 us
# more in both loops (CPU 0's last period, at 1000 us, was pending: its delay is the same).
# Open loop: the next entries (400 and 810 us) are after the moved work, nothing else moves.
# Closed loop: CPU 0's entry at 400 us moves by its delay, 30 us later: 30 us less in its
# state, the package 30 us less deep (CPU 1's entry at 810 us is in the period the trace
# leaves open).
sed '/^\[effects\]/a pkg_exit_ns = constant 30000' platforms/amd-zen3-milan.ini >"$tmp/milan-px.ini"
for loop in "" --closed-loop; do
	"$bin" replay $fx/two-cpus.trace -g menu,teo -p amd-zen3-milan $loop --json >"$tmp/px0.json" ||
		fail "replay package exit 0 $loop"
	"$bin" replay $fx/two-cpus.trace -g menu,teo -p "$tmp/milan-px.ini" $loop --json >"$tmp/px.json" ||
		fail "replay package exit $loop"
	python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for r0, r in zip(a["runs"], b["runs"]):
    assert r0["package_exits"] == 2 and r0["package_exit_us"] == 0, r0
    assert r["package_exits"] == 2 and r["package_exits_in_wake_latency"] == 2, r
    assert r["package_exit_us"] == 60 and r["package_exit_mean_us"] == 30, r
    assert r["package_exit_in_wake_latency_us"] == 60, r
    l0, l = r0["wake_latency_ns"], r["wake_latency_ns"]
    assert l0["count"] == l["count"] == 4, (l0, l)
    assert round(l["mean"] * 4 - l0["mean"] * 4, 6) == 60000, (l0, l)
    closed = sys.argv[3] != ""
    for k in ("entry_exit_us", "measured_ms") + (() if closed else ("energy_j", "package_deep_us", "states")):
        assert r0[k] == r[k], k
    d0 = [c.pop("delay_us") for c in r0["per_cpu"]]
    d = [c.pop("delay_us") for c in r["per_cpu"]]
    assert d[0] == d0[0] and round(d[1] - d0[1], 6) == 30, (d0, d)
    if not closed:
        assert r0["per_cpu"] == r["per_cpu"]
        continue
    assert round(r0["package_deep_us"] - r["package_deep_us"], 6) == 30, (r0["package_deep_us"], r["package_deep_us"])
    t0, t = (sum(s["time_us"] for s in x["states"]) for x in (r0, r))
    assert round(t0 - t, 6) == 30, (t0, t)
    assert [s["usage"] for s in r0["states"]] == [s["usage"] for s in r["states"]]
' "$tmp/px0.json" "$tmp/px.json" "$loop" || fail "replay package exit $loop"
done
# A platform with no core_off state has no package deep state: no exit, no note, and the
# text report has no package exit rows.
"$bin" replay $fx/two-cpus.trace -g menu -p intel-skx --json >"$tmp/nopk.json" || fail "replay skx"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["settings"]["package_exit"] is None, d["settings"]
assert d["runs"][0]["package_exits"] == 0 and d["runs"][0]["package_deep_us"] == 0, d["runs"][0]
' "$tmp/nopk.json" || fail "replay no package state"
"$bin" replay $fx/two-cpus.trace -g menu -p intel-skx >"$tmp/nopk.txt" || fail "replay skx text"
grep -q "package exit" "$tmp/nopk.txt" && fail "replay skx: package exit rows without a deep state"
# Open loop: a pending period is one whose wake came inside the previous replayed exit, so
# on the trace's own table (exits as recorded) nothing is pending or delayed, in either loop.
for loop in "" --closed-loop; do
	"$bin" replay $lx -g menu,teo -p trace $loop --json >"$tmp/own.json" || fail "replay own table $loop"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    assert r["wake_pending"] == 0 and all(c["delay_us"] == 0 for c in r["per_cpu"]), r["wake_pending"]
    assert r["energy_j"] is None and r["avg_power_w"] is None
    assert abs(r["measured_ms"] - d["trace"]["traced_us"] / 1000) < 0.002, (r["measured_ms"], d["trace"]["traced_us"])
' "$tmp/own.json" || fail "replay own table $loop: pending or delayed"
done
# Closed loop: the 1.2 ms exits delay the work, so the replay lasts longer than the trace,
# the IRQ wakes that come during the delay are pending, and each drains the delay.
"$bin" replay $lx -g menu -p arm-juno --closed-loop --json >"$tmp/cl.json" || fail "replay --closed-loop"
python3 - "$tmp/w.json" "$tmp/cl.json" <<'PY' || fail "replay --closed-loop: figures"
import json, sys
o = json.load(open(sys.argv[1]))["runs"][0]
d = json.load(open(sys.argv[2]))
c = d["runs"][0]
assert d["settings"]["loop"] == "closed"
assert c["wake_pending"] >= o["wake_pending"] > 0, (c["wake_pending"], o["wake_pending"])
assert c["per_cpu"][0]["delay_us"] > 0 and c["measured_ms"] > d["trace"]["traced_us"] / 1000
PY
# The same run twice: the same bytes; the text has one column per governor.
"$bin" replay $lx -g menu,teo -p intel-skx --json >"$tmp/d1" && "$bin" replay $lx -g menu,teo -p intel-skx --json >"$tmp/d2" &&
	cmp -s "$tmp/d1" "$tmp/d2" || fail "replay: not deterministic"
"$bin" replay $lx -g menu,teo -p intel-skx --json --seed 7 >"$tmp/d3" || fail "replay --seed"
cmp -s "$tmp/d1" "$tmp/d3" && fail "replay --seed: intel-skx's exit distributions should draw other costs"
"$bin" replay $lx -g teo,menu -p arm-juno >"$tmp/t" || fail "replay text"
grep -qE '^governor +teo +menu$' "$tmp/t" || fail "replay text: no column per governor: $(grep ^governor "$tmp/t")"
grep -qE '^energy_j +[0-9.]+ +[0-9.]+$' "$tmp/t" || fail "replay text: no energy_j row"
grep -qE '^wake latency p99_us +[0-9.]+ +[0-9.]+$' "$tmp/t" || fail "replay text: no wake latency row"
# A governor given twice or unknown: one message, exit 2, nothing written.
for g in menu,menu menu,nosuch menu,; do
	"$bin" replay $lx -g $g -p arm-juno -o "$tmp/never" >/dev/null 2>"$tmp/e"; rc=$?
	[ $rc -eq 2 ] && [ $(wc -l <"$tmp/e") -eq 1 ] && [ ! -e "$tmp/never" ] || fail "replay -g $g: exit $rc: $(cat "$tmp/e")"
done
# Standard input: all governors in one pass over it.
"$bin" replay - -g menu,teo -p arm-juno --json <$lx >"$tmp/stdin.json" || fail "replay from stdin"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a["runs"][:2] == b["runs"][:2]' \
	"$tmp/stdin.json" "$tmp/w.json" || fail "replay from stdin: other figures"
# The recorded fixture through the governor and table that recorded it (haltpoll, with the
# recording machine's guest_halt_poll_ns of 0) chooses what the kernel chose, every period;
# with the default 200 us window it would poll after the 20 us period and disagree.
"$bin" replay $fx/recorded-sched.trace -g haltpoll -p trace --haltpoll-poll-ns 0 \
	--compare-recorded >"$tmp/rs" || fail "replay recorded-sched: exit $?"
grep -q '^agreement with the recorded state.*: 100.00 % (14 of 14 periods)' "$tmp/rs" ||
	fail "replay recorded-sched: $(grep agreement "$tmp/rs")"
"$bin" replay $fx/recorded-sched.trace -g haltpoll -p trace --compare-recorded >"$tmp/rs2" ||
	fail "replay recorded-sched default window: exit $?"
grep -q '^agreement with the recorded state.*: 100.00 %' "$tmp/rs2" &&
	fail "replay recorded-sched: the default poll window should disagree with the recording"
# The same parameters said by the trace's header ('governor' line, 1.1): no option needed.
sed 's/^cpus 2$/cpus 2\ngovernor haltpoll guest_halt_poll_ns=0 guest_halt_poll_grow=2/' \
	$fx/recorded-sched.trace >"$tmp/gh.trace"
"$bin" replay "$tmp/gh.trace" -g haltpoll -p trace --compare-recorded >"$tmp/rs3" || fail "replay governor header: exit $?"
grep -q '^haltpoll parameters (the trace header): guest_halt_poll_ns 0,' "$tmp/rs3" ||
	fail "replay governor header: $(grep 'haltpoll param' "$tmp/rs3")"
grep -q '^agreement with the recorded state.*: 100.00 % (14 of 14 periods)' "$tmp/rs3" ||
	fail "replay governor header: $(grep agreement "$tmp/rs3")"
# ... and an option still wins over the header
"$bin" replay "$tmp/gh.trace" -g haltpoll -p trace --haltpoll-poll-ns 200000 >"$tmp/rs4" || fail "replay option over header"
grep -q '^haltpoll parameters (--haltpoll-poll-ns, the rest defaults): guest_halt_poll_ns 200000,' "$tmp/rs4" ||
	fail "replay option over header: $(grep 'haltpoll param' "$tmp/rs4")"
# Bad governor lines: a non-integer value, a second line, one in a format 1 trace.
sed 's/^cpus 2$/cpus 2\ngovernor haltpoll guest_halt_poll_ns=x/' $fx/recorded-sched.trace >"$tmp/gb1.trace"
"$bin" analyze "$tmp/gb1.trace" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "governor bad value: exit status"
grep -q 'gb1.trace:4: expected a governor parameter KEY=VALUE' "$tmp/e" || fail "governor bad value: $(cat "$tmp/e")"
sed 's/^cpus 2$/cpus 2\ngovernor menu\ngovernor teo/' $fx/recorded-sched.trace >"$tmp/gb2.trace"
"$bin" analyze "$tmp/gb2.trace" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "two governor lines: exit status"
grep -q "gb2.trace:5: expected one 'governor' line only" "$tmp/e" || fail "two governor lines: $(cat "$tmp/e")"
sed 's/^cpus 2$/cpus 2\ngovernor menu/' $fx/two-cpus.trace >"$tmp/gb3.trace"
"$bin" analyze "$tmp/gb3.trace" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "governor in format 1: exit status"
grep -q "expected no 'governor' line before format 1.1" "$tmp/e" || fail "governor in format 1: $(cat "$tmp/e")"
# Topology lines (1.1): analyze shows each CPU's package and core, text and JSON.
sed 's/^cpus 2$/cpus 2\ncpu 1 0 3\ncpu 0 0 2/' $fx/recorded-sched.trace >"$tmp/topo.trace"
"$bin" analyze "$tmp/topo.trace" >"$tmp/t" || fail "topology: exit $?"
grep -q '^CPU 0 (driver haltpoll, package 0 core 2): idle 98.85 %, busy 1.15 % of the traced time$' "$tmp/t" &&
	grep -q '^CPU 1 (driver haltpoll, package 0 core 3): idle 0.00 %, busy 100.00 % of the traced time (never idled)$' "$tmp/t" ||
	fail "topology: $(grep '^CPU' "$tmp/t")"
"$bin" analyze "$tmp/topo.trace" --json >"$tmp/tj" || fail "topology --json: exit $?"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["per_cpu"]; assert (c[0]["package"], c[0]["core"], c[1]["core"]) == (0, 2, 3)' \
	"$tmp/tj" || fail "topology --json"
# idlestat's overlap: CPU 1 never idles, so package 0 is never all idle; core 2 (CPU 0 alone)
# is idle exactly when CPU 0 is.
grep -q '^  package 0 (2 CPUs): 0.000 us, 0.00 % of the traced time$' "$tmp/t" &&
	grep -q '^  package 0 core 2 (1 CPUs): 199604.755 us, 98.85 % of the traced time$' "$tmp/t" ||
	fail "topology: groups idle at once: $(grep -A3 'idle at once' "$tmp/t")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["per_cpu"]; g=d["groups_all_idle"]; assert c[1]["never_idle"] and not c[0]["never_idle"] and c[0]["idle_us"] == 199604.755 and g[0] == {"package": 0, "core": None, "cpus": 2, "all_idle_us": 0.0}, (c, g)' \
	"$tmp/tj" || fail "topology --json: idle share, groups"
"$bin" analyze "$tmp/topo.trace" --csv | grep -q '^0,2,0,haltpoll_idle,' || fail "topology --csv: cluster and core from the cpu lines"
"$bin" analyze "$tmp/gh.trace" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["governor"] == "haltpoll" and d["governor_params"]["guest_halt_poll_ns"] == 0' ||
	fail "governor in analyze --json"
for bad in 'cpu 2 0 0' 'cpu 0 0' 'cpu 0 0 x' 'cpu 0 0 1\ncpu 0 0 1'; do
	sed "s/^cpus 2\$/cpus 2\n$bad/" $fx/recorded-sched.trace >"$tmp/tb.trace"
	"$bin" analyze "$tmp/tb.trace" >/dev/null 2>"$tmp/e"; rc=$?
	[ $rc -eq 2 ] || fail "topology '$bad': exit $rc"
	grep -q "tb.trace:[45]: expected 'cpu CPU PACKAGE CORE'" "$tmp/e" || fail "topology '$bad': $(cat "$tmp/e")"
done
sed 's/^cpus 2$/cpus 2\ncpu 0 0 0/' $fx/two-cpus.trace >"$tmp/tb1.trace"
"$bin" analyze "$tmp/tb1.trace" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "cpu line in format 1: exit status"
grep -q "expected no 'cpu' line before format 1.1" "$tmp/e" || fail "cpu line in format 1: $(cat "$tmp/e")"
"$bin" replay $fx/two-cpus.trace -g nosuch -p intel-skx 2>/dev/null
[ $? -eq 2 ] || fail "replay unknown governor: exit status"
"$bin" replay $fx/two-cpus.trace -g menu 2>/dev/null
[ $? -eq 2 ] || fail "replay without platform: exit status"
"$bin" replay $fx/bad-lines.trace -g menu -p intel-skx 2>"$tmp/err" >/dev/null
[ $? -eq 2 ] || fail "replay bad trace: exit status"
grep -q 'bad-lines.trace:10: expected' "$tmp/err" || fail "replay bad trace message: $(cat "$tmp/err")"

# ---- A recorded trace of format 1.1 (idlekit record, tests/fixtures/traces/README) -------
rec=$fx/recorded-sched.trace
"$bin" analyze $rec >"$tmp/rec" || fail "analyze recorded-sched: exit $?"
grep -q '155 events (0 bad lines skipped), 14 idle periods (1 still open' "$tmp/rec" || fail "recorded-sched: counts: $(head -1 "$tmp/rec")"
grep -q '^after the idle periods: 11 ran a task, 3 none (woken for nothing)$' "$tmp/rec" || fail "recorded-sched: task/empty"
grep -q 'timer 6 (0) tick 5 (0) ipi 2 (0) irq 0 (0) unknown 0 (0) remote 1 (0) softirq 0 (0) none 0 (0)' "$tmp/rec" ||
	fail "recorded-sched: wake causes: $(grep -m1 'wake causes' "$tmp/rec")"
grep -q '^  remote wakes by source: CPU 1 1$' "$tmp/rec" || fail "recorded-sched: the remote wake's source"
"$bin" replay $rec -g menu -p trace --compare-recorded >"$tmp/r" || fail "replay recorded-sched: exit $?"
grep -q '^recorded idle periods 14,' "$tmp/r" || fail "replay recorded-sched: $(head -2 "$tmp/r")"
# The same events under a version 1 header: the 1.1 kinds are refused, with the line.
sed '1s/ 1\.1$/ 1/' $rec >"$tmp/v1.trace"
"$bin" analyze "$tmp/v1.trace" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "1.1 events under a version 1 header: exit $rc"
grep -q "v1.trace:[0-9]*: expected an event of format 1 (the header says 'idlekit-trace 1'; '[a-z_]*' needs 'idlekit-trace 1.1')" "$tmp/err" ||
	fail "1.1 events under a version 1 header: $(cat "$tmp/err")"

# ---- A generated trace (the benchmark's generator) through both commands ----------------
python3 - "$tmp/gen.trace" <<'PY'
import random, sys
random.seed(1)
out = open(sys.argv[1], "w")
out.write("idlekit-trace 1\nhz 250\ncpus 4\ndriver g 0-3\nstate POLL 0 0 0x1\nstate C1 2 2 0\nstate C6 133 600 0\nevents\n")
t = 0; idle = [False] * 4; n = 0
while n < 100000:
    c = n % 4; t += random.randint(1, 3000)
    if idle[c]:
        out.write(f"{t} {c} wake {random.choice(['tick','ipi','unknown','irq 9'])}\n{t} {c} idle_exit\n")
    else:
        out.write(f"{t} {c} timer_start {t + random.randint(1000, 2000000)}\n{t} {c} idle_enter {random.randint(0, 2)}\n")
    idle[c] = not idle[c]; n += 2
PY
"$bin" analyze "$tmp/gen.trace" --json >"$tmp/gen.json" || fail "generated trace: analyze"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["events"] == 100000, d["events"]' \
	"$tmp/gen.json" || fail "generated trace: event count"
"$bin" replay "$tmp/gen.trace" -g teo -p intel-skx >/dev/null || fail "generated trace: replay"

# ---- Help ---------------------------------------------------------------------------------
"$bin" analyze --help | grep -q 'too deep' || fail "analyze --help"
"$bin" replay --help | grep -q 'open loop' || fail "replay --help"
"$bin" help analyze | grep -q '^usage: idlekit analyze' || fail "help analyze"
"$bin" --help | grep -q '  analyze TRACE' || fail "idlekit --help does not list analyze"

# ---- Several traces, -j N (docs/replay.md "Several traces") ------------------------------
# The same bytes for any N; each report is the trace's own (as replayed alone), in the order
# given; JSON wraps them in idlekit.replays/1.
set3="$fx/two-cpus.trace $fx/one-long-exit.trace $fx/recorded-sched.trace"
for fmt in text json; do
	opt=; [ $fmt = json ] && opt=--json
	for j in 1 2 3 8; do
		"$bin" replay $set3 -g menu,teo -p intel-skx --closed-loop -j $j $opt -o "$tmp/set-$fmt-$j" 2>"$tmp/err" ||
			fail "replay of 3 traces -j $j $fmt: exit $?: $(cat "$tmp/err")"
	done
	for j in 2 3 8; do
		cmp -s "$tmp/set-$fmt-1" "$tmp/set-$fmt-$j" || fail "replay of 3 traces: -j $j ($fmt) differs from -j 1"
	done
	: >"$tmp/alone-$fmt"
	for t in $set3; do
		"$bin" replay $t -g menu,teo -p intel-skx --closed-loop $opt >"$tmp/one-$fmt" || fail "replay $t alone"
		if [ $fmt = text ]; then
			[ -s "$tmp/alone-$fmt" ] && echo >>"$tmp/alone-$fmt"
			cat "$tmp/one-$fmt" >>"$tmp/alone-$fmt"
		fi
	done
	[ $fmt = text ] && { cmp -s "$tmp/set-text-1" "$tmp/alone-text" || fail "replay of 3 traces: not the three reports"; }
done
python3 - "$tmp/set-json-1" $set3 <<'PY' || fail "replay of 3 traces: JSON"
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "idlekit.replays/1", d["schema"]
assert [r["trace"]["path"] for r in d["replays"]] == sys.argv[2:], [r["trace"]["path"] for r in d["replays"]]
for r, t in zip(d["replays"], sys.argv[2:]):
    assert r["schema"] == "idlekit.replay/2" and [x["governor"] for x in r["runs"]] == ["menu", "teo"]
PY
for t in $set3; do
	"$bin" replay $t -g menu,teo -p intel-skx --closed-loop --json >"$tmp/one.json" || fail "replay $t alone --json"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))
assert one in d["replays"], sys.argv[3]
' "$tmp/set-json-1" "$tmp/one.json" "$t" || fail "replay of 3 traces: $t not as replayed alone"
done
# A bad trace among them: its message, exit 2, nothing written, for any -j.
printf 'idlekit-trace 1\nhz 250\ncpus 1\ndriver d 0\nstate C1 1 2 0x0\nevents\n5 0 idle_enter 7\n' >"$tmp/bad.trace"
for j in 1 3; do
	rm -f "$tmp/setbad"
	"$bin" replay $fx/two-cpus.trace "$tmp/bad.trace" $fx/one-long-exit.trace -g menu -p intel-skx -j $j \
		-o "$tmp/setbad" 2>"$tmp/err"; rc=$?
	[ $rc -eq 2 ] && [ ! -e "$tmp/setbad" ] && grep -q 'bad.trace:7' "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] ||
		fail "replay with a bad trace -j $j: exit $rc: $(cat "$tmp/err")"
done
"$bin" replay $set3 -g menu -p intel-skx --html "$tmp/x.html" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- '--html is for one TRACE, got 3' "$tmp/err" || fail "replay --html of 3 traces: exit $rc"
"$bin" replay $fx/two-cpus.trace -g menu -p intel-skx -j 0 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- '-j: expected an integer 1..1024, got 0' "$tmp/err" || fail "replay -j 0: exit $rc: $(cat "$tmp/err")"
# The package's exit moves the work (docs/replay.md "The exit moves the work"): teo on
# one-long-exit.trace, milan with pkg_exit_ns 30 us.  One CPU, so each wake from its deep
# state ends the package's deep stretch: 41 work wakes pay (the 5 ms timer's and the 40
# IRQs'), 41 x 30 us more wake latency in both loops, and the last work start, 30 us later,
# is the end of the run (its delay is 30 us more).  Open loop: each entry comes 100 us
# after its wake, past the moved work: the states and the package's deep time as with 0.
# Closed loop: each of the 40 entries after a paid wake moves 30 us later while its IRQ
# keeps its time: 40 x 30 us less in the state and in the package's deep state.
sed '/^\[effects\]/a pkg_exit_ns = constant 30000' platforms/amd-zen3-milan.ini >"$tmp/milan-px.ini"
for loop in "" --closed-loop; do
	"$bin" replay $lx -g teo -p amd-zen3-milan $loop --json >"$tmp/mw0.json" &&
		"$bin" replay $lx -g teo -p "$tmp/milan-px.ini" $loop --json >"$tmp/mw.json" ||
		fail "replay package exit moves the work $loop"
	python3 - "$tmp/mw0.json" "$tmp/mw.json" "$loop" <<'PY' || fail "replay package exit moves the work $loop: figures"
import json, sys
r0, r = (json.load(open(f))["runs"][0] for f in sys.argv[1:3])
closed = sys.argv[3] != ""
assert r["package_exits_in_wake_latency"] == 41 and r["package_exit_in_wake_latency_us"] == 1230, r
l0, l = r0["wake_latency_ns"], r["wake_latency_ns"]
assert l0["count"] == l["count"] == 41 and round((l["mean"] - l0["mean"]) * 41) == 1230000, (l0, l)
assert round(r["measured_ms"] * 1000 - r0["measured_ms"] * 1000, 3) == 30, (r0["measured_ms"], r["measured_ms"])
assert round(r["per_cpu"][0]["delay_us"] - r0["per_cpu"][0]["delay_us"], 3) == 30
assert [s["usage"] for s in r["states"]] == [s["usage"] for s in r0["states"]]
t0, t = (sum(s["time_us"] for s in x["states"]) for x in (r0, r))
moved = 40 * 30 if closed else 0
assert round(t0 - t, 3) == moved, (t0, t)
assert round(r0["package_deep_us"] - r["package_deep_us"], 3) == moved, (r0["package_deep_us"], r["package_deep_us"])
PY
done
# The held events and the step-by-step periods on traces with many cross-CPU wakes: 5 CPUs
# (on packages of 2 CPUs, and on one), IRQs, timers, IPIs and task wakes from any CPU,
# times on a 1 ns and a 1 us grid (ties), the package's exit 30 us.  Every run ends (no
# period left undecided) and a governor's figures do not depend on the others it runs with.
sed -e 's/^cores_per_package = 64/cores_per_package = 2/' -e 's/^threads_per_core = 2/threads_per_core = 1/' \
	-e 's/^cores_per_llc = 8/cores_per_llc = 2/' "$tmp/milan-px.ini" >"$tmp/milan-px2.ini"
for seed in 1 2 3; do
	for grid in 1 1000; do
		python3 - $seed $grid >"$tmp/rnd.trace" <<'PY'
import random, sys
seed, grid = int(sys.argv[1]), int(sys.argv[2])
R, n, ev, k, tid = random.Random(seed), 5, [], 0, 1
for cpu in range(n):
    t = R.randrange(50) * grid
    while t < 20000000:
        busy = R.choice([1, 5, 20, 100, 300]) * grid * R.randrange(1, 10)
        idle = R.choice([2, 10, 50, 200, 1000, 3000]) * grid * R.randrange(1, 10)
        st, kind = R.choice([0, 1, 2, 2]), R.choice(["irq", "timer", "ipi", "task", "none"])
        t += busy
        w = t + idle
        if kind == "timer":
            ev.append((t - busy // 2, k, cpu, "timer_start %d %d" % (w, tid))); k += 1
        ev.append((t, k, cpu, "idle_enter %d" % st)); k += 1
        body = {"irq": "wake irq 9", "timer": "wake timer", "ipi": "wake ipi %d" % R.randrange(n),
                "task": "task_wake %d" % R.randrange(n), "none": None}[kind]
        if body:
            ev.append((w, k, cpu, body)); k += 1
        if kind == "timer":
            ev.append((w, k, cpu, "timer_expire %d" % tid)); k += 1; tid += 1
        x = w + [0, 2000, 100000][st] * R.choice([0, 1, 2])
        ev.append((x, k, cpu, "idle_exit")); k += 1
        t = x
print("idlekit-trace 1.1\nhz 250\ncpus %d\ndriver rec 0-%d" % (n, n - 1))
print("state POLL 0 0 0x1\nstate C1 2 4 0x0\nstate C6 100 400 0x0\nevents")
for t, _, cpu, body in sorted(ev):
    print(t, cpu, body)
PY
		for p in "$tmp/milan-px2.ini" "$tmp/milan-px.ini"; do
			for loop in "" --closed-loop; do
				"$bin" replay "$tmp/rnd.trace" -g menu,teo -p "$p" $loop --json >"$tmp/rnd2.json" &&
					"$bin" replay "$tmp/rnd.trace" -g teo -p "$p" $loop --json >"$tmp/rnd1.json" ||
					fail "replay random trace $seed/$grid $p $loop"
				python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["runs"][1] == b["runs"][0]
assert sys.argv[3] != "2" or a["runs"][1]["package_exits"] > 0  # packages of 2: exits
' "$tmp/rnd2.json" "$tmp/rnd1.json" "$(case $p in *px2*) echo 2 ;; esac)" || fail "replay random trace $seed/$grid $p $loop: teo not the same alone"
			done
		done
	done
done

if [ $failures -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "trace: all checks passed"
