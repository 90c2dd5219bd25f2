#!/bin/sh
# The entry points side by side (scripts/entry-bench.c): one allreduce of
# COUNT doubles through MPI_Allreduce, MPI_Iallreduce + MPI_Wait and
# MPI_Allreduce_init + MPI_Start + MPI_Wait, each in fresh processes, under
# the shim with PMPI_LOGP_NONBLOCKING=1 and ALGO forced, and with native
# (the library's collective through the same entry point); REPS
# alternating rounds; per (entry, count, algorithm) the median over rounds
# of the first-30-calls and steady medians.
#   sh scripts/entry-bench.sh    env: N=2 REPS=3 COUNTS="1 1024 131072" ALGO=recursive-doubling
#        OUT=docs/results/nonblocking
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" >/dev/null
cd "$top/build"
N=${N:-2}
REPS=${REPS:-3}
COUNTS=${COUNTS:-1 1024 131072}
ALGO=${ALGO:-recursive-doubling}
OUT=${OUT:-$top/docs/results/nonblocking}
MPIEXEC=$(sed -n 's/^MPIEXEC = //p' Makefile)
MPICC=$(sed -n 's/^MPICC = //p' Makefile)
mkdir -p "$OUT"
$MPICC -O2 -o entry-bench "$top/scripts/entry-bench.c"
raw="$OUT/raw-n$N.txt"
: >"$raw"
for rep in $(seq "$REPS"); do
    for count in $COUNTS; do
        for how in blocking nonblocking persistent; do
            for algo in "$ALGO" native; do
                $MPIEXEC -n "$N" env LD_PRELOAD="$top/build/.libs/libpmpi-logp.so" PMPI_LOGP_NONBLOCKING=1 \
                    PMPI_LOGP_ALLREDUCE="$algo" ./entry-bench "$how" "$count" | sed "s/^/$algo /" >>"$raw"
            done
        done
    done
done
{
    echo "# P = $N ranks on $(nproc) processors, allreduce of COUNT doubles, medians (us) over $REPS alternating rounds"
    echo "# of each fresh process's median of calls 1-30 (first) and 101-300 (steady); ratio: $ALGO / native"
    printf "%-12s %8s %12s %12s %12s %12s %8s %8s\n" entry count "${ALGO}_first" native_first "${ALGO}_steady" \
        native_steady r_first r_steady
    gawk '
    function median(arr, key,    a, m) { m = split(arr[key], a, " "); asort(a); return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    { k = $2 SUBSEP $3; f[$1 SUBSEP k] = f[$1 SUBSEP k] " " $5; st[$1 SUBSEP k] = st[$1 SUBSEP k] " " $7; algo[$1] = 1; row[k] = 1 }
    END {
        for (a in algo) if (a != "native") mine = a
        for (k in row) {
            split(k, x, SUBSEP)
            af = median(f, mine SUBSEP k); nf = median(f, "native" SUBSEP k)
            as = median(st, mine SUBSEP k); ns = median(st, "native" SUBSEP k)
            printf "%-12s %8d %12.2f %12.2f %12.2f %12.2f %8.2f %8.2f\n", x[1], x[2], af, nf, as, ns, af / nf, as / ns
        }
    }' "$raw" | sort -k2,2n -k1,1
} >"$OUT/summary-n$N.txt"
cat "$OUT/summary-n$N.txt"
