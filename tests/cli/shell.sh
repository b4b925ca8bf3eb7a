#!/usr/bin/env bash
# Shell conventions: bare `idlekit` prints usage on stderr and exits 2; `help nosuch` exits 2;
# every command's --help exits 0 and mentions an example; the manual pages are generated from
# --help (help2man) and installed by `cmake --install`, with the bash completion, which
# offers the commands, a command's options, governors and platforms.
# Without help2man: FAIL under CI=true, else the man-page part is skipped.
#
# usage (from the project root): bash tests/cli/shell.sh /path/to/idlekit
set -u
bin=$(realpath "${1:?usage: shell.sh /path/to/idlekit}")
cd "$(dirname "$0")/../.." || exit 1
build=$(dirname "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

"$bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "bare idlekit: exit $rc, expected 2"
[ -s "$tmp/out" ] && fail "bare idlekit: wrote to stdout (it must not run a simulation)"
grep -q '^usage: idlekit COMMAND' "$tmp/err" || fail "bare idlekit: no usage on stderr"
"$bin" help nosuch >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "help nosuch: exit $rc, expected 2"
grep -q "^idlekit help: no command 'nosuch'" "$tmp/err" || fail "help nosuch: $(cat "$tmp/err")"
"$bin" nosuch >/dev/null 2>&1
[ $? -eq 2 ] || fail "unknown command: exit status"
"$bin" help >/dev/null || fail "help: exit $?"
"$bin" help sim | grep -q '^usage: idlekit sim' || fail "help sim"
cmds="sim compare platform govreplay analyze replay record import info set monitor wakelat ctxsw validate"
for c in $cmds; do
	"$bin" $c --help >"$tmp/h" 2>&1 || fail "$c --help: exit $?"
	"$bin" help $c | cmp -s - "$tmp/h" || fail "help $c differs from $c --help"
done

# ---- the manual pages and the completion, installed -------------------------------------
if ! command -v help2man >/dev/null; then
	if [ "${CI:-}" = true ]; then
		fail "help2man is not installed (scripts/install-deps installs it)"
	else
		echo "SKIP (part): help2man not installed: no manual pages to check"
	fi
else
	[ -f "$build/man/idlekit.1" ] || fail "build/man/idlekit.1 not generated"
	cmake --install "$build" --prefix "$tmp/inst" >/dev/null 2>"$tmp/err" || fail "cmake --install: $(cat "$tmp/err")"
	[ -x "$tmp/inst/bin/idlekit" ] || fail "install: no bin/idlekit"
	man1=$tmp/inst/share/man/man1
	[ -f "$man1/idlekit.1" ] || fail "install: no share/man/man1/idlekit.1"
	for c in $cmds; do [ -f "$man1/idlekit-$c.1" ] || fail "install: no idlekit-$c.1"; done
	# the page is the --help text: every command of the usage, and sim's options
	if command -v man >/dev/null; then
		MANWIDTH=200 man -l "$man1/idlekit.1" 2>/dev/null >"$tmp/page"
		for c in sim compare govreplay analyze replay record import info wakelat ctxsw; do
			grep -q "^ *$c" "$tmp/page" || fail "idlekit(1) lacks the command $c"
		done
		MANWIDTH=200 man -l "$man1/idlekit-sim.1" 2>/dev/null >"$tmp/simpage"
		grep -q -- '--set SECTION.KEY=VALUE' "$tmp/simpage" || fail "idlekit-sim(1) lacks --set"
		grep -q '^NAME' "$tmp/simpage" && grep -q 'idlekit-sim - ' "$tmp/simpage" || fail "idlekit-sim(1) NAME section"
	else
		grep -q '^\.SH' "$man1/idlekit.1" || fail "idlekit.1 is not a man page"
		grep -q 'govreplay' "$man1/idlekit.1" || fail "idlekit.1 lacks govreplay"
	fi
	comp=$tmp/inst/share/bash-completion/completions/idlekit
	[ -f "$comp" ] || fail "install: no bash completion at share/bash-completion/completions/idlekit"
	# The installed binary compiles kernel: governors against the shim beside it, also once
	# its prefix is moved (as after copying an install elsewhere), never the source tree's.
	mv "$tmp/inst" "$tmp/moved"
	csv=tests/kgov/probe0-sleep-length.csv
	IDLEKIT_GOV_VERBOSE=1 IDLEKIT_CACHE_DIR=$tmp/cache "$tmp/moved/bin/idlekit" govreplay \
		--governor kernel:tests/kgov/probe.c --platform intel-skx --param probe=0 --input $csv -q \
		>"$tmp/kout" 2>"$tmp/kerr" || fail "installed, moved: kernel: governor: $(cat "$tmp/kerr")"
	grep -q "kernel shim $tmp/moved/share/idlekit/kshim\$" "$tmp/kerr" ||
		fail "installed, moved: not the shim beside the binary: $(grep 'kernel shim' "$tmp/kerr")"
	cmp -s "$tmp/kout" tests/kgov/probe0-sleep-length.expected ||
		fail "installed, moved: the governor's decisions differ from the build tree's"
	rm -rf "$tmp/moved/share/idlekit/kshim" "$tmp/cache"
	"$tmp/moved/bin/idlekit" govreplay --governor kernel:tests/kgov/probe.c --platform intel-skx \
		--input $csv -q >/dev/null 2>"$tmp/kerr"
	grep -q "the kernel shim's headers are not where this idlekit looks: $tmp/moved/bin/../share/idlekit/kshim" "$tmp/kerr" ||
		fail "installed without its shim: $(cat "$tmp/kerr")"
fi

# ---- the completion offers what it should ---------------------------------------------------
cat >"$tmp/c.sh" <<'C'
source completion/idlekit.bash
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _idlekit; echo "${COMPREPLY[*]}"; }
PATH=$1:$PATH
echo "top: $(comp idlekit '')"
echo "s: $(comp idlekit s)"
echo "sim-opt: $(comp idlekit sim --ru)"
echo "gov: $(comp idlekit replay x.trace -g '')"
echo "plat: $(comp idlekit platform show intel-s)"
echo "platsub: $(comp idlekit platform '')"
echo "help: $(comp idlekit help wak)"
echo "info: $(comp idlekit info --du)"
echo "setkey: $(comp idlekit sim --set cpuidle.gov)"
echo "setval: $(comp idlekit sim --set cpuidle.governor = t)"
echo "wtype: $(comp idlekit sim --set workload.type = sch)"
echo "plat2: $(comp idlekit sim --set scenario.platform = intel-sk)"
echo "ver: $(comp idlekit sim --vary kernel.version = 6.1)"
echo "scen: $(comp idlekit sim seed003-t)"
echo "kshow: $(comp idlekit kernel show 4.1)"
C
bash "$tmp/c.sh" "$build" >"$tmp/comp" 2>&1 || fail "completion script: $(cat "$tmp/comp")"
for c in $cmds help version; do
	grep -q "^top: .*\b$c\b" "$tmp/comp" || fail "completion: the commands lack $c: $(grep top "$tmp/comp")"
