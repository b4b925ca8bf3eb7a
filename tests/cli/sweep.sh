#!/usr/bin/env bash
# idlekit sweep: the same bytes for -j 1 and -j 2; a resumed sweep ends as an uninterrupted
# one; shards merged give a local run's files; Slurm and Kubernetes shard variables; bad
# specs, shards and merges are one message and exit 2 with nothing written; sim --vary.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
. "$(dirname "$0")/check.bash" # check NAME CMD...: counted in pass or fail
files="manifest spec.ini rows.csv results.csv results.json summary.csv index.html"
same_dirs() {
  local f
  for f in $files; do cmp -s "$1/$f" "$2/$f" || { echo "  $1/$f and $2/$f differ"; return 1; }; done
}
# expect_bad NAME DIR CMD...: exit 2, one line on stderr matching $want, DIR not created
expect_bad() {
  local name=$1 dir=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  check "$name: exit 2 (got $rc)" test "$rc" = 2
  check "$name: one line ($(cat "$tmp/err"))" test "$(wc -l <"$tmp/err")" = 1
  check "$name: says '$want' ($(cat "$tmp/err"))" grep -q -- "$want" "$tmp/err"
  if [ -n "$dir" ]; then check "$name: no $dir" test ! -e "$dir"; fi
}

cat >"$tmp/spec.ini" <<'INI'
; 2 governors x 3 pair counts, 3 seeds each, short runs
[sweep]
base = default
runs = 3
vary.cpuidle.governor = menu,teo
vary.workload.pairs = 1,2,4
bad_below = messages_per_s:200000
[scenario]
duration_ms = 20
warmup_ms = 10
INI

"$bin" sweep "$tmp/spec.ini" -o "$tmp/j1" -j 1 -q
check "sweep -j 1 runs" test $? = 0
"$bin" sweep "$tmp/spec.ini" -o "$tmp/j2" -j 2 -q
check "sweep -j 2 runs" test $? = 0
check "-j 1 and -j 2: the same bytes" same_dirs "$tmp/j1" "$tmp/j2"
check "results.csv: a row per point and run" test "$(wc -l <"$tmp/j1/results.csv")" = 19
check "results.csv: varied keys and figures with units" \
  grep -q '^point,run,seed,cpuidle.governor,workload.pairs,scenario,platform,driver,governor,workload,duration_ms,warmup_ms,messages_per_s,mb_per_s,wake_p50_ns' "$tmp/j1/results.csv"
check "results.csv: the governor column follows the axis" \
  test "$(awk -F, 'NR > 1 && $4 != $9' "$tmp/j1/results.csv" | wc -l)" = 0
check "results.csv: pairs 4 moves more messages than pairs 1" \
  awk -F, 'NR > 1 && $4 == "menu" && $5 == 1 { a = $13 } NR > 1 && $4 == "menu" && $5 == 4 { b = $13 } END { exit !(b > 3 * a) }' "$tmp/j1/results.csv"
check "results.json: valid JSON with 18 rows" \
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["schema"]=="idlekit.sweep/1" and len(d["rows"])==18 and d["axes"][1]["values"]==[1,2,4]))' "$tmp/j1/results.json"
check "summary.csv: a row per point, bad fraction, median and CI" \
  awk -F, 'NR == 1 { ok = ($5 == "messages_per_s_below_200000_fraction" && $6 == "messages_per_s_median" && $12 == "messages_per_s_ci95_high") } END { exit !(ok && NR == 7) }' "$tmp/j1/summary.csv"
check "summary.csv: one pair is always bad, four never" \
  awk -F, '$3 == 1 && $5 != 1 { bad = 1 } $3 == 4 && $5 != 0 { bad = 1 } END { exit bad }' "$tmp/j1/summary.csv"
