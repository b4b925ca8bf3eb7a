#!/usr/bin/env bash
# The model held against this machine over a set of workloads (issue 32, item 5): each
# workload through `idlekit validate --json`, with the haltpoll guest's poll window at the
# machine's value and at the kernel's default 200000 ns, then one table of errors.  The
# machine's poll window is written back as it was when the script ends, also on SIGINT,
# SIGTERM and on failure.  Prints figures; asserts nothing (bounds for CI come from many
# runs of this on an otherwise idle machine: docs/validation.md).
#
# The workloads: rt-app timer sleepers (validate --builtin periodic) at 1, 4, 10 and 100 ms
# with 10-50% duty on 1 and 2 CPUs; the pipe ping-pong (--builtin pingpong); cyclictest
# (--builtin cyclictest) and a small hackbench through `validate -- CMD` (its model learned
# from a traced run).
#
# usage: sudo bash bench/validate_matrix.sh BUILD_DIR OUT_DIR [RUNS [-p PLATFORM]]
#        e.g. sudo bash bench/validate_matrix.sh build /tmp/vm 3 -p calibrated.ini
#        POLLS=machine: the machine's poll window only (nothing written)
#        ONLY=REGEX: only the workloads whose name matches (grep -E), e.g. ONLY='^p'
# Needs root (validate's traced runs, the poll window), rt-app, rt-tests.
set -u
build=${1:?usage: validate_matrix.sh BUILD_DIR OUT_DIR [RUNS [-p PLATFORM]]}
out=${2:?usage: validate_matrix.sh BUILD_DIR OUT_DIR [RUNS [-p PLATFORM]]}
runs=${3:-3}
shift $(($# < 3 ? $# : 3))
platform=()
if [ "${1:-}" = -p ] && [ -n "${2:-}" ]; then platform=(-p "$2"); fi
bin=$(cd "$build" && pwd)/idlekit
[ -x "$bin" ] || { echo "no $bin (build the tree first)"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "validate_matrix.sh: needs root"; exit 2; }
for t in rt-app cyclictest hackbench python3; do
	command -v "$t" >/dev/null || { echo "validate_matrix.sh: $t is not installed"; exit 2; }
done
mkdir -p "$out" || exit 2

poll=/sys/module/haltpoll/parameters/guest_halt_poll_ns
saved=
if [ -w "$poll" ] && [ "${POLLS:-}" != machine ]; then
	saved=$(cat "$poll")
	restore() { echo "$saved" >"$poll"; }
	trap 'restore' EXIT
	trap 'restore; exit 130' INT
	trap 'restore; exit 143' TERM
	polls=("$saved" 200000)
else
	polls=(machine) # no haltpoll governor here: the machine's setting only
fi

workloads=(
	"periodic-1ms-20pct-1cpu|--builtin periodic --period 1ms --duty 20 --tasks 1 --duration 2"
	"periodic-4ms-25pct-2cpu|--builtin periodic --period 4ms --duty 25 --tasks 2 --duration 2"
	"periodic-10ms-10pct-1cpu|--builtin periodic --period 10ms --duty 10 --tasks 1 --duration 2"
	"periodic-100ms-50pct-2cpu|--builtin periodic --period 100ms --duty 50 --tasks 2 --duration 4"
	"pingpong|--builtin pingpong --duration 2"
	"cyclictest-1ms-2cpu|--builtin cyclictest --period 1ms --tasks 2 --duration 2"
	"hackbench|-- hackbench -g 1 -l 200"
)
start=$(date +%s)
for p in "${polls[@]}"; do
	[ "$p" = machine ] || echo "$p" >"$poll" || { echo "cannot write $poll"; exit 1; }
	for w in "${workloads[@]}"; do
		name=${w%%|*}
		args=${w#*|}
		if [ -n "${ONLY:-}" ] && ! grep -Eq -- "$ONLY" <<<"$name"; then continue; fi
		echo "validate_matrix: $name, guest_halt_poll_ns $p ($(($(date +%s) - start)) s)" >&2
		read -r -a words <<<"$args" # a command comes last, after its "--"
		"$bin" validate --runs "$runs" --json -q -o "$out/$name-poll$p.json" "${platform[@]}" \
			"${words[@]}" 2>"$out/$name-poll$p.err" ||
			echo "validate_matrix: $name: exit $? ($(head -c 300 "$out/$name-poll$p.err"))" >&2
	done
done

python3 - "$out" <<'PY'
import glob, json, os, sys
rows = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    d = json.load(open(path))
    name = os.path.basename(path)[:-5]
    worst = {}
    spread = 0.0
    for f in d["figures"]:
        e = f.get("error_pct")
        kind = ("entries" if f["name"].endswith("entries/s") and f["cpu"] >= 0 else
                "residency" if f["name"].endswith("residency") else
                "wake p50" if f["name"] == "wake latency p50" else None)
        if kind is None or e is None or f["measured"]["median"] == 0:
            continue
        # a state the machine hardly uses (under 1% of the time) is no figure to hold
        if kind == "residency" and f["measured"]["median"] < 1:
            continue
        if kind == "entries" and f["measured"]["median"] < 5:
            continue
        if abs(e) > abs(worst.get(kind, (0, ""))[0]):
            worst[kind] = (e, f["name"])
        spread = max(spread, f["measured"].get("cov_pct") or 0)
    rows.append((name, worst, spread, d["machine"].get("loadavg_before")))
print("%-40s %-34s %-34s %-12s %9s %6s" % ("workload", "entries/s per CPU, worst error %",
      "residency per state, worst error %", "wake p50 %", "spread %", "load"))
for name, w, spread, load in rows:
    cell = lambda k: "%+.1f (%s)" % (w[k][0], w[k][1].split(" ")[0] + " " + w[k][1].split(" ")[-1]) if k in w else "-"
    print("%-40s %-34s %-34s %-12s %9.1f %6s" % (name, cell("entries"), cell("residency"),
          "%+.1f" % w["wake p50"][0] if "wake p50" in w else "-", spread,
          "%.2f" % load if load is not None else "-"))
PY
