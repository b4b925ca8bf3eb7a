#!/usr/bin/env bash
# rt-app policies from the command line: what the kernel refuses (and rt-app exits on) is
# one message naming the file and the JSON path, exit status 2, nothing written; what runs
# says nothing about SCHED_FIFO (it is modelled) and shows a FIFO task's wake-up at once.
set -u
bin=${1:?usage: rtapp_policies.sh IDLEKIT}
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/check.bash
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

refused() { # NAME JSON EXPECTED-TEXT [SIM OPTIONS]
	printf '%s' "$2" >"$tmp/$1.json"
	"$bin" sim --set workload.type=rtapp --set workload.file="$tmp/$1.json" "${@:4}" --json \
		-o "$tmp/$1.out" >"$tmp/stdout" 2>"$tmp/err"
	local rc=$?
	check "$1: exit 2 (got $rc)" test $rc -eq 2
	check "$1: one line" test "$(wc -l <"$tmp/err")" -eq 1
	check "$1: says '$3' (got: $(cat "$tmp/err"))" grep -qF -- "$tmp/$1.json: $3" "$tmp/err"
	check "$1: nothing written" test ! -e "$tmp/$1.out" -a ! -s "$tmp/stdout"
}
refused prio0 '{"tasks":{"t":{"policy":"SCHED_RR","priority":0,"run":10,"sleep":10}}}' \
	"tasks.t.priority: expected an RT priority 1..99 for SCHED_RR, got 0"
refused dlorder '{"tasks":{"t":{"policy":"SCHED_DEADLINE","dl-runtime":500,"dl-deadline":400,"dl-period":1000,"run":10,"sleep":10}}}' \
	"tasks.t.dl-runtime: SCHED_DEADLINE needs dl-runtime <= dl-deadline <= dl-period, got 500, 400 and 1000 us"
refused admit '{"tasks":{"t":{"instance":9,"policy":"SCHED_DEADLINE","dl-runtime":1000,"dl-period":1000,"run":10,"sleep":10}}}' \
	"tasks.t: the SCHED_DEADLINE threads up to this one reserve 9.000 CPUs (runtime / period), more than 95% of platform kvm-guest-haltpoll's 8 CPUs" \
	--set scenario.platform=kvm-guest-haltpoll
refused tgfifo '{"tasks":{"t":{"policy":"SCHED_FIFO","taskgroup":"/g","run":10,"sleep":10}}}' \
	"tasks.t.taskgroup: a task group with policy SCHED_FIFO: rt-app refuses it"
refused tgphase '{"tasks":{"t":{"taskgroup":"/g","phases":{"a":{"run":10,"sleep":10},"b":{"policy":"SCHED_DEADLINE","dl-runtime":500,"dl-period":1000,"run":10,"sleep":10}}}}}' \
	"tasks.t.phases.b: a task group (from this phase or before) with policy SCHED_DEADLINE: rt-app refuses it"

# the admission limit is the platform's: 9 CPUs' worth fits 128 CPUs
printf '%s' '{"tasks":{"t":{"instance":9,"policy":"SCHED_DEADLINE","dl-runtime":1000,"dl-period":1000,"run":10,"sleep":10}}}' >"$tmp/admit.json"
"$bin" sim --set workload.type=rtapp --set workload.file="$tmp/admit.json" --set scenario.platform=amd-zen3 -q >/dev/null 2>"$tmp/err"
check "9 deadline CPUs on amd-zen3 admitted ($(cat "$tmp/err"))" test $? -eq 0

# a FIFO task that preempts: no note about its policy, its wake-up within one switch
printf '%s' '{"tasks":{"o":{"loop":1,"cpus":[0],"run":5000},"f":{"loop":1,"cpus":[0],"policy":"SCHED_FIFO","sleep":1000,"runtime":1000}}}' >"$tmp/fifo.json"
"$bin" sim --set workload.type=rtapp --set workload.file="$tmp/fifo.json" --set scenario.platform=amd-zen3 \
	--set scenario.warmup_ms=0 --set kernel.housekeeping_hz=0 --json -o "$tmp/fifo.out" 2>"$tmp/err"
check "fifo runs" test $? -eq 0
check "fifo: no note on its policy" test "$(grep -c 'SCHED_FIFO' "$tmp/err")" -eq 0
if command -v python3 >/dev/null; then
	w=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["rtapp"]["wakeup_latency_ns"]["max"])' "$tmp/fifo.out")
	check "fifo: the FIFO task's wake-up is one switch (got $w ns)" test "$w" -le 2000
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
