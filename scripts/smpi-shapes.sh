#!/bin/sh
# shellcheck disable=SC2154 # osim, drawn: set by smpi_next_platform (smpi-common.sh)
# The model's shape parameters against the best forced setting in SMPI
# (issue 38, item 2): on platforms drawn at random (smpi_draw, P 16 or 64),
# each algorithm whose shape the model chooses runs with the model's
# choice and with every setting of a range forced (pmpi-logp-bench
# --shape): bruck's radix, chunked-rsg's chunk count, linear's window,
# pipeline's and two-tree's segment counts.
# Per case the model's time over the best forced one; the bar is 1.05 in
# the median.  The platforms' own LogGP parameters (model.conf) and
# `network = shared`, what pmpi-logp-probe writes for SimGrid's links
# (docs/results/smpi-probe); NETWORK=loggp for LogGP (the default within one node).
#
#   sh scripts/smpi-shapes.sh
#   env: SEED=1 PLATFORMS=8 PS="16 64" NETWORK=shared OUT=docs/results/smpi-shapes
#        CASES (lines coll:algorithm:knob:sizes:settings; below)
# Writes $OUT/results.csv (platform,P,coll,algorithm,knob,bytes,setting,simulated_us;
# setting 0: the model's choice) and $OUT/summary.md.  SUMMARY_ONLY=1: the
# summary anew from results.csv.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/smpi-common.sh"
SEED=${SEED:-1}
PLATFORMS=${PLATFORMS:-8}
PS=${PS:-16 64}
NETWORK=${NETWORK:-shared}
OUT=${OUT:-$top/docs/results/smpi-shapes}
csv="$OUT/results.csv"
work_sum=$(mktemp)
mkdir -p "$OUT"
# coll:algorithm:knob:sizes:settings (settings above the schedule's limit
# are clamped by it: bruck's radix to P and 32, linear's window to P - 1
# and 32, chunked-rsg's chunks to 16; a clamped run repeats another)
CASES=${CASES:-"alltoall:bruck:radix:8,256,4096:2 3 4 6 8 12 16 24 32
reduce:chunked-rsg:chunks:65536,1048576:1 2 3 4 6 8 12 16
alltoall:linear:window:1024,16384:1 2 4 8 16 32
bcast:pipeline:segments:65536,1048576:4 16 64 128 256 512 1024
reduce:pipeline:segments:65536,1048576:4 16 64 128 256 512 1024
bcast:two-tree:segments:65536,1048576:4 8 16 32 64 128
reduce:two-tree:segments:65536,1048576:4 8 16 32 64 128"}
if [ "${SUMMARY_ONLY:-0}" != 1 ]; then
    smpi_bench_work "$top"
    echo "platform,P,coll,algorithm,knob,bytes,setting,simulated_us" >"$csv"
    : >"$OUT/platforms.txt"
    i=0
    while [ "$i" -lt "$PLATFORMS" ]; do
        smpi_next_platform "$top" "$SEED" "$PS" "$work" # one platform: its LogGP parameters and P
        i=$((i + 1))
        echo "platform $i (draw $draw): P=$P $drawn" | tee -a "$OUT/platforms.txt"
        echo "$CASES" | while IFS=: read -r coll algo knob sizes settings; do
            for setting in 0 $settings; do
                shape="--shape model"
                [ "$setting" = 0 ] || shape="--shape $knob=$setting"
                # shellcheck disable=SC2086
                (cd "$work" && smpirun -np "$P" -platform platform.xml $FLAGS ./bench --tuning model.conf --iters 1 \
                    --csv --network "$NETWORK" --coll "$coll" --sizes "$sizes" --algos "$algo" $shape 2>>"$work/smpi.log") |
                    awk -F, -v i="$i" -v a="$algo" -v k="$knob" -v s="$setting" \
                        '$4 == a { print i "," $1 "," $2 "," a "," k "," $3 "," s "," $5 }' >>"$csv"
            done
        done
    done
fi

# Per (algorithm, bytes) over the platforms: the model's choice over the
# best forced setting.
awk -F, 'NR > 1 { k = $1 SUBSEP ($3 " " $4) SUBSEP $6; if ($7 == 0) model[k] = $8
        else if (!(k in best) || $8 < best[k]) { best[k] = $8; at[k] = $7 }
        P[k] = $2; knob[$3 " " $4] = $5 }
    function med(a, m,   i, j, t) { for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    END {
        for (k in model) if (k in best) {
            split(k, f, SUBSEP); r = model[k] / best[k]; g = f[2] SUBSEP f[3]
            n[g]++; v[g, n[g]] = r; all[++na] = r; within += r <= 1.05
            if (r > worst[g]) { worst[g] = r; wcase[g] = "platform " f[1] ", P=" P[k] ", best at " knob[f[2]] " " at[k] }
        }
        for (g in n) { m = n[g]; delete s; for (i = 1; i <= m; i++) s[i] = v[g, i]
            split(g, f, SUBSEP); printf "ROW| %s | %s | %d | %.3f | %.3f | %s |\n", f[1], f[2], m, med(s, m), worst[g], wcase[g] }
        if (na) printf "ALL%d cases: median %.3f, %d within 1.05, worst %.3f\n", na, med(all, na), within, all[na]
    }' "$csv" >"$work_sum"
{
    echo "# Shape parameters: the model's choice against the best forced setting in SMPI"
    echo
    echo "SEED=$SEED PLATFORMS=$PLATFORMS PS=\"$PS\" NETWORK=$NETWORK (sh scripts/smpi-shapes.sh)"
    echo
    echo "| collective, algorithm | bytes | cases | median model / best | worst | worst case |"
    echo "|---|---|---|---|---|---|"
    sed -n 's/^ROW//p' "$work_sum" | sort -t'|' -k2,2 -k3,3n
    echo
    sed -n 's/^ALL/All /p' "$work_sum"
} >"$OUT/summary.md"
rm -f "$work_sum"
cat "$OUT/summary.md"
