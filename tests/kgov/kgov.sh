#!/usr/bin/env bash
# Kernel-source governors (--governor kernel:PATH) and plugins (--governor plugin:PATH.so),
# with the project's own kernel-style governors in tests/kgov/ (no kernel code):
#   - each probe mode gives the decisions its code implies (tests/kgov/*.csv/.expected);
#   - module parameters: set, recorded, refused when unknown or malformed;
#   - errors: a file that does not compile (the compiler's first error), a kernel symbol
#     the shim lacks (named), a file that registers no governor, a plugin of another ABI,
#     a path that is not a shared object: one message each, exit status 2, no output file;
#   - the cache: an unchanged file is not compiled again, a one-line change is, and the
#     output names the new sha256;
#   - sim and replay run them too and record the identity.
#
# usage (from the project root): bash tests/kgov/kgov.sh IDLEKIT NEXTTIMER.so ABI999.so
set -u
bin=${1:?usage: kgov.sh IDLEKIT NEXTTIMER.so ABI999.so}
nexttimer=${2:?}
abi999=${3:?}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export IDLEKIT_CACHE_DIR="$tmp/cache"
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}
hdr="sleep_ns,tick_ns,wake_ns,latency_req_ns,tick_stopped"

# ---- The corpus: tests/kgov/<governor><N>-<case>.csv against .expected -------------------
ncases=0
for csv in tests/kgov/*.csv; do
	name=$(basename "$csv" .csv)
	gov=${name%%-*}
	gov=${gov%%[0-9]*}
	args=$(sed -n 's/^# args: *//p' "$csv" | head -n 1)
	# shellcheck disable=SC2086 # the args line is a list of options
	"$bin" govreplay --governor "kernel:tests/kgov/$gov.c" --platform intel-skx $args \
		--input "$csv" -q >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
		fail "$name: exit $rc: $(cat "$tmp/err")"
	elif ! diff -u "tests/kgov/$name.expected" "$tmp/out" >"$tmp/diff"; then
		fail "$name: decisions differ from $name.expected:"
		cat "$tmp/diff"
	fi
	ncases=$((ncases + 1))
done
[ "$ncases" -ge 14 ] || fail "only $ncases kgov cases found"

# ---- Errors: one message, exit 2, no output file -----------------------------------------
expect_error() { # expect_error WHAT TEXT... -- ARGS
	local what=$1
	shift
	local texts=()
	while [ "$1" != "--" ]; do
		texts+=("$1")
		shift
	done
	shift
	printf '%s\n-,4000000,1000,-,0\n' "$hdr" >"$tmp/in.csv"
	"$bin" govreplay "$@" --platform intel-skx --input "$tmp/in.csv" -o "$tmp/o.txt" \
		>"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "$what: exit status $rc, expected 2 ($(cat "$tmp/err"))"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: expected one line of message, got: $(cat "$tmp/err")"
	[ ! -e "$tmp/o.txt" ] || fail "$what: an output file was left"
	for t in "${texts[@]}"; do
		grep -qF -- "$t" "$tmp/err" || fail "$what: message lacks '$t': $(cat "$tmp/err")"
	done
	rm -f "$tmp/o.txt"
}
expect_error "does not compile" "does not compile: tests/kgov/broken.c:1" "error: expected" \
	-- --governor kernel:tests/kgov/broken.c
expect_error "missing symbol" "kernel symbol 'tick_nohz_get_idle_calls_cpu'" "include/linux/tick.h" \
	"not in idlekit's kernel shim" -- --governor kernel:tests/kgov/missing.c
# three errors: the message names the first and where the compiler's whole output is
printf '#include <linux/cpuidle.h>\nstatic int f(void) { return x + y; }\nstatic int g(void) { return z; }\n' >"$tmp/three.c"
expect_error "three errors" "three.c:2:29: kernel symbol 'x'" "; 2 more errors, the compiler's output in " \
	-- --governor "kernel:$tmp/three.c"
log=$(sed -n "s/.*the compiler's output in \(.*\.log\)$/\1/p" "$tmp/err")
[ -f "$log" ] && grep -q "'y' undeclared" "$log" && grep -q "'z' undeclared" "$log" ||
	fail "three errors: the compiler's output is not in '$log'"
