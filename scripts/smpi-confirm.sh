#!/bin/sh
# Auto's confirmation in SimGrid SMPI: the shim linked into the benchmark
# (pmpi-logp-bench --entry times MPI_Bcast/Reduce/Alltoall after 128
# warm-up calls, i.e. auto's steady state once its trials are agreed), on
# the project's simulated cluster (scripts/smpi.sh's platform from
# tuning/default.conf), with
#   right: the correct tuning file,
#   wrong: a deliberately wrong one (L x 4, G / 4),
#   wrong-model: the wrong file with PMPI_LOGP_CONFIRM=0 (the model alone);
# right and wrong run PMPI_LOGP_CONFIRM=2 (trials and refits of L and G;
# CONFIRM=1, the default, has no refits).
#   sh scripts/smpi-confirm.sh         env: PS="64 256" OUT=docs/results/smpi-confirm ITERS=5
#        BIG=1 (0: leave out 4 MiB, whose P = 64 bcast run alone takes
#        over 16 min of host time with two-tree's 256 segments a call)
#        COLLS="bcast reduce alltoall", SIZES (bcast, reduce) and A2A_SIZES
#        (comma lists) replace the default sizes
# Writes $OUT/results.csv (P,coll,bytes,variant,median_us) and $OUT/summary.md.
#        SUMMARY_ONLY=1: no runs, $OUT/summary.md anew from $OUT/results.csv
#        (rows of several runs put together)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/smpi-common.sh"
PS=${PS:-64 256}
OUT=${OUT:-$top/docs/results/smpi-confirm}
ITERS=${ITERS:-5}
BIG=${BIG:-1}
csv="$OUT/results.csv"
if [ "${SUMMARY_ONLY:-0}" != 1 ]; then
smpi_need
"$top/scripts/setup.sh" >/dev/null
mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
right="$top/tuning/default.conf"
smpi_platform "$top" "$right" "$work" || exit 1
wrong="$work/wrong.conf"
smpi_wrong_conf "$wrong"
FLAGS=$(smpi_flags "$osim")
smpi_build_shim "$top" src/tools/pmpi-logp-bench.c "$work/bench" || exit 1
cd "$work"
echo "P,coll,bytes,variant,median_us" >"$csv"
for P in $PS; do
    for coll in ${COLLS:-bcast reduce alltoall}; do
        sizes=8,1024,65536,1048576,4194304
        { [ "$P" -ge 256 ] || [ "$BIG" = 0 ]; } && sizes=8,1024,65536,1048576
        [ "$coll" = alltoall ] && sizes=8,1024,16384
        [ "$coll" = alltoall ] && [ "$P" -ge 256 ] && sizes=8,1024
        [ "$coll" != alltoall ] && [ -n "${SIZES:-}" ] && sizes=$SIZES
        [ "$coll" = alltoall ] && [ -n "${A2A_SIZES:-}" ] && sizes=$A2A_SIZES
        start=$(date +%s)
        for v in right wrong wrong-model; do
            file=$right confirm=2 # trials with refits of L and G
            [ $v = right ] || file=$wrong
            [ $v = wrong-model ] && confirm=0
            # shellcheck disable=SC2086
            PMPI_LOGP_TUNING=$file PMPI_LOGP_CONFIRM=$confirm smpirun -np "$P" -platform platform.xml $FLAGS \
                --cfg=smpi/coll-selector:mpich ./bench --tuning "$file" --iters "$ITERS" --coll "$coll" --sizes "$sizes" \
                --native-only --entry 2>>"$work/smpi.log" |
                awk -v P="$P" -v v="$v" '$4 == "entry" { print P "," $1 "," $3 "," v "," $9 }' >>"$csv"
        done
        echo "smpi-confirm: P=$P $coll done ($(( $(date +%s) - start ))s)"
    done
done
fi
gawk -F, 'NR > 1 { kk = sprintf("%05d,%s,%012d", $1, $2, $3); t[kk "," $4] = $5; k[kk] = 1 }
END {
    print "# Auto with a wrong tuning file (L x 4, G / 4), SMPI, steady state (median of the slowest rank per call)\n"
    print "| P | coll | bytes | right file (us) | wrong file, confirmed (us) | wrong / right | wrong file, model only (us) | model only / right |"
    print "|---|---|---|---|---|---|---|---|"
    n = asorti(k, keys)
    for (i = 1; i <= n; i++) {
        r = t[keys[i] ",right"]; w = t[keys[i] ",wrong"]; m = t[keys[i] ",wrong-model"]
        split(keys[i], f, ",")
        printf "| %d | %s | %d | %.2f | %.2f | %.3f | %.2f | %.3f |\n", f[1] + 0, f[2], f[3] + 0, r, w, (r > 0 ? w / r : 0), m, (r > 0 ? m / r : 0)
        if (r > 0) { c++; if (w / r > worst) worst = w / r; if (m / r > worstm) worstm = m / r }
    }
    printf "\n%d cases; worst wrong/right with confirmation %.3f, with the model alone %.3f\n", c, worst, worstm
}' "$csv" >"$OUT/summary.md"
cat "$OUT/summary.md"
