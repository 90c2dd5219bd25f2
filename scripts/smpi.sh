#!/bin/sh
# The shim's algorithms at scale in SimGrid SMPI, against SMPI's MPICH and
# Open MPI selectors and every SMPI algorithm (the oracle), on a simulated
# cluster that follows the LogGP parameters of a tuning file.
#
#   sh scripts/smpi.sh [TUNING]      (default tuning/default.conf)
#   env: PS="16 64 256 1024" SIZES="8,1024,65536,1048576" A2A_SIZES="8,1024,16384"
#        OUT=docs/results/smpi ORACLE=1 ITERS=1 LIMIT=120 (host seconds per oracle run)
#        COLLS="bcast reduce alltoall" (allreduce, alltoallv too) APPEND=0 (1: add rows to OUT/results.csv)
#        SKEW=1 (alltoallv: blocks to and from rank 0 SKEW times the others')
#        NETWORK=shared (the model's network for predictions and auto's
#        picks: SimGrid's links share bandwidth, model/net.h; loggp: LogGP)
#        MODEL=platform (the model's parameters for predictions and auto's
#        picks: the platform's own, smpi-common.sh's model.conf, which has
#        o = g where TUNING's g > o; file: TUNING's)
# Cost bounds (2 cores): at P >= 256 the oracle leaves out SMPI algorithms
# that take minutes of host time there (pipelined and arrival-pattern bcasts,
# linear all-to-all) and all-to-all stops at 1 KiB blocks; at P = 1024
# (BIG_SIZES="8", BIG_A2A_SIZES="8") there is no oracle and the
# all-to-all runs only butterfly and what auto picks besides the selectors
# (the ring moves P^2 messages: ~50 s of host time per iteration).
# Writes $OUT/results.csv (P,coll,bytes,variant,measured_us,predicted_us)
# and $OUT/summary.md.  Needs Debian's libsimgrid-dev and gawk (installed as root).
#
# Network (SMPI notes in ../shared/SMPI.md, verified here by a ping-pong):
# every host has a private link and a route crosses two, so the cluster's
# lat is L/2; bandwidth is 1/G; o is smpi/os = smpi/ois = smpi/or.  SMPI has
# no gap: when g > o we set the overheads to g and shrink the latency to
# L - 2(g - o), which keeps back-to-back sends g apart and a single message
# at 2o + L.  gamma is charged by the benchmark's reduction operator.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/smpi-common.sh"
tuning=${1:-$top/tuning/default.conf}
PS=${PS:-16 64 256 1024}
BIG_SIZES=${BIG_SIZES:-8}
BIG_A2A_SIZES=${BIG_A2A_SIZES:-8}
SIZES=${SIZES:-8,1024,65536,1048576}
A2A_SIZES=${A2A_SIZES:-8,1024,16384}
OUT=${OUT:-$top/docs/results/smpi}
ORACLE=${ORACLE:-1}
ITERS=${ITERS:-1}
COLLS=${COLLS:-bcast reduce alltoall}
APPEND=${APPEND:-0} # 1: add to an existing results.csv
LIMIT=${LIMIT:-120} # seconds of host time per oracle run: a slower SMPI algorithm is skipped
smpi_need
"$top/scripts/setup.sh" >/dev/null
mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# parameters and platform from the same resolution the shim uses
smpi_platform "$top" "$tuning" "$work" || exit 1
FLAGS=$(smpi_flags "$osim")
model=$tuning
[ "${MODEL:-platform}" = platform ] && model=$work/model.conf
echo "smpi: $tuning: L=${L}us o=${o}us g=${g}us G=${G}ns/B gamma=${gamma}ns/B -> lat=$lat bw=$bw overhead=${osim}us; model: $(grep -v '^[#[]' "$model" | tr '\n' ' ')"

smpi_build_bench "$top" "$work" || exit 1
cd "$work"
run() { # P args...
    np=$1; shift
    # shellcheck disable=SC2086
    timeout "${RUN_LIMIT:-0}" smpirun -np "$np" -platform platform.xml $FLAGS ./bench --tuning "$model" --iters "$ITERS" --csv \
        --network "${NETWORK:-shared}" "$@" 2>>"$work/smpi.log"
}
echo "smpi: ping-pong check"
# shellcheck disable=SC2086
smpirun -np 2 -platform platform.xml $FLAGS ./bench --tuning "$tuning" --pingpong 2>>"$work/smpi.log" | tee "$OUT/pingpong.txt"
# the simulated network must follow the model (SMPI adds a 16-byte envelope: within 1%)
smpi_pingpong_ok "$OUT/pingpong.txt" 3 || { echo "smpi: the simulated ping-pong does not follow 2o + L + (m-1)G" >&2; exit 1; }
echo "smpi: ping-pong within 1% of 2o + L + (m-1)G"

csv="$OUT/results.csv"
[ "$APPEND" = 1 ] && [ -f "$csv" ] || echo "P,coll,bytes,variant,measured_us,predicted_us" >"$csv"
for P in $PS; do
    for coll in $COLLS; do
        sizes=$SIZES
        extra=""
        case $coll in alltoall*) sizes=$A2A_SIZES ;; esac
        [ "$coll" = alltoallv ] && extra="--skew ${SKEW:-1}"
        oracle=$ORACLE
        ours=""
        if [ "$P" -ge 1024 ]; then
            sizes=$BIG_SIZES
            [ "$coll" = alltoall ] && { sizes=$BIG_A2A_SIZES; ours="--algos butterfly"; }
            oracle=0
        elif [ "$P" -ge 256 ] && [ "${coll%v}" = alltoall ]; then
            sizes=$(echo "$A2A_SIZES" | tr ',' '\n' | awk '$1 <= 1024' | paste -sd, -)
        fi
        start=$(date +%s)
        # shellcheck disable=SC2086
        run "$P" --coll "$coll" --sizes "$sizes" $ours $extra --cfg=smpi/coll-selector:mpich | grep -v '^P,' |
            sed 's/,native,/,mpich,/' >>"$csv"
        RUN_LIMIT=$((LIMIT * 3)) run "$P" --coll "$coll" --sizes "$sizes" $extra --native-only --cfg=smpi/coll-selector:ompi |
            grep -v '^P,' | grep ',native,' | sed 's/,native,/,ompi,/' >>"$csv" ||
            echo "smpi: P=$P $coll ompi over $((LIMIT * 3))s of host time (skipped)"
        if [ "$oracle" = 1 ]; then
            algs=$(smpi_named_algorithms "$coll" "$P")
            for a in $algs; do
                RUN_LIMIT=$LIMIT run "$P" --coll "$coll" --sizes "$sizes" $extra --native-only --cfg=smpi/$coll:$a | grep ',native,' |
                    sed "s/,native,/,smpi:$a,/" >>"$csv" || echo "smpi: P=$P $coll $a failed (skipped)"
            done
        fi
        echo "smpi: P=$P $coll done ($(( $(date +%s) - start ))s)"
    done
done

sh "$top/scripts/smpi-report.sh" "$OUT"
echo "smpi: wrote $csv and $OUT/summary.md"
