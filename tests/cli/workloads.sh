#!/usr/bin/env bash
# The server, schbench and rtapp workloads from the command line: their figures in every
# output, determinism, and bad input (exit status 2, one message naming the place).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
. "$(dirname "$0")/check.bash" # check NAME CMD...: counted in pass or fail
expect_error() { # NAME PATTERN ARGS...: exit 2, stderr matches PATTERN, stdout empty
  local name=$1 pattern=$2; shift 2
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL: $name: exit $rc, expected 2"; cat "$tmp/err"; fail=$((fail + 1)); return; fi
  if ! grep -qE -- "$pattern" "$tmp/err"; then echo "FAIL: $name: stderr lacks /$pattern/:"; cat "$tmp/err"; fail=$((fail + 1)); return; fi
  if [ -s "$tmp/out" ]; then echo "FAIL: $name: wrote to stdout"; fail=$((fail + 1)); return; fi
  pass=$((pass + 1))
}

srv=(--set scenario.platform=amd-zen3 --set workload.type=server --set workload.load_pct=50
     --set scenario.duration_ms=300)
"$bin" sim "${srv[@]}" >"$tmp/srv.txt"
check "server table has the parts" grep -q "^  queue" "$tmp/srv.txt"
check "server table has the load" grep -q "achieved_load_%" "$tmp/srv.txt"
"$bin" sim "${srv[@]}" --json >"$tmp/a.json"
"$bin" sim "${srv[@]}" --json >"$tmp/b.json"
check "server json deterministic" cmp -s "$tmp/a.json" "$tmp/b.json"
check "server json has achieved_load_pct" grep -q '"achieved_load_pct"' "$tmp/a.json"
check "server json has queue_ns" grep -q '"queue_ns"' "$tmp/a.json"
if command -v python3 >/dev/null; then
  check "server json parses, load near 50%" python3 -c "
import json; d = json.load(open('$tmp/a.json'))
q = d['runs'][0]['requests']
assert 45 < q['achieved_load_pct'] < 55, q
assert d['scenario']['workload']['workers'] == 4
"
fi
"$bin" sim "${srv[@]}" --csv-table requests >"$tmp/a.csv"
check "server csv has the requests table" grep -q "^scenario,platform,driver,governor,governor_sha256,governor_params,seed,arrived,done,dropped" "$tmp/a.csv"
"$bin" sim "${srv[@]}" --runs 2 >"$tmp/runs.txt"
check "server summary has request p99" grep -q "req_p99_us" "$tmp/runs.txt"

"$bin" sim --set scenario.platform=amd-zen3 --set workload.type=schbench --set workload.workers=4 \
  --set workload.work_ns=20000 --set scenario.duration_ms=200 --json >"$tmp/sb.json"
check "schbench json has wakeup latency" grep -q '"wakeup_latency_ns"' "$tmp/sb.json"

"$bin" sim --set scenario.platform=amd-zen3 --set workload.type=rtapp \
  --set workload.file=tests/fixtures/rtapp/mp3.json --set scenario.duration_ms=200 >"$tmp/rt.txt"
check "rtapp runs mp3" grep -q "^rt-app activations" "$tmp/rt.txt"

expect_error "rtapp unknown event" "bad_event.json: tasks.thread0.phases.p1.foo: unknown event" \
  sim --set workload.type=rtapp --set workload.file=tests/fixtures/rtapp/bad_event.json
expect_error "rtapp no file" "type rtapp needs file" sim --set workload.type=rtapp
expect_error "rtapp missing file" "cannot open 'nowhere.json'" \
  sim --set workload.type=rtapp --set workload.file=nowhere.json
expect_error "server bad arrival" "arrival.*poisson" sim --set workload.arrival=sometimes
expect_error "server irq cpu" "irq_cpu: CPU 4000 does not exist" \
  sim --set workload.type=server --set workload.irq_cpu=4000
expect_error "server bad service" "service_ns" sim --set workload.service_ns=gamma

# HTML: the request figures beside the other workloads' sections
"$bin" sim "${srv[@]}" --html "$tmp/srv.html" >/dev/null
check "server html has the requests section" grep -q "<h2>Requests</h2>" "$tmp/srv.html"
check "server html has the parts" grep -q "<td>queue</td>" "$tmp/srv.html"
check "server html: one table per latency section" test "$(grep -c "<table class=\"latency\">" "$tmp/srv.html")" -eq 2

