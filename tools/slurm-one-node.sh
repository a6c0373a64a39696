#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, to try and test the Slurm
# recipes of the docs (docs/testing.md, "Slurm and GNU parallel recipes").
#
#   tools/slurm-one-node.sh start [DIR]    start it; prints `export SLURM_CONF=DIR/slurm.conf`
#   tools/slurm-one-node.sh stop [DIR]     stop it (DIR: the one of $SLURM_CONF) and remove DIR
#   tools/slurm-one-node.sh run -- CMD...  start, run CMD with SLURM_CONF exported, stop
#                                          (also when CMD fails or is interrupted);
#                                          exits with CMD's status
#
# Needs root (Slurm's daemons run as root here: SlurmUser=root). Installs
# slurm-wlm, munge, GNU parallel and /usr/bin/time (the docs' recipes use
# the last two) with apt-get when they are missing. DIR
# (default: a new directory under /tmp) holds everything: the configuration,
# a munge key and socket of its own (a system munged, if any, is left
# alone), the daemons' state, spool, pid and log files. The node is this
# machine (`hostname -s`, at 127.0.0.1) with all its CPUs (nproc) and its
# memory (/proc/meminfo); one partition, `debug`. The daemons are stopped by
# the process ids this script started, never by name.
set -euo pipefail

die() { echo "slurm-one-node: $*" >&2; exit 1; }

install_missing() {
    local missing=()
    command -v sbatch >/dev/null 2>&1 && command -v slurmctld >/dev/null 2>&1 \
        && command -v slurmd >/dev/null 2>&1 || missing+=(slurm-wlm)
    command -v munged >/dev/null 2>&1 || missing+=(munge)
    # The docs' recipes run with these two as well (the endgame loop times its jobs).
    command -v parallel >/dev/null 2>&1 || missing+=(parallel)
    [ -x /usr/bin/time ] || missing+=(time)
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "slurm-one-node: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Stops the daemons listed in DIR/pids (slurmd first, munged last) and removes DIR.
stop_cluster() {
    local dir=$1 pid
    [ -f "$dir/slurm.conf" ] || die "$dir is not a cluster directory of this script"
    # Jobs still running first, while slurmd can end their steps: a job's
    # processes outlive the daemons otherwise.
    if SLURM_CONF="$dir/slurm.conf" squeue -h -o %i 2>/dev/null | grep -q .; then
        SLURM_CONF="$dir/slurm.conf" scancel --user="$(id -un)" 2>/dev/null || true
        for _ in $(seq 100); do
            SLURM_CONF="$dir/slurm.conf" squeue -h -t running,completing -o %i 2>/dev/null | grep -q . || break
            sleep 0.1
        done
    fi
    if [ -f "$dir/pids" ]; then
        for pid in $(tac "$dir/pids"); do
            kill "$pid" 2>/dev/null || true
        done
        for pid in $(tac "$dir/pids"); do
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null || true
        done
    fi
    # A job being launched as it was cancelled can outlive its slurmstepd:
    # the jobs of this cluster are the processes with its SLURM_CONF and a
    # SLURM_JOB_ID in their environment.
    local p env
    for p in /proc/[0-9]*; do
        env=$(tr '\0' '\n' 2>/dev/null <"$p/environ") || continue
        if grep -qxF "SLURM_CONF=$dir/slurm.conf" <<<"$env" && grep -q '^SLURM_JOB_ID=' <<<"$env"; then
            kill -9 "${p#/proc/}" 2>/dev/null || true
        fi
    done
    rm -rf "$dir"
}

start_cluster() {
    local dir=$1 t0 host cpus mem
    t0=$(date +%s.%N)
    [ "$(id -u)" -eq 0 ] || die "needs root (the daemons run as SlurmUser=root)"
    install_missing
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    chmod 700 "$dir"
    mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/munge"
    chmod 700 "$dir/munge"
    host=$(hostname -s)
    cpus=$(nproc)
    # RealMemory in MB, a little under MemTotal so that slurmd's own count is not below it.
    mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.95 }' /proc/meminfo)

    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
    munged --foreground --force --socket="$dir/munge/munge.socket" \
        --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
        --seed-file="$dir/munge/munged.seed" --log-file="$dir/log/munged.log" \
        </dev/null >>"$dir/log/munged.out" 2>&1 &
    echo $! >>"$dir/pids"
    for _ in $(seq 100); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
    [ -S "$dir/munge/munge.socket" ] || { cat "$dir/log/munged.out" "$dir/log/munged.log" >&2 2>/dev/null; die "munged did not start"; }

    cat >"$dir/slurm.conf" <<EOF
ClusterName=tama
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -D -i -f "$SLURM_CONF" </dev/null >>"$dir/log/slurmctld.out" 2>&1 &
    echo $! >>"$dir/pids"
    slurmd -D -f "$SLURM_CONF" -N "$host" </dev/null >>"$dir/log/slurmd.out" 2>&1 &
    echo $! >>"$dir/pids"

    local state=""
    for _ in $(seq 600); do
        state=$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)
        [ "$state" = idle ] && break
        sleep 0.1
    done
    if [ "$state" != idle ]; then
        echo "slurm-one-node: the node is not idle after 60 s (sinfo: '$state'); logs:" >&2
        tail -n 20 "$dir"/log/* >&2 || true
        stop_cluster "$dir"
        exit 1
    fi
    echo "slurm-one-node: node $host ($cpus CPUs, $mem MB) idle after $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s; logs in $dir/log" >&2
}

case "${1:-}" in
    start)
        dir=${2:-$(mktemp -d /tmp/tama-slurm.XXXXXX)}
        start_cluster "$dir"
        echo "export SLURM_CONF=$(cd "$dir" && pwd)/slurm.conf"
        ;;
    stop)
        if [ -n "${2:-}" ]; then dir=$2
        elif [ -n "${SLURM_CONF:-}" ]; then dir=$(dirname "$SLURM_CONF")
        else die "stop: give the cluster's directory, or export its SLURM_CONF"; fi
        stop_cluster "$dir"
        ;;
    run)
        shift
        [ "${1:-}" = "--" ] && shift
        [ $# -gt 0 ] || die "run: no command"
        dir=$(mktemp -d /tmp/tama-slurm.XXXXXX)
        trap 'stop_cluster "$dir"' EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        start_cluster "$dir"
        export SLURM_CONF="$dir/slurm.conf"
        status=0
        "$@" || status=$?
        exit "$status"
        ;;
    *)
        sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
esac
