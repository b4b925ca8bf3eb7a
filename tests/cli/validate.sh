#!/usr/bin/env bash
# idlekit validate, run for real on this machine (rt-app, sysfs counters) and in its model:
# the output's structure, measured figures that are there and agree with the counters they
# come from, the messages for bad input, and every knob as it was.  No bound on the errors
# (how far the model is from the machine) is asserted here; no figure is checked against a
# wall-clock expectation.  Needs rt-app and root: skipped without (exit 77), failed under CI.
set -u
bin=$1
. "$(dirname "$0")/check.bash"

command -v tbench >/dev/null || need_tool tbench "Debian package dbench; scripts/install-deps installs it"
need_validate validate.sh
# A machine with no cpuidle driver keeps no per-state counters: validate says so, runs
# nothing and exits 1 (what a machine with a driver does is the rest of this file).
# A tree that names no driver stands for such a machine here.
refuses_without_states() {
	local t rc msg out
	t=$(mktemp -d)
	rc=0
	"$bin" validate tests/fixtures/rtapp/validate-1ms.json --runs 1 >"$t/out" 2>"$t/err" || rc=$?
	msg=$(cat "$t/err")
	out=$(cat "$t/out")
	rm -rf "$t"
	[ $rc -eq 1 ] || { echo "FAIL: no cpuidle states: exit $rc, expected 1: $msg"; exit 1; }
	[ -z "$out" ] || { echo "FAIL: no cpuidle states: output: $out"; exit 1; }
	case $msg in
	*"has no cpuidle states (driver '"*"keeps no per-state counters"*) ;;
	*) echo "FAIL: no cpuidle states: message: $msg"; exit 1 ;;
	esac
}
nd=$(mktemp -d)
mkdir -p "$nd/sys/devices/system/cpu/cpuidle" "$nd/sys/devices/system/cpu/cpu0"
echo 0 >"$nd/sys/devices/system/cpu/online"
echo none >"$nd/sys/devices/system/cpu/cpuidle/current_driver"
IDLEKIT_SYSFS_ROOT=$nd refuses_without_states
rm -rf "$nd"
echo "ok: validate on a tree with no cpuidle driver refuses"
if [ ! -r /sys/devices/system/cpu/cpu0/cpuidle/state0/usage ]; then
	refuses_without_states
	echo "note: this machine has no cpuidle states (driver $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)): validate refuses, as it must; nothing was measured here"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every knob validate could have touched: the governor, each state's disable, the module
