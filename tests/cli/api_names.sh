#!/usr/bin/env bash
# The prefix tells public from private (docs/architecture.md): every function or object of
# the library whose name begins `ik_` (one underscore) is named in an installed header
# (include/idlekit/), and every internal one begins `ik__`; the kernel shim's own are `ikk_`.
# Read from the library's symbol table (nm), so a name declared nowhere is seen too.
set -u
bin=$1
. "$(dirname "$0")/check.bash"
lib=$(dirname "$bin")/libidlekit.a
command -v nm >/dev/null || need_tool nm "Debian package binutils"
[ -r "$lib" ] || { echo "FAIL: no $lib beside $bin"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the names the installed headers declare
grep -ohE '\bik_[A-Za-z0-9_]+' include/idlekit/*.h | sort -u >"$tmp/api"
# the library's defined functions and objects (global or file-local), as compiled
nm "$lib" | awk 'NF == 3 && $2 ~ /^[TtDdBbRr]$/ {sub(/\..*/, "", $3); print $3}' | sort -u >"$tmp/defined"
grep -E '^ik_[^_]' "$tmp/defined" >"$tmp/one" || true
comm -23 "$tmp/one" "$tmp/api" >"$tmp/stray"
check "every ik_ symbol of the library is in include/idlekit ($(wc -l <"$tmp/stray") are not: $(head -5 "$tmp/stray" | tr '\n' ' '))" \
	[ ! -s "$tmp/stray" ]
check "the library has internal functions, all ik__ ($(grep -c '^ik__' "$tmp/defined") of them)" \
	grep -q '^ik__' "$tmp/defined"
check "the installed API is defined in the library ($(comm -12 "$tmp/one" "$tmp/api" | wc -l) names)" \
	[ "$(comm -12 "$tmp/one" "$tmp/api" | wc -l)" -ge 20 ]
# no source file defines an ik_ function that is not the API (a static one too, which nm
# may not show once inlined)
grep -rhoE '^[a-z][a-z0-9_ *]*\bik_[a-z][a-z0-9_]*\(' src --include=*.c |
	grep -oE '\bik_[a-z][a-z0-9_]*\($' | tr -d '(' | sort -u >"$tmp/src_defs"
comm -23 "$tmp/src_defs" "$tmp/api" >"$tmp/src_stray"
check "no source file defines an internal ik_ function ($(head -5 "$tmp/src_stray" | tr '\n' ' '))" \
	[ ! -s "$tmp/src_stray" ]

echo "api_names.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
