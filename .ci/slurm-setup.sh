#!/usr/bin/env bash
# A single-node Slurm on loopback for the gate's real tests (tests/test_slurm_real.py).
#
#   .ci/slurm-setup.sh install          apt-get the daemons and the lua plugins (root; idempotent)
#   .ci/slurm-setup.sh start DIR [LUA]  write a slurm.conf under DIR and start munged, slurmctld
#                                       and slurmd from it; LUA: a directory whose job_submit.lua /
#                                       cli_filter.lua are copied beside slurm.conf (the gate;
#                                       without it, pass-through scripts admit every job)
#   .ci/slurm-setup.sh stop DIR         stop the daemons started with DIR (their pid files only)
#   .ci/slurm-setup.sh env DIR          print the environment a client needs (SLURM_CONF=...)
#
# Everything lives under DIR: config, munge key and socket, state, spool, logs, pid files.
# Nothing under /etc is touched and no system service is started, so `stop` ends exactly
# what `start` started. The node has fake GPUs: gres.conf declares
# `Name=gpu Type=a100 File=DIR/dev/gpu[0-3]` (plain files) with AutoDetect=off: no driver.
# Ports: PREFLIGHT_SLURMCTLD_PORT (default 16817), PREFLIGHT_SLURMD_PORT (default 16818).
set -euo pipefail

SBIN=/usr/sbin
NODE=pfnode
CTL_PORT=${PREFLIGHT_SLURMCTLD_PORT:-16817}
D_PORT=${PREFLIGHT_SLURMD_PORT:-16818}

die() { echo "slurm-setup: $*" >&2; exit 1; }

installed() {
  [ -x $SBIN/slurmctld ] && [ -x $SBIN/slurmd ] && [ -x $SBIN/munged ] && command -v sbatch >/dev/null \
    && ls /usr/lib/*/slurm-wlm/job_submit_lua.so >/dev/null 2>&1 \
    && ls /usr/lib/*/slurm-wlm/cli_filter_lua.so >/dev/null 2>&1 && command -v luac5.1 >/dev/null
}

cmd_install() {
  if installed; then
    echo "slurm-setup: slurmctld, slurmd, munge, the lua plugins and luac5.1 are installed"
    return 0
  fi
  [ "$(id -u)" -eq 0 ] || die "install needs root (apt-get)"
  # Debian bookworm: the lua job_submit/cli_filter plugins are in slurm-wlm-basic-plugins
  # (linked against liblua5.1-0).
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # lua5.1: luac5.1 syntax-checks the plugins (tests/test_gate.py) with the Lua Slurm links.
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge \
    slurm-wlm-basic-plugins lua5.1 >/dev/null
  # The packages' own services (if their scripts start any) are left alone: the tests run
  # separate daemons with their own config, munge socket and ports.
  installed || die "packages installed but a binary or lua plugin is missing"
  echo "slurm-setup: installed"
}

running() {  # running PID: exists and is not a zombie (a daemon's zombie waits for init to reap it)
  kill -0 "$1" 2>/dev/null && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != "Z" ]
}

alive() {  # alive PIDFILE
  [ -s "$1" ] && running "$(cat "$1")"
}