# parameters of the governor and driver (haltpoll's polling), the PM QoS device's limit.
knobs() {
	local f
	for f in /sys/devices/system/cpu/cpuidle/current_governor \
		/sys/devices/system/cpu/cpu*/cpuidle/state*/disable /sys/module/haltpoll/parameters/* \
		/sys/module/cpuidle_haltpoll/parameters/*; do
		[ -r "$f" ] && printf '%s=%s\n' "$f" "$(cat "$f")"
	done
	[ -r /dev/cpu_dma_latency ] && printf 'pmqos=%s\n' "$(od -An -td4 /dev/cpu_dma_latency)"
	return 0
}
knobs >"$tmp/knobs.before"

fx=tests/fixtures/rtapp/validate-1ms.json

# ---- the table ---------------------------------------------------------------------------
"$bin" validate "$fx" --runs 2 >"$tmp/table" 2>"$tmp/err"
rc=$?
check "table: exit 0 (got $rc: $(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "table: progress on stderr" grep -q '^idlekit validate: real run 2/2' "$tmp/err"
check "table: header" grep -Eq '^figure +unit +measured +measured range +predicted +predicted range +error_%$' "$tmp/table"
check "table: machine line" grep -Eq '^machine +kernel .*, cpuidle driver [^,]+, governor ' "$tmp/table"
check "table: model line" grep -Eq '^model +platform .*, driver .*, governor ' "$tmp/table"
check "table: cpu0 entries" grep -Eq '^cpu0 .* entries/s +1/s +[0-9.]+ ' "$tmp/table"
check "table: cpu0 busy" grep -Eq '^cpu0 busy +% ' "$tmp/table"
check "table: all CPUs" grep -Eq '^all CPUs idle entries/s +1/s +[0-9.]+ ' "$tmp/table"
check "table: wake latency" grep -Eq '^wake latency p50 +us +[0-9.]+ ' "$tmp/table"
check "table: wake latency p99" grep -Eq '^wake latency p99 +us +[0-9.]+ ' "$tmp/table"
check "table: activations" grep -Eq '^activations/s +1/s +[0-9.]+ ' "$tmp/table"
echo "--- validate $fx (2 runs; the errors as seen here) ---"
grep -E '^(cpu[0-9]+ (busy|.* entries/s|.* residency)|all CPUs|wake|activations)' "$tmp/table"

# ---- the JSON and the page: the measured figures against the counters ---------------------
"$bin" validate "$fx" --runs 2 -q --json -o "$tmp/v.json" --html "$tmp/v.html" 2>"$tmp/err"
rc=$?
check "json: exit 0 (got $rc: $(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "json: -q prints nothing" [ ! -s "$tmp/err" ]
cat >"$tmp/check.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
def need(ok, what):
    if not ok:
        bad.append(what)
need(d["schema"] == "idlekit.validate/1", "schema")
need(d["workload"]["kind"] == "rtapp" and d["workload"]["runs"] == 2, "workload")
need(d["workload"]["duration_s"] == 1, "duration from the file")
m = d["machine"]
need(m["driver"] == open("/sys/devices/system/cpu/cpuidle/current_driver").read().strip(), "driver")
need(m["governor"] == open("/sys/devices/system/cpu/cpuidle/current_governor_ro").read().strip()
     if __import__("os").path.exists("/sys/devices/system/cpu/cpuidle/current_governor_ro")
     else True, "governor")
need(m["kernel"] == __import__("os").uname().release, "kernel release")
need("rt-app" in d["tools"], "tools")
need(d["platform"]["text"].count("[state") >= 1, "platform text")
need(d["prediction"]["schema"].startswith("idlekit.sim"), "prediction as sim records it")
need(len(d["prediction"]["runs"]) == 2, "two predicted runs")
figs = {f["name"]: f for f in d["figures"]}
cpus = sorted({f["cpu"] for f in d["figures"] if f["cpu"] >= 0})
need(len(cpus) >= 1, "CPUs")
for side in ("measured", "predicted"):
    for r in range(2):
        total = 0.0
        for c in cpus:
            res = sum(f[side]["runs"][r] for f in d["figures"]
                      if f["cpu"] == c and f["name"].endswith(" residency"))
            busy = figs["cpu%d busy" % c][side]["runs"][r]
            # each idle period the window counts lies inside it (both edges wake every CPU);
            # 0.1 points for the read itself, which takes some us per CPU
            need(0 <= res <= 100.1, "%s run %d cpu%d residency sums to %.3f" % (side, r, c, res))
            need(abs(busy - max(0.0, 100 - res)) < 1e-3, "%s run %d cpu%d busy = 100 - residency" % (side, r, c))
            total += sum(f[side]["runs"][r] for f in d["figures"]
                         if f["cpu"] == c and f["name"].endswith(" entries/s"))
        allf = figs["all CPUs idle entries/s"][side]["runs"][r]
        # a machine whose CPUs other work keeps busy (ctest -j runs beside this test) may
        # not idle once in a second: then no CPU may show idle time either
        busiest = min(figs["cpu%d busy" % c][side]["runs"][r] for c in cpus)
        need(allf > 0 or busiest > 99.99, "%s run %d: no idle entries, yet a CPU %.2f%% busy" % (side, r, busiest))
        if side == "predicted":
            need(allf > 0, "predicted run %d: no idle entries" % r)
        # the JSON has 6 significant digits
        need(abs(allf - total) <= 1e-5 * max(1, total), "%s run %d: all CPUs = sum of the CPUs (%g, %g)" % (side, r, allf, total))
    for name in ("wake latency p50", "wake latency p99", "activations/s"):
        v = figs[name][side]
        need(v["median"] is not None and v["median"] > 0, "%s %s" % (side, name))
        need(v["min"] <= v["median"] <= v["max"], "%s %s range" % (side, name))
w = figs["wake latency p50"]["measured"]
need(figs["wake latency p99"]["measured"]["median"] >= w["median"], "p99 >= p50")
# a 1 ms timer activates at most once a ms of the window
need(figs["activations/s"]["measured"]["max"] <= 1010, "activations/s <= 1 per ms")
for f in d["figures"]:
    e = f["error_pct"]
    mm, pm = f["measured"]["median"], f["predicted"]["median"]
    if e is not None and mm:
        need(abs(e - 100 * (pm - mm) / abs(mm)) < 1e-3 * max(1, abs(e)), "error of " + f["name"])
if bad:
    print("bad: " + "; ".join(bad))
    sys.exit(1)
EOF
check "json: figures agree with each other and the counters" python3 "$tmp/check.py" "$tmp/v.json"
check "html: a page" grep -q '<!DOCTYPE html>' "$tmp/v.html"
check "html: the histogram plot" grep -q 'Idle periods by length' "$tmp/v.html"
check "html: the figures" grep -q 'wake latency p50' "$tmp/v.html"
# the machine's histogram from a traced run (root and tracefs: as here), else a note why not
check "html: the machine's histogram from a trace" grep -q 'one more run traced by idlekit' "$tmp/v.html"
check "html: both histograms drawn (or why not)" \
	bash -c "[ \$(grep -o 'class=\"data\"' '$tmp/v.html' | wc -l) -ge 2 ] || grep -q 'holds no complete idle period' '$tmp/v.html'"

# ---- the builtins ------------------------------------------------------------------------
if [ "$(nproc)" -ge 2 ]; then
	"$bin" validate --builtin pingpong --duration 1 --runs 1 -q >"$tmp/pp" 2>"$tmp/err"
	rc=$?
	check "pingpong: exit 0 (got $rc: $(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
	check "pingpong: messages/s measured" grep -Eq '^messages/s +1/s +[1-9][0-9.]* ' "$tmp/pp"
	check "pingpong: names ctxsw" grep -q 'pipe ping-pong of idlekit ctxsw' "$tmp/pp"
fi
"$bin" validate --builtin periodic --period 4ms --duty 25 --duration 1 --runs 1 -q >"$tmp/per" 2>"$tmp/err"
rc=$?
check "periodic: exit 0 (got $rc: $(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "periodic: workload line" grep -q 'a runtime of 25% of a 4000 us timer period' "$tmp/per"
check "periodic: model line" grep -q 'periodic: 1 tasks, period 4000 us, 1000 us of work' "$tmp/per"
check "periodic: activations" grep -Eq '^activations/s +1/s +[1-9][0-9.]* ' "$tmp/per"

# cyclictest: its own histogram is the wake-up latency, the model the periodic workload
"$bin" validate --builtin cyclictest --period 2ms --tasks 2 --duration 1 --runs 1 -q --json -o "$tmp/ct.json" 2>"$tmp/err"
rc=$?
check "cyclictest: exit 0 (got $rc: $(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "cyclictest: the latency from its histogram, activations near 2 x 500/s, the model's slack counted" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = d["workload"]
assert w["kind"] == "cyclictest" and w["tasks"] == 2 and w["period_us"] == 2000, w
figs = {f["name"]: f for f in d["figures"]}
p50 = figs["wake latency p50"]
assert p50["measured"]["median"] >= 1, p50  # cyclictest counts whole microseconds
keys = {(k["section"], k["key"]): k["value"] for k in d["prediction"]["config"]["keys"]}
slack = int(keys.get(("os", "timer_slack_ns"), "0"))
# from the timer s time, as cyclictest counts: at least the slack
assert p50["predicted"]["median"] >= slack / 1000, (p50["predicted"], slack)
act = figs["activations/s"]["measured"]["median"]
assert 900 <= act <= 1010, act  # two threads every 2 ms
' "$tmp/ct.json"

# tbench: one client over loopback TCP, modelled as a ping-pong of two messages an operation
"$bin" validate --builtin tbench --duration 1 --runs 1 -q --json -o "$tmp/tb.json" 2>"$tmp/err"
rc=$?
check "tbench: exit 0 (got $rc: $(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "tbench: operations/s both sides, idle entries per operation, the model's two" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = d["workload"]
assert w["kind"] == "tbench" and w["model_work_ns"] == 4000, w
figs = {f["name"]: f for f in d["figures"]}
ops = figs["operations/s"]
assert ops["measured"]["median"] > 0 and ops["predicted"]["median"] > 0, ops
per = figs["idle entries per operation"]
# the machine: what it is (no bound); the model: a ping-pong idles once per message
assert per["measured"]["median"] >= 0, per
assert 1.8 <= per["predicted"]["median"] <= 2.2, per
' "$tmp/tb.json"
out=$(PATH=/nonexistent "$bin" validate --builtin tbench 2>&1)
rc=$?
check "tbench: without dbench's programs, exit 2 naming the package (got $rc: $out)" \
	bash -c "[ $rc -eq 2 ] && [[ \"\$1\" == *'apt-get install dbench'* ]]" _ "$out"

# any command: traced once, its model learned from that trace, the other runs measured
"$bin" validate --runs 2 --json -o "$tmp/cmd.json" -q -- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.02; done' 2>"$tmp/err"
rc=$?
check "command: exit 0 (got $rc: $(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "command: the JSON says what ran and how it was modelled" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = d["workload"]
assert w["kind"] == "command" and w["argv"][:2] == ["sh", "-c"], w
assert "learned" in w["real"], w["real"]
keys = {(k["section"], k["key"]): k["value"] for k in d["prediction"]["config"]["keys"]}
assert keys[("workload", "type")] == "learned", keys[("workload", "type")]
figs = {f["name"]: f for f in d["figures"]}
m = figs["all CPUs idle entries/s"]["measured"]["runs"]
assert len(m) == 2 and all(v >= 0 for v in m), m  # (0 when other work kept every CPU busy)
# the window is the command'"'"'s life: ten sleeps of 20 ms, so at least 0.2 s
assert d["workload"]["duration_s"] >= 0.2, d["workload"]["duration_s"]
' "$tmp/cmd.json"
"$bin" validate --runs 1 -q -- sh -c 'echo it went wrong; exit 3' >"$tmp/out" 2>"$tmp/err"
rc=$?
check "command that fails: exit 1 (got $rc)" [ $rc -eq 1 ]
check "command that fails: its exit status and last line ($(head -c 200 "$tmp/err"))" \
	grep -q 'sh: exit status 3: it went wrong' "$tmp/err"
check "command that fails: no output" [ ! -s "$tmp/out" ]
"$bin" validate --runs 1 --duration 300ms -q --json -o "$tmp/lim.json" -- sleep 30 2>"$tmp/err"
rc=$?
check "command with a limit: exit 0, stopped at the limit (got $rc: $(head -c 200 "$tmp/err"))" [ $rc -eq 0 ]
check "command with a limit: a 0.3 s window" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["workload"]["limit_s"] == 0.3 and abs(d["workload"]["duration_s"] - 0.3) < 0.05, d["workload"]
' "$tmp/lim.json"

# ---- bad input: one message, exit 2, no output -------------------------------------------
bad() { # NAME EXPECTED-MESSAGE-REGEX CMD...
	local name=$1 re=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	check "$name: exit 2 (got $rc)" [ $rc -eq 2 ]
	check "$name: message ($(head -c 200 "$tmp/err"))" grep -Eq "$re" "$tmp/err"
	check "$name: no output" [ ! -s "$tmp/out" ]
	check "$name: no -o file" [ ! -e "$tmp/never.json" ]
}
bad "missing file" "^idlekit validate: $tmp/nosuch.json: No such file" \
	"$bin" validate "$tmp/nosuch.json" -o "$tmp/never.json"
printf '{"global": {"duration": 1,\n' >"$tmp/bad.json"
bad "bad JSON" "^idlekit validate: $tmp/bad.json:[0-9]+" \
	"$bin" validate "$tmp/bad.json" -o "$tmp/never.json"
printf '{"global": {"calibration": 100}, "tasks": {"t": {"loop": -1, "run": 100, "sleep": 1000}}}\n' >"$tmp/nodur.json"
bad "no duration" "global.duration: validate needs a duration" \
	"$bin" validate "$tmp/nodur.json" -o "$tmp/never.json"
bad "no rt-app" "rt-app is not installed.*Debian's package rt-app" \
	env PATH=/nonexistent "$bin" validate "$fx" -o "$tmp/never.json"
bad "bad --set" "^idlekit validate: --set cpuidle.governor=nosuch: .*unknown governor" \
	"$bin" validate "$fx" --set cpuidle.governor=nosuch -o "$tmp/never.json"
bad "bad builtin" "^idlekit validate: --builtin nosuch: expected pingpong, periodic, cyclictest or tbench" \
	"$bin" validate --builtin nosuch -o "$tmp/never.json"
bad "file and builtin" "expected an rt-app file, --builtin NAME or -- COMMAND" \
	"$bin" validate "$fx" --builtin periodic -o "$tmp/never.json"
bad "file and command" "expected an rt-app file, --builtin NAME or -- COMMAND" \
	"$bin" validate "$fx" -o "$tmp/never.json" -- true
bad "no command after --" "^idlekit validate: --: expected a command after it" \
	"$bin" validate -o "$tmp/never.json" --
bad "no such command" "^idlekit validate: -- nosuch-command-ik: no such command on PATH" \
	"$bin" validate -o "$tmp/never.json" -- nosuch-command-ik
bad "no such program" "^idlekit validate: -- $tmp/nosuch: not an executable file" \
	"$bin" validate -o "$tmp/never.json" -- "$tmp/nosuch"
bad "bad platform" "^idlekit validate: -p $tmp/nosuch.ini: " \
	"$bin" validate "$fx" -p "$tmp/nosuch.ini" -o "$tmp/never.json"
bad "duty" "^idlekit validate: --duty 100: expected a percentage" \
	"$bin" validate --builtin periodic --duty 100
bad "periodic duration" "expected whole seconds for periodic" \
	"$bin" validate --builtin periodic --duration 1500ms
bad "cyclictest duty" "^idlekit validate: --duty \\(cyclictest's threads do nothing but measure" \
	"$bin" validate --builtin cyclictest --duty 20
bad "no cyclictest" "cyclictest is not installed.*Debian's package rt-tests" \
	env PATH=/nonexistent "$bin" validate --builtin cyclictest -o "$tmp/never.json"

# ---- nothing of the machine changed ---------------------------------------------------------
knobs >"$tmp/knobs.after"
check "knobs unchanged ($(diff "$tmp/knobs.before" "$tmp/knobs.after" | head -3 | tr '\n' ' '))" \
	cmp -s "$tmp/knobs.before" "$tmp/knobs.after"
check "no scratch directory left" bash -c "! ls -d \"\${TMPDIR:-/tmp}\"/idlekit-validate-* 2>/dev/null | grep -q ."

echo "validate.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