printf '#include <linux/cpuidle.h>\n#include <linux/rcupdate.h>\n' >"$tmp/header.c"
expect_error "missing header" "header 'linux/rcupdate.h' is not in idlekit's kernel shim" "header.c:2:" \
	"a <...> header is looked for in the shim only" -- --governor "kernel:$tmp/header.c"
grep -qF "nor beside the file" "$tmp/err" && fail "a <linux/...> header was said to be looked for beside the file: $(cat "$tmp/err")"
printf '#include <linux/cpuidle.h>\n#include "mine.h"\n' >"$tmp/header.c"
expect_error "missing quoted header" "header 'mine.h' is not in idlekit's kernel shim" \
	"nor beside the file" -- --governor "kernel:$tmp/header.c"
expect_error "no governor registered" "not a governor" "cpuidle_register_governor" \
	-- --governor kernel:tests/kgov/noregister.c
expect_error "no such file" "kernel:tests/kgov/nosuch.c" "No such file" \
	-- --governor kernel:tests/kgov/nosuch.c
expect_error "a directory" "not a regular file" -- --governor kernel:tests/kgov
expect_error "empty path" "needs a path" -- --governor kernel:
expect_error "plugin ABI" "ABI 999" "this idlekit has ABI 4" -- --governor "plugin:$abi999"
expect_error "plugin not a shared object" "not a loadable shared object" \
	-- --governor plugin:tests/kgov/params.c
expect_error "unknown parameter" "no parameter 'nope'" "fixed_state, keep_tick, offset, scale_ns" \
	-- --governor kernel:tests/kgov/params.c --param nope=1
expect_error "bad uint" "fixed_state (uint): expected an integer 0..4294967295, got '-1'" \
	-- --governor kernel:tests/kgov/params.c --param fixed_state=-1
expect_error "bad bool" "keep_tick (bool): expected" -- --governor kernel:tests/kgov/params.c \
	--param keep_tick=maybe
expect_error "built-in without parameters" "governor menu has no parameter 'x'" \
	-- --governor menu --param x=1

# ---- Identity: the kind, the path, the sha256 of the file and gov.h, the parameters ------
printf '%s\n-,4000000,1000,-,0\n' "$hdr" >"$tmp/in.csv"
sha=$(cat tests/kgov/params.c tests/kgov/gov.h | sha256sum | cut -d' ' -f1)
"$bin" govreplay --governor kernel:tests/kgov/params.c --param offset=1 --platform intel-skx \
	--input "$tmp/in.csv" --json -o "$tmp/id.json" || fail "params --json"
for t in '"governor": "params"' '"kind": "kernel"' '"path": "tests/kgov/params.c"' \
	"\"sha256\": \"$sha\"" '"fixed_state": "1"' '"offset": "1"' '"keep_tick": "N"' \
	'"scale_ns": "1000"'; do
	grep -qF -- "$t" "$tmp/id.json" || fail "identity JSON lacks $t: $(cat "$tmp/id.json")"
done
"$bin" govreplay --governor kernel:tests/kgov/params.c --platform intel-skx \
	--input "$tmp/in.csv" >/dev/null 2>"$tmp/sum"
grep -qF "governor params from kernel:tests/kgov/params.c, sha256 $sha, parameters fixed_state=1 keep_tick=N offset=0 scale_ns=1000" \
	"$tmp/sum" || fail "summary lacks the identity: $(cat "$tmp/sum")"

# ---- The cache: compiled once; a one-line change compiles again and names a new sha256 --
rm -rf "$IDLEKIT_CACHE_DIR"
cp tests/kgov/params.c tests/kgov/gov.h "$tmp/"
IDLEKIT_GOV_VERBOSE=1 "$bin" govreplay -g "kernel:$tmp/params.c" -p intel-skx -i "$tmp/in.csv" \
	-q >"$tmp/o1" 2>"$tmp/v1"
