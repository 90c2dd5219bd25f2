#!/bin/sh
# Auto's steady state against the fastest of native and every forced
# algorithm, on this machine (MPICH, shared memory): pmpi-logp-bench --entry
# under the preloaded shim times every algorithm of ours directly, native
# (PMPI), and the MPI_* entry point after 128 warm-up calls (auto once its
# trials are agreed), all in one run; the runs are repeated and the ratio
# entry / fastest row is reported as the median over the runs.
#   sh scripts/confirm-bench.sh      env: NS="2 3 4" REPS=3 ITERS=10 OUT=docs/results/mpich-confirm
#        SIZES (default every power of two 8 B .. 16 MiB)
# Needs gawk (asort).  Ranks beyond the cores (n = 3, 4 here) make every
# time a multiple of the scheduler's 4 ms tick: read those rows as such,
# or set YIELD=1, which preloads scripts/yield-progress.c (a rank yields
# its core when MPICH's progress poll found nothing) and runs auto with
# PMPI_LOGP_OVERSUBSCRIBED=model there: a proxy, see that file.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" >/dev/null
cd "$top/build"
NS=${NS:-2 3 4}
REPS=${REPS:-3}
ITERS=${ITERS:-10}
OUT=${OUT:-$top/docs/results/mpich-confirm}
SIZES=${SIZES:-$(awk 'BEGIN { for (s = 8; s <= 16777216; s *= 2) printf "%s%d", (s > 8 ? "," : ""), s }')}
MPIEXEC=$(sed -n 's/^MPIEXEC = //p' Makefile)
mkdir -p "$OUT"
yield=""
if [ "${YIELD:-0}" = 1 ]; then
    yield="$top/build/yield-progress.so"
    cc -O2 -shared -fPIC -o "$yield" "$top/scripts/yield-progress.c" -ldl
fi
raw="$OUT/raw.txt"
: >"$raw"
for rep in $(seq "$REPS"); do
    for n in $NS; do
        pre="$top/build/.libs/libpmpi-logp.so" over=native
        [ -n "$yield" ] && [ "$n" -gt "$(nproc)" ] && pre="$pre $yield" over=model
        for coll in bcast reduce alltoall; do
            env LD_PRELOAD="$pre" PMPI_LOGP_OVERSUBSCRIBED=$over $MPIEXEC -n "$n" ./pmpi-logp-bench --coll "$coll" \
                --sizes "$SIZES" --iters "$ITERS" --entry 2>/dev/null |
                awk -v n="$n" -v rep="$rep" '$4 == "entry" { r = $0; sub(/.*median\/best /, "", r); split(r, x, " ");
                    b = $0; sub(/.*\(best /, "", b); sub(/\).*/, "", b); print n, $1, $3, rep, x[1], b }' >>"$raw"
        done
    done
done
gawk '{ k = sprintf("%d %s %012d", $1, $2, $3); v[k] = v[k] " " $5; best[k] = best[k] " " $6; keys[k] = 1 }
END {
    print "# auto (steady state, through the shim) / fastest of native and every forced algorithm, MPICH, this machine\n"
    print "median over runs of (median time of auto) / (median time of the fastest row of the same run)\n"
    print "| n | coll | bytes | ratio (median) | every run | fastest rows |"
    print "|---|---|---|---|---|---|"
    m = asorti(keys, ks)
    for (i = 1; i <= m; i++) {
        c = split(v[ks[i]], a, " "); asort(a); med = a[int((c + 1) / 2)]
        split(ks[i], f, " ")
        printf "| %s | %s | %d | %.3f |%s |%s |\n", f[1], f[2], f[3] + 0, med, v[ks[i]], best[ks[i]]
        all++; if (med <= 1.10) ok++
        if (med > worst) { worst = med; wk = ks[i] }
    }
    printf "\n%d of %d cases within 1.10; worst %.3f (%s)\n", ok, all, worst, wk
}' "$raw" >"$OUT/summary.md"
cat "$OUT/summary.md"
