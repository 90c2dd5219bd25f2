#!/bin/sh
# What auto decides and what the model prices, over a grid of
# communicator sizes, message sizes and both network models, with the
# decision's wall time left out: the output of a refactoring that must not
# change behaviour is byte-identical before and after.
#   sh scripts/decide-grid.sh [PMPI_LOGP_BINARY] > grid.txt
# (default: build/pmpi-logp).  About a minute here.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-$top/build/pmpi-logp}
PS=${PS:-"2 3 4 5 7 8 12 16 31 64 100 128 255 256 512 1000 1024 2048 4096"}
SIZES=${SIZES:-"8 32 128 512 2048 8192 32768 131072 524288 2097152 8388608 16777216"}
for net in loggp shared; do
    for P in $PS; do
        for m in $SIZES; do
            echo "== network=$net P=$P bytes=$m"
            "$cli" decide --P "$P" --bytes "$m" --network "$net" | sed 's/ decision_ms=.*//'
            "$cli" predict --P "$P" --bytes "$m" --network "$net"
        done
    done
    # layouts: nodes of several ranks, intra-node pairs faster, one slow node
    for lay in "--nodes 2 --rpn 4" "--nodes 8 --rpn 8" "--nodes 16 --rpn 16 --speeds 0.5" "--nodes 4 --rpn 3"; do
        for m in $SIZES; do
            echo "== network=$net $lay bytes=$m"
            "$cli" decide $lay --bytes "$m" --network "$net" --intra-L 0.3us --intra-G 0.05ns/B |
                sed 's/ decision_ms=.*//'
            "$cli" predict $lay --bytes "$m" --network "$net" --intra-L 0.3us --intra-G 0.05ns/B
        done
    done
done