grep -q "compiled into" "$tmp/v1" || fail "first run did not compile: $(cat "$tmp/v1")"
IDLEKIT_GOV_VERBOSE=1 "$bin" govreplay -g "kernel:$tmp/params.c" -p intel-skx -i "$tmp/in.csv" \
	-q >"$tmp/o2" 2>"$tmp/v2"
grep -q "cached in" "$tmp/v2" || fail "second run compiled again: $(cat "$tmp/v2")"
[ "$(ls "$IDLEKIT_CACHE_DIR"/*.so | wc -l)" -eq 1 ] || fail "cache: expected one object"
sed -i 's/fixed_state __read_mostly = 1;/fixed_state __read_mostly = 2;/' "$tmp/params.c"
IDLEKIT_GOV_VERBOSE=1 "$bin" govreplay -g "kernel:$tmp/params.c" -p intel-skx -i "$tmp/in.csv" \
	>"$tmp/o3" 2>"$tmp/v3"
grep -q "compiled into" "$tmp/v3" || fail "changed file not compiled again"
[ "$(cat "$tmp/o1")" = "1,1" ] && [ "$(cat "$tmp/o3")" = "2,1" ] ||
	fail "one-line change: decisions $(cat "$tmp/o1") -> $(cat "$tmp/o3"), expected 1,1 -> 2,1"
newsha=$(cat "$tmp/params.c" "$tmp/gov.h" | sha256sum | cut -d' ' -f1)
grep -qF "sha256 $newsha" "$tmp/v3" || fail "the new sha256 is not named: $(cat "$tmp/v3")"
echo '/* changed */' >>"$tmp/gov.h"
IDLEKIT_GOV_VERBOSE=1 "$bin" govreplay -g "kernel:$tmp/params.c" -p intel-skx -i "$tmp/in.csv" \
	-q >/dev/null 2>"$tmp/v4"
grep -q "compiled into" "$tmp/v4" || fail "a change to gov.h did not compile again"

# ---- sim: kernel:, plugin:, --set governor.NAME=VALUE, the identity in every format ------
sim() { "$bin" sim default --set scenario.duration_ms=20 --set scenario.runs=1 "$@"; }
sim --set cpuidle.governor=kernel:tests/kgov/params.c --set governor.fixed_state=2 --json \
	-o "$tmp/s.json" || fail "sim kernel: exit $?"
for t in '"governor": "kernel:tests/kgov/params.c"' "\"governor_sha256\": \"$sha\"" \
	'"governor_params": {"fixed_state": "2"}'; do
	grep -qF -- "$t" "$tmp/s.json" || fail "sim JSON lacks $t"
done
sim --set cpuidle.governor=kernel:tests/kgov/params.c --set governor.fixed_state=2 >"$tmp/s.txt" ||
	fail "sim table"
grep -qF "kernel:tests/kgov/params.c (sha256 $sha), parameters fixed_state=2" "$tmp/s.txt" ||
	fail "sim table lacks the identity: $(grep governor "$tmp/s.txt")"
grep -qxF "           the file is written against the cpuidle governor API of v4.17 or later (it uses select(drv, dev, stop_tick))" \
	"$tmp/s.txt" || fail "sim table does not say the file's API: $(grep -A1 governor "$tmp/s.txt")"
grep -qF '"governor_api": "written against the cpuidle governor API of v4.17 or later (it uses select(drv, dev, stop_tick))"' \
	"$tmp/s.json" || fail "sim JSON lacks governor_api"
sim --set cpuidle.governor=kernel:tests/kgov/params.c --set governor.fixed_state=2 --csv \
	-o "$tmp/s.csv" || fail "sim csv"
grep -qF "kernel:tests/kgov/params.c,$sha,fixed_state=2," "$tmp/s.csv" || fail "sim CSV lacks the identity"
sim --set cpuidle.governor=kernel:tests/kgov/params.c --set governor.nope=2 >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "no parameter 'nope'" "$tmp/e" || fail "sim unknown parameter: $(cat "$tmp/e")"
sim --set cpuidle.governor=kernel:tests/kgov/nosuch.c >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "nosuch.c" "$tmp/e" || fail "sim missing file: $(cat "$tmp/e")"
sim --set cpuidle.governor=plugin:"$nexttimer" --json -o "$tmp/p1.json" || fail "sim plugin"
sim --set cpuidle.governor=plugin:"$nexttimer" --json -o "$tmp/p2.json" || fail "sim plugin 2"
cmp -s "$tmp/p1.json" "$tmp/p2.json" || fail "sim plugin: two runs differ"
grep -q '"governor_sha256"' "$tmp/p1.json" || fail "sim plugin: no sha256"