check "index.html: plots with data, a heat map, the bad-run fraction" \
  bash -c "grep -c '<svg' '$tmp/j1/index.html' | awk '\$1 >= 5 { ok = 1 } END { exit !ok }' && grep -q 'class=\"data band\"' '$tmp/j1/index.html' && grep -q 'bad runs (messages_per_s &lt; 200000), fraction' '$tmp/j1/index.html' && grep -q 'messages_per_s, median over runs' '$tmp/j1/index.html'"

# resume: the rows of the first two points and half a line; the rerun finishes the rest
mkdir "$tmp/resume"
cp "$tmp/j1/manifest" "$tmp/j1/spec.ini" "$tmp/resume/"
{ head -n 6 "$tmp/j1/rows.csv"; sed -n 7p "$tmp/j1/rows.csv" | head -c 20; } >"$tmp/resume/rows.csv"
"$bin" sweep "$tmp/spec.ini" -o "$tmp/resume" -j 2 2>"$tmp/err"
check "resume: runs" test $? = 0
check "resume: says what was done ($(cat "$tmp/err"))" grep -q '2 of 6 points done before' "$tmp/err"
check "resume: the same bytes as one run" same_dirs "$tmp/j1" "$tmp/resume"
check "resume: its end said on a standard error that is no terminal ($(tail -1 "$tmp/err"))" \
	grep -qx "idlekit sweep: 6 points x 3 runs in $tmp/resume: results.csv, results.json, summary.csv, index.html" "$tmp/err"
"$bin" sweep "$tmp/spec.ini" -o "$tmp/resume" -j 2 2>"$tmp/err"
check "rerun of a finished sweep: nothing to run" grep -q '6 of 6 points done before, nothing to run' "$tmp/err"
check "rerun of a finished sweep: the same bytes" same_dirs "$tmp/j1" "$tmp/resume"

# another spec into the same folder: refused
sed 's/runs = 3/runs = 2/' "$tmp/spec.ini" >"$tmp/other.ini"
want="made from a different spec"
expect_bad "another spec, same folder" "" "$bin" sweep "$tmp/other.ini" -o "$tmp/j1" -q
check "another spec, same folder: untouched" same_dirs "$tmp/j1" "$tmp/j2"

# shards (4 of 6 points: shard 3 has one point), merged in any order
for i in 0 1 2 3; do "$bin" sweep "$tmp/spec.ini" -o "$tmp/sh$i" --shard $i/4 -j 1 -q; done
check "shard 3/4: its manifest" grep -qx 'shard 3/4' "$tmp/sh3/manifest"
check "shard 3/4: points 3 only" test "$(cut -d, -f1 "$tmp/sh3/rows.csv" | sort -u | tr '\n' ' ')" = "3 "
check "shard 1/4: points 1 and 5" test "$(cut -d, -f1 "$tmp/sh1/rows.csv" | sort -u | tr '\n' ' ')" = "1 5 "
"$bin" sweep merge -o "$tmp/merged" "$tmp/sh2" "$tmp/sh0" "$tmp/sh3" "$tmp/sh1"
check "merge: runs" test $? = 0
check "merge: a local run's bytes" same_dirs "$tmp/j1" "$tmp/merged"

want="holds another sweep (or a shard)"
expect_bad "merge into a shard's folder" "" "$bin" sweep merge -o "$tmp/sh0" "$tmp/sh2" "$tmp/sh0" "$tmp/sh3" "$tmp/sh1"
"$bin" sweep merge -o "$tmp/merged" "$tmp/sh2" "$tmp/sh0" "$tmp/sh3" "$tmp/sh1"
check "merge again into its own folder: the same bytes" same_dirs "$tmp/j1" "$tmp/merged"

# shards from the environment
SLURM_ARRAY_TASK_ID=6 SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_COUNT=4 \
  "$bin" sweep "$tmp/spec.ini" -o "$tmp/slurm1" -q
