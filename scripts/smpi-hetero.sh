#!/bin/sh
# Heterogeneous layouts at scale in SimGrid SMPI: NODES nodes of RPN ranks,
# messages inside a node on the host's loopback link (the tuning file's
# [intra-node] L and G), between nodes across the cluster (its [default] /
# [inter-node] L and G).  Our uniform-optimal tree (logp-tree), the
# heterogeneous greedy tree, the two-level tree, the node-aggregated
# all-to-all and what `auto` picks, against SMPI's MPICH and Open MPI
# selectors, simulated and predicted side by side.
#
#   sh scripts/smpi-hetero.sh [TUNING]     (default tuning/example-cluster.conf)
#   env: NODES="16 32" RPN=8 OUT=docs/results/smpi-hetero LIMIT=300 (host seconds per
#        selector run; a slower one is skipped and its cells are "-")
# Writes $OUT/results.csv (P,nodes,coll,bytes,variant,measured_us,
# predicted_us), $OUT/table.md and $OUT/pingpong.txt.  About 10 minutes here.
#
# SMPI limits (../shared/SMPI.md): the per-message overheads smpi/os, ois,
# or are global, so o and g must be the same for both pair classes (the
# script checks); node speeds cannot be emulated (overheads do not scale
# with host speed), so every speed is 1 here.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/smpi-common.sh"
tuning=${1:-$top/tuning/example-cluster.conf}
NODES=${NODES:-16 32}
RPN=${RPN:-8}
OUT=${OUT:-$top/docs/results/smpi-hetero}
LIMIT=${LIMIT:-300}
smpi_need
"$top/scripts/setup.sh" >/dev/null
mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# both pair classes, from the same resolution the shim uses
params() { "$top/build/pmpi-logp" check "$tuning" --P 64 "$@" | grep '^L='; }
inter=$(params)
intra=$(params --intra-node)
num() { echo "$1" | sed -n "s/.*$2=\([0-9.e+-]*\)$3.*/\1/p"; }
L=$(num "$inter" L us); o=$(num "$inter" ' o' us); g=$(num "$inter" ' g' us); G=$(num "$inter" ' G' 'ns\/B')
Li=$(num "$intra" L us); oi=$(num "$intra" ' o' us); gi=$(num "$intra" ' g' us); Gi=$(num "$intra" ' G' 'ns\/B')
[ "$o" = "$oi" ] && [ "$g" = "$gi" ] ||
    { echo "smpi-hetero: SMPI's overheads are global: o and g must be equal inside and between nodes" >&2; exit 1; }
# no gap in SMPI: overheads = max(o, g), latencies shrunk by 2(g - o) (as scripts/smpi.sh)
read over shrink <<EOT
$(awk -v o="$o" -v g="$g" 'BEGIN { if (g > o) printf "%.6f %.6f\n", g, 2 * (g - o); else printf "%.6f 0\n", o }')
EOT
lat=$(awk -v l="$L" -v s="$shrink" 'BEGIN { printf "%.6g", (l - s) / 2 }')
lati=$(awk -v l="$Li" -v s="$shrink" 'BEGIN { printf "%.6g", l - s }')
awk -v a="$lat" -v b="$lati" 'BEGIN { exit !(a < 0 || b < 0) }' &&
    { echo "smpi-hetero: L - 2(g - o) < 0: g cannot be emulated for this file" >&2; exit 1; }
bw() { awk -v G="$1" 'BEGIN { if (G > 0) printf "%.6gBps", 1e9 / G; else print "1000GBps" }'; }
FLAGS=$(smpi_flags "$over")
echo "smpi-hetero: $tuning: between nodes L=${L}us G=${G}ns/B, inside L=${Li}us G=${Gi}ns/B, o=${o}us g=${g}us"

smpi_build_bench "$top" "$work" || exit 1
cd "$work"
platform() { # nodes
    cat >platform.xml <<EOT
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n" suffix="" radical="0-$(($1 - 1))" speed="1Gf" core="$RPN" bw="$(bw "$G")" lat="${lat}us"
           loopback_bw="$(bw "$Gi")" loopback_lat="${lati}us"/>
</platform>
EOT
    : >hostfile
    h=0
    while [ $h -lt "$1" ]; do
        k=0
        while [ $k -lt "$RPN" ]; do echo "n$h" >>hostfile; k=$((k + 1)); done
        h=$((h + 1))
    done
}
run() { # P args...
    np=$1; shift
    # shellcheck disable=SC2086
    timeout "${RUN_LIMIT:-0}" smpirun -np "$np" -platform platform.xml -hostfile hostfile $FLAGS ./bench --tuning "$tuning" --iters 1 --csv "$@" \
        2>>smpi.log
}
platform 2
echo "smpi-hetero: ping-pong check (inside a node and between nodes)"
run $((2 * RPN)) --pingpong | tee "$OUT/pingpong.txt"
smpi_pingpong_ok "$OUT/pingpong.txt" 6 ||
    { echo "smpi-hetero: the simulated ping-pong does not follow 2o + L + (m-1)G per pair class" >&2; exit 1; }

