#!/usr/bin/env bash
# Each reader's size bound (docs/files.md, "Limits"): a sparse file one byte past it is
# refused with exit 2, one message naming the file, nothing written, and at once (the size
# is taken from fstat before anything is read: the file's bytes are never touched, so the
# sparse zeros are never seen).  And a file at the bound is read (then refused for what it
# holds, its zeros, not for its size).
set -u
bin=${1:?usage: limits.sh IDLEKIT}
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/check.bash
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# past BYTES FILE-NAME MESSAGE-PATTERN CMD...: FILE one byte past BYTES is refused; in CMD,
# an argument "@" (or ending in "=@") is the file
run() {
	local f=$1 a args=()
	shift
	for a in "$@"; do
		case $a in
		@) args+=("$f") ;;
		*=@) args+=("${a%@}$f") ;;
		*) args+=("$a") ;;
		esac
	done
	"${args[@]}"
}
past() {
	local bytes=$1 name=$2 pattern=$3
	shift 3
	local f=$tmp/$name
	truncate -s $((bytes + 1)) "$f"
	run "$f" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	check "$name past $bytes bytes: exit 2 (got $rc: $(head -c 200 "$tmp/err"))" test $rc -eq 2
	check "$name: one line" test "$(wc -l <"$tmp/err")" -eq 1
	check "$name: names the file and the bound ($(head -c 200 "$tmp/err"))" grep -q "$f: $pattern" "$tmp/err"
	check "$name: nothing on standard output" test ! -s "$tmp/out"
	# at the bound: read, so refused for its content instead
	truncate -s "$bytes" "$f"
	run "$f" "$@" >/dev/null 2>"$tmp/err"
	check "$name at $bytes bytes: not refused for its size" not_grep "$pattern" "$tmp/err"
	rm -f "$f"
}
not_grep() { ! grep -q "$@"; }
ini="too large: $(((4 << 20) + 1)) bytes, more than $((4 << 20))"
past $((4 << 20)) big.ini "$ini" "$bin" sim @
past $((4 << 20)) big-platform.ini "$ini" "$bin" sim --set scenario.platform=@
past $((4 << 20)) big-sweep.ini "$ini" "$bin" sweep @ -o "$tmp/sweep-out"
rtapp="too large: $(((64 << 20) + 1)) bytes, more than $((64 << 20))"
past $((64 << 20)) big-rtapp.json "$rtapp" "$bin" validate @
past $((64 << 20)) big-rtapp2.json "$rtapp" "$bin" sim --set workload.type=rtapp --set workload.file=@
past $((64 << 20)) big-learned.model "$rtapp" "$bin" sim --set workload.type=learned --set workload.file=@
past $((256 << 20)) big.dump "larger than 256 MiB; not a sysfs dump?" "$bin" info --sysfs-dump @
export IDLEKIT_COMPARE_MAX_MB=1
past $((1 << 20)) big-result.json "1.0 MB: larger than compare reads (1 MB" "$bin" compare @
unset IDLEKIT_COMPARE_MAX_MB
check "sweep: nothing written" test ! -e "$tmp/sweep-out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
