#!/usr/bin/env bash
# Safe output files (docs/files.md): a symlink is followed and its target replaced, the link
# kept; a FIFO is written through and stays a FIFO; a file's permission bits survive its
# replacement; -o and --html are written both or neither; a signal during the write removes
# the temporary; a bad output path is refused before the run with the path as typed; no
# message names a temporary.  (Devices: tests/cli/files_devnodes.sh, in a private /dev.)
#
# usage (from the project root): bash tests/cli/files.sh /path/to/idlekit
set -u
bin=${1:?usage: files.sh /path/to/idlekit}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}
quick=(--set scenario.duration_ms=5 --set workload.pairs=1)
no_temporaries() { # DIR NAME: no temporary left in DIR
	if ls -a "$1" | grep -q '\.tmp\.'; then fail "$2: temporary left: $(ls -a "$1" | grep '\.tmp\.')"; fi
}

# ---- a symlink: followed, its target replaced atomically, the link kept -----------------
mkdir "$tmp/ln" "$tmp/ln/sub"
echo old >"$tmp/ln/sub/target.json"
chmod 600 "$tmp/ln/sub/target.json"
ln -s sub/target.json "$tmp/ln/link.json"
"$bin" sim "${quick[@]}" --json -o "$tmp/ln/link.json" 2>"$tmp/err" || fail "sim -o symlink: exit $?: $(cat "$tmp/err")"
[ -L "$tmp/ln/link.json" ] || fail "-o symlink: the link was replaced"
[ "$(readlink "$tmp/ln/link.json")" = sub/target.json ] || fail "-o symlink: the link changed"
grep -q '"scenario"' "$tmp/ln/sub/target.json" || fail "-o symlink: the target was not written"
[ "$(stat -c %a "$tmp/ln/sub/target.json")" = 600 ] || fail "-o symlink: target mode $(stat -c %a "$tmp/ln/sub/target.json"), expected 600 kept"
no_temporaries "$tmp/ln" "symlink"
no_temporaries "$tmp/ln/sub" "symlink"
# a dangling link: its target is created
ln -s made.json "$tmp/ln/dangling.json"
"$bin" sim "${quick[@]}" --json -o "$tmp/ln/dangling.json" 2>"$tmp/err" || fail "sim -o dangling link: exit $?"
[ -L "$tmp/ln/dangling.json" ] && [ -s "$tmp/ln/made.json" ] || fail "-o dangling link: target not created through the link"

# ---- a FIFO: written through, still a FIFO ----------------------------------------------
mkfifo "$tmp/out.fifo"
cat "$tmp/out.fifo" >"$tmp/fifo.read" &
reader=$!
timeout 60 "$bin" sim "${quick[@]}" --json -o "$tmp/out.fifo" 2>"$tmp/err" || fail "sim -o FIFO: exit $?: $(cat "$tmp/err")"
wait $reader
[ -p "$tmp/out.fifo" ] || fail "-o FIFO: no longer a FIFO"
grep -q '"scenario"' "$tmp/fifo.read" || fail "-o FIFO: the reader got no result"
no_temporaries "$tmp" "FIFO"

# ---- several outputs: both or neither ---------------------------------------------------
mkdir "$tmp/two"
echo keep >"$tmp/two/a.json"
# the second output fails to write (a file can be checked but not written: a FIFO opened
# by a reader that goes away is not portable, so use --html onto a full device where we
# can: /dev/full is a real device on Linux, written through, never replaced)
if [ -c /dev/full ]; then
	"$bin" sim "${quick[@]}" --json -o "$tmp/two/a.json" --html /dev/full 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] || fail "-o a --html /dev/full: exit $rc, expected 1"
	[ "$(cat "$tmp/two/a.json")" = keep ] || fail "-o a --html /dev/full: a.json was replaced though the page failed"
	grep -q '/dev/full: write failed: No space left on device' "$tmp/err" || fail "/dev/full message: $(cat "$tmp/err")"
	no_temporaries "$tmp/two" "two outputs"