# the printed configuration carries the kernel: governor and its parameters: run again, the
# same bytes
sim --set cpuidle.governor=kernel:tests/kgov/params.c --set governor.fixed_state=2 \
	--print-config >"$tmp/pc.ini" || fail "print-config"
"$bin" sim "$tmp/pc.ini" --json -o "$tmp/pc.json" || fail "sim of the printed config"
cmp -s "$tmp/s.json" "$tmp/pc.json" || fail "the printed config of a kernel: governor does not reproduce the result"

# ---- replay: a trace through a kernel-source governor and a plugin -----------------------
"$bin" replay tests/fixtures/traces/two-cpus.trace -g kernel:tests/kgov/probe.c -p intel-skx \
	>"$tmp/rp.txt" 2>"$tmp/e" || fail "replay kernel: $(cat "$tmp/e")"
grep -qF "governor probe from kernel:tests/kgov/probe.c, sha256" "$tmp/rp.txt" ||
	fail "replay output lacks the identity: $(head -2 "$tmp/rp.txt")"
"$bin" replay tests/fixtures/traces/two-cpus.trace -g plugin:"$nexttimer" -p intel-skx \
	>/dev/null 2>"$tmp/e" || fail "replay plugin: $(cat "$tmp/e")"
"$bin" govreplay -g plugin:"$nexttimer" -p intel-skx -i tests/govreplay/menu-timer-bands.csv \
	-q >/dev/null || fail "govreplay plugin"

# ---- Kernel semantics beyond the corpus (semantics.c modes 3 and 4) -----------------------
# printing once: 30 decisions, one pr_warn_once line, one WARN_ON_ONCE, 10 ratelimited
printf '%s\n' "$hdr" >"$tmp/in30.csv"
for _ in $(seq 30); do printf '1000000,4000000,-,-,0\n' >>"$tmp/in30.csv"; done
"$bin" govreplay -g kernel:tests/kgov/semantics.c --param mode=3 -p intel-skx -i "$tmp/in30.csv" \
	-q >/dev/null 2>"$tmp/e" || fail "semantics once: exit $?: $(cat "$tmp/e")"
[ "$(grep -c 'pr_warn_once at cpu 0' "$tmp/e")" -eq 1 ] || fail "pr_warn_once: $(cat "$tmp/e")"
[ "$(grep -c 'WARN_ON_ONCE(sleep_ns > 0)' "$tmp/e")" -eq 1 ] || fail "WARN_ON_ONCE: $(cat "$tmp/e")"
[ "$(grep -c 'printk_ratelimited' "$tmp/e")" -eq 10 ] ||
	fail "printk_ratelimited: expected 10 of 30 in 5 s: $(grep -c ratelimited "$tmp/e")"
# once per governor instance: a sim of three runs (three loaded copies) on two threads
# prints each _once line three times, not once per process and not at every call
sim --set cpuidle.governor=kernel:tests/kgov/semantics.c --set governor.mode=3 \
	--set scenario.duration_ms=50 --set scenario.runs=3 -j 2 -q --json -o "$tmp/m3.json" \
	2>"$tmp/e" || fail "semantics once in sim: exit $?: $(cat "$tmp/e")"
[ "$(grep -c 'pr_warn_once at cpu' "$tmp/e")" -eq 3 ] && [ "$(grep -c 'WARN_ON_ONCE' "$tmp/e")" -eq 3 ] ||
	fail "_once in a sim of 3 runs: expected 3 of each: $(grep -c once "$tmp/e") lines"