check "Slurm array task 6 of 5-8: shard 1/4" grep -qx 'shard 1/4' "$tmp/slurm1/manifest"
check "Slurm shard: the same rows as --shard 1/4" cmp -s "$tmp/slurm1/rows.csv" "$tmp/sh1/rows.csv"
JOB_COMPLETION_INDEX=2 "$bin" sweep "$tmp/spec.ini" -o "$tmp/k8s2" --shard-count 4 -q
check "JOB_COMPLETION_INDEX=2 of 4: shard 2/4" grep -qx 'shard 2/4' "$tmp/k8s2/manifest"
want="give the job's completions with --shard-count"
expect_bad "JOB_COMPLETION_INDEX without --shard-count" "$tmp/k8sx" env JOB_COMPLETION_INDEX=1 "$bin" sweep "$tmp/spec.ini" -o "$tmp/k8sx" -q
want="shard out of range"
expect_bad "JOB_COMPLETION_INDEX out of range" "$tmp/k8sy" env JOB_COMPLETION_INDEX=4 "$bin" sweep "$tmp/spec.ini" -o "$tmp/k8sy" --shard-count 4 -q

# merges that must not happen
want="1 shard missing: 3/4"
expect_bad "merge: a missing shard" "$tmp/m1" "$bin" sweep merge -o "$tmp/m1" "$tmp/sh0" "$tmp/sh1" "$tmp/sh2"
want="are both shard 1/4"
expect_bad "merge: a duplicated shard" "$tmp/m2" "$bin" sweep merge -o "$tmp/m2" "$tmp/sh0" "$tmp/sh1" "$tmp/slurm1" "$tmp/sh2" "$tmp/sh3"
"$bin" sweep "$tmp/other.ini" -o "$tmp/foreign" --shard 3/4 -q
want="a shard of another spec"
expect_bad "merge: a foreign shard" "$tmp/m3" "$bin" sweep merge -o "$tmp/m3" "$tmp/sh0" "$tmp/sh1" "$tmp/sh2" "$tmp/foreign"
mkdir "$tmp/cut" && cp "$tmp/sh1/manifest" "$tmp/sh1/spec.ini" "$tmp/cut/" && head -n 3 "$tmp/sh1/rows.csv" >"$tmp/cut/rows.csv"
want="shard 1/4 incomplete: 1 of 2 points"
expect_bad "merge: an incomplete shard" "$tmp/m4" "$bin" sweep merge -o "$tmp/m4" "$tmp/sh0" "$tmp/cut" "$tmp/sh2" "$tmp/sh3"

# bad specs: one message naming the file and line, exit 2, no folder
bad_spec() {
  local name=$1 text=$2
  want=$3
  printf '%s\n' "$text" >"$tmp/bad.ini"
  expect_bad "$name" "$tmp/badout" "$bin" sweep "$tmp/bad.ini" -o "$tmp/badout" -q
}
bad_spec "unknown scenario key" $'[sweep]\nbase = default\nvary.workload.pairs = 1,2\n[scenario]\nduration_msec = 5' \
  "bad.ini:5: unknown key 'duration_msec' in \[scenario\]"
bad_spec "unknown varied key" $'[sweep]\nbase = default\nvary.workload.pears = 1,2' \
  "bad.ini:3: \[sweep\] vary.workload.pears: value '1': unknown key 'pears' in \[workload\]"
bad_spec "bad varied value" $'[sweep]\nbase = default\nvary.workload.pairs = 1,two' \
  "bad.ini:3: \[sweep\] vary.workload.pairs: value 'two':"
bad_spec "unknown [sweep] key" $'[sweep]\nbase = default\nvaries.workload.pairs = 1,2' \
  "bad.ini:3: \[sweep\] unknown key 'varies.workload.pairs'"
bad_spec "empty axis" $'[sweep]\nbase = default\nvary.workload.pairs =' \
  "bad.ini:3: vary.workload.pairs: .*got an empty axis"
