#!/bin/sh
# The shim's own work per call, two builds side by side in one run:
# pmpi-logp-bench --dispatch (256 sizes 8 B - 64 KiB per collective,
# rotating roots) under each build's own library, alternated REPS times,
# n = 2; the median over the runs of each build's per-run medians.
#   sh scripts/dispatch-compare.sh BEFORE_BUILD_DIR AFTER_BUILD_DIR
#   env: REPS=5 ITERS=20 MPIEXEC=mpiexec.mpich
# Prints one line per build and collective: median_us (the call's work as
# it ran) and warm_median_us (its lookups again at once: the shim's
# instructions alone; src/shim/dispatch.h).
set -u
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_BUILD_DIR AFTER_BUILD_DIR" >&2; exit 2; }
REPS=${REPS:-5}; ITERS=${ITERS:-20}; MPIEXEC=${MPIEXEC:-mpiexec.mpich}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for i in $(seq "$REPS"); do
    for b in "$1" "$2"; do
        PMPI_LOGP_DISPATCH=1 $MPIEXEC -n 2 -env LD_PRELOAD "$b/.libs/libpmpi-logp.so" "$b/pmpi-logp-bench" \
            --dispatch --iters "$ITERS" 2>&1 | sed -n "s|^dispatch |$b |p" >>"$out"
    done
done
# median over the runs of a build's per-run value of FIELD for collective COLL
med() {
    grep "^$1 coll=$2 " "$out" | sed "s/.* $3=\([0-9.]*\).*/\1/" | sort -n |
        awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]; else print "-"}'
}
for b in "$1" "$2"; do
    for c in bcast reduce alltoall; do
        echo "$b $c median_us=$(med "$b" $c median_us) warm_median_us=$(med "$b" $c warm_median_us)"
    done
done
