#!/bin/sh
# The thousand-game soak (docs/testing.md, "Soak"): NEW against OLD and
# against the sparring opponent of the lab build LAB, both variants, at
# 1+0.01 with two games at once, the endgame databases set for half the
# games. Every engine's resident memory and the machine's load are sampled
# every 2 s into OUT/memory.tsv and OUT/load.tsv; the games go to
# OUT/*.pdn, the results to OUT/*.json. Then every game is replayed
# through the rules (`tama egtb audit`, which also checks the database
# positions). Usage:
#   NEW=tama OLD=tama-0.2.0 LAB=tama-lab EGTB_ARMENIAN=D1 EGTB_TURKISH=D2 \
#   OUT=soak ROUNDS=63 tools/soak.sh
# ROUNDS=63 gives 8 matches of 126 or 124 games: 1,000 in all.
set -eu
: "${NEW:?}" "${OLD:?}" "${LAB:?}" "${EGTB_ARMENIAN:?}" "${EGTB_TURKISH:?}" "${OUT:?}"
ROUNDS=${ROUNDS:-63}
TC=${TC:-1+0.01}
mkdir -p "$OUT"

sample() {
    while :; do
        now=$(date +%s)
        ps -eo pid=,rss=,vsz=,args= | awk -v t="$now" -v a="$NEW" -v b="$OLD" -v c="$LAB" \
            '($4 == a || $4 == b || $4 == c) && $5 != "match" && $5 != "egtb" { print t "\t" $1 "\t" $2 "\t" $3 "\t" $4 " " $5 " " $6 }' \
            >> "$OUT/memory.tsv"
        printf '%s\t%s\n' "$now" "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/load.tsv"
        sleep 2
    done
}
sample &
SAMPLER=$!
trap 'kill $SAMPLER 2>/dev/null' EXIT INT TERM

for variant in armenian turkish; do
    if [ "$variant" = armenian ]; then dir=$EGTB_ARMENIAN; else dir=$EGTB_TURKISH; fi
    for opponent in old sparring; do
        if [ "$opponent" = old ]; then
            other="cmd=$OLD name=old"
        else
            other="cmd=$LAB name=sparring option.Style=sparring"
        fi
        for tables in egtb none; do
            rounds=$ROUNDS
            extra=""
            if [ "$tables" = egtb ]; then
                extra="option.EGTBPath=$dir"
            else
                rounds=$((ROUNDS - 1))
            fi
            name="$variant-$opponent-$tables"
            # shellcheck disable=SC2086
            "$NEW" match -engine cmd="$NEW" name=new $extra -engine $other $extra \
                -each tc="$TC" -variant "$variant" -openings builtin -repeat \
                -rounds "$rounds" -concurrency 2 \
                -results "$OUT/$name.json" -pdnout "$OUT/$name.pdn" \
                > "$OUT/$name.txt" 2> "$OUT/$name.err" || echo "$name: exit $?" >> "$OUT/failures.txt"
            "$NEW" egtb audit --variant "$variant" --dir "$dir" --pdn "$OUT/$name.pdn" \
                > "$OUT/$name.audit" 2>&1 || echo "$name audit: exit $?" >> "$OUT/failures.txt"
        done
    done
done