# workload learn: three files, a scenario sim runs on the trace's table and elsewhere
"$bin" workload learn tests/fixtures/traces/recorded-sched.trace -o "$tmp/w.ini" 2>"$tmp/err"
check "learn writes the scenario" test -s "$tmp/w.ini"
check "learn writes the model" grep -q "^idlekit-learned 1" "$tmp/w.learned"
check "learn writes the platform" grep -q "^name = trace" "$tmp/w.platform.ini"
"$bin" sim "$tmp/w.ini" --set scenario.duration_ms=500 >"$tmp/l.txt"
check "learned runs on the trace's table" grep -q "Wake-ups of the learned workload" "$tmp/l.txt"
"$bin" sim "$tmp/w.ini" --set scenario.platform=intel-spr --set scenario.duration_ms=300 --json >"$tmp/l.json"
check "learned runs on intel-spr" grep -q '"learned_wakes"' "$tmp/l.json"
"$bin" workload learn tests/fixtures/traces/two-cpus.trace -o "$tmp/w2.ini"
"$bin" sim "$tmp/w2.ini" --set scenario.duration_ms=300 --json >"$tmp/a.json"
"$bin" sim "$tmp/w2.ini" --set scenario.duration_ms=300 --json >"$tmp/b.json"
check "learned deterministic" cmp -s "$tmp/a.json" "$tmp/b.json"
expect_error "learn needs -o" "expected TRACE and -o" workload learn tests/fixtures/traces/two-cpus.trace
expect_error "learn bad trace" "bad-lines.trace:[0-9]+: expected" workload learn tests/fixtures/traces/bad-lines.trace -o "$tmp/never.ini"
check "no output on a bad trace" test ! -e "$tmp/never.ini"
# per task: a trace with sched events gives task lines; the tasks run; deterministic
check "learn writes tasks from sched events" grep -q "^task_cpus 70 0:2 1:1$" "$tmp/w.learned"
check "learned per-CPU model has no tasks" test "$(grep -c '^task' "$tmp/w2.learned")" -eq 0
"$bin" workload learn tests/fixtures/traces/perf-sched-mono.trace -o "$tmp/w3.ini"
"$bin" sim "$tmp/w3.ini" --set scenario.duration_ms=500 --json >"$tmp/a.json"
"$bin" sim "$tmp/w3.ini" --set scenario.duration_ms=500 --json >"$tmp/b.json"
check "task model deterministic" cmp -s "$tmp/a.json" "$tmp/b.json"
if command -v python3 >/dev/null; then
  check "task model wakes its CPUs" python3 -c "
import json; w = json.load(open('$tmp/a.json'))['runs'][0]['learned_wakes']
assert sum(w.values()) > 20, w
"
fi
printf 'idlekit-learned 1\ncpus 1\ntask 5 remote 1\ntask_sleep 5 remote 10\n' >"$tmp/badt.learned"
expect_error "learned task without CPUs" "badt.learned:5: task 5: expected wake-ups .* got no CPUs" \
  sim --set workload.type=learned --set workload.file="$tmp/badt.learned"

# server: the interrupts on one CPU or spread
"$bin" sim "${srv[@]}" --set workload.irq_affinity=spread --json >"$tmp/sp.json"
check "server spread in the config" grep -q '"key": "irq_affinity", "value": "spread"' "$tmp/sp.json"
check "server spread in the workload" grep -q '"irq_affinity": "spread"' "$tmp/sp.json"
expect_error "server bad irq_affinity" "irq_affinity.*one.*spread" sim --set workload.irq_affinity=all

printf 'idlekit-learned 1\ncpus 1\ncause 0 timer 1\n' >"$tmp/bad.learned"
expect_error "learned bad model" "bad.learned:4: CPU 0 cause timer: expected its 'idle' line" \
  sim --set workload.type=learned --set workload.file="$tmp/bad.learned"

# docs/workloads.md documents every [workload] key the reader knows (the key table,
# src/config/workload_keys.c, as --print-config lists it): a key added without its line
# in the docs fails here.
doc="$(dirname "$0")/../../docs/workloads.md"
"$bin" sim --print-config >"$tmp/print.ini"
keys=$(sed -n '/^\[workload\]/,/^\[platform/p' "$tmp/print.ini" |
	sed -n 's/^\([a-z_0-9]*\) =.*/\1/p; s/^; \([a-z_0-9]*\): not set.*/\1/p')
check "print-config lists the workload keys" test "$(echo "$keys" | wc -w)" -ge 40
undocumented=""
for k in $keys; do
	grep -qF -e "\`$k\`" -e "\`workload.$k\`" "$doc" || undocumented="$undocumented $k"
done
check "docs/workloads.md names every workload key (missing:$undocumented)" test -z "$undocumented"

# docs/workloads.md's key table is `idlekit workload keys` (the key table's units,
# defaults, values and meanings), to the byte.
sed -n '/^<!-- begin: idlekit workload keys -->$/,/^<!-- end: idlekit workload keys -->$/p' "$doc" |
	sed '1d;$d' >"$tmp/doc-keys.md"
"$bin" workload keys >"$tmp/keys.md"
check "docs/workloads.md's key table is 'idlekit workload keys'" cmp -s "$tmp/doc-keys.md" "$tmp/keys.md"
check "workload keys lists every key" test "$(grep -c '^| `' "$tmp/keys.md")" -eq "$(echo "$keys" | wc -w)"
expect_error "workload keys takes no argument" "unexpected argument 'x'" workload keys x

not_grep() { ! grep -q "$@"; }
# a saturated server: the report says so (dropped + in flight >= 10% of arrivals), not at 50%
"$bin" sim --set workload.type=server --set workload.load_pct=300 >"$tmp/sat.txt" 2>&1
check "server at 300% load: a warning under its table ($(grep -c '^warning' "$tmp/sat.txt"))" \
	grep -Eq '^warning: [0-9]+ of [0-9]+ requests \([0-9.]+%\) were dropped \(queue full\) or still queued at the end: the IRQ CPU or the workers are saturated' "$tmp/sat.txt"
"$bin" sim --set workload.type=server --set workload.load_pct=300 --json >"$tmp/sat.json" 2>/dev/null
check "server at 300% load: the warning and in_flight in the JSON" \
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["requests"]; assert "saturated" in r["warning"] and r["arrived"] >= r["done"] + r["dropped"] + r["in_flight"] - 0' "$tmp/sat.json"
"$bin" sim --set workload.type=server --set workload.load_pct=50 >"$tmp/ok.txt" 2>&1
check "server at 50% load: no warning" not_grep '^warning' "$tmp/ok.txt"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
