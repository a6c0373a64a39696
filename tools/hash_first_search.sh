#!/bin/sh
# What the first search after a large `Hash` leaves in the table (Linux:
# reads the engine's VmRSS), counted in nodes, not timed:
#
#     tools/hash_first_search.sh TAMA HASH_MB DEPTH
#
# A fresh engine gets `Hash HASH_MB` and searches the start position to
# DEPTH while the table is being made resident; once all of it is
# (VmRSS >= HASH_MB), the same search again. Prints the nodes each took to
# reach DEPTH. The second count is what the first search's entries are
# worth: as many nodes as a search with an empty table when they were all
# lost, fewer the more of them are found. (docs/results.md, "The first
# search of a large table").
set -eu
T=$1 H=$2 D=$3
dir=$(mktemp -d)
trap 'rm -r "$dir"' EXIT
mkfifo "$dir/in"
"$T" < "$dir/in" > "$dir/out" &
pid=$!
exec 3> "$dir/in"
answers() { grep -c '^bestmove' "$dir/out" || true; }
printf 'uci\nsetoption name Hash value %s\nisready\nposition startpos\ngo depth %s\n' "$H" "$D" >&3
while [ "$(answers)" -lt 1 ]; do sleep 0.1; done
while [ "$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")" -lt $((H * 1024)) ]; do sleep 0.2; done
printf 'go depth %s\n' "$D" >&3
while [ "$(answers)" -lt 2 ]; do sleep 0.1; done
echo quit >&3
exec 3>&-
wait "$pid"
grep "^info depth $D " "$dir/out" | sed 's/.* nodes \([0-9]*\) .*/\1/' | tr '\n' ' '
echo
