#!/usr/bin/env bash
# How each reader of a user's file scales: the same kind of input at about 1 MB and 8 MB,
# each read REPS times (best kept), and the ratio of the two times.  A reader linear in its
# input shows a ratio near 8; one that is quadratic, 64.  Nothing is asserted (the machine
# may be shared): the bar is a ratio under 16 for every reader.
#
#   trace      idlekit analyze of an idlekit trace (made by import from the perf text)
#   perf       idlekit import perf-script of power:cpu_idle and wake-event lines
#   compare    idlekit compare of two sim results (JSON) of N runs each
#   rtapp      idlekit sim on an rt-app file of many phases (1 ms simulated: the parse)
#   dump       idlekit info --sysfs-dump of a dump of many CPUs (copies of a real one's CPU)
# (trace.dat is not here: a large one needs a real recording; its structure check is one
# pass over the file's pages, and libtracecmd's reading is its own.)
#
# usage: bash bench/reader_scaling.sh BUILD_DIR [REPS]
set -u
build=${1:?usage: reader_scaling.sh BUILD_DIR [REPS]}
reps=${2:-3}
ik=$(readlink -f "$build/idlekit")
[ -x "$ik" ] || { echo "no $ik"; exit 2; }
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best wall time in seconds of REPS runs of the command
best() {
	local b="" t0 t1 s i
	for i in $(seq "$reps"); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		s=$(( t1 - t0 ))
		if [ -z "$b" ] || [ "$s" -lt "$b" ]; then b=$s; fi
	done
	awk -v ns="$b" 'BEGIN { printf "%.4f", ns / 1e9 }'
}
size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }
row() { # NAME FILE1 FILE8 CMD-WITH-@
	local name=$1 f1=$2 f8=$3
	shift 3
	local a1=() a8=() x
	for x in "$@"; do a1+=("${x//@/$f1}"); a8+=("${x//@/$f8}"); done
	local t1 t8
	t1=$(best "${a1[@]}")
	t8=$(best "${a8[@]}")
	printf '%-10s %8s %8s %10s %10s %8s\n' "$name" "$(size_mb "$f1")" "$(size_mb "$f8")" "$t1" "$t8" \
		"$(awk -v a="$t1" -v b="$t8" 'BEGIN { printf "%.1f", (a + 0 > 0 ? b / a : 0) }')"
}

# ---- the inputs ----------------------------------------------------------------------------
perf_text() { # BYTES FILE: power:cpu_idle entries and exits with timer wakes, 2 CPUs
	python3 - "$1" "$2" <<'EOF'
import sys
want, out = int(sys.argv[1]), open(sys.argv[2], 'w')
t, n = 1000000000000, 0
while n < want:
    for c in (0, 1):
        t0 = t + c * 3000
        t1 = t0 + 500000
        for line in ("swapper 0 [%03d] %d.%09d: power:cpu_idle: state=1 cpu_id=%d" % (c, t0 // 10**9, t0 % 10**9, c),
                     "swapper 0 [%03d] %d.%09d: timer:hrtimer_expire_entry: hrtimer=0xffff888627c1c6f8 function=tick_nohz_handler now=%d" % (c, t1 // 10**9, t1 % 10**9, t1),
                     "swapper 0 [%03d] %d.%09d: power:cpu_idle: state=4294967295 cpu_id=%d" % (c, (t1 + 2000) // 10**9, (t1 + 2000) % 10**9, c)):
            out.write(line + "\n")
            n += len(line) + 1
    t += 1000000
EOF
}
rtapp_file() { # PHASES FILE
	python3 - "$1" "$2" <<'EOF'
import sys, json
n, out = int(sys.argv[1]), sys.argv[2]
phases = {"p%d" % i: {"run": 100 + i % 50, "sleep": 200} for i in range(n)}
json.dump({"global": {"duration": 1}, "tasks": {"t": {"loop": 1, "phases": phases}}},
          open(out, "w"), indent=1)
EOF
}
dump_file() { # CPUS FILE: the first CPU's lines of a real dump, for CPUS CPUs
	python3 - "$1" "$2" tests/fixtures/sysfs/adl0.txt <<'EOF'
import sys, re
n, out, src = int(sys.argv[1]), open(sys.argv[2], "w"), open(sys.argv[3]).read().splitlines()
cpu0 = [l for l in src if "/cpu0/" in l]
other = [l for l in src if not re.search(r"/cpu[0-9]+/", l)]
for l in other:
    if l.endswith("/online") or l.endswith("/present") or l.endswith("/possible"):
        l = l.rsplit("|", 1)[0] + "|0-%d" % (n - 1)
    out.write(l + "\n")
for c in range(n):
    for l in cpu0:
        out.write(l.replace("/cpu0/", "/cpu%d/" % c) + "\n")
EOF
}
echo "reader_scaling: $(date -u +%FT%TZ), $(nproc) CPUs, best of $reps, idlekit $("$ik" version | cut -d' ' -f2)"
printf '%-10s %8s %8s %10s %10s %8s\n' reader MB MB s s ratio
perf_text $((1 << 20)) "$tmp/p1.txt"
perf_text $((8 << 20)) "$tmp/p8.txt"
row perf "$tmp/p1.txt" "$tmp/p8.txt" "$ik" import perf-script @ -o /dev/null
"$ik" import perf-script "$tmp/p1.txt" -o "$tmp/t1.trace" 2>/dev/null
"$ik" import perf-script "$tmp/p8.txt" -o "$tmp/t8.trace" 2>/dev/null
row trace "$tmp/t1.trace" "$tmp/t8.trace" "$ik" analyze @
for n in 1 8; do
	runs=$((n * 30))
	"$ik" sim --runs $runs --set scenario.duration_ms=20 --json -o "$tmp/r$n.json" 2>/dev/null
done
row compare "$tmp/r1.json" "$tmp/r8.json" "$ik" compare @ @
rtapp_file 9000 "$tmp/a1.json"
rtapp_file 72000 "$tmp/a8.json"
row rtapp "$tmp/a1.json" "$tmp/a8.json" "$ik" sim --set workload.type=rtapp --set workload.file=@ --set scenario.duration_ms=1 --set scenario.warmup_ms=0
dump_file 280 "$tmp/d1.txt"
dump_file 2240 "$tmp/d8.txt"
row dump "$tmp/d1.txt" "$tmp/d8.txt" "$ik" info --sysfs-dump @
