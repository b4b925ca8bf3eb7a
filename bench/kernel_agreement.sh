#!/usr/bin/env bash
# Each release's built-in governors against that release's own governor files, decision
# by decision.  For every release the kernel shim serves and every governor idlekit runs
# as that release, the same generated govreplay streams go through
#   idlekit govreplay -g G              --kernel X.Y      (idlekit's model of release X.Y)
#   idlekit govreplay -g kernel:DIR/kX.Y/G.c --kernel X.Y (the release's own file, unmodified)
# and the 'state,stop_tick' lines are compared.  Prints one line per release and governor:
# agreeing lines / lines, and the first disagreeing line if any.  Then teo of the releases
# that have no tree here but whose teo idlekit takes to be a tree's (5.5, 5.6 and 5.8 =
# 5.7.14's file, 6.9 = 6.6.9's, 6.11 = 6.12.0's, 6.15 = 6.14.0's and 6.18.2's, 6.17 = 6.18.2's,
# ...) against that file, labelled e.g. 6.9<-6.6.
#
#   bash bench/kernel_agreement.sh KDIR [BUILD_DIR [LINES]]
#
# KDIR holds one folder per release, kX.Y/ (k5.2 for the 5.2.1 tree, run as release 5.1:
# idlekit takes 5.1's teo to be 5.2.1's file), with that release's
# drivers/cpuidle/governors/*.c (and gov.h where the release has one), e.g. made with
#   git -C LINUX-6.6 show HEAD:drivers/cpuidle/governors/menu.c > /tmp/k6.6/menu.c
# The kernel files stay outside the project.  A release folder or governor file that is
# missing is reported as such and skipped.  LINES (default 25000) is per stream; there is
# one stream per table x HZ (250, 1000): intel-skx, amd-zen3, client-deep and
# tick-residency (a polling state, deep states, a residency of exactly a tick at HZ 250),
# and kvm-guest-haltpoll's table for haltpoll; for teo also no-poll and guest-haltpoll (two
# states, without and with a polling state 0).  Exit status: 0 if every pair agrees on
# every line, 1 if not, 2 on bad usage.  GOVERNORS="teo" (say) limits the run to those,
# FOLDERS="5.7 5.9" to those release folders, PAIRS="5.7:5.8" (PAIRS="" for none) to those
# tree-for-release pairs, SWITCHES="teo_drop_residency_check=on" (say) flips those switches
# in both runs (a stable release's file: FOLDERS=6.18.35 runs as 6.18 with the flips; a
# folder of a commit between releases, e.g. k7.0.1, runs as 7.0 with the later commits'
# switches flipped off), TABLES="intel-skx tests/govreplay/platforms/equal-residency.ini"
# (say) replaces every governor's tables with those.
set -u
kdir=${1:?usage: kernel_agreement.sh KDIR [BUILD_DIR [LINES]]}
build=${2:-build}
lines=${3:-25000}
here=$(cd "$(dirname "$0")/.." && pwd)
ik="$build/idlekit"
[ -x "$ik" ] || { echo "kernel_agreement: $ik not built" >&2; exit 2; }
[ -d "$kdir" ] || { echo "kernel_agreement: $kdir: not a folder" >&2; exit 2; }
plat="$here/tests/govreplay/platforms"
flips=()
for sw in ${SWITCHES:-}; do flips+=(--switch "$sw"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A deterministic stream (Park-Miller generator, exact in awk's doubles, so every awk
# gives the same bytes).  Per line: a timer from 0 to 20 ms in bands (sub-10 us, tens of
# us, hundreds of us, ms) or none; an IPI on 30 % of lines, often before the timer; a
# latency limit on 5 %; the tick already stopped on 15 %; the CPU's utilisation
# (sched_cpu_util(), of 1024) below teo's 6.3-6.10 threshold of 16 on half the lines, up to
# 1024 on the rest (only teo of 6.3-6.10 reads it; the others ignore the column); tasks
# waiting on I/O (nr_iowait_cpu()) on a quarter of the lines, 1 to 3 (menu before 6.13
# reads it, through the shim's nr_iowait_cpu() for the kernel's own file).
gen() { # seed hz lines
	awk -v seed="$1" -v hz="$2" -v n="$3" 'BEGIN {
		s = seed; tick = int((1000000000 + hz / 2) / hz)
		print "sleep_ns,tick_ns,wake_ns,latency_req_ns,tick_stopped,cpu_util,nr_iowaiters"
		for (i = 0; i < n; i++) {
			band = r(10)
			if (band == 0) sl = "-"
			else if (band <= 2) sl = r(10000)
			else if (band <= 4) sl = r(100000)
			else if (band <= 6) sl = r(1000000)
			else sl = r(20000000)
			tk = 1 + r(tick)
			w = r(10)
			if (w < 3) wk = (r(2) && sl != "-") ? r(sl + 1) : r(5000000)
			else wk = "-"
			lat = "-"
			if (r(20) == 0) lat = r(4) == 0 ? 0 : r(300000)
			st = r(20) < 3 ? 1 : 0
			u = r(2) ? r(16) : r(1025)
			io = r(4) == 0 ? 1 + r(3) : 0
			print sl "," tk "," wk "," lat "," st "," u "," io
		}
	}
	function r(m) { s = (s * 16807) % 2147483647; return int(s / 2147483647 * m) }'
}

# governors each release runs natively (teo only where idlekit models that release's teo)
tables_for() { # governor
	if [ -n "${TABLES:-}" ]; then echo "$TABLES"; return; fi
	case "$1" in
	haltpoll) echo "kvm-guest-haltpoll" ;;
	# teo also on two-state tables: 6.3-6.10's busy-CPU shortcut for two states, with a
	# polling state 0 (guest-haltpoll) and without (no-poll)
	teo) echo "intel-skx amd-zen3 $plat/client-deep.ini $plat/tick-residency.ini $plat/no-poll.ini $plat/guest-haltpoll.ini" ;;
	*) echo "intel-skx amd-zen3 $plat/client-deep.ini $plat/tick-residency.ini" ;;
	esac
}