bad_spec "empty list item" $'[sweep]\nbase = default\nvary.workload.pairs = 1,,2' \
  "bad.ini:3: vary.workload.pairs: expected a value between every two commas"
bad_spec "range count 1" $'[sweep]\nbase = default\nvary.workload.pairs = lin:1:4:1' \
  "bad.ini:3: vary.workload.pairs: COUNT: expected an integer 2..10000, got '1'"
bad_spec "range count not a number" $'[sweep]\nbase = default\nvary.workload.pairs = lin:1:4:x' \
  "bad.ini:3: vary.workload.pairs: COUNT: expected an integer"
bad_spec "log range through 0" $'[sweep]\nbase = default\nvary.workload.pairs = log:0:4:3' \
  "bad.ini:3: vary.workload.pairs: expected START and STOP > 0 for a log range"
bad_spec "zip of unequal axes" $'[sweep]\nbase = default\nvary.workload.pairs = 1,2\nvary.workload.work_ns = 1000,2000,3000\nzip = workload.pairs,workload.work_ns' \
  "bad.ini:5: \[sweep\] zip: expected axes with as many values, got 2 for workload.pairs and 3 for workload.work_ns"
bad_spec "no base" $'[sweep]\nruns = 2' "bad.ini: \[sweep\]: missing required key 'base'"
bad_spec "unknown base" $'[sweep]\nbase = nosuch' "bad.ini:2: \[sweep\] base:"
bad_spec "set and varied" $'[sweep]\nbase = default\nvary.workload.pairs = 1,2\n[workload]\npairs = 3' \
  "bad.ini:5: workload.pairs: set here and varied on line 3"
bad_spec "a combination that does not load" $'[sweep]\nbase = default\nvary.scenario.platform = amd-zen3,intel-skx\nvary.cpuidle.driver = acpi_idle,intel_idle' \
  "bad.ini:4: \[sweep\] vary.cpuidle.driver: value 'intel_idle': .*intel_idle does not load on platform amd-zen3.*(at point 1: scenario.platform=amd-zen3, cpuidle.driver=intel_idle)"
printf '[sweep]\nbase = default\nruns = 1\nvary.scenario.platform = intel-skx,intel-icx\nvary.cpuidle.driver = acpi_idle,intel_idle\n[scenario]\nduration_ms = 5\nwarmup_ms = 2\n' >"$tmp/drv.ini"
"$bin" sweep "$tmp/drv.ini" -o "$tmp/drv" -q
check "driver x platform axes: each point's platform and driver" test "$(cut -d, -f7,8 "$tmp/drv/rows.csv" | tr '\n' ' ')" = "intel-skx,acpi_idle intel-skx,intel_idle intel-icx,acpi_idle intel-icx,intel_idle "
want="shard 4 out of range: expected 0..3 for 4 shards"
expect_bad "shard out of range" "$tmp/s4" "$bin" sweep "$tmp/spec.ini" -o "$tmp/s4" --shard 4/4 -q
want="the sweep has only 6 points: expected at most 6 shards"
expect_bad "more shards than points" "$tmp/s7" "$bin" sweep "$tmp/spec.ini" -o "$tmp/s7" --shard 0/7 -q
want="expected FIGURE:VALUE with FIGURE one of"
expect_bad "bad --bad-below" "$tmp/bb" "$bin" sweep "$tmp/spec.ini" -o "$tmp/bb" --bad-below mbps:3 -q