# idle_cpu() of the other CPUs from the simulator: some of them idle, not all
sim --set cpuidle.governor=kernel:tests/kgov/semantics.c --set governor.mode=5 \
	--set scenario.duration_ms=200 -q --json -o "$tmp/m5.json" 2>"$tmp/e" ||
	fail "semantics idle_cpu sim: exit $?: $(cat "$tmp/e")"
n5=$(grep -c 'other CPUs idle' "$tmp/e")
bad5=$(sed -n 's/.*other CPUs idle \([0-9]*\) of \([0-9]*\); per-CPU counts \([0-9]*\), selects \([0-9]*\)$/\1 \2 \3 \4/p' "$tmp/e" |
	awk '$1 == 0 || $1 >= $2 || $3 != $4 { n++ } END { print n + 0 }')
[ "$n5" -ge 2 ] && [ "$bad5" -eq 0 ] ||
	fail "idle_cpu()/per_cpu_ptr(): expected each CPU to see some others idle and some not, and every CPU's count: $(cat "$tmp/e")"
# the jiffies conversions as the kernel computes them (kernel/time/time.c, timeconst.bc):
# HZ 300 divides neither 1000 nor 10^6, so jiffies_to_msecs() rounds up and the others go
# by the fraction; usecs_to_jiffies() is MAX_JIFFY_OFFSET above jiffies_to_usecs() of it,
# which wraps to 1431649098 at HZ 300 and 4294959296 at HZ 250
printf '%s\n-,1000000,1000,-,0\n' "$hdr" >"$tmp/in1ms.csv"
for hz in 250 300; do
	"$bin" govreplay -g kernel:tests/kgov/semantics.c --param mode=6 --hz $hz -p intel-skx \
		-i "$tmp/in1ms.csv" -q >/dev/null 2>"$tmp/e$hz" || fail "jiffies at HZ $hz: exit $?"
done
grep -qxF "kernel governor: semantics: HZ 250: jiffies_to_msecs(1) 4, jiffies_to_usecs(3) 12000, jiffies_to_nsecs(3) 12000000, jiffies64_to_nsecs(3) 12000000, msecs_to_jiffies(10) 3, usecs_to_jiffies(1431649099) 357913, usecs_to_jiffies(4294959297) 4611686018427387902, nsecs_to_jiffies(10000000) 2" \
	"$tmp/e250" || fail "jiffies at HZ 250: $(cat "$tmp/e250")"
grep -qxF "kernel governor: semantics: HZ 300: jiffies_to_msecs(1) 4, jiffies_to_usecs(3) 10000, jiffies_to_nsecs(3) 10000000, jiffies64_to_nsecs(3) 10000000, msecs_to_jiffies(10) 3, usecs_to_jiffies(1431649099) 4611686018427387902, usecs_to_jiffies(4294959297) 4611686018427387902, nsecs_to_jiffies(10000000) 3" \
	"$tmp/e300" || fail "jiffies at HZ 300: $(cat "$tmp/e300")"
# per-CPU struct members on every CPU of a simulation: each CPU's own copy reaches 100
sim --set cpuidle.governor=kernel:tests/kgov/semantics.c --set governor.mode=4 \
	--set scenario.duration_ms=200 -q --json -o "$tmp/m4.json" 2>"$tmp/e" ||
	fail "semantics per-CPU sim: exit $?: $(cat "$tmp/e")"
ncpus=$(grep -c 'count 100' "$tmp/e")
[ "$ncpus" -ge 2 ] && grep -q 'cpu 0: count 100' "$tmp/e" && grep -q 'cpu 1: count 100' "$tmp/e" ||
	fail "per-CPU members: not every CPU counted in its own copy: $(cat "$tmp/e")"
grep -q "sees cpu" "$tmp/e" && fail "per-CPU members: a CPU saw another's copy: $(grep sees "$tmp/e")"
# the parameter clamped at init is what the outputs record
"$bin" govreplay -g kernel:tests/kgov/semantics.c --param mode=2 --param window=3 -p intel-skx \
	-i "$tmp/in.csv" --json -o "$tmp/w.json" || fail "window json"
grep -qF '"window": "2"' "$tmp/w.json" || fail "the identity lacks the clamped window: $(cat "$tmp/w.json")"

