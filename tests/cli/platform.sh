#!/usr/bin/env bash
# idlekit platform: the catalog, a platform's driver table (cpupower idle-info style), driver
# options and overrides, and bad input.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
. "$(dirname "$0")/check.bash" # check NAME CMD...: counted in pass or fail

"$bin" platform list >"$tmp/list"
check "list exit 0" test $? -eq 0
check "at least 13 built-ins" test "$(wc -l <"$tmp/list")" -ge 13
for p in amd-zen2-rome amd-zen3-milan intel-skx intel-icx intel-spr intel-gnr intel-srf \
         intel-hsw-client intel-hsx ibm-power9 ibm-power10 kvm-guest-haltpoll arm-juno; do
  check "list has $p" grep -q "^$p " "$tmp/list"
done
check "rome runs acpi_idle" grep -qE "^amd-zen2-rome +256 CPUs +acpi_idle" "$tmp/list"
check "power9 runs powernv" grep -qE "^ibm-power9 .*powernv_idle" "$tmp/list"

"$bin" platform show amd-zen2-rome >"$tmp/rome"
check "show exit 0" test $? -eq 0
check "driver line" grep -q "^CPUidle driver: acpi_idle" "$tmp/rome"
check "C2 desc" grep -q "^Flags/Description: ACPI IOPORT 0x814" "$tmp/rome"
check "C2 residency" grep -q "^Residency: 800" "$tmp/rome"
check "cst listed" grep -qE "_CST 2 +C2 SYSTEMIO" "$tmp/rome"

"$bin" platform show amd-zen3 --driver none --set cpuidle.prefer_mwait=vendor >"$tmp/none"
check "default idle routine HLT" grep -q "^Available idle states: HLT" "$tmp/none"
"$bin" platform show intel-hsx-ioport-cst --set kernel.version=5.9 >"$tmp/hsx"
check "5.9 _CST use disables C6" bash -c "grep -A4 '^C6:' '$tmp/hsx' | grep -q 'Default: disabled'"
check "notes say why" grep -q "cst_fallback = legacy" "$tmp/hsx"

expect() {
  local name=$1 code=$2 pattern=$3; shift 3
  "$bin" platform "$@" >"$tmp/o" 2>"$tmp/e"
  local rc=$?
  if [ $rc -eq "$code" ] && grep -qE -- "$pattern" "$tmp/e"; then pass=$((pass + 1))
  else echo "FAIL: $name (exit $rc)"; cat "$tmp/e"; fail=$((fail + 1)); fi
}
expect "driver that does not load" 2 "intel_idle does not load on platform amd-zen3" show amd-zen3 --driver intel_idle
expect "unknown platform" 2 "unknown platform 'nope'" show nope
printf '[platform]\nname = x\npackages = 1\ncores_per_package = 1\nthreads_per_core = 1\nactive_power_mw = 1\n[state0]\nname = POLL\nlatency_us = 0\nresidency_us = 0\nmethod = poll\n[cst1]\ntype = C1\nmethod = mwait\n' >"$tmp/bad.ini"
expect "bad _CST method" 2 "bad.ini:14: \\[cst1\\] method: expected one of: ffh" show "$tmp/bad.ini"
expect "missing option value" 2 "--set needs a value" show amd-zen3 --set

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
