#!/usr/bin/env bash
# The bad-input catalogue: each case is one command line that must fail with exit status 2,
# exactly one line on standard error containing the expected text (which names the file or
# option), nothing on standard output, no output file left, and no waiting (a FIFO given as
# an input must not block: every case runs under a 10 s timeout).
#
# usage (from the project root): bash tests/cli/bad_input.sh /path/to/idlekit
set -u
bin=$(realpath "${1:?usage: bad_input.sh /path/to/idlekit}")
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
cases=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# bad EXPECTED -- ARGS...: the case
bad() {
	local want=$1
	shift 2
	cases=$((cases + 1))
	rm -f "$tmp/out.file"
	(cd "$tmp" && timeout 10 "$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null)
	local rc=$?
	if [ $rc -eq 124 ]; then
		fail "idlekit $*: blocked (killed after 10 s)"
		return
	fi
	[ $rc -eq 2 ] || fail "idlekit $*: exit $rc, expected 2 ($(head -2 "$tmp/stderr"))"
	grep -qF -- "$want" "$tmp/stderr" || fail "idlekit $*: message '$(cat "$tmp/stderr")' lacks '$want'"
	[ "$(wc -l <"$tmp/stderr")" -eq 1 ] || fail "idlekit $*: $(wc -l <"$tmp/stderr") lines on stderr: $(cat "$tmp/stderr")"
	[ -s "$tmp/stdout" ] && fail "idlekit $*: wrote to stdout: $(head -c 200 "$tmp/stdout")"
	[ -e "$tmp/out.file" ] && fail "idlekit $*: left an output file"
	ls -a "$tmp" | grep -q '\.tmp\.' && fail "idlekit $*: left a temporary"
}

fx=$PWD/tests/fixtures
mkfifo "$tmp/fifo" "$tmp/fifo.ini"
mkdir "$tmp/dir" "$tmp/dir.ini"
"$bin" sim --set scenario.duration_ms=5 --set workload.pairs=1 --json -o "$tmp/r.json" || fail "setup sim"

# ---- inputs that are FIFOs, directories or devices ------------------------------------------
bad "fifo: is a FIFO; expected a regular file" -- analyze fifo
bad "dir: is a directory; expected a file" -- analyze dir
# a device: our own node when root (never the real /dev), else /dev/zero
if [ "$(id -u)" = 0 ] && mknod -m 666 "$tmp/zero.dev" c 1 5 2>/dev/null; then dev=zero.dev; else dev=/dev/zero; fi
if [ -c "$tmp/$dev" ] || [ -c "$dev" ]; then
	bad "$dev: is a device; expected a regular file" -- analyze "$dev"
	bad "$dev: is a device; expected a regular file" -- govreplay --governor menu --platform intel-skx --input "$dev"
fi
bad "fifo: is a FIFO; expected a regular file" -- replay fifo -g menu -p intel-skx
bad "dir: is a directory; expected a file" -- replay dir -g menu -p intel-skx
bad "fifo: is a FIFO; expected a regular file" -- govreplay --governor menu --platform intel-skx --input fifo
bad "dir: is a directory; expected a file" -- govreplay --governor menu --platform intel-skx --input dir
bad "fifo: is a FIFO; expected a regular file" -- import perf-script fifo -o out.file
bad "dir: is a directory; expected a file" -- import perf-script dir -o out.file
bad "fifo: is a FIFO; expected a regular file" -- import trace-dat fifo -o out.file
bad "dir: is a directory; expected a file" -- import trace-dat dir -o out.file
bad "fifo: is a FIFO; expected a sysfs dump file" -- info --sysfs-dump fifo
bad "dir: is a directory (a copied tree is --sysfs-root DIR); expected a sysfs dump file" -- info --sysfs-dump dir
bad "fifo: is a FIFO; expected a sysfs dump file" -- platform import --sysfs-dump fifo
bad "fifo: is a FIFO; expected a sysfs dump file" -- monitor --sysfs-dump fifo -n 1
bad "fifo: is a FIFO; expected a regular file" -- compare fifo
bad "dir: is a directory; expected a file" -- compare dir
bad "fifo: is a FIFO; expected a regular file" -- compare r.json fifo
bad "fifo.ini: is a FIFO; expected a regular file" -- sim fifo.ini
bad "dir.ini: is a directory; expected a file" -- sim dir.ini
bad "./fifo: is a FIFO; expected a regular file" -- sim ./fifo
bad "./fifo: cannot open: not a regular file" -- platform show ./fifo
bad "./dir: cannot open: Is a directory" -- platform show ./dir
bad "./fifo: cannot open: not a regular file" -- sim --set scenario.platform=./fifo
bad "./fifo: cannot open: not a regular file" -- govreplay --governor menu --platform ./fifo --input r.json

# ---- output paths, refused before the run --------------------------------------------------
bad "nodir/x.json: cannot write there: directory 'nodir': No such file or directory" -- sim -o nodir/x.json
bad "dir: is a directory; expected a file name" -- sim -o dir
bad "r.json/x.html: cannot write there: 'r.json' is not a directory" -- sim --html r.json/x.html
bad "nodir/c.html: cannot write there" -- compare r.json --html nodir/c.html
bad "nodir/a.json: cannot write there" -- analyze "$fx/traces/two-cpus.trace" --json -o nodir/a.json
bad "nodir/r.txt: cannot write there" -- replay "$fx/traces/two-cpus.trace" -g menu -p intel-skx -o nodir/r.txt
bad "nodir/t: cannot write there" -- record -o nodir/t
bad "nodir/w.html: cannot write there" -- wakelat --html nodir/w.html
bad "nodir/i.txt: cannot write there" -- info --sysfs-dump "$fx/sysfs/adl0.txt" -o nodir/i.txt
bad "nodir/d.txt: cannot write there" -- info --sysfs-dump "$fx/sysfs/adl0.txt" --dump nodir/d.txt
bad "nodir/p.ini: cannot write there" -- platform import --sysfs-dump "$fx/sysfs/adl0.txt" -o nodir/p.ini

# ---- dumps -------------------------------------------------------------------------------------
head -c -1 "$fx/sysfs/adl0.txt" >"$tmp/cut.txt"
bad "cut.txt:$(wc -l <"$fx/sysfs/adl0.txt"): the last line has no end of line (a truncated dump?)" -- info --sysfs-dump cut.txt
bad "cut.txt:$(wc -l <"$fx/sysfs/adl0.txt"): the last line has no end of line" -- platform import --sysfs-dump cut.txt

# ---- the command line ---------------------------------------------------------------------------
bad "idlekit help: no command 'nosuch'" -- help nosuch
bad "--runs: expected an integer 1..1000, got '0'" -- sim --runs 0
bad "--hz: expected an integer 1..100000, got '0'" -- record -o out.file --hz 0
bad "--hz: expected an integer 1..100000, got 'abc'" -- record -o out.file --hz abc
bad "--buffer-kb: expected an integer 4..4194304, got '1'" -- record -o out.file --buffer-kb 1
bad "--hz: expected an integer 1..100000, got '0'" -- replay "$fx/traces/two-cpus.trace" -g menu -p intel-skx --hz 0
bad "--hz: expected an integer 1..100000, got '0'" -- import perf-script "$fx/traces/perf-script-sample.txt" -o out.file --hz 0
bad "--rt-priority: expected an integer 1..99, got '100'" -- wakelat --rt-priority 100
bad "--disable-above" -- set --disable-above abc
bad "--dump FILE writes the whole tree and nothing else" -- info --dump out.file --json
# what the user wrote, not a file they did not name or a number they did not type
bad "idlekit sim: --set platform.cores_per_package=8192: [platform]: packages * cores_per_package * threads_per_core = 131072 CPUs" -- sim --set platform.packages=8 --set platform.cores_per_package=8192
bad "CPU list '0-999999': CPU 999999 is out of range (expected 0..8191)" -- info --cpu 0-999999
bad "idlekit platform show: unknown platform 'foo'; built-in platforms: " -- platform show foo
# another tool's trace given where an idlekit trace is expected: which import reads it
bad "(perf script's text: idlekit import perf-script FILE -o OUT converts it)" -- analyze "$fx/traces/perf-script-sample.txt"
bad "(ftrace's text: idlekit import ftrace FILE -o OUT converts it)" -- replay "$fx/traces/ftrace-sample.txt" -g menu -p intel-skx
bad "(trace-cmd report's text: idlekit import trace-cmd-report FILE -o OUT converts it)" -- analyze "$fx/traces/trace-cmd-report-sample.txt"
bad "(a trace-cmd trace.dat: idlekit import trace-dat FILE -o OUT converts it)" -- analyze "$fx/traces/trace-cmd-sample.dat"

# Usage errors: one line naming the word that was wrong and where the help is (at most one
# more line, getopt's own, before it), never the whole usage text.
bad "idlekit: unknown command 'bogus'; the commands: sim " -- bogus
for c in sim sweep compare govreplay analyze replay record import workload info set monitor \
	wakelat ctxsw validate platform kernel; do
	cases=$((cases + 1))
	(cd "$tmp" && timeout 10 "$bin" $c --bogus >"$tmp/stdout" 2>"$tmp/stderr" </dev/null)
	rc=$?
	[ $rc -eq 2 ] || fail "idlekit $c --bogus: exit $rc"
	[ "$(wc -l <"$tmp/stderr")" -le 2 ] || fail "idlekit $c --bogus: $(wc -l <"$tmp/stderr") lines on stderr"
	grep -q -- "--bogus" "$tmp/stderr" || fail "idlekit $c --bogus: the option is not named: $(cat "$tmp/stderr")"
	grep -q "see idlekit $c --help" "$tmp/stderr" || fail "idlekit $c --bogus: no pointer to --help: $(cat "$tmp/stderr")"
	[ -s "$tmp/stdout" ] && fail "idlekit $c --bogus: wrote to stdout"
done

if [ $failures -ne 0 ]; then
	echo "bad_input: $failures failure(s) in $cases cases"
	exit 1
fi
echo "bad_input: $cases cases passed"
