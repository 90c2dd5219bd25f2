# Shared by the scripts/smpi*.sh (sourced, POSIX sh):
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

# smpi_named_algorithms COLL P: SMPI's own algorithms of COLL (its
# smpi/COLL values) that a comparison runs at P ranks, space-separated.
# Not reduce's rab: it ignores user operators (smpi-report.sh).  At P >=
# 256 the ones that take minutes of host time there are left out
# (pipelined and arrival-pattern bcasts, linear all-to-alls; alltoallv's
# barrier pairs: 250x the others).
smpi_named_algorithms() {
    case $1 in
    bcast) algs="arrival_pattern_aware arrival_scatter binomial_tree flattree flattree_pipeline NTSB NTSL NTSL_Isend scatter_LR_allgather scatter_rdb_allgather ompi_split_bintree ompi_pipeline mvapich2_knomial_intra_node" ;;
    reduce) algs="arrival_pattern_aware binomial flat_tree NTSL scatter_gather ompi_chain ompi_pipeline ompi_basic_linear ompi_in_order_binary ompi_binary ompi_binomial mvapich2_knomial" ;;
    alltoall) algs="basic_linear bruck pair ring rdb 2dmesh 3dmesh mvapich2_scatter_dest" ;;
    allreduce) algs="lr rab1 rab2 rab_rdb rdb redbcast mvapich2_rs ompi_ring_segmented smp_binomial smp_rdb smp_rsag" ;;
    alltoallv) algs="bruck pair pair_light_barrier pair_mpi_barrier pair_one_barrier ring ring_light_barrier ring_mpi_barrier ring_one_barrier ompi_basic_linear" ;;
    *) algs="" ;;
    esac
    if [ "$2" -ge 256 ]; then
        algs=$(echo " $algs " | sed 's/ arrival_pattern_aware / /; s/ flattree_pipeline / /; s/ NTSB / /;
            s/ NTSL / /; s/ NTSL_Isend / /; s/ basic_linear / /; s/ ompi_basic_linear / /;
            s/ pair_mpi_barrier / /; s/ ring_mpi_barrier / /')
    fi
    echo $algs
}

# smpi_build_bench TOP DIR: pmpi-logp-bench built with smpicc as DIR/bench.
smpi_build_bench() {
    (cd "$1" && smpicc -O2 -D_POSIX_C_SOURCE=200809L -DLOGP_BUILD_SMPI -o "$2/bench" src/tools/pmpi-logp-bench.c src/coll/*.c \
        src/model/*.c src/config/*.c src/select/*.c -lm 2>"$2/cc.log") || { cat "$2/cc.log"; return 1; }
}

# smpi_build_shim TOP PROGRAM OUT: PROGRAM (relative to TOP) built with
# smpicc and the shim linked in (no tuning file unless PMPI_LOGP_TUNING
# says so) as OUT; the compiler's messages in OUT.log, shown if it fails.
smpi_build_shim() {
    (cd "$1" && smpicc -O2 -D_POSIX_C_SOURCE=200809L -DLOGP_BUILD_SMPI -DLOGP_TUNING_DEFAULT='"/nonexistent"' \
        -o "$3" "$2" src/shim/*.c src/coll/*.c src/model/*.c src/config/*.c src/select/*.c -lm -lpthread \
        2>"$3.log") || { cat "$3.log"; return 1; }
}

# smpi_pingpong_ok FILE LINES: every ping-pong line of the benchmark in FILE
# within 1% of its model 2o + L + (m-1)G (SMPI adds a 16-byte envelope),
# and at least LINES of them.
smpi_pingpong_ok() {
    awk -v want="$2" '{ m = $0; sub(/.*trip /, "", m); sub(/ .*/, "", m); p = $0; sub(/.*G = /, "", p); sub(/ .*/, "", p)
        d = m - p; if (d < 0) d = -d; if (d > 0.01 * p) bad = 1 } END { exit bad || NR < want }' "$1"
}

