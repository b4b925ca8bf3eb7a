#!/usr/bin/env bash
# idlekit info agrees with `cpupower idle-info` (Debian's linux-cpupower) on the same tree,
# state by state: name, latency, usage and duration (time), plus driver and governor.
# Each dump is written out as a tree and bind-mounted over /sys/devices/system/cpu in a
# private mount namespace (unshare -m), where cpupower reads it.  Skips (exit 0, SKIP) only
# if cpupower or unshare is missing or mount namespaces are not permitted here.
set -eu
ik=$(realpath "$1")
dumps=(dell-9360-kbl snr0 dell-latitude-5420-tgl adl0 mtl-m-2)
command -v cpupower > /dev/null || { echo "SKIP: cpupower not installed (linux-cpupower)"; exit 0; }
command -v unshare > /dev/null || { echo "SKIP: unshare not installed (util-linux)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
if ! unshare -m sh -c "mount --bind '$tmp' /mnt 2>/dev/null || mount --bind '$tmp' '$tmp'" 2> /dev/null; then
	echo "SKIP: private mount namespaces (unshare -m, mount --bind) not permitted here"
	exit 0
fi

materialize() {
	local dump=$1 root=$2 flag path value dir last=""
	while IFS='|' read -r flag path value; do
		case $path in /sys/*) ;; *) continue ;; esac
		dir=$root${path%/*}
		[ "$dir" = "$last" ] || { mkdir -p "$dir"; last=$dir; }
		printf '%s\n' "$value" > "$root$path"
	done < "$dump"
}

# cpupower's states as "name|latency|usage|duration", one per line.
cpupower_states() {
	awk '/^analyzing CPU/ { on = 1; next }
	     on && /:$/ && !/: / { name = $0; sub(/ *(\(DISABLED\))? *:$/, "", name); next }
	     on && /^Latency: / { lat = $2 }
	     on && /^Usage: / { use = $2 }
	     on && /^Duration: / { print name "|" lat "|" use "|" $2 }' "$1"
}

# idlekit's, from its CSV for CPU 0.
idlekit_states() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	         { print $(c["name"]) "|" $(c["latency_us"]) "|" $(c["usage"]) "|" $(c["time_us"]) }' "$1"
}

for d in "${dumps[@]}"; do
	root=$tmp/$d
	materialize "tests/fixtures/sysfs/$d.txt" "$root"
	# One state disabled, to see cpupower's mark does not get in the way.
	printf '1\n' > "$root/sys/devices/system/cpu/cpu0/cpuidle/state1/disable"
	if ! unshare -m sh -c "mount --bind '$root/sys/devices/system/cpu' /sys/devices/system/cpu &&
			       cpupower -c 0 idle-info" > "$tmp/$d.cpupower" 2> "$tmp/$d.err"; then
		if grep -qiE 'permission|not permitted|denied' "$tmp/$d.err"; then
			echo "SKIP: bind mount over /sys/devices/system/cpu not permitted: $(head -1 "$tmp/$d.err")"
			exit 0
		fi
		fail "$d: cpupower failed: $(cat "$tmp/$d.err")"
	fi
	"$ik" info --sysfs-root "$root" --cpu 0 --csv > "$tmp/$d.csv" || fail "$d: idlekit info"
	"$ik" info --sysfs-root "$root" --cpu 0 > "$tmp/$d.txt" || fail "$d: idlekit info (text)"
	cpupower_states "$tmp/$d.cpupower" > "$tmp/$d.want"
	idlekit_states "$tmp/$d.csv" > "$tmp/$d.got"
	[ -s "$tmp/$d.want" ] || fail "$d: no states in cpupower's output: $(cat "$tmp/$d.cpupower")"
	diff -u "$tmp/$d.want" "$tmp/$d.got" >&2 || fail "$d: idlekit info and cpupower idle-info differ"
	driver=$(sed -n 's/^CPUidle driver: //p' "$tmp/$d.cpupower")
	governor=$(sed -n 's/^CPUidle governor: //p' "$tmp/$d.cpupower")
	grep -q "^driver: *$driver\$" "$tmp/$d.txt" || fail "$d: driver '$driver'"
	grep -q "^governor: *$governor\$" "$tmp/$d.txt" || fail "$d: governor '$governor'"
	echo "ok: $d: $(wc -l < "$tmp/$d.want") states agree with cpupower (driver $driver, governor $governor)"
done

# The live tree: the table agrees (counters move between the two reads, so not those).
if cpupower -c 0 idle-info > "$tmp/live.cpupower" 2> /dev/null && grep -q '^Latency:' "$tmp/live.cpupower"; then
	"$ik" info --cpu 0 --csv > "$tmp/live.csv"
	cpupower_states "$tmp/live.cpupower" | cut -d'|' -f1,2 > "$tmp/live.want"
	idlekit_states "$tmp/live.csv" | cut -d'|' -f1,2 > "$tmp/live.got"
	diff -u "$tmp/live.want" "$tmp/live.got" >&2 || fail "live: state names and latencies differ"
	echo "ok: live tree: $(wc -l < "$tmp/live.want") states agree"
fi
