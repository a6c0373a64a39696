#!/usr/bin/env bash
# A sharded SPRT that stops early, on Slurm (docs/match.md, "An SPRT that
# stops early").
#
#   tools/sprt-waves.sh --shards N [--wave W] [--dir DIR] [--sprt 'elo0=0 elo1=5 alpha=0.05 beta=0.05']
#                       [--sbatch 'SBATCH-ARGS'] [--poll SECONDS] -- MATCH-ARGS...
#
# Cuts the match of MATCH-ARGS (two engines, `-rounds`, `-repeat` ...;
# without -shard, -results, -pdnout, -sprt) into N shards and submits them
# with sbatch, one job a shard, keeping W (default 2) queued or running:
# as one finishes the next is submitted. Each time shards have finished it
# merges the finished ones (`tama match --merge ... -sprt ...`, printed),
# and when that SPRT accepts H0 or H1 it cancels the shards still queued or
# running (scancel), submits no more and prints
#
#   decision: H1 after K of N shards (G games): SPRT ... LLR ... H1 accepted
#
# which is what `tama match --merge DIR/shard-*.json -sprt ...` says on the
# finished shards' files (listed: DIR/shard-K.done marks a finished shard).
# With no decision after all N shards it prints `decision: none ...`.
#
# The script knows its jobs by the ids sbatch gave it (DIR/shard-K.job),
# never by name: other runs and other users may have jobs of any name, and
# only this run's are counted, resubmitted or cancelled. A shard whose job
# has left the queue unfinished is submitted again, up to twice, once
# Slurm says how the job ended (sacct, or `squeue -j ID -t all`: failed,
# cancelled, node lost, or unknown to Slurm) and goes on from its results
# file (-resume). A round in which squeue fails submits nothing: a job it
# cannot see may still be running. Interrupted (Ctrl-C, TERM) or ending on
# an error, the script cancels its jobs. Running it again with the same
# arguments and DIR keeps the finished shards, takes over the jobs of the
# earlier run still queued or running, and resumes the others; two runs on
# one DIR at once are refused (DIR/.lock). Exit status 0 when it
# ran to a decision or to the last shard, 1 on an error, 130/143 when
# interrupted.
#
# TAMA (default: `tama` on PATH) is the binary that merges and that the
# shards run; the engines are those of MATCH-ARGS. SBATCH-ARGS are added to
# every sbatch (e.g. '--cpus-per-task=2 --time=01:00:00 --partition=p');
# give the shards a -concurrency to match --cpus-per-task.
set -euo pipefail

die() { echo "sprt-waves: $*" >&2; exit 1; }

shards="" wave=2 dir=sprt-waves sprt="elo0=0 elo1=5 alpha=0.05 beta=0.05" sbatch_args="" poll=2
while [ $# -gt 0 ]; do
    case "$1" in
        --shards) shards=$2; shift 2 ;;
        --wave) wave=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --sprt) sprt=$2; shift 2 ;;
        --sbatch) sbatch_args=$2; shift 2 ;;
        --poll) poll=$2; shift 2 ;;
        --) shift; break ;;
        *) die "unknown option $1 (see the comment at the top of $0)" ;;
    esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards N (a positive number) is required"
[[ "$wave" =~ ^[1-9][0-9]*$ ]] || die "--wave W must be a positive number"
[ $# -gt 0 ] || die "no match arguments after --"
for a in "$@"; do
    case "$a" in -shard|--shard|-results|--results|-pdnout|--pdnout|-sprt|--sprt|-resume|--resume)
        die "$a is the script's to give: leave it out of the match arguments" ;;
    esac
done
tama=$(command -v "${TAMA:-tama}") || die "tama not found (set TAMA or PATH)"
command -v sbatch >/dev/null || die "sbatch not found"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
name="sprt-waves-$(basename "$dir")"
read -r -a sprt_words <<<"$sprt"
read -r -a sbatch_words <<<"$sbatch_args"

# One run a DIR: DIR/.lock holds the running script's process id (a file
# lock would be held on by the children of a killed run).
lock=$dir/.lock
if ! (set -o noclobber; echo "$$" >"$lock") 2>/dev/null; then
    holder=$(cat "$lock" 2>/dev/null || true)
    if [[ "$holder" =~ ^[0-9]+$ ]] && ps -p "$holder" -o args= 2>/dev/null | grep -q sprt-waves; then
        die "another sprt-waves.sh runs on $dir (process $holder, in $lock)"
    fi
    echo "$$" >"$lock" # the run that wrote it has ended without removing it
fi

# job[K]: the id of shard K's job while it may be queued or running.
declare -A job tries
user=$(id -un)
err=$(mktemp)

