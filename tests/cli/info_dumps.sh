#!/usr/bin/env bash
# idlekit info on captured machines (tests/fixtures/sysfs, whole dumps with counters): every
# per-state figure it prints, CPU by CPU, is the dump's; CPUs fold into one group; the text
# for one CPU shows the same figures; a 512-CPU machine folds and reads quickly.
set -eu  # no pipefail: "idlekit ... | grep -q" may end idlekit early with SIGPIPE
ik=$1
fix=tests/fixtures/sysfs
dumps=(adl0 aml-y-2 bdwde0 bdwup0 cfl-u dell-9360-kbl dell-latitude-5420-tgl icx2s3 mtl-m-2
       skld0 snr0)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

fields="name desc latency residency power usage time above below rejected disable default_status"

# "cpu state field value" for every state file of the dump.
expected() {
	awk -F'|' -v fields="$fields" '
		BEGIN { n = split(fields, f, " "); for (i = 1; i <= n; i++) want[f[i]] = 1 }
		match($2, /^\/sys\/devices\/system\/cpu\/cpu[0-9]+\/cpuidle\/state[0-9]+\/[a-z_]+$/) {
			split($2, p, "/")
			cpu = substr(p[6], 4); st = substr(p[8], 6); field = p[9]
			if (field in want) print cpu, st, field, $3
		}' "$1" | sort
}

# The same from idlekit's CSV (power -1 is how sysfs's 4294967295 reads as a signed value).
from_csv() {
	awk -F, -v fields="$fields" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{
			n = split(fields, f, " ")
			for (i = 1; i <= n; i++) {
				name = f[i]; c = name
				if (name == "latency") c = "latency_us"
				if (name == "residency") c = "residency_us"
				if (name == "power") c = "power_mw"
				if (name == "time") c = "time_us"
				v = $(col[c])
				if (name == "power" && v == "-1") v = "4294967295"
				print $(col["cpu"]), $(col["state"]), name, v
			}
		}' "$1" | sort
}

for d in "${dumps[@]}"; do
	f=$fix/$d.txt
	[ -f "$f" ] || fail "$f missing"
	"$ik" info --sysfs-dump "$f" --csv > "$tmp/$d.csv" || fail "$d: info --csv failed"
	expected "$f" > "$tmp/$d.want"
	from_csv "$tmp/$d.csv" > "$tmp/$d.got"
	[ -s "$tmp/$d.want" ] || fail "$d: no states in the dump?"
	diff -u "$tmp/$d.want" "$tmp/$d.got" > "$tmp/$d.diff" ||
		{ head -20 "$tmp/$d.diff" >&2; fail "$d: info --csv differs from the dump"; }

	# The text for CPU 0: index, name, latency, residency, usage and time of every state.
	"$ik" info --sysfs-dump "$f" --cpu 0 > "$tmp/$d.txt" || fail "$d: info --cpu 0 failed"
	grep -q "^driver: *$(grep 'cpuidle/current_driver|' "$f" | cut -d'|' -f3)\$" "$tmp/$d.txt" ||
		fail "$d: driver line"
	awk -F'  +' '/^state/ { on = 1; next } on && NF > 5 { print $1, $2, $4, $5, $7, $8 }' \
		"$tmp/$d.txt" | sort > "$tmp/$d.text"
	awk '$1 == 0 { v[$2 " " $3] = $4; s[$2] = 1 }
	     END { for (k in s) print k, v[k " name"], v[k " latency"], v[k " residency"],
	                        v[k " usage"], v[k " time"] }' "$tmp/$d.want" | sort > "$tmp/$d.text.want"
	diff -u "$tmp/$d.text.want" "$tmp/$d.text" >&2 || fail "$d: text for CPU 0 differs from the dump"

	# Every CPU of these machines has one table: one folded group.
	ncpus=$(cut -d, -f1 "$tmp/$d.csv" | sed 1d | sort -u | wc -l)
	grep -q "^CPUs 0-$((ncpus - 1)): [0-9]* idle states; usage, time, above, below and rejected summed over these $ncpus CPUs" \
		<("$ik" info --sysfs-dump "$f") || fail "$d: CPUs not folded into one group"

	# JSON: one object per CPU and state.
	"$ik" info --sysfs-dump "$f" --json > "$tmp/$d.json" || fail "$d: --json"
	grep -q '"schema": "idlekit.info/1"' "$tmp/$d.json" || fail "$d: JSON schema"
	[ "$(grep -c '"index":' "$tmp/$d.json")" = "$(sed 1d "$tmp/$d.csv" | wc -l)" ] ||
		fail "$d: JSON and CSV disagree on the number of states"
	echo "ok: $d ($ncpus CPUs, $(wc -l < "$tmp/$d.want") figures)"
done

# A machine of 512 CPUs: dell-9360-kbl's CPU 0 copied 512 times, usage = 1000 + CPU.
big=$tmp/big512.txt
{
	echo "ro|/sys/devices/system/cpu/online|0-511"
	grep 'cpu/cpuidle/' $fix/dell-9360-kbl.txt
	grep '/cpu0/cpuidle/' $fix/dell-9360-kbl.txt | grep -v '/usage|' > "$tmp/cpu0"
	for cpu in $(seq 0 511); do
		sed "s#/cpu0/#/cpu$cpu/#" "$tmp/cpu0"
		for st in 0 1 2 3 4 5 6 7 8; do
			echo "rw|/sys/devices/system/cpu/cpu$cpu/cpuidle/state$st/usage|$((1000 + cpu))"
		done
	done
} > "$big"
start=$(date +%s%N)
"$ik" info --sysfs-dump "$big" > "$tmp/big.txt" || fail "512 CPUs: info failed"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q '^CPUs 0-511: 9 idle states; usage, time, above, below and rejected summed over these 512 CPUs' \
	"$tmp/big.txt" || fail "512 CPUs not folded into one group"
# Sum of usage over 512 CPUs: 512 * 1000 + 511 * 512 / 2.
grep -Eq "^0 +POLL +CPUIDLE CORE POLL IDLE +0 +0 +- +$((512 * 1000 + 511 * 256)) " "$tmp/big.txt" ||
	fail "512 CPUs: summed usage"
"$ik" info --sysfs-dump "$big" --csv | sed 1d | wc -l | grep -qx 4608 || fail "512 CPUs: CSV rows"
"$ik" info --sysfs-dump "$big" --cpu 511 --csv | grep -q '^511,1,0,intel_idle,0,POLL,' ||
	fail "512 CPUs: --cpu 511"
echo "ok: 512 CPUs in ${ms} ms"