# ---- The API probe: every symbol of the list, the model's values (api.c) -----------------
"$bin" govreplay -g kernel:tests/kgov/api.c -p intel-skx --param use_key=y --param ceiling=500 \
	--param weights=4,5,6 -i tests/kgov/api.input -q >"$tmp/api.out" 2>"$tmp/api.log" ||
	fail "api probe: exit $?: $(cat "$tmp/api.log")"
diff -u tests/kgov/api.out.expected "$tmp/api.out" || fail "api probe: decisions differ"
diff -u tests/kgov/api.log.expected "$tmp/api.log" || fail "api probe: values differ"
expect_error "array too long" "weights (array of uint): expected at most 4 values" \
	-- --governor kernel:tests/kgov/api.c --param weights=1,2,3,4,5

# ---- Messages: a macro the file cannot see, a signedness error, the compiler's warnings ---
printf '#include <linux/kernel.h>\n#include <linux/cpuidle.h>\nstatic DEFINE_STATIC_KEY_FALSE(k);\n' \
	>"$tmp/macro.c"
expect_error "macro without its header" "kernel macro 'DEFINE_STATIC_KEY_FALSE' is not in idlekit's kernel shim" \
	"<linux/jump_label.h>" "macro.c:3:" -- --governor "kernel:$tmp/macro.c"
printf '#include <linux/kernel.h>\n#include <linux/cpuidle.h>\nDEFINE_STATIC_SRCU(s);\n' >"$tmp/macro2.c"
expect_error "macro not in the shim" "kernel macro 'DEFINE_STATIC_SRCU' is not in idlekit's kernel shim" \
	-- --governor "kernel:$tmp/macro2.c"
sed 's/return min_t(int, window, deepest(drv));/return min(window, deepest(drv));/' \
	tests/kgov/semantics.c >"$tmp/signed.c"
expect_error "min() of signed and unsigned" "signedness error" "signed.c:" \
	-- --governor "kernel:$tmp/signed.c"
# an uninitialised local read (the posted 2025 menu.c patch had one): -Wall's words shown
sed 's/		return min_t(int, window, deepest(drv));/		{ int unset; return unset + (int)window; }/' \
	tests/kgov/semantics.c >"$tmp/uninit.c"
"$bin" govreplay -g "kernel:$tmp/uninit.c" -p intel-skx -i "$tmp/in.csv" >/dev/null 2>"$tmp/e" ||
	fail "uninitialised local: exit $?"
grep -q "uninit.c:[0-9]*:[0-9]*: warning: .*'unset'.* uninitialized" "$tmp/e" &&
	grep -qF "kernel:$tmp/uninit.c: 1 compiler warning (-Wall):" "$tmp/e" ||
	fail "uninitialised local: the warning is not shown: $(cat "$tmp/e")"
sed 's/window = clamp(window, 1u, 2u);/window = clamp(window, 3u, 2u);/' tests/kgov/semantics.c >"$tmp/limits.c"
expect_error "clamp() limits the wrong way round" "clamp() low limit greater than high limit" \
	"limits.c:" -- --governor "kernel:$tmp/limits.c"
sed 's/	u64 c0, c1;/	u64 c0, c1;\n	int unused_here;/' tests/kgov/semantics.c >"$tmp/warn.c"
"$bin" govreplay -g "kernel:$tmp/warn.c" -p intel-skx -i "$tmp/in.csv" -q >/dev/null 2>"$tmp/e" ||
	fail "warnings -q: exit $?"
grep -qF "kernel:$tmp/warn.c: 1 compiler warning (-Wall; run without -q to see it)" "$tmp/e" &&
	[ "$(wc -l <"$tmp/e")" -eq 1 ] || fail "warnings -q: $(cat "$tmp/e")"
"$bin" govreplay -g "kernel:$tmp/warn.c" -p intel-skx -i "$tmp/in.csv" >/dev/null 2>"$tmp/e"
grep -q "warn.c:[0-9]*:[0-9]*: warning: unused variable 'unused_here'" "$tmp/e" ||
	fail "warnings: the compiler's words are not shown: $(cat "$tmp/e")"