cancel_own() {
    [ ${#job[@]} -gt 0 ] || return 0
    # shellcheck disable=SC2046
    scancel $(printf '%s\n' "${job[@]}" | sort -u) 2>/dev/null || true
}
on_exit() {
    local status=$?
    cancel_own
    rm -f "$err"
    [ "$(cat "$lock" 2>/dev/null)" = "$$" ] && rm -f "$lock"
    exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The ids of this run's jobs that are queued or running, one a line;
# status 1 when squeue failed (then nothing is known).
active_own() {
    local out k
    out=$(squeue -h -u "$user" -t PD,R,CG,CF,S,RQ -o %i 2>"$err") || return 1
    for k in "${!job[@]}"; do
        if grep -qxF "${job[$k]}" <<<"$out"; then echo "${job[$k]}"; fi
    done
}

# How job $1 ended once it has left the queue: its Slurm state (COMPLETED,
# FAILED, CANCELLED ...), or `gone` when Slurm no longer knows the id;
# status 1 when neither sacct nor squeue answered. sacct fails where
# accounting is off; squeue keeps ended jobs for MinJobAge.
job_end() {
    local s
    if s=$(sacct -n -X -P -j "$1" -o State 2>/dev/null) && [ -n "$s" ]; then
        s=$(head -1 <<<"$s"); echo "${s%% *}"; return 0
    fi
    if s=$(squeue -h -j "$1" -t all -o %T 2>"$err"); then
        if [ -n "$s" ]; then head -1 <<<"$s"; else echo gone; fi
        return 0
    fi
    grep -qi 'invalid job id' "$err" && { echo gone; return 0; }
    return 1
}

submit_shard() {
    local k=$1 cmd id
    cmd="$(printf '%q ' "$tama" match "${match_args[@]}" -shard "$k/$shards" -resume \
        -results "$dir/shard-$k.json" -pdnout "$dir/shard-$k.pdn")&& touch $(printf '%q' "$dir/shard-$k.done")"
    id=$(sbatch --parsable -J "$name" -o "$dir/shard-$k.log" "${sbatch_words[@]}" --wrap "$cmd") \
        || die "sbatch of shard $k failed"
    id=${id%%;*}
    [[ "$id" =~ ^[0-9]+$ ]] || die "sbatch of shard $k printed '$id', not a job id"
    job[$k]=$id
    echo "$id" >"$dir/shard-$k.job"
    tries[$k]=$(( ${tries[$k]:-0} + 1 ))
}

match_args=("$@")
# An earlier run's jobs of unfinished shards are this run's now: counted,
# waited for, and resubmitted only once they have ended.
for k in $(seq 1 "$shards"); do
    if [ ! -f "$dir/shard-$k.done" ] && [ -f "$dir/shard-$k.job" ]; then
        id=$(cat "$dir/shard-$k.job")
        [[ "$id" =~ ^[0-9]+$ ]] && job[$k]=$id && tries[$k]=1
    fi
done
next=1 merged_count=-1 decision=none line="" games=0
while true; do
    finished=()
    for k in $(seq 1 "$shards"); do
        if [ -f "$dir/shard-$k.done" ]; then
            finished+=("$dir/shard-$k.json")
            unset "job[$k]"
        fi
    done
    if [ ${#finished[@]} -gt 0 ] && [ ${#finished[@]} -ne "$merged_count" ]; then
        merged_count=${#finished[@]}
        out=$("$tama" match --merge "${finished[@]}" -results "$dir/merged.json" -sprt "${sprt_words[@]}" 2>/dev/null) \
            || die "the merge of ${finished[*]} failed"
        line=$(grep '^SPRT ' <<<"$out" || true)
        [ -n "$line" ] || die "the merge printed no SPRT line (two engines are needed)"
        games=$(grep -o '"games_played": *[0-9]*' "$dir/merged.json" | grep -o '[0-9]*$')
        case "$line" in
            *"H1 accepted"*) decision=H1 ;;
            *"H0 accepted"*) decision=H0 ;;
            *) decision=none ;;
        esac
        echo "merged $merged_count of $shards shards ($games games): $line"
        [ "$decision" != none ] && break
    fi
    [ "$merged_count" -eq "$shards" ] && break

    if ! active=$(active_own); then
        echo "sprt-waves: squeue failed ($(head -1 "$err")): the queue is unknown, nothing submitted this round" >&2
        sleep "$poll"
        continue
    fi
    n_active=$(grep -c . <<<"$active" || true)
    # Shards whose job has left the queue unfinished: again (-resume), once
    # Slurm says the job has ended.
    for k in "${!job[@]}"; do
        grep -qxF "${job[$k]}" <<<"$active" && continue
        if ! end=$(job_end "${job[$k]}"); then
            echo "sprt-waves: the state of job ${job[$k]} (shard $k) is unknown: checked again next round" >&2
            continue
        fi
        case "$end" in
            COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED|BOOT_FAIL|DEADLINE|REVOKED|gone) ;;
            *) continue ;; # ended for squeue, not yet for the accounting
        esac
        [ -f "$dir/shard-$k.done" ] && continue # finished since the last look
        [ "${tries[$k]}" -lt 3 ] || die "shard $k ended unfinished ${tries[$k]} times; see $dir/shard-$k.log"
        echo "shard $k (job ${job[$k]}, $end) ended unfinished: submitted again" >&2
        submit_shard "$k"
        n_active=$((n_active + 1))
    done
    while [ "$n_active" -lt "$wave" ] && [ "$next" -le "$shards" ]; do
        if [ ! -f "$dir/shard-$next.done" ] && [ -z "${job[$next]:-}" ]; then
            submit_shard "$next"
            n_active=$((n_active + 1))
        fi
        next=$((next + 1))
    done
    sleep "$poll"
done

left=$(active_own) || left=$(printf '%s\n' "${job[@]}")
if [ -n "$left" ]; then
    # shellcheck disable=SC2086
    scancel $left
    # Gone from the queue, their engines ended, before the script says it is done.
    for _ in $(seq 120); do
        now=$(active_own) && [ -z "$now" ] && break
        sleep 0.5
    done
fi
job=()
cancelled=$(grep -c . <<<"$left" || true)
not_submitted=$((shards - next + 1))
echo "decision: $decision after $merged_count of $shards shards ($games games): $line"
echo "  shards cancelled: $cancelled, never submitted: $not_submitted; the same decision:" \
    "tama match --merge $(for f in "${finished[@]}"; do printf '%s ' "${f#"$PWD"/}"; done)-sprt $sprt"
