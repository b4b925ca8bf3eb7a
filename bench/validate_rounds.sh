#!/usr/bin/env bash
# Where CI's bounds on the model's error come from (tests/fixtures/validate/bounds.txt,
# tests/cli/validate_bounds.sh; issue 32 item 5): ROUNDS consecutive rounds, each a new
# `platform calibrate` of this machine and then every bounded workload through
# bench/validate_matrix.sh (`validate --runs 3 --json -p CALIBRATED`) with the haltpoll
# guest's poll window at the machine's value and at 200000 ns (written back afterwards).
# Then, per poll window, workload and figure, the worst and the median error of the rounds,
# printed as the lines of bounds.txt: a bound is twice the worst |error %|, at least 10,
# rounded up to a multiple of 5; a figure whose worst error is beyond 50% is left out (the
# model does not represent it: a comment says how far off it was), and so is a state the
# machine hardly uses (residency under 1%, under 5 entries/s: the counters' noise).  The machine| lines are
# the range of the calibrated IPI and deepest-state exit medians over the rounds.
#
# usage: sudo bash bench/validate_rounds.sh BUILD_DIR OUT_DIR ROUNDS
#        sudo bash bench/validate_rounds.sh BUILD_DIR OUT_DIR 0    # summarise OUT_DIR only
# Run it on an otherwise idle machine: any other load is in the figures.  About two
# minutes a round on a 2-vCPU guest.
set -u
build=${1:?usage: validate_rounds.sh BUILD_DIR OUT_DIR ROUNDS}
out=${2:?usage: validate_rounds.sh BUILD_DIR OUT_DIR ROUNDS}
rounds=${3:?usage: validate_rounds.sh BUILD_DIR OUT_DIR ROUNDS}
bin=$(cd "$build" && pwd)/idlekit
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] || { echo "no $bin (build the tree first)"; exit 2; }
mkdir -p "$out" || exit 2
first=$(($(ls -d "$out"/round* 2>/dev/null | wc -l) + 1))
for ((r = first; r < first + rounds; r++)); do
	d=$out/round$r
	mkdir -p "$d"
	echo "validate_rounds: round $r, $(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg)" >&2
	"$bin" platform calibrate -o "$d/cal.ini" 2>"$d/cal.err" ||
		{ echo "validate_rounds: calibrate failed: $(tail -c 300 "$d/cal.err")"; exit 1; }
	ONLY='^(periodic|pingpong|cyclictest)' bash "$here/validate_matrix.sh" "$build" "$d" 3 \
		-p "$d/cal.ini" >"$d/table.txt" 2>"$d/matrix.err" ||
		{ echo "validate_rounds: validate_matrix failed: $(tail -c 300 "$d/matrix.err")"; exit 1; }
done

python3 - "$out" <<'PY'
import glob, json, math, os, re, statistics, sys
out = sys.argv[1]
rounds = sorted(glob.glob(os.path.join(out, "round*")), key=lambda p: int(p.rsplit("round", 1)[1]))
# a round still running (or stopped) has no table yet: left out
rounds = [r for r in rounds if os.path.exists(os.path.join(r, "table.txt")) and
          os.path.getsize(os.path.join(r, "table.txt")) > 0]
machine = {}
errs = {}     # (poll, workload, figure) -> [error %]
seen = {}     # ... -> [measured median]
order = []
for rd in rounds:
    section = None
    for line in open(os.path.join(rd, "cal.ini")):
        m = re.match(r"\[(\w+)\]", line)
        if m:
            section = m.group(1)
        m = re.match(r"(ipi_ns|exit_ns)\s*=\s*\w+\s+(\d+)", line)
        if m and section != "state0":
            key = m.group(1) if section == "platform" else section + "_" + m.group(1)
            machine.setdefault(key, []).append(int(m.group(2)))
    for path in sorted(glob.glob(os.path.join(rd, "*-poll*.json"))):
        name, poll = os.path.basename(path)[:-5].rsplit("-poll", 1)
        d = json.load(open(path))
        for f in d["figures"]:
            fig = f["name"]
            if f.get("error_pct") is None:
                continue
            if not (fig.endswith("entries/s") or fig.endswith("residency") or
                    fig in ("wake latency p50", "activations/s", "messages/s",
                            "idle entries per message")):
                continue
            if "1cpu" in name and fig.startswith("cpu1 ") and fig.endswith("entries/s"):
                continue
            key = (poll, name, fig)
            if key not in errs:
                errs[key] = []
                seen[key] = []
                order.append(key)
            errs[key].append(f["error_pct"])
            seen[key].append(f["measured"]["median"])
n = len(rounds)
print("# %d rounds in %s" % (n, out))
for key, v in sorted(machine.items()):
    print("machine|%s|%d|%d" % (key, min(v), max(v)))
left = []
hardly = 0
for poll, name, fig in order:
    v = errs[(poll, name, fig)]
    worst = max(abs(e) for e in v)
    med = statistics.median(v)
    if len(v) < n:
        left.append("%s %s %s: in %d of %d rounds" % (poll, name, fig, len(v), n))
        continue
    # a state the machine hardly uses (POLL at poll 0, HLT while it polls: a few entries
    # a second) is noise, not a figure to hold; so is the idle CPU of a one-CPU workload
    # (the machine's background, above)
    m = statistics.median(seen[(poll, name, fig)])
    if (fig.endswith("residency") and m < 1) or (fig.endswith("entries/s") and m < 5):
        hardly += 1
        continue
    if worst > 50:
        left.append("%s %s %s: worst %.1f, median %+.1f" % (poll, name, fig, worst, med))
        continue
    bound = max(10, int(math.ceil(2 * worst / 5.0)) * 5)
    print("bound|%s|%s|%s|%d  # worst %.1f, median %+.1f" % (poll, name, fig, bound, worst, med))
print("# left out: %d per-state figures of states the machine hardly uses (residency under "
      "1%%, or under 5 entries/s)" % hardly)
for l in left:
    print("# left out: " + l)
PY
