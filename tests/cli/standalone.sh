#!/usr/bin/env bash
# The project stands alone: no tracked file may refer to a document that is not in it (the
# team's private notes, kept outside the tree), such as ../shared/x, /work/shared/x,
# spec/platform-data.md, spec/kernel-cpuidle.md, spec/kernel-history.md, spec/peers.md or
# seeds/000 (this line is what the self-check below finds).  Every file tracked by git is searched, the
# generated pages under docs/examples and the fuzz corpora included; only this script is
# left out, since it has to spell the patterns.  Each hit is named (file:line: text).
# The platforms' "pd N" marks are not outside references: they are sections of
# docs/platform-sources.md.
#
# usage (from the project root): bash tests/cli/standalone.sh [/path/to/idlekit]
# (the binary is not used; the argument is accepted as for every tests/cli script)
# Skips (exit 77) outside a git checkout or without git: the search is over git's files.
set -u
cd "$(dirname "$0")/../.." || exit 1
self=tests/cli/standalone.sh

if ! command -v git >/dev/null 2>&1; then
	echo "SKIP: git is not installed"
	exit 77
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "SKIP: not a git checkout (no .git): nothing to list the project's files"
	exit 77
fi

# One extended regular expression per outside document or tree.
patterns=(
	'\.\./shared'
	'/work/shared'
	'spec/platform-data'
	'spec/kernel-cpuidle'
	'spec/kernel-history'
	'spec/peers'
	'seeds/00[0-9]'
)
args=()
for p in "${patterns[@]}"; do args+=(-e "$p"); done

# The test must be able to fail: the patterns have to find themselves in this very file.
for p in "${patterns[@]}"; do
	if ! git grep -q -E -e "$p" -- "$self"; then
		echo "FAIL: pattern '$p' does not match its own line in $self (the search is broken)"
		exit 1
	fi
done

hits=$(git grep -n -E "${args[@]}" -- . ":(exclude)$self")
status=$?
if [ $status -gt 1 ]; then
	echo "FAIL: git grep failed (exit $status)"
	exit 1
fi
if [ -n "$hits" ]; then
	n=$(printf '%s\n' "$hits" | wc -l)
	echo "FAIL: $n line(s) refer to documents outside the project:"
	printf '%s\n' "$hits" | sed 's/^/  /'
	echo "Cite what the project has instead: docs/platform-sources.md for hardware numbers,"
	echo "the kernel source files (with the release) for kernel behaviour, docs/seeds.md for a seed."
	exit 1
fi
echo "standalone: no reference to a document outside the project"
