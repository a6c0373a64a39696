#!/bin/bash
# The load of docs/results.md, "What a loaded machine costs": a cargo build
# loop and a busy loop at nice 19, in a session of their own.
#
#   tools/nice_load.sh start DIR CHECKOUT [low|group]
#   tools/nice_load.sh stop DIR
#
# CHECKOUT is a clone of Tama that the build loop rebuilds (a source file
# touched before each build). DIR must not exist: it keeps the session's
# id and start time, so that `stop` ends that session's processes and no
# others.
#
# Where the kernel groups processes by session (sched_autogroup_enabled,
# on by default in Debian and Ubuntu), nice ranks processes only within
# their session; between sessions each group gets a fair share. So:
#   low    (the default) the load's session group is niced to 19 as well:
#          it runs only on time nothing else wants, wherever it is started
#          (what a host gets from `nice -n 19` run in the engines' session);
#   group  the group is left at nice 0: the load takes a session's share of
#          the cores, as a `nice -n 19` build in another terminal or login
#          does.
set -euo pipefail

usage() { echo "usage: $0 start DIR CHECKOUT [low|group] | stop DIR" >&2; exit 2; }

start_time() { awk '{print $22}' "/proc/$1/stat" 2>/dev/null; }

case "${1:-}" in
start)
    [ $# -ge 3 ] || usage
    dir=$2; checkout=$3; mode=${4:-low}
    case $mode in low|group) ;; *) usage ;; esac
    [ -d "$checkout/engine/src" ] || { echo "$checkout: not a checkout of Tama" >&2; exit 2; }
    if [ -e "$dir" ]; then echo "$dir exists: refusing to start over another load" >&2; exit 1; fi
    mkdir -p "$dir"
    checkout=$(cd "$checkout" && pwd)
    setsid bash -c '
        if [ "$1" = low ]; then
            echo 19 > /proc/self/autogroup 2>/dev/null || echo "no session groups here: nice alone" >&2
        fi
        cd "$2"
        nice -n 19 bash -c "while :; do touch engine/src/lib.rs; cargo build --release -q >/dev/null 2>&1; done" &
        nice -n 19 bash -c "while :; do :; done" &
        wait' _ "$mode" "$checkout" > "$dir/load.log" 2>&1 < /dev/null &
    leader=$!
    sleep 0.2
    echo "$leader $(start_time "$leader") $mode" > "$dir/session"
    echo "load started: session $leader ($mode), $dir/session"
    ;;
stop)
    [ $# -eq 2 ] || usage
    dir=$2
    [ -f "$dir/session" ] || { echo "$dir/session missing: nothing of ours to stop" >&2; exit 1; }
    read -r leader started _mode < "$dir/session"
    if [ "$(start_time "$leader")" = "$started" ]; then
        # Every process of the session the load made, by session id, so
        # that a build's rustc children go too, and nothing else.
        # Again until none is left: a loop may have started a build
        # between the listing and the signal.
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            pids=$(ps -eo pid=,sid= | awk -v s="$leader" '$2 == s {print $1}')
            [ -n "$pids" ] || break
            # shellcheck disable=SC2086
            kill $pids 2>/dev/null || true
            sleep 0.3
        done
        echo "load stopped: session $leader"
    else
        echo "session $leader has ended already: nothing signalled"
    fi
    rm -f "$dir/session" "$dir/load.log"
    rmdir "$dir"
    ;;
*) usage ;;
esac
