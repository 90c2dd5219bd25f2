# Shared by scripts/smpi.sh and scripts/smpi-hetero.sh (sourced, POSIX sh):
# the SMPI settings that make the simulated network follow LogGP, the
# benchmark build, and the ping-pong check (../shared/SMPI.md).

# smpi_flags OVERHEAD_US: smpirun flags with per-message overheads
# smpi/os = ois = or of OVERHEAD_US microseconds and no calibration factors.
smpi_flags() {
    os_s=$(awk -v o="$1" 'BEGIN { printf "%.6g", o * 1e-6 }')
    echo "--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/crosstraffic:0 --cfg=network/weight-S:0
 --cfg=smpi/os:0:$os_s:0 --cfg=smpi/ois:0:$os_s:0 --cfg=smpi/or:0:$os_s:0
 --cfg=smpi/send-is-detached-thresh:2147483647 --cfg=smpi/async-small-thresh:2147483647
 --cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no --log=root.thres:critical"
}

# smpi_build_bench TOP DIR: pmpi-logp-bench built with smpicc as DIR/bench.
smpi_build_bench() {
    (cd "$1" && smpicc -O2 -D_POSIX_C_SOURCE=200809L -DLOGP_BUILD_SMPI -o "$2/bench" src/tools/pmpi-logp-bench.c src/coll/*.c \
        src/model/*.c src/config/*.c src/select/*.c -lm 2>"$2/cc.log") || { cat "$2/cc.log"; return 1; }
}

# smpi_pingpong_ok FILE LINES: every ping-pong line of the benchmark in FILE
# within 1% of its model 2o + L + (m-1)G (SMPI adds a 16-byte envelope),
# and at least LINES of them.
smpi_pingpong_ok() {
    awk -v want="$2" '{ m = $0; sub(/.*trip /, "", m); sub(/ .*/, "", m); p = $0; sub(/.*G = /, "", p); sub(/ .*/, "", p)
        d = m - p; if (d < 0) d = -d; if (d > 0.01 * p) bad = 1 } END { exit bad || NR < want }' "$1"
}
