#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, to try and test the Slurm
# recipes of the docs (docs/testing.md, "Slurm and GNU parallel recipes").
#
#   tools/slurm-one-node.sh start [DIR]    start it; prints `export SLURM_CONF=DIR/slurm.conf`
#   tools/slurm-one-node.sh stop [DIR]     stop it (DIR: the one of $SLURM_CONF) and remove DIR
#                                          (only a DIR that `start` made: see below)
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
# memory (/proc/meminfo); one partition, `debug`.
#
# `stop` acts only on a directory that `start` made: `start` takes a new or
# empty DIR and writes DIR/slurm-one-node.marker (naming DIR) before
# anything else; `stop` refuses, with exit status 1 and nothing cancelled,
# signalled or removed, a DIR without that marker (a real cluster's
# /etc/slurm, say), or whose slurm.conf is not the one `start` wrote there.
# It cancels the jobs that DIR's own controller lists (by id, once
# `scontrol show config` says the controller answering is DIR's), signals
# only the daemons recorded in DIR/pids (id and start time, so a reused id
# is left alone) and the processes of those jobs, then removes DIR.
set -euo pipefail

MARKER=slurm-one-node.marker

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

# The start time of process $1 (/proc/PID/stat, field 22, after the
# command name, which may hold spaces); nothing if there is no such process.
start_time() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
    stat=${stat##*) }
    awk '{ print $20 }' <<<"$stat"
}

# Records a daemon this script started, by id and start time.
record_pid() {
    echo "$1 $(start_time "$1")" >>"$2/pids"
}

# Dies unless $1 is a directory `start` made: its marker names it, and its
# slurm.conf (if written yet) keeps the state in it.
check_own_dir() {
    local dir=$1 abs
    [ -d "$dir" ] || die "$dir: no such directory; nothing stopped"
    abs=$(cd "$dir" && pwd -P)
    [ -f "$abs/$MARKER" ] && [ "$(sed -n 2p "$abs/$MARKER")" = "$abs" ] \
        || die "$dir was not made by \`slurm-one-node.sh start\` (no $MARKER naming it): refusing to stop it; nothing cancelled, signalled or removed"
    if [ -f "$abs/slurm.conf" ] && ! grep -qxF "StateSaveLocation=$abs/state" "$abs/slurm.conf"; then
        die "$abs/slurm.conf is not the one \`slurm-one-node.sh start\` wrote there: refusing to stop it; nothing cancelled, signalled or removed"
    fi
}

# Cancels the jobs of DIR's cluster, stops the daemons listed in DIR/pids
# (slurmd first, munged last) and removes DIR.
stop_cluster() {
    local dir conf ids pid t
    check_own_dir "$1"
    dir=$(cd "$1" && pwd -P)
    conf=$dir/slurm.conf
    # Jobs still running first, while slurmd can end their steps: a job's
    # processes outlive the daemons otherwise. Only once the controller that
    # answers is this directory's (the config it serves keeps its state here).
    ids=""
    if [ -f "$conf" ] && [ "$(SLURM_CONF=$conf scontrol show config 2>/dev/null \
        | awk -F' *= *' '$1 == "StateSaveLocation" { print $2 }')" = "$dir/state" ]; then
        ids=$(SLURM_CONF=$conf squeue -h -t all -o %A 2>/dev/null | sort -un || true)
        local live
        live=$(SLURM_CONF=$conf squeue -h -o %A 2>/dev/null || true)
        if [ -n "$live" ]; then
            # shellcheck disable=SC2086
            SLURM_CONF=$conf scancel $live 2>/dev/null || true
            for _ in $(seq 100); do
                SLURM_CONF=$conf squeue -h -t running,completing -o %A 2>/dev/null | grep -q . || break
                sleep 0.1
            done
        fi
    fi
    if [ -f "$dir/pids" ]; then
        local live_pids=()
        while read -r pid t; do
            if [ -n "${t:-}" ] && [ "$(start_time "$pid")" = "$t" ]; then
                live_pids=("$pid" "${live_pids[@]}")
            fi
        done <"$dir/pids"
        for pid in "${live_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
        for pid in "${live_pids[@]}"; do
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null || true
        done
    fi
    # A job being launched as it was cancelled can outlive its slurmstepd:
    # its processes have this cluster's SLURM_CONF and one of its job ids in
    # their environment.
    if [ -n "$ids" ]; then
        local p env id
        for p in /proc/[0-9]*; do
            env=$(tr '\0' '\n' 2>/dev/null <"$p/environ") || continue
            grep -qxF "SLURM_CONF=$conf" <<<"$env" || continue
            id=$(sed -n 's/^SLURM_JOB_ID=//p' <<<"$env")
            [ -n "$id" ] && grep -qxF "$id" <<<"$ids" && kill -9 "${p#/proc/}" 2>/dev/null || true
        done
    fi
    rm -rf "$dir"
}

start_cluster() {
    local dir=$1 t0 host cpus mem
    t0=$(date +%s.%N)
    # Never an existing directory with files in it: `stop` removes DIR.
    if [ -e "$dir" ]; then
        [ -d "$dir" ] && [ -z "$(ls -A "$dir")" ] \
            || die "start: $dir exists and is not an empty directory: give a new or empty one"
    fi
    [ "$(id -u)" -eq 0 ] || die "needs root (the daemons run as SlurmUser=root)"
    install_missing
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd -P)
    chmod 700 "$dir"
    printf 'made by tools/slurm-one-node.sh start; `stop` removes this directory:\n%s\n' "$dir" >"$dir/$MARKER"
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
    record_pid $! "$dir"
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
    record_pid $! "$dir"
    slurmd -D -f "$SLURM_CONF" -N "$host" </dev/null >>"$dir/log/slurmd.out" 2>&1 &
    record_pid $! "$dir"

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
        echo "export SLURM_CONF=$(cd "$dir" && pwd -P)/slurm.conf"
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
        dir=$(cd "$(mktemp -d /tmp/tama-slurm.XXXXXX)" && pwd -P)
        # The directory is this script's from mktemp on; `start` may have
        # failed before its marker (then it is still empty) or removed it.
        trap 'if [ -f "$dir/$MARKER" ]; then stop_cluster "$dir"; else rmdir "$dir" 2>/dev/null || true; fi' EXIT
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
