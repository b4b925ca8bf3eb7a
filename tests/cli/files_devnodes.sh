#!/usr/bin/env bash
# As root, output onto device nodes, a symlink and a FIFO leaves each in place: in a private
# mount namespace with a tmpfs over /dev holding our own null and full nodes (the real /dev
# is never touched, even by a broken build).  -o /dev/null writes through (exit 0, still a
# character device); -o /dev/full fails with ENOSPC, exit 1, no "success"; a symlink to
# /dev/null stays a link and the node stays a node; a FIFO stays a FIFO and its reader gets
# the output.
# Not root or no unshare: SKIP (exit 77) -- but FAIL when CI=true, as .ci/run sets it.
set -u
bin=${1:?usage: files_devnodes.sh /path/to/idlekit}
bin=$(readlink -f "$bin")
cd "$(dirname "$0")/../.." || exit 1
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: $1 (CI=true: this test must run)"
		exit 1
	fi
	echo "SKIP: $1"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "not root"
command -v unshare >/dev/null || skip "no unshare (util-linux)"
unshare -m --propagation private true 2>/dev/null || skip "unshare -m not permitted here"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the host's /dev/null before (whatever it is: another program may have broken it already)
host_null_before=$(stat -c '%F %t,%T' /dev/null)
# The body runs inside the namespace; everything it creates under /dev vanishes with it.
cat >"$tmp/inside.sh" <<'INSIDE'
set -u
bin=$1 tmp=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mount -t tmpfs -o mode=755 idlekit-test-dev /dev || { echo "FAIL: cannot mount a tmpfs on /dev"; exit 1; }
# the mount must really hide the host's /dev before anything is written there
[ -z "$(ls -A /dev)" ] || { echo "FAIL: /dev is not the fresh tmpfs"; exit 1; }
mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 || { echo "FAIL: mknod"; exit 1; }
ln -s null /dev/link-to-null
mkfifo /dev/out.fifo
quick=(--set scenario.duration_ms=5 --set workload.pairs=1)

"$bin" sim "${quick[@]}" --json -o /dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "-o /dev/null: exit $rc: $(cat "$tmp/err")"
[ -c /dev/null ] || fail "-o /dev/null: /dev/null is no longer a character device"
[ "$(stat -c %t,%T /dev/null)" = 1,3 ] || fail "-o /dev/null: node changed"
ls -a /dev | grep -q '\.tmp\.' && fail "-o /dev/null: a temporary in /dev"

"$bin" sim "${quick[@]}" --json -o /dev/full 2>"$tmp/err" >"$tmp/out"
rc=$?
[ $rc -eq 1 ] || fail "-o /dev/full: exit $rc, expected 1"
grep -q '^idlekit: /dev/full: write failed: No space left on device$' "$tmp/err" || fail "-o /dev/full message: $(cat "$tmp/err")"
[ -c /dev/full ] || fail "-o /dev/full: /dev/full is no longer a character device"
[ "$(stat -c %t,%T /dev/full)" = 1,7 ] || fail "-o /dev/full: node changed"
# the same through the other writers: analyze, info, govreplay, compare
"$bin" analyze tests/fixtures/traces/two-cpus.trace -o /dev/full 2>"$tmp/err"
[ $? -eq 1 ] || fail "analyze -o /dev/full: exit status"
"$bin" info --sysfs-dump tests/fixtures/sysfs/adl0.txt -o /dev/full 2>"$tmp/err"
[ $? -eq 1 ] || fail "info -o /dev/full: exit status"
"$bin" govreplay --governor menu --platform intel-skx --input tests/govreplay/ladder-latency.csv -o /dev/full 2>"$tmp/err"
[ $? -eq 1 ] || fail "govreplay -o /dev/full: exit status $(cat "$tmp/err")"

"$bin" sim "${quick[@]}" --json -o /dev/link-to-null 2>"$tmp/err" || fail "-o link-to-null: exit $?: $(cat "$tmp/err")"
[ -L /dev/link-to-null ] && [ "$(readlink /dev/link-to-null)" = null ] || fail "-o link-to-null: the link was replaced"
[ -c /dev/null ] || fail "-o link-to-null: /dev/null is no longer a character device"

cat /dev/out.fifo >"$tmp/fifo.read" &
reader=$!
timeout 60 "$bin" sim "${quick[@]}" --json -o /dev/out.fifo 2>"$tmp/err" || fail "-o FIFO: exit $?: $(cat "$tmp/err")"
wait $reader
[ -p /dev/out.fifo ] || fail "-o FIFO: no longer a FIFO"
grep -q '"scenario"' "$tmp/fifo.read" || fail "-o FIFO: the reader got no result"
# a device or FIFO as an input: refused at once
timeout 10 "$bin" analyze /dev/out.fifo 2>"$tmp/err"
[ $? -eq 2 ] || fail "analyze FIFO: exit status (124 = it blocked)"
timeout 10 "$bin" analyze /dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'is a device' "$tmp/err" || fail "analyze /dev/null: $(cat "$tmp/err")"
exit $((failures != 0))
INSIDE
unshare -m --propagation private bash "$tmp/inside.sh" "$bin" "$tmp"
rc=$?
# and the host's /dev is as it was
if [ "$host_null_before" = "character special file 1,3" ] &&
	[ "$(stat -c '%F %t,%T' /dev/null)" != "$host_null_before" ]; then
	echo "FAIL: the host's /dev/null changed"
	exit 1
fi
if [ $rc -ne 0 ]; then
	echo "files_devnodes: failed"
	exit 1
fi
echo "files_devnodes: all passed"
