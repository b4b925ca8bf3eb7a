#!/usr/bin/env python3
"""The table of docs/workloads.md from a sweep's summary.csv (medians over the seeds).

    python3 docs/examples/server-menu-vs-teo/table.py /tmp/server-sweep/summary.csv
"""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
print("| platform | load % | governor | achieved load % | request p50 us | request p99 us "
      "| wake p99 us | too deep % | power W |")
print("|---|---|---|---|---|---|---|---|---|")
order = {"amd-zen3-milan": 0, "intel-spr": 1}
rows.sort(key=lambda r: (order.get(r["scenario.platform"], 9), float(r["workload.load_pct"]),
                         r["cpuidle.governor"]))
for r in rows:
    m = lambda k: float(r[k + "_median"])
    print(f"| {r['scenario.platform']} | {r['workload.load_pct']} | {r['cpuidle.governor']} "
          f"| {m('achieved_load_pct'):.1f} | {m('request_p50_ns') / 1000:.1f} "
          f"| {m('request_p99_ns') / 1000:.1f} | {m('wake_p99_ns') / 1000:.1f} "
          f"| {m('too_deep_pct'):.1f} | {m('avg_power_w'):.1f} |")