csv="$OUT/results.csv"
echo "P,nodes,coll,bytes,variant,measured_us,predicted_us" >"$csv"
for n in $NODES; do
    P=$((n * RPN))
    platform "$n"
    for spec in bcast:8,65536:logp-tree,hetero-tree,two-level,binomial reduce:8,65536:logp-tree,hetero-tree,two-level,binomial \
        alltoall:8,1024:ring,butterfly,node-aggregate; do
        coll=${spec%%:*}; rest=${spec#*:}; sizes=${rest%%:*}; algos=${rest#*:}
        start=$(date +%s)
        run "$P" --coll "$coll" --sizes "$sizes" --algos "$algos" --cfg=smpi/coll-selector:mpich | grep -v '^P,' |
            sed 's/,native,/,mpich,/' | sed "s/^$P,/$P,$n,/" >>"$csv"
        # Open MPI's selector picks an all-to-all that SMPI takes over 30 min
        # of host time to simulate at 256 ranks: bounded, the row then missing
        RUN_LIMIT=$LIMIT run "$P" --coll "$coll" --sizes "$sizes" --native-only --cfg=smpi/coll-selector:ompi |
            grep ',native,' | sed 's/,native,/,ompi,/' | sed "s/^$P,/$P,$n,/" >>"$csv" ||
            echo "smpi-hetero: $n nodes, $coll ompi over ${LIMIT}s of host time (skipped)"
        echo "smpi-hetero: $n nodes x $RPN, $coll done ($(( $(date +%s) - start ))s)"
    done
done

# table: one row per case, "simulated (predicted)" per variant
gawk -F, -v rpn="$RPN" -v tuning="$(basename "$tuning")" '
NR == 1 { next }
{
    k = $1 SUBSEP $3 SUBSEP $4; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    v = $5; pred[k, v] = $7
    if (v ~ /^auto:/) { auto[k] = substr(v, 6); v = "auto" }
    sim[k, v] = $6
}
function cell(k, v,   s) {
    if (!((k, v) in sim)) return "-"
    s = sprintf("%.1f", sim[k, v])
    if (v != "mpich" && v != "ompi" && v != "auto") s = s sprintf(" (%.1f)", pred[k, v])
    return s
}
END {
    printf "Simulated time in us of the slowest rank (predicted in parentheses), %d ranks per node, %s.\n", rpn, tuning
    printf "logp-tree is the uniform-optimal tree (seed 000, inter-node parameters for every pair).\n\n"
    printf "| P | coll | bytes | logp-tree | hetero-tree | two-level | binomial | ring | butterfly | node-aggregate | auto (choice) | mpich | ompi | best of ours / best of mpich, ompi |\n"
    printf "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    for (i = 1; i <= n; i++) {
        k = order[i]; split(k, f, SUBSEP)
        best = 1e300
        split("logp-tree hetero-tree two-level binomial ring butterfly node-aggregate", ours, " ")
        for (j in ours) if ((k, ours[j]) in sim && sim[k, ours[j]] < best) best = sim[k, ours[j]]
        base = sim[k, "mpich"]; if ((k, "ompi") in sim && sim[k, "ompi"] < base) base = sim[k, "ompi"]
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s %s | %s | %s | %.2f |\n", f[1], f[2], f[3],
            cell(k, "logp-tree"), cell(k, "hetero-tree"), cell(k, "two-level"), cell(k, "binomial"), cell(k, "ring"),
            cell(k, "butterfly"), cell(k, "node-aggregate"), cell(k, "auto"), "(" auto[k] ")", cell(k, "mpich"),
            cell(k, "ompi"), best / base
    }
}' "$csv" >"$OUT/table.md"
echo "smpi-hetero: wrote $csv and $OUT/table.md"
cat "$OUT/table.md"