status=0
# One release and governor against one kernel file: prints the line, sets status.
compare() { # release governor file label
	local rel=$1 g=$2 f=$3 label=$4
	# a governor idlekit does not model as this release is refused: say so, skip
	if ! msg=$(printf 'sleep_ns,tick_ns,wake_ns\n' | "$ik" govreplay -g "$g" -p intel-skx --kernel "$rel" ${flips[@]+"${flips[@]}"} -q 2>&1 >/dev/null); then
		printf '%-10s %-9s %s\n' "$label" "$g" "not modelled: ${msg#*: }"
		return
	fi
	local agree=0 total=0 first="" seed=1
	for t in $(tables_for "$g"); do
		for hz in 250 1000; do
			seed=$((seed + 7919))
			in="$tmp/in-$seed.csv"
			[ -f "$in" ] || gen "$seed" "$hz" "$lines" > "$in"
			"$ik" govreplay -g "$g" -p "$t" --hz "$hz" --kernel "$rel" ${flips[@]+"${flips[@]}"} -q -i "$in" > "$tmp/a" 2> "$tmp/ea" ||
				{ echo "kernel_agreement: $rel $g: $(cat "$tmp/ea")" >&2; exit 2; }
			"$ik" govreplay -g "kernel:$f" -p "$t" --hz "$hz" --kernel "$rel" ${flips[@]+"${flips[@]}"} -q -i "$in" > "$tmp/b" 2> "$tmp/eb" ||
				{ echo "kernel_agreement: $rel kernel:$f: $(cat "$tmp/eb")" >&2; exit 2; }
			n=$(wc -l < "$tmp/a")
			same=$(paste -d' ' "$tmp/a" "$tmp/b" | awk '$1 == $2' | wc -l)
			agree=$((agree + same)) total=$((total + n))
			if [ "$same" -ne "$n" ] && [ -z "$first" ]; then
				l=$(paste -d' ' "$tmp/a" "$tmp/b" | awk '$1 != $2 {print NR ": idlekit " $1 ", kernel " $2; exit}')
				first="$(basename "$t" .ini) HZ $hz line $l"
			fi
		done
	done
	[ "$agree" -eq "$total" ] || status=1
	printf '%-10s %-9s %-22s %s\n' "$label" "$g" "$agree / $total" "$first"
}

printf '%-10s %-9s %-22s %s\n' release governor agreement first-difference
for folder in ${FOLDERS:-5.2 5.4 5.7 5.9 5.10 5.15 6.1 6.3 6.6 6.12 6.13 6.14 6.18 6.19}; do
	d="$kdir/k$folder"
	rel=$folder
	[ "$folder" = 5.2 ] && rel=5.1
	if [ ! -d "$d" ]; then printf '%-10s %-9s %s\n' "$folder" - "no folder $d"; continue; fi
	for g in ${GOVERNORS:-menu ladder haltpoll teo}; do
		f="$d/$g.c"
		[ -f "$f" ] || { printf '%-10s %-9s %s\n' "$rel" "$g" "no file $f"; continue; }
		compare "$rel" "$g" "$f" "$rel"
	done
done

# Releases without a tree here whose teo idlekit takes to be a tree's file (no teo switch
# between them): each against that file, labelled RELEASE<-TREE.
case " ${GOVERNORS:-teo} " in *" teo "*)
	for pair in ${PAIRS-5.7:5.5 5.7:5.6 5.7:5.8 5.10:5.11 5.15:5.14 6.1:6.0 6.6:6.9 6.12:6.11 6.14:6.15 6.18:6.15 6.18:6.17}; do
		folder=${pair%%:*} rel=${pair#*:}
		f="$kdir/k$folder/teo.c"
		[ -f "$f" ] || { printf '%-10s %-9s %s\n' "$rel" teo "no file $f"; continue; }
		compare "$rel" teo "$f" "$rel<-$folder"
	done
esac
exit $status