# zipped axes move together: 3 points, not 9
printf '[sweep]\nbase = default\nruns = 1\nvary.workload.pairs = 1,2,4\nvary.workload.work_ns = 1000,2000,4000\nzip = workload.pairs, workload.work_ns\n[scenario]\nduration_ms = 10\nwarmup_ms = 5\n' >"$tmp/zip.ini"
"$bin" sweep "$tmp/zip.ini" -o "$tmp/zip" -q
check "zip: 3 points" grep -qx 'points 3' "$tmp/zip/manifest"
check "zip: values paired" test "$(cut -d, -f4,5 "$tmp/zip/rows.csv" | tr '\n' ' ')" = "1,1000 2,2000 4,4000 "
# ranges and templates
printf '[sweep]\nbase = seed000-baseline\nruns = 1\nvary.acpi.pm_timer_read_ns = lin:1300:1600:4\ntemplate.acpi.pm_timer_read_ns = lognormal {} 0.1\n[scenario]\nduration_ms = 2\nwarmup_ms = 152\n' >"$tmp/tpl.ini"
"$bin" sweep "$tmp/tpl.ini" -o "$tmp/tpl" -q
check "lin range with a template" test "$(cut -d, -f4 "$tmp/tpl/rows.csv" | tr '\n' ' ')" = "1300 1400 1500 1600 "

# sim --vary: the same tidy table as the sweep
"$bin" sim default --set scenario.duration_ms=20 --set scenario.warmup_ms=10 --runs 3 \
  --vary cpuidle.governor=menu,teo --vary workload.pairs=1,2,4 --json -j 2 >"$tmp/vary.json"
check "sim --vary --json: the sweep's results.json" cmp -s "$tmp/vary.json" "$tmp/j1/results.json"
"$bin" sim default --set scenario.duration_ms=20 --set scenario.warmup_ms=10 --runs 3 \
  --vary cpuidle.governor=menu,teo --vary workload.pairs=1,2,4 >"$tmp/vary.txt"
check "sim --vary: a table of 6 points" test "$(grep -c '^[0-9]' "$tmp/vary.txt")" = 6
want="--vary workload.pairs: expected a list"
expect_bad "sim --vary: empty axis" "" "$bin" sim default --vary workload.pairs=
# sim --runs -j: the same bytes
"$bin" sim default --set scenario.duration_ms=20 --runs 4 -j 1 --json >"$tmp/r1.json"
"$bin" sim default --set scenario.duration_ms=20 --runs 4 -j 2 --json >"$tmp/r2.json"
check "sim --runs 4: -j 1 and -j 2 the same bytes" cmp -s "$tmp/r1.json" "$tmp/r2.json"

# sweep slurm: the job array script
"$bin" sweep slurm "$tmp/spec.ini" -o "$tmp/sl" --shards 3 --partition debug --time 00:05:00 --cpus-per-task 2 >/dev/null
check "sweep slurm: an array of 3" grep -qx '#SBATCH --array=0-2' "$tmp/sl/sweep.sbatch"
check "sweep slurm: options" bash -c "grep -qx '#SBATCH --partition=debug' '$tmp/sl/sweep.sbatch' && grep -qx '#SBATCH --time=00:05:00' '$tmp/sl/sweep.sbatch' && grep -qx '#SBATCH --cpus-per-task=2' '$tmp/sl/sweep.sbatch'"
want="expected a value without spaces or quotes"
expect_bad "sweep slurm: bad partition" "" "$bin" sweep slurm "$tmp/spec.ini" -o "$tmp/sl2" --partition "a b"

# A kernel: governor that compiles for one of the sweep's releases only (tests/kgov/us_api.c
# is written in the v5.4 API): the sweep stops before anything runs, naming the point and
# the release, and makes no folder; sim --vary the same.  With 5.4 alone it runs.
export IDLEKIT_CACHE_DIR="$tmp/kgov-cache"
printf '[sweep]\nbase = default\nruns = 1\nvary.kernel.version = 5.4,6.19\n[cpuidle]\ngovernor = kernel:tests/kgov/us_api.c\n[scenario]\nduration_ms = 2\nwarmup_ms = 1\n' >"$tmp/kgov.ini"
want="kgov.ini: point 1 (kernel.version=6.19): governor kernel:tests/kgov/us_api.c: does not compile: .*(compiled against the cpuidle governor API of kernel 6.19, the release idlekit runs as; the file is written against the cpuidle governor API of v4.17 to v5.4 (it uses dev->last_residency (microseconds), select(drv, dev, stop_tick)))"
expect_bad "sweep: a kernel governor of another release" "$tmp/kgov" "$bin" sweep "$tmp/kgov.ini" -o "$tmp/kgov" -q
want="^idlekit sim: point 1 (kernel.version=6.19): governor kernel:tests/kgov/us_api.c: does not compile"
expect_bad "sim --vary: a kernel governor of another release" "" "$bin" sim --vary kernel.version=5.4,6.19 \
  --set cpuidle.governor=kernel:tests/kgov/us_api.c --set scenario.duration_ms=2 -q
