#!/bin/sh
# The shim's own work per call at scale: pmpi-logp-bench --dispatch with
# the shim linked in, run in SimGrid SMPI on P simulated ranks (one host
# each, the project's LogGP platform).  Prints the shim's lines
#   dispatch coll=... P=... calls=... median_us=... p99_us=... first_ms=... warm_median_us=...
# (wall-clock time of the host for the shim's code: SMPI charges nothing
# for it; warm_median_us: the lookups again at once, see src/shim/dispatch.h).
#   sh scripts/smpi-dispatch.sh [P] [ROUNDS] [COLL]  (default 1024 ranks, 1 round, all)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
P=${1:-1024}
ROUNDS=${2:-1}
COLL=${3:-all}
if ! command -v smpicc >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsimgrid-dev >/dev/null
fi
. "$top/scripts/smpi-common.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$top"
smpicc -O2 -D_POSIX_C_SOURCE=200809L -DLOGP_TUNING_DEFAULT='"/nonexistent"' -o "$work/bench" \
    src/tools/pmpi-logp-bench.c src/shim/*.c src/coll/*.c src/model/*.c src/config/*.c src/select/*.c \
    -lm -lpthread 2>"$work/cc.log" || { cat "$work/cc.log"; exit 1; }
cat >"$work/platform.xml" <<EOT
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n" suffix="" radical="0-$((P - 1))" speed="1Gf" bw="10GBps" lat="0.8us"/>
</platform>
EOT
cd "$work"
# shellcheck disable=SC2046
smpirun -np "$P" -platform platform.xml $(smpi_flags 0.4) ./bench --dispatch --iters "$ROUNDS" --coll "$COLL" 2>&1 |
    grep -E '^(dispatch|#)'