write_conf() {  # write_conf DIR
  local dir=$1 ncpu
  ncpu=$(nproc)
  mkdir -p "$dir"/{munge,state,spool,log,jobs}
  chmod 700 "$dir/munge"
  if [ ! -s "$dir/munge/munge.key" ]; then
    head -c 1024 /dev/urandom > "$dir/munge/munge.key"
    chmod 400 "$dir/munge/munge.key"
  fi
  cat > "$dir/slurm.conf" <<EOF
# written by .ci/slurm-setup.sh: a single node on loopback, fake GPUs
ClusterName=preflight
SlurmctldHost=localhost
SlurmctldPort=$CTL_PORT
SlurmdPort=$D_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
GresTypes=gpu
JobSubmitPlugins=lua
CliFilterPlugins=lua
NodeName=$NODE NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$ncpu RealMemory=1000 Gres=gpu:a100:4 Feature=a100 State=UNKNOWN
PartitionName=a100 Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
  # Fake GPU devices: plain files (Slurm only needs a path per device with task/none).
  mkdir -p "$dir/dev"
  touch "$dir"/dev/gpu{0,1,2,3}
  cat > "$dir/gres.conf" <<EOF
AutoDetect=off
NodeName=$NODE Name=gpu Type=a100 File=$dir/dev/gpu[0-3]
EOF
  # An empty gate admits everything until the real one is installed.
  if [ ! -e "$dir/job_submit.lua" ]; then
    cat > "$dir/job_submit.lua" <<'EOF2'
function slurm_job_submit(job_desc, part_list, submit_uid) return slurm.SUCCESS end
function slurm_job_modify(job_desc, job_rec, part_list, modify_uid) return slurm.SUCCESS end
EOF2
  fi
  if [ ! -e "$dir/cli_filter.lua" ]; then
    cat > "$dir/cli_filter.lua" <<'EOF2'
function slurm_cli_setup_defaults(options, early_pass) return slurm.SUCCESS end
function slurm_cli_pre_submit(options, pack_offset) return slurm.SUCCESS end
function slurm_cli_post_submit(offset, job_id, step_id) return slurm.SUCCESS end
EOF2
  fi
}

wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...
  local limit=$1 what=$2 i
  shift 2
  for ((i = 0; i < limit * 4; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.25
  done
  return 1
}

cmd_start() {
  local dir=${1:?start DIR [LUA_DIR]} lua=${2:-}
  installed || die "Slurm is not installed (run: $0 install)"
  [ "$(id -u)" -eq 0 ] || die "start needs root (slurmd runs jobs as their user)"
  dir=$(mkdir -p "$dir" && cd "$dir" && pwd)
  write_conf "$dir"
  if [ -n "$lua" ]; then
    cp "$lua"/job_submit.lua "$lua"/cli_filter.lua "$dir"/
  fi
  export SLURM_CONF=$dir/slurm.conf
  if ! alive "$dir/munged.pid"; then
    $SBIN/munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
      --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"
  fi
  wait_for 10 munged test -S "$dir/munge/munge.socket" || die "munged did not start: $(tail -5 "$dir/log/munged.log")"
  if ! alive "$dir/slurmctld.pid"; then
    $SBIN/slurmctld -c -f "$dir/slurm.conf"  # -c: a clean state
  fi
  wait_for 30 slurmctld scontrol ping || die "slurmctld did not answer: $(tail -20 "$dir/log/slurmctld.log")"
  if ! alive "$dir/slurmd.pid"; then
    $SBIN/slurmd -f "$dir/slurm.conf" -N $NODE
  fi
  if ! wait_for 60 "node idle" sh -c "sinfo -h -n $NODE -o %T | grep -qx idle"; then
    die "node $NODE is not idle: $(sinfo -h -n $NODE -o '%T %E' 2>&1); slurmd log: $(tail -20 "$dir/log/slurmd.log")"
  fi
  echo "slurm-setup: running (SLURM_CONF=$dir/slurm.conf)"
}

cmd_stop() {
  local dir=${1:?stop DIR} name pid i
  [ -d "$dir" ] || return 0
  for name in slurmd slurmctld munged; do
    if alive "$dir/$name.pid"; then
      pid=$(cat "$dir/$name.pid")
      kill "$pid" 2>/dev/null || true
      for ((i = 0; i < 40; i++)); do
        running "$pid" || break
        sleep 0.25
      done
      if running "$pid"; then kill -9 "$pid" 2>/dev/null || true; fi
    fi
    rm -f "$dir/$name.pid"
  done
  echo "slurm-setup: stopped the daemons of $dir"
}

case "${1:-}" in
  install) cmd_install ;;
  start) shift; cmd_start "$@" ;;
  stop) shift; cmd_stop "$@" ;;
  env) echo "SLURM_CONF=${2:?env DIR}/slurm.conf" ;;
  *) die "usage: $0 install | start DIR [LUA_DIR] | stop DIR | env DIR" ;;
esac