# smpi_need: installs what the SMPI scripts use (as root), if missing.
smpi_need() {
    if ! command -v smpicc >/dev/null 2>&1 || ! command -v gawk >/dev/null 2>&1; then
        [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsimgrid-dev gawk >/dev/null
    fi
    return 0
}

# smpi_platform TOP TUNING DIR: the parameters of TUNING (as the shim
# resolves them for 64 ranks) into L o g G gamma (us, ns/B) and the
# simulated cluster DIR/platform.xml of 1024 hosts that follows them:
# every host has a private link and a route crosses two, so the cluster's
# lat is L/2; bandwidth is 1/G; o is smpi/os = ois = or.  SMPI has no gap:
# when g > o the overheads become g and the latency L - 2(g - o) (sets
# osim, lat, bw), which keeps back-to-back sends g apart and a single
# message at 2o + L.  DIR/model.conf: the LogGP parameters the platform
# really has (its latency, o = g = its overhead, G, gamma: with no gap,
# back-to-back sends are its overhead apart): with
# g > o every receive costs g of CPU, not o, which the file's parameters
# miss (a flat reduce of 1 KiB at P = 256: 208 us predicted, 260 simulated;
# with these 259).  Returns 1 if g cannot be emulated so.
smpi_platform() {
    line=$("$1/build/pmpi-logp" check "$2" --P 64 | grep '^L=')
    L=$(smpi_num "$line" L us); o=$(smpi_num "$line" ' o' us); g=$(smpi_num "$line" ' g' us)
    G=$(smpi_num "$line" ' G' 'ns\/B'); gamma=$(smpi_num "$line" gamma 'ns\/B')
    read -r Lsim osim <<EOT
$(awk -v L="$L" -v o="$o" -v g="$g" 'BEGIN { if (g > o) { printf "%.6f %.6f\n", L - 2 * (g - o), g } else printf "%.6f %.6f\n", L, o }')
EOT
    awk -v l="$Lsim" 'BEGIN { exit !(l < 0) }' && { echo "smpi: L - 2(g - o) < 0: g cannot be emulated for this file" >&2; return 1; }
    bw=$(awk -v G="$G" 'BEGIN { if (G > 0) printf "%.6gBps", 1e9 / G; else print "1000GBps" }')
    lat=$(awk -v l="$Lsim" 'BEGIN { printf "%.6gus", l / 2 }')
    printf '# the LogGP machine of platform.xml (scripts/smpi-common.sh)\n[default]\nL = %sus\no = %sus\ng = %sus\nG = %sns/B\ngamma = %sns/B\n' \
        "$Lsim" "$osim" "$osim" "$G" "$gamma" >"$3/model.conf"
    cat >"$3/platform.xml" <<EOT
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n" suffix="" radical="0-1023" speed="1Gf" bw="$bw" lat="$lat"/>
</platform>
EOT
}

# smpi_wrong_conf OUT: a deliberately wrong tuning file for the platform
# smpi_platform last read (its L x 4, G / 4; o, g, gamma as they are):
# what auto's confirmation must recover from (smpi-confirm, fresh-grid).
smpi_wrong_conf() {
    awk -v L="$L" -v o="$o" -v g="$g" -v G="$G" -v gm="$gamma" 'BEGIN {
        printf "[default]\nL = %.6gus\no = %.6gus\ng = %.6gus\nG = %.6gns/B\ngamma = %.6gns/B\n", 4 * L, o, g, G / 4, gm }' >"$1"
}

# smpi_draw SEED K [PS]: the K-th platform drawn from SEED as a tuning
# file on stdout: L 0.5 - 20 us, o and g 0.1 - 5 us, G 0.02 - 2 ns/B
# (log-uniform), gamma 0 - 1 ns/B (uniform), and with PS (a list) a line
# "# P n", n drawn from it.
smpi_draw() {
    awk -v seed="$1" -v k="$2" -v ps="${3:-}" 'function lu(a, b) { return exp(log(a) + rand() * (log(b) - log(a))) }
        BEGIN { srand(seed * 10007 + k); n = split(ps, p, " ")
            printf "[default]\nL = %.4gus\no = %.4gus\ng = %.4gus\nG = %.4gns/B\ngamma = %.4gns/B\n",
                lu(0.5, 20), lu(0.1, 5), lu(0.1, 5), lu(0.02, 2), rand()
            if (n > 0) printf "# P %d\n", p[1 + int(rand() * n)] }'
}

# smpi_bench_work TOP: what the drawn-platform scripts start with: SMPI
# installed, the CLI built (scripts/setup.sh), a work directory in $work
# (removed at exit) with pmpi-logp-bench built in it; no platform drawn
# yet (draw=0).
smpi_bench_work() {
    smpi_need
    "$1/scripts/setup.sh" >/dev/null
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    draw=0
    smpi_build_bench "$1" "$work" || exit 1
}

# smpi_next_platform TOP SEED PS DIR: the next platform of SEED that SMPI
# can emulate (draws counted in $draw, start it at 0): DIR/drawn.conf
# (smpi_draw), platform.xml and model.conf (smpi_platform); sets P (drawn
# from PS, empty without), drawn (the drawn parameters on one line), osim,
# lat, bw and FLAGS (smpi_flags).
smpi_next_platform() {
    while :; do
        draw=$((draw + 1))
        smpi_draw "$2" "$draw" "$3" >"$4/drawn.conf"
        P=$(sed -n 's/^# P //p' "$4/drawn.conf")
        smpi_platform "$1" "$4/drawn.conf" "$4" 2>/dev/null && break
    done
    drawn=$(grep -v '^[#[]' "$4/drawn.conf" | tr '\n' ' ')
    FLAGS=$(smpi_flags "$osim")
}

# smpi_num LINE NAME UNIT: the value of NAME=<number>UNIT in LINE.
smpi_num() {
    echo "$1" | sed -n "s/.*$2=\([0-9.e+-]*\)$3.*/\1/p"
}