fi
# the first fails: neither written
"$bin" sim "${quick[@]}" --json -o /dev/full --html "$tmp/two/b.html" 2>"$tmp/err"
[ $? -eq 1 ] || fail "-o /dev/full --html b: exit status"
[ -e "$tmp/two/b.html" ] && fail "-o /dev/full --html b: b.html written"
# both succeed
"$bin" sim "${quick[@]}" --json -o "$tmp/two/a.json" --html "$tmp/two/b.html" 2>"$tmp/err" || fail "two outputs: exit $?"
grep -q '"scenario"' "$tmp/two/a.json" && [ -s "$tmp/two/b.html" ] || fail "two outputs: not both written"
no_temporaries "$tmp/two" "two outputs"

# ---- a signal during the write removes the temporary ------------------------------------
# -o is complete (its temporary waits for the rename) while --html blocks opening a FIFO
# with no reader: SIGTERM, SIGINT, SIGHUP there must leave neither the file nor a temporary.
# (job control on: a background job of a script would otherwise start with SIGINT ignored)
set -m
for sig in TERM INT HUP; do
	rm -rf "$tmp/sig"; mkdir "$tmp/sig"; mkfifo "$tmp/sig/page.fifo"
	"$bin" sim "${quick[@]}" --json -o "$tmp/sig/a.json" --html "$tmp/sig/page.fifo" 2>/dev/null &
	pid=$!
	for _ in $(seq 100); do ls "$tmp/sig" | grep -q 'a.json.tmp' && break; sleep 0.1; done
	ls "$tmp/sig" | grep -q 'a.json.tmp' || fail "SIG$sig: no temporary seen before the signal"
	kill -s "$sig" $pid
	wait $pid
	rc=$?
	[ $rc -gt 128 ] || fail "SIG$sig: exit $rc, expected death by the signal"
	[ -e "$tmp/sig/a.json" ] && fail "SIG$sig: a.json written"
	no_temporaries "$tmp/sig" "SIG$sig"
done
set +m

# ---- bad output paths: refused before the run, naming the path as typed --------------------
check_refused() { # PATTERN ARGS...: exit 2, one line naming the path, nothing else written
	local want=$1; shift
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "$*: exit $rc, expected 2"
	grep -q -- "$want" "$tmp/err" || fail "$*: message '$(cat "$tmp/err")' lacks '$want'"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$*: more than one line: $(cat "$tmp/err")"
	grep -q '\.tmp\.' "$tmp/err" && fail "$*: the message names a temporary"
	[ -s "$tmp/out" ] && fail "$*: wrote to standard output"
}
# --runs 1000 would take many minutes: the refusal comes first
check_refused "nodir/x.json: cannot write there: directory 'nodir'" sim --runs 1000 -o nodir/x.json
check_refused "nodir/x.html: cannot write there" sim --runs 1000 --html nodir/x.html
check_refused ".: is a directory" sim --runs 1000 -o .
"$bin" sim "${quick[@]}" --json -o "$tmp/r.json" || fail "sim for compare: exit $?"
check_refused "x/y.html: cannot write there" compare "$tmp/r.json" --html x/y.html
check_refused "nodir/a.txt: cannot write there" analyze tests/fixtures/traces/two-cpus.trace -o nodir/a.txt
check_refused "nodir/r.html: cannot write there" replay tests/fixtures/traces/two-cpus.trace -g menu -p intel-skx --html nodir/r.html
check_refused "nodir/t: cannot write there" record -o nodir/t --duration 1s
check_refused "nodir/w.html: cannot write there" wakelat -n 10 --html nodir/w.html
check_refused "nodir/i.txt: cannot write there" info --sysfs-dump tests/fixtures/sysfs/adl0.txt -o nodir/i.txt
touch "$tmp/plain"
check_refused "plain/x.json: cannot write there: '$tmp/plain' is not a directory" sim -o "$tmp/plain/x.json"
if [ "$(id -u)" != 0 ]; then
	mkdir "$tmp/ro"; chmod 555 "$tmp/ro"
	check_refused "ro/x.json: cannot write there: directory '$tmp/ro': Permission denied" sim -o "$tmp/ro/x.json"
fi

if [ $failures -ne 0 ]; then
	echo "files: $failures failure(s)"
	exit 1
fi
echo "files: all passed"
