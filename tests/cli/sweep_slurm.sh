#!/usr/bin/env bash
# A real Slurm cluster of one node on localhost: munged with its own key and socket,
# slurmctld and slurmd from a generated slurm.conf (private ports, state, spool, pid and log
# files under a temporary folder), started here as root and stopped at the end.  A 20-point
# sweep goes in as a job array (idlekit sweep slurm --submit), the shards are merged, and
# the result must be the same bytes as the sweep run here with -j 2.
# Without Slurm or root: FAIL when CI is set (CI=true, as .ci/run sets it), else SKIP (77).
set -u
bin=$(realpath "$1")
skip() {
  if [ "${CI:-}" = true ]; then echo "FAIL: $1"; exit 1; fi
  echo "SKIP: $1"; exit 77
}
for p in munged munge slurmctld slurmd sbatch squeue scontrol sinfo scancel; do
  command -v "$p" >/dev/null || skip "$p is not installed (scripts/install-deps installs munge, slurmctld, slurmd, slurm-client)"
done
[ "$(id -u)" = 0 ] || skip "the cluster's daemons are started as root"

tmp=$(mktemp -d /tmp/idlekit-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
job=""
export SLURM_CONF=$tmp/slurm.conf
cleanup() {
  [ -n "$job" ] && timeout 10 scancel "$job" 2>/dev/null
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
die() {
  echo "FAIL: $1"
  for f in "$tmp"/log/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done
  exit 1
}
# wait_for SECONDS CMD...: until CMD succeeds, at most SECONDS
wait_for() {
  local limit=$1; shift
  local end=$((SECONDS + limit))
  while [ "$SECONDS" -lt "$end" ]; do timeout 20 "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  return 1
}
free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 30000))
    if ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then echo "$p"; return; fi
  done
  echo 0
}

mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/run"
chmod 711 "$tmp/munge"
# every wait below is bounded (wait_for, timeout), so the test cannot hang
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
  --seed-file="$tmp/munge/munged.seed" --foreground >"$tmp/log/munged.out" 2>&1 &
pids+=($!)
wait_for 20 bash -c "munge -n -S '$tmp/munge/munge.socket' | unmunge -S '$tmp/munge/munge.socket'" ||
  die "munged did not start"

host=$(hostname -s)
cpus=$(nproc)
ctld_port=$(free_port)
d_port=$(free_port)
while [ "$d_port" = "$ctld_port" ]; do d_port=$(free_port); done
cat >"$SLURM_CONF" <<CONF
ClusterName=idlekit-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
wait_for 30 bash -c "scontrol ping | grep -q UP" || die "slurmctld did not come up"
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
wait_for 60 bash -c "sinfo -h -n '$host' -o %T | grep -qE '^(idle|mixed|allocated)'" ||
  die "the node did not come up ($(sinfo -h -o '%T %E' 2>&1))"

# a 20-point sweep of short runs: 2 governors x 10 pair counts, 2 runs each
cat >"$tmp/spec.ini" <<'INI'
[sweep]
base = default
runs = 2
vary.cpuidle.governor = menu,teo
vary.workload.pairs = 1,2,3,4,5,6,7,8,9,10
[scenario]
duration_ms = 10
warmup_ms = 5
INI

timeout 300 "$bin" sweep "$tmp/spec.ini" -o "$tmp/local" -j 2 -q || die "the local sweep failed"
grep -qx 'points 20' "$tmp/local/manifest" || die "the sweep does not have 20 points"

out=$(timeout 60 "$bin" sweep slurm "$tmp/spec.ini" -o "$tmp/cluster" --shards 5 \
  --partition debug --time 00:10:00 --cpus-per-task 1 --submit 2>"$tmp/submit.err") ||
  die "sweep slurm --submit failed: $out $(cat "$tmp/submit.err")"
grep -q "submitted: the job id above, 5 array tasks; when they are done: idlekit sweep merge -o $tmp/cluster/merged $tmp/cluster/shard-\*" "$tmp/submit.err" ||
  die "sweep slurm --submit: no word of what comes next: $(cat "$tmp/submit.err")"
job=$(printf '%s\n' "$out" | tail -n 1 | cut -d';' -f1)
case "$job" in ''|*[!0-9]*) die "sbatch gave no job id: $out" ;; esac
wait_for 300 bash -c "[ -z \"\$(squeue -h -j $job 2>/dev/null)\" ]" || die "job $job did not finish in 300 s"
job_done=$job
job=""
for i in 0 1 2 3 4; do
  grep -qx "shard $i/5" "$tmp/cluster/shard-$i/manifest" 2>/dev/null ||
    die "array task $i wrote no shard ($(cat "$tmp/cluster/logs/shard-$i.out" 2>/dev/null))"
done
timeout 120 "$bin" sweep merge -o "$tmp/merged" "$tmp"/cluster/shard-* || die "sweep merge failed"
for f in manifest spec.ini rows.csv results.csv results.json summary.csv index.html; do
  cmp "$tmp/local/$f" "$tmp/merged/$f" || die "$f: the cluster's merged result differs from -j 2"
done
echo "sweep_slurm: job $job_done, 5 array tasks, 20 points merged: identical to the local -j 2 run"