# ---- Release awareness: the release whose API the file was written against ---------------
# said in govreplay's summary
"$bin" govreplay -g kernel:tests/kgov/api.c -p intel-skx -i "$tmp/in.csv" >/dev/null 2>"$tmp/e" ||
	fail "api summary: exit $?"
grep -qxF "govreplay: the file is written against the cpuidle governor API of v5.5 or later (it uses tick_nohz_get_sleep_length(&delta_next), exit_latency_ns, select(drv, dev, stop_tick))" \
	"$tmp/e" || fail "the summary does not say the file's API: $(cat "$tmp/e")"
# a file of v5.4 or later run as 5.1 (the shim serves 5.1-5.3 with v5.4's layout, so it
# compiles): one warning, also with -q, which names the evidence and a release to run it as
"$bin" govreplay -g kernel:tests/kgov/pollns.c -p intel-skx --kernel 5.1 -i "$tmp/in.csv" -q \
	>"$tmp/out" 2>"$tmp/e" || fail "pollns as 5.1: exit $?: $(cat "$tmp/e")"
[ "$(wc -l <"$tmp/e")" -eq 1 ] &&
	grep -qF "idlekit: kernel:tests/kgov/pollns.c: warning: the file is written against the cpuidle governor API of v5.4 or later (it uses dev->poll_limit_ns, select(drv, dev, stop_tick)), but the run is kernel 5.1: " \
		"$tmp/e" && grep -qF "govreplay's and replay's --kernel 5.4, runs it as a release it was written for" "$tmp/e" ||
	fail "pollns as 5.1: expected one warning naming v5.4: $(cat "$tmp/e")"
"$bin" govreplay -g kernel:tests/kgov/pollns.c -p intel-skx --kernel 5.4 -i "$tmp/in.csv" -q \
	>/dev/null 2>"$tmp/e" && [ ! -s "$tmp/e" ] || fail "pollns as 5.4: $(cat "$tmp/e")"
# once per process: a sim of four runs on two threads warns once
sim --set cpuidle.governor=kernel:tests/kgov/pollns.c --set kernel.version=5.1 \
	--set scenario.runs=4 -j 2 -q --json -o "$tmp/pn.json" 2>"$tmp/e" || fail "pollns sim: exit $?"
[ "$(grep -c "warning: the file is written against" "$tmp/e")" -eq 1 ] ||
	fail "pollns sim: expected one warning: $(cat "$tmp/e")"
# a select without stop_tick (before v4.17): warned, or refused with the same words where
# the compiler makes the incompatible callback an error (gcc 14, clang 16)
"$bin" govreplay -g kernel:tests/kgov/oldsel.c -p intel-skx -i "$tmp/in.csv" -q >/dev/null 2>"$tmp/e"
rc=$?
grep -qF "written against the cpuidle governor API of v4.16 or earlier (it uses select() without stop_tick)" "$tmp/e" &&
	{ { [ $rc -eq 0 ] && grep -qF "but the run is kernel 6.19: " "$tmp/e" &&
		grep -qF "(idlekit serves the governor API of v5.1 to v7.1)" "$tmp/e"; } ||
	  { [ $rc -eq 2 ] && grep -qF "does not compile" "$tmp/e"; }; } ||
	fail "oldsel: exit $rc: $(cat "$tmp/e")"
# a file of v5.4's microsecond API at 6.19: the compile error says what the file is
expect_error "v5.4 file at 6.19" "(compiled against the cpuidle governor API of kernel 6.19, the release idlekit runs as; the file is written against the cpuidle governor API of v4.17 to v5.4 (it uses dev->last_residency (microseconds), select(drv, dev, stop_tick)))" \
	-- --governor kernel:tests/kgov/us_api.c

