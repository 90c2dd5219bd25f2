#!/bin/sh
# The schedules' waits on a node with more ranks than processors: every
# forced algorithm with PMPI_LOGP_WAIT=poll (the library's waits, which
# poll) and =yield (test, then give up the processor), side by side in
# alternating runs, and the library's own collective in the same runs.
# Per (collective, size, algorithm): the median over REPS runs of the
# bench's per-call median; the ratios yield / poll and yield / native.
#   sh scripts/wait-bench.sh     env: N=4 REPS=3 ITERS=10 COLLS="bcast reduce alltoall allreduce"
#        SIZES=8,65536,1048576 OUT=docs/results/oversubscribed
# Needs gawk (asort).  N beyond the processors is the point (4 on 2 here).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" >/dev/null
cd "$top/build"
N=${N:-4}
REPS=${REPS:-3}
ITERS=${ITERS:-10}
COLLS=${COLLS:-bcast reduce alltoall allreduce}
SIZES=${SIZES:-8,65536,1048576}
OUT=${OUT:-$top/docs/results/oversubscribed}
MPIEXEC=$(sed -n 's/^MPIEXEC = //p' Makefile)
mkdir -p "$OUT"
raw="$OUT/raw-n$N.txt"
: >"$raw"
for rep in $(seq "$REPS"); do
    for coll in $COLLS; do
        for wait in poll yield; do
            # rows: coll case bytes algorithm measured predicted vs_native min median max
            env LD_PRELOAD="$top/build/.libs/libpmpi-logp.so" PMPI_LOGP_WAIT=$wait $MPIEXEC -n "$N" \
                ./pmpi-logp-bench --coll "$coll" --sizes "$SIZES" --iters "$ITERS" 2>/dev/null |
                awk -v w=$wait -v rep="$rep" '$1 !~ /^#/ && $1 != "coll" && NF >= 10 && $4 !~ /^auto/ {
                    print w, rep, $1, $3, $4, $9 }' >>"$raw"
        done
    done
done
{
    echo "# P = $N ranks on $(nproc) processors; per-call medians (us), each the median of $REPS alternating runs"
    printf "%-9s %8s %-22s %10s %10s %10s %10s %10s\n" coll bytes algorithm poll_us yield_us yield/poll native_us yield/nat
    gawk '
    function median(key,    a, m) { m = split(v[key], a, " "); asort(a); return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    { v[$1 SUBSEP $3 SUBSEP $4 SUBSEP $5] = v[$1 SUBSEP $3 SUBSEP $4 SUBSEP $5] " " $6; row[$3 SUBSEP $4 SUBSEP $5] = 1 }
    END {
        for (r in row) {
            split(r, x, SUBSEP)
            p = median("poll" SUBSEP r); y = median("yield" SUBSEP r); nat = median("yield" SUBSEP x[1] SUBSEP x[2] SUBSEP "native")
            printf "%-9s %8d %-22s %10.1f %10.1f %10.2f %10.1f %10.2f\n", x[1], x[2], x[3], p, y, y / p, nat, y / nat
        }
    }' "$raw" | sort -k1,1 -k2,2n -k3,3
} >"$OUT/summary-n$N.txt"
cat "$OUT/summary-n$N.txt"
