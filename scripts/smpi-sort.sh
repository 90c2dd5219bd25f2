#!/bin/sh
# The IS-shaped integer sort (scripts/sort-bench.c: IS's communication, an
# MPI_Allreduce of 1024 bucket counts, an MPI_Alltoall of one count and an
# MPI_Alltoallv of the keys per iteration) in SimGrid SMPI, on the cluster
# tuning/default.conf describes (scripts/smpi-common.sh; computation not
# simulated, so the time is the communication's): the program alone under
# SMPI's mpich and ompi selectors, and with the shim linked in (auto, the
# platform's own LogGP file, SMPI's mpich selector beneath).  Deterministic.
#
# Usage: sh scripts/smpi-sort.sh   (PS="64 256" CLASS=B ITERS=10; LOG=FILE keeps the runs' stderr,
#        with PMPI_LOGP_VERBOSE=1 the shim's decisions)
# Prints one line per run and a table of the shim's time against each
# selector's; exit 1 if a run fails its verification.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/smpi-common.sh"
smpi_need
"$top/scripts/setup.sh" >/dev/null || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpi_platform "$top" "$top/tuning/default.conf" "$work" || exit 1
FLAGS=$(smpi_flags "$osim")
(cd "$top" && smpicc -O2 -o "$work/sort" scripts/sort-bench.c 2>"$work/cc.log") || { cat "$work/cc.log"; exit 1; }
smpi_build_shim "$top" scripts/sort-bench.c "$work/sort-shim" || exit 1
status=0
# run P SELECTOR PROGRAM LABEL [ENV...]: one simulated run; prints its line with the label
run() {
    p=$1 sel=$2 prog=$3 label=$4
    shift 4
    # shellcheck disable=SC2086
    line=$(env "$@" smpirun -np "$p" -platform "$work/platform.xml" $FLAGS --cfg=smpi/coll-selector:"$sel" \
        "$prog" --class "${CLASS:-B}" --iters "${ITERS:-10}" 2>>"${LOG:-$work/smpi.log}" | grep '^sort ')
    case $line in *verification=SUCCESSFUL*) ;; *) status=1 ;; esac
    echo "$label $line"
}
for p in ${PS:-64 256}; do
    run "$p" mpich "$work/sort" "mpich-selector"
    run "$p" ompi "$work/sort" "ompi-selector"
    run "$p" mpich "$work/sort-shim" "shim-auto" PMPI_LOGP_TUNING="$work/model.conf"
done | tee "$work/lines"
awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
       t[v["P"], $1] = v["time_us"]; if (!(v["P"] in seen)) { seen[v["P"]] = 1; ps[++n] = v["P"] } }
     END { print "\n| P | mpich selector (us) | ompi selector (us) | shim, auto (us) | shim / mpich | shim / ompi |"
           print "|---|---|---|---|---|---|"
           for (i = 1; i <= n; i++) { p = ps[i]; m = t[p, "mpich-selector"]; o = t[p, "ompi-selector"]; s = t[p, "shim-auto"]
               printf "| %s | %.1f | %.1f | %.1f | %.3f | %.3f |\n", p, m, o, s, (m > 0 ? s / m : 0), (o > 0 ? s / o : 0) } }' "$work/lines"
exit $status