# ---- Crash isolation: exit 4, one message naming the decision and its inputs, no output ---
printf '%s\n' "$hdr" >"$tmp/in150.csv"
for i in $(seq 150); do printf '%d,4000000,-,-,0\n' $((100000 + i)) >>"$tmp/in150.csv"; done
crash_case() { # crash_case WHAT TEXT... -- ARGS
	local what=$1
	shift
	local texts=()
	while [ "$1" != "--" ]; do
		texts+=("$1")
		shift
	done
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc -eq 4 ] || fail "$what: exit status $rc, expected 4 ($(cat "$tmp/err"))"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: expected one line, got: $(cat "$tmp/err")"
	[ -z "$(ls "$tmp"/o.* 2>/dev/null)" ] || fail "$what: an output file was left: $(ls "$tmp"/o.*)"
	for t in "${texts[@]}"; do
		grep -qF -- "$t" "$tmp/err" || fail "$what: message lacks '$t': $(cat "$tmp/err")"
	done
	rm -f "$tmp"/o.*
}
crash_case "NULL at decision 100" "governor kernel:tests/kgov/crash.c crashed (SIGSEGV" \
	"in select at decision 100 " "simulated time " "cpu 0, sleep length 100100 ns" \
	"latency_req 2000000000000 ns, tick stopped 0, last residency" \
	-- "$bin" govreplay -g kernel:tests/kgov/crash.c -p intel-skx -i "$tmp/in150.csv" -o "$tmp/o.txt"
crash_case "division by zero at decision 100" "governor kernel:tests/kgov/crash.c crashed (SIGFPE" \
	"in select at decision 100 " "cpu 0, sleep length 100100 ns" \
	-- "$bin" govreplay -g kernel:tests/kgov/crash.c --param how=1 -p intel-skx -i "$tmp/in150.csv" -o "$tmp/o.txt"
# a quotient past 64 bits: x86-64's divq raises a divide error, as the kernel's does there
if [ "$(uname -m)" = x86_64 ]; then
	crash_case "mul_u64_u64_div_u64 overflow at decision 100" \
		"governor kernel:tests/kgov/crash.c crashed (SIGFPE" "in select at decision 100 " \
		-- "$bin" govreplay -g kernel:tests/kgov/crash.c --param how=3 -p intel-skx \
		-i "$tmp/in150.csv" -o "$tmp/o.txt"
fi
case "$(uname -m)" in x86_64 | aarch64 | arm*)
	crash_case "SIGBUS at decision 100" "governor kernel:tests/kgov/crash.c crashed (SIGBUS" \
		"in select at decision 100 " -- "$bin" govreplay -g kernel:tests/kgov/crash.c \
		--param how=4 -p intel-skx -i "$tmp/in150.csv" -o "$tmp/o.txt" ;;
esac
# BUG(): the kernel's "kernel BUG at FILE:LINE", then the crash
"$bin" govreplay -g kernel:tests/kgov/crash.c --param how=2 -p intel-skx -i "$tmp/in150.csv" \
	-o "$tmp/o.txt" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 4 ] && [ "$(wc -l <"$tmp/err")" -eq 2 ] && [ ! -e "$tmp/o.txt" ] &&
	head -1 "$tmp/err" | grep -qx "kernel governor: kernel BUG at tests/kgov/crash.c:[0-9]*" &&
	tail -1 "$tmp/err" | grep -qF "governor kernel:tests/kgov/crash.c crashed (SIGILL" &&
	grep -qF "in select at decision 100 " "$tmp/err" ||
	fail "BUG() at decision 100: exit $rc: $(cat "$tmp/err")"
rm -f "$tmp"/o.*
crash_case "crash in a sim on two threads" "governor kernel:tests/kgov/crash.c crashed" \
	"at decision 100 " -- "$bin" sim default --set scenario.duration_ms=50 --set scenario.runs=4 \
	-j 2 --set cpuidle.governor=kernel:tests/kgov/crash.c -q --json -o "$tmp/o.json"
IDLEKIT_GOV_TIMEOUT_S=0.3 crash_case "endless loop" \
	"governor kernel:tests/kgov/hang.c did not return within 0.3 s of wall time" \
	"in select at decision 3 " -- "$bin" govreplay -g kernel:tests/kgov/hang.c -p intel-skx \
	-i "$tmp/in150.csv" -o "$tmp/o.txt"

if [ $failures -ne 0 ]; then
	echo "kgov.sh: $failures failure(s)"
	exit 1
fi
echo "kgov.sh: all passed ($ncases governor cases)"