sed -i 's/^vary.kernel.version = .*/vary.kernel.version = 5.1,5.4/' "$tmp/kgov.ini"
"$bin" sweep "$tmp/kgov.ini" -o "$tmp/kgov" -q 2>"$tmp/err"
check "sweep: the kernel governor on its own releases runs ($(cat "$tmp/err"))" test "$(tail -n +2 "$tmp/kgov/summary.csv" | wc -l)" -eq 2

# one sweep per folder: a second sweep into a folder another one writes is refused (exit 2,
# naming the pid); the first completes and the folder stays good (a rerun has nothing to do)
printf '[sweep]\nbase = default\nruns = 4\nvary.workload.pairs = 1,2,3,4,5,6,7,8\n[scenario]\nduration_ms = 400\nwarmup_ms = 0\n' >"$tmp/lock.ini"
"$bin" sweep "$tmp/lock.ini" -o "$tmp/lock" -q -j 1 2>"$tmp/first.err" &
first=$!
for _ in $(seq 100); do [ -s "$tmp/lock/.lock" ] && break; sleep 0.05; done
"$bin" sweep "$tmp/lock.ini" -o "$tmp/lock" -q -j 1 2>"$tmp/err"
rc=$?
check "sweep: a second sweep into the folder: exit 2 (got $rc)" test $rc -eq 2
check "sweep: it names the other ($(cat "$tmp/err"))" grep -q "another sweep is writing this folder (pid $first)" "$tmp/err"
wait "$first"
check "sweep: the first completes ($(cat "$tmp/first.err"))" test $? -eq 0
check "sweep: its rows once each" test "$(tail -n +2 "$tmp/lock/results.csv" | wc -l)" -eq 32
"$bin" sweep "$tmp/lock.ini" -o "$tmp/lock" -j 1 2>"$tmp/err"
check "sweep: a rerun afterwards finds it done ($(cat "$tmp/err"))" grep -q 'nothing to run' "$tmp/err"

# kill -9 in the middle, at three moments: the lock goes with the process, the rerun
# resumes, and its files are the bytes of the uninterrupted sweep's
"$bin" sweep "$tmp/lock.ini" -o "$tmp/whole" -q -j 1 2>/dev/null
for after in 0.3 0.8 1.5; do
	rm -rf "$tmp/killed"
	"$bin" sweep "$tmp/lock.ini" -o "$tmp/killed" -q -j 1 2>/dev/null &
	victim=$!
	sleep "$after"
	kill -9 "$victim" 2>/dev/null
	wait "$victim" 2>/dev/null
	"$bin" sweep "$tmp/lock.ini" -o "$tmp/killed" -q -j 1 2>"$tmp/err"
	check "sweep: resumed after kill -9 at ${after}s ($(cat "$tmp/err"))" test $? -eq 0
	check "sweep: after kill -9 at ${after}s, the same results as one uninterrupted sweep" \
		cmp -s "$tmp/whole/results.csv" "$tmp/killed/results.csv"
	check "sweep: after kill -9 at ${after}s, the same summary" \
		cmp -s "$tmp/whole/summary.csv" "$tmp/killed/summary.csv"
done

echo "sweep: $pass passed, $fail failed"
[ "$fail" = 0 ]
