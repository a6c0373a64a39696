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
# A shard whose job ends unfinished (failed, cancelled, node lost) is
# submitted again, up to twice, and goes on from its results file
# (-resume); running the script again with the same arguments and DIR
# keeps the finished shards and resumes the others. Exit status 0 when it
# ran to a decision or to the last shard, 1 on an error.
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

declare -A job tries
active_jobs() { squeue -h -n "$name" -t PD,R,CG,CF,S,RQ -o %i 2>/dev/null || true; }

submit_shard() {
    local k=$1 cmd
    cmd="$(printf '%q ' "$tama" match "${match_args[@]}" -shard "$k/$shards" -resume \
        -results "$dir/shard-$k.json" -pdnout "$dir/shard-$k.pdn")&& touch $(printf '%q' "$dir/shard-$k.done")"
    job[$k]=$(sbatch --parsable -J "$name" -o "$dir/shard-$k.log" "${sbatch_words[@]}" --wrap "$cmd" | cut -d';' -f1)
    tries[$k]=$(( ${tries[$k]:-0} + 1 ))
}

match_args=("$@")
next=1 merged_count=-1 decision=none line="" games=0
while true; do
    finished=()
    for k in $(seq 1 "$shards"); do
        [ -f "$dir/shard-$k.done" ] && finished+=("$dir/shard-$k.json")
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

    active=$(active_jobs)
    # Shards submitted whose job is gone but that did not finish: again (-resume).
    for k in "${!job[@]}"; do
        if [ ! -f "$dir/shard-$k.done" ] && ! grep -qx "${job[$k]}" <<<"$active"; then
            [ "${tries[$k]}" -lt 3 ] || die "shard $k ended unfinished ${tries[$k]} times; see $dir/shard-$k.log"
            echo "shard $k (job ${job[$k]}) ended unfinished: submitted again" >&2
            submit_shard "$k"
        fi
    done
    n_active=$(active_jobs | grep -c . || true)
    while [ "$n_active" -lt "$wave" ] && [ "$next" -le "$shards" ]; do
        if [ ! -f "$dir/shard-$next.done" ]; then
            submit_shard "$next"
            n_active=$((n_active + 1))
        fi
        next=$((next + 1))
    done
    sleep "$poll"
done

left=$(active_jobs)
if [ -n "$left" ]; then
    # shellcheck disable=SC2086
    scancel $left
    # Gone from the queue, their engines ended, before the script says it is done.
    for _ in $(seq 120); do [ -z "$(active_jobs)" ] && break; sleep 0.5; done
fi
cancelled=$(grep -c . <<<"$left" || true)
not_submitted=$((shards - next + 1))
echo "decision: $decision after $merged_count of $shards shards ($games games): $line"
echo "  shards cancelled: $cancelled, never submitted: $not_submitted; the same decision:" \
    "tama match --merge $(for f in "${finished[@]}"; do printf '%s ' "${f#"$PWD"/}"; done)-sprt $sprt"
