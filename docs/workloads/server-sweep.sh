#!/usr/bin/env bash
# menu vs teo for a request/response server at three loads, on Milan and Sapphire Rapids:
# the sweep behind docs/workloads.md.  A small loop over `idlekit sim --set ...`; a sweep
# spec (the `sweep` command) will replace it.
#
#   bash docs/workloads/server-sweep.sh [BUILD_DIR] [OUT_DIR]
#
# Writes OUT_DIR/<platform>-<governor>-<load>.json (3 seeds each), the compare HTML of
# menu against teo per platform and load, and prints the table of docs/workloads.md.
set -eu
build=${1:-build}
out=${2:-/tmp/idlekit-server-sweep}
mkdir -p "$out"
for plat in amd-zen3-milan intel-spr; do
  for gov in menu teo; do
    for load in 10 50 90; do
      "$build/idlekit" sim --runs 3 --json -o "$out/$plat-$gov-$load.json" \
        --set scenario.name="server-$load" --set scenario.platform=$plat \
        --set cpuidle.driver=auto --set cpuidle.governor=$gov \
        --set scenario.duration_ms=2000 --set scenario.warmup_ms=200 \
        --set workload.type=server --set workload.workers=8 --set workload.irq_cpu=0 \
        --set workload.load_pct=$load --set "workload.service_ns=lognormal 35000 0.5"
    done
  done
  for load in 10 50 90; do
    "$build/idlekit" compare "$out/$plat-menu-$load.json" "$out/$plat-teo-$load.json" \
      -o "$out/$plat-$load-compare.txt" --html "$out/$plat-$load-menu-vs-teo.html"
  done
done
python3 - "$out" <<'PY'
import json, sys, statistics as st
out = sys.argv[1]
print("| platform | load | governor | achieved load % | request p50 us | request p99 us | wake p99 us | queue p99 us | power W | deepest state % |")
print("|---|---|---|---|---|---|---|---|---|---|")
for plat in ("amd-zen3-milan", "intel-spr"):
    for load in (10, 50, 90):
        for gov in ("menu", "teo"):
            d = json.load(open(f"{out}/{plat}-{gov}-{load}.json"))
            runs = d["runs"]
            med = lambda f: st.median(f(r) for r in runs)
            deep = runs[0]["states"][-1]["name"]
            print(f"| {plat} | {load} | {gov} "
                  f"| {med(lambda r: r['requests']['achieved_load_pct']):.1f} "
                  f"| {med(lambda r: r['requests']['latency_ns']['p50']) / 1000:.1f} "
                  f"| {med(lambda r: r['requests']['latency_ns']['p99']) / 1000:.1f} "
                  f"| {med(lambda r: r['requests']['wake_ns']['p99']) / 1000:.1f} "
                  f"| {med(lambda r: r['requests']['queue_ns']['p99']) / 1000:.1f} "
                  f"| {med(lambda r: r['avg_power_w']):.1f} "
                  f"| {deep} {med(lambda r: r['states'][-1]['residency_pct']):.1f} |")
PY