done
grep -qx 's: set sim sweep' "$tmp/comp" || fail "completion 's': $(grep '^s:' "$tmp/comp")"
grep -qx 'sim-opt: --runs' "$tmp/comp" || fail "completion sim --ru: $(grep sim-opt "$tmp/comp")"
grep -qx 'gov: menu teo ladder haltpoll' "$tmp/comp" || fail "completion -g: $(grep gov "$tmp/comp")"
grep -q '^plat: .*intel-skx.*intel-spr' "$tmp/comp" || fail "completion platform show: $(grep '^plat:' "$tmp/comp")"
grep -qx 'platsub: list show import calibrate' "$tmp/comp" || fail "completion platform: $(grep platsub "$tmp/comp")"
grep -qx 'help: wakelat' "$tmp/comp" || fail "completion help: $(grep '^help:' "$tmp/comp")"
grep -qx 'info: --dump' "$tmp/comp" || fail "completion info --du: $(grep '^info:' "$tmp/comp")"
grep -qx 'setkey: cpuidle.governor=' "$tmp/comp" || fail "completion --set key: $(grep '^setkey:' "$tmp/comp")"
grep -qx 'setval: teo' "$tmp/comp" || fail "completion --set value: $(grep '^setval:' "$tmp/comp")"
grep -qx 'wtype: schbench' "$tmp/comp" || fail "completion workload.type: $(grep '^wtype:' "$tmp/comp")"
grep -qx 'plat2: intel-skx' "$tmp/comp" || fail "completion scenario.platform: $(grep '^plat2:' "$tmp/comp")"
grep -q '^ver: 6.1 .*6.19' "$tmp/comp" || fail "completion kernel.version: $(grep '^ver:' "$tmp/comp")"
grep -qx 'scen: seed003-tick-mixed seed003-tick seed003-tickless' "$tmp/comp" || fail "completion scenario: $(grep '^scen:' "$tmp/comp")"
grep -qx 'kshow: 4.16 4.17 4.18 4.19' "$tmp/comp" || fail "completion kernel show: $(grep '^kshow:' "$tmp/comp")"

if [ $failures -ne 0 ]; then
	echo "shell: $failures failure(s)"
	exit 1
fi
echo "shell: all passed"
