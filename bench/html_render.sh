#!/usr/bin/env bash
# How big the HTML reports of a large run are and how long a browser takes to open them:
# idlekit sim --html on 128, 256 and 512 CPUs (amd-zen3 with 1, 2 and 4 packages; 20 ms
# simulated, 3 runs), then headless Chromium loading each page (--dump-dom, the best of
# REPS, its own start-up included, so the first line, a tiny page, is the floor).
# Benchmarks print figures; nothing is asserted.
#
# usage: bash bench/html_render.sh BUILD_DIR [REPS]     (chromium needed; default REPS 3)
set -u
build=${1:?usage: html_render.sh BUILD_DIR [REPS]}
reps=${2:-3}
ik=$build/idlekit
[ -x "$ik" ] || { echo "no $ik"; exit 2; }
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "chromium needed (scripts/install-deps installs it)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now_ms() { date +%s%3N; }
load_ms() { # the best of $reps loads of page $1, in ms
	local best=
	for _ in $(seq "$reps"); do
		local profile t0 t1
		profile=$(mktemp -d)
		t0=$(now_ms)
		timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$profile" --dump-dom "file://$1" >/dev/null 2>&1
		t1=$(now_ms)
		rm -rf "$profile"
		local d=$((t1 - t0))
		if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
	done
	echo "$best"
}

printf '<!DOCTYPE html><html><head><title>x</title></head><body>x</body></html>\n' >"$tmp/empty.html"
printf '%-34s %10s %14s\n' "page" "size (kB)" "load (ms)"
printf '%-34s %10s %14s\n' "empty page (browser start-up)" "0" "$(load_ms "$tmp/empty.html")"
for packages in 1 2 4; do
	cpus=$((packages * 128))
	"$ik" sim --set platform.packages=$packages --set scenario.duration_ms=20 --runs 3 \
		--html "$tmp/sim-$cpus.html" >/dev/null || { echo "sim on $cpus CPUs failed"; exit 1; }
	size=$(($(stat -c %s "$tmp/sim-$cpus.html") / 1024))
	printf '%-34s %10s %14s\n' "sim --html, $cpus CPUs, 3 runs" "$size" "$(load_ms "$tmp/sim-$cpus.html")"
done
