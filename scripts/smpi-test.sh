#!/bin/sh
# The shim and the MPI correctness matrix built with smpicc and run in
# SimGrid SMPI (simulated ranks: P = 5 and 16 on any machine).
#   sh scripts/smpi-test.sh
# SMPI 3.32 limits found here (documented, not papered over):
# - a struct datatype with a negative lower bound is mishandled, even by
#   SMPI's own collectives: the matrix runs with --no-struct;
# - SMPI's own MPI_Alltoall fails in MPI_Pack on derived types at P = 16, so
#   native and auto (which may pick native) are run at P = 5 only.
# The shim is linked into the program (LD_PRELOAD does not apply: smpirun
# opens programs itself; its default privatization gives each rank its
# own copy of the shim's globals).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v smpicc >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsimgrid-dev >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$top"
# smpi_link PROGRAM SOURCE: SOURCE linked with the shim as $work/PROGRAM.  The
# shim's sources are compiled once, two at a time, for the four programs.
flags="-O1 -D_POSIX_C_SOURCE=200809L -DLOGP_BUILD_SMPI -DLOGP_TUNING_DEFAULT=\"/nonexistent\""
mkdir "$work/obj"
# shellcheck disable=SC2016
ls src/shim/*.c src/coll/*.c src/model/*.c src/config/*.c src/select/*.c |
    FLAGS=$flags xargs -P 2 -n 1 sh -c 'smpicc $FLAGS -c -o "$0/obj/$(echo "$1" | tr / _).o" "$1" 2>/dev/null ||
        echo "$1" >>"$0/obj/failed"' "$work"
[ ! -f "$work/obj/failed" ] || { echo "smpicc failed on: $(cat "$work/obj/failed")"; exit 1; }
smpi_link() {
    # shellcheck disable=SC2086
    smpicc $flags -I"$top/tests/mpi" -o "$work/$1" "$2" "$work"/obj/*.o -lm -lpthread
}
smpi_link test_coll tests/mpi/test_coll.c
cat >"$work/platform.xml" <<'EOT'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n" suffix="" radical="0-63" speed="1Gf" bw="10GBps" lat="0.8us"/>
</platform>
EOT
# multi-core hosts: 4 ranks per host, so the layout comes from MPI itself
cat >"$work/multi.xml" <<'EOT'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" core="4" bw="10GBps" lat="0.8us"
           loopback_bw="20GBps" loopback_lat="0.1us"/>
</platform>
EOT
for h in 0 1 2 3; do for k in 1 2 3 4; do echo "n$h"; done; done >"$work/hostfile"
# a network that shares bandwidth, a slow link and small overheads: two-tree cuts the
# bcasts of 12,004 ints into 128 segments and paces them (synchronous, a window);
# chunked-rsg runs as dataflow there in up to 16 chunks, every send synchronous
printf '[default]\nnetwork = shared\no = 0.05us\ng = 0.05us\nG = 1ns/B\n' >"$work/shared.conf"
cd "$work"
pass=0; fail=0
took() { echo "$(($(date +%s) - t0)) s"; } # since t0, set before each run
# the allreduce of each case, in turn (every allreduce algorithm at P = 5 and 16)
ars="auto recursive-doubling ring logp-tree binomial flat reduce-scatter-allgather ring logp-tree binomial flat auto ring reduce-scatter-allgather auto"
for case in 5:native:native:native 5:auto:auto:auto 5:logp-tree:chain-adaptive:butterfly 5:flat:chain:ring \
            5:scatter-allgather:pipeline:linear 16:pipeline:reduce-scatter-gather:linear \
            16:logp-tree:chain-adaptive:butterfly 16:two-tree:chain-opt:ring 16:flat:logp-tree:bruck \
            16:binary-pipeline:binary-pipeline:linear 16:two-tree:reduce-scatter-gather:bruck:shared \
            16:two-level:hetero-tree:node-aggregate:multi 16:hetero-tree:two-level:node-aggregate:multi \
            16:scatter-allgather:chunked-rsg:ring:shared 5:binomial:chunked-rsg:auto; do
    IFS=: read -r np b r a hosts <<EOT
$case
EOT
    ar=${ars%% *}; ars=${ars#* }
    set -- -platform platform.xml
    [ "$hosts" = multi ] && set -- -platform multi.xml -hostfile hostfile
    tenv=""
    [ "$hosts" = shared ] && tenv="PMPI_LOGP_TUNING=$work/shared.conf"
    # at P = 16 the roots 0, 1, P/2 and P-1 (--few-roots): every root of
    # P = 5 here, of P = 1 - 8 in the real matrix; all 16 took 4x as long
    few=; [ "$np" -gt 8 ] && few=--few-roots
    # shellcheck disable=SC2086
    t0=$(date +%s)
    out=$(env $tenv PMPI_LOGP_BCAST=$b PMPI_LOGP_REDUCE=$r PMPI_LOGP_ALLTOALL=$a PMPI_LOGP_ALLREDUCE=$ar PMPI_LOGP_VERBOSE=1 timeout 600 \
        smpirun -np "$np" "$@" --log=root.thres:critical ./test_coll --no-struct $few 2>&1) || true
    line=$(echo "$out" | grep 'test_coll:' || echo "test_coll: no result")
    if [ "$hosts" = multi ] && ! echo "$out" | grep -q "(P=16, 4 nodes)"; then
        line="test_coll: the layout of 4 hosts x 4 ranks was not found"
    fi
    if [ "$hosts" = shared ] && ! echo "$out" | grep -q "network=shared"; then
        line="test_coll: the shared network was not taken"
    fi
    want=$ar; [ "$ar" = auto ] && want='[a-z-]*'
    if echo "$line" | grep -q ' 0 failed' && echo "$out" | grep -q "^pmpi-logp: .*bcast .* -> " &&
        echo "$out" | grep -q "^pmpi-logp: .*allreduce .* -> $want "; then
        pass=$((pass + 1)); echo "ok: SMPI P=$np${hosts:+ ($hosts)} bcast=$b reduce=$r alltoall=$a allreduce=$ar: $line ($(took))"
    else
        fail=$((fail + 1)); echo "FAIL: SMPI P=$np bcast=$b reduce=$r alltoall=$a allreduce=$ar: $line ($(took))"
        echo "$out" | grep -v '^pmpi-logp' | tail -5
    fi
done
# Auto's trial under SMPI's global clock (issue 40: a verdict applies at
# once): a fresh process's 100 bcasts of 8 B at P = 16, the call lines of
# rank 0 (verbose 2): 16 warm-up calls, the trial's blocks of 11 calls,
# and the very next call runs the verdict's winner (it ran the library's
# until the next agreement point, up to 32 calls later)
smpi_link fresh "$top/src/tools/pmpi-logp-fresh.c" 2>/dev/null
t0=$(date +%s)
out=$(env PMPI_LOGP_VERBOSE=2 timeout 600 smpirun -np 16 -platform platform.xml --log=root.thres:critical \
    ./fresh --coll bcast --bytes 8 --calls 100 2>&1) || true
calls=$(echo "$out" | awk '/^pmpi-logp: MPI_COMM_WORLD: bcast 8 B -> / {
    printf "%s", $NF == "(warm-up)" ? "w" : $NF == "(trial)" ? "t" : "-" }')
ntrial=$(printf '%s' "$calls" | tr -cd t | wc -c)
winner=$(echo "$out" | sed -n 's/^pmpi-logp: rank 0: .* bcast 8-15 B: trial (fastest.* -> \([a-z-]*\) (.*/\1/p' | head -1)
after=$(echo "$out" | awk -v k=$((17 + ntrial)) '/^pmpi-logp: MPI_COMM_WORLD: bcast 8 B -> / && ++n == k { print $NF }')
if [ "$ntrial" -gt 0 ] && [ $((ntrial % 11)) -eq 0 ] && [ -n "$winner" ] && [ "$after" = "$winner" ] &&
    printf '%s' "$calls" | grep -Eq '^w{16}t+-+$'; then
    pass=$((pass + 1)); echo "ok: SMPI P=16 global clock: the verdict ($winner) runs from the call after the trial's $ntrial calls ($(took))"
else
    fail=$((fail + 1)); echo "FAIL: SMPI P=16 global clock: calls $calls, the call after the trial ran '$after', the verdict '$winner' ($(took))"
fi
# MPI_Alltoallv: every alltoallv algorithm forced, then auto (skewed counts
# put ranks in different classes: their windows mix) and native
smpi_link test_alltoallv "$top/tests/mpi/test_alltoallv.c"
# (at P = 64 auto's ranks vote on the class, the vote pays there: small classes run bruck,
# until two votes in a row ran a direct exchange)
for case in 5:ring 5:linear 5:bruck 5:auto 5:native 16:ring 16:linear 16:bruck 16:auto 64:auto; do
    np=${case%%:*}; av=${case#*:}
    t0=$(date +%s)
    out=$(env PMPI_LOGP_ALLTOALLV="$av" PMPI_LOGP_VERBOSE=1 timeout 600 smpirun -np "$np" -platform platform.xml \
        --log=root.thres:critical ./test_alltoallv --world-only 2>&1) || true
    line=$(echo "$out" | grep 'test_alltoallv:' || echo "test_alltoallv: no result")
    want=$av; [ "$av" = auto ] && want='(ring|linear)'
    vote='.'; [ "$av" = auto ] && [ "$np" -ge 64 ] && { want=bruck; vote='alltoallv: the ranks agree on the size class'; }
    if echo "$line" | grep -q ' 0 failed' && echo "$out" | grep -Eq "^pmpi-logp: .*alltoallv .* -> $want " &&
        echo "$out" | grep -q "$vote"; then
        pass=$((pass + 1)); echo "ok: SMPI P=$np alltoallv=$av: $line ($(took))"
    else
        fail=$((fail + 1)); echo "FAIL: SMPI P=$np alltoallv=$av: $line ($(took))"
        echo "$out" | grep -v '^pmpi-logp' | tail -5
    fi
done
# The nonblocking collectives on the shim's engine (PMPI_LOGP_NONBLOCKING=1;
# its waits and tests step it: SMPI's generalized requests have no poll
# function): test_nonblocking under forced algorithms and auto without
# trials (with trials a class runs SMPI's own nonblocking collective until
# settled, and SMPI 3.32's MPI_Iallreduce with MPI_IN_PLACE at 70,000
# elements gives wrong sums and hangs); an MPI_Test costs 1 us of
# simulated time (SMPI's default, 100 us and growing, makes a polling
# wait crawl; 0.1 us made the looping rank's polls, each a switch into
# the simulator, cost 46 s of CI at P = 5 against 5 s).  Then the overlap benchmark at P = 16 on two cases, held to
# nonblocking + wait <= 1.05 x blocking (scripts/smpi-overlap.sh runs
# P = 64 and 256 and says where overlap misses its bar, and why).
smpi_link test_nonblocking "$top/tests/mpi/test_nonblocking.c"
# (chunked-rsg hung here when it polled, until the engine stopped testing
# null requests: SimGrid 3.32's MPI_Test leaves the flag unset for one
# under MPI_STATUS_IGNORE.)
for case in 5:binomial:chain:bruck:recursive-doubling:ring 4:logp-tree:chunked-rsg:linear:ring:linear 3:scatter-allgather:two-tree:ring:ring:ring 3:auto:auto:auto:auto:auto; do
    np=${case%%:*}; set -- $(echo "${case#*:}" | tr ':' ' ')
    t0=$(date +%s)
    out=$(env PMPI_LOGP_NONBLOCKING=1 PMPI_LOGP_CONFIRM=0 PMPI_LOGP_BCAST=$1 PMPI_LOGP_REDUCE=$2 PMPI_LOGP_ALLTOALL=$3 \
        PMPI_LOGP_ALLREDUCE=$4 PMPI_LOGP_ALLTOALLV=$5 PMPI_LOGP_VERBOSE=2 timeout 600 smpirun -np "$np" \
        -platform platform.xml --cfg=smpi/test:1e-6 --cfg=smpi/grow-injected-times:no --log=root.thres:critical \
        ./test_nonblocking 2>&1) || true
    line=$(echo "$out" | grep '^nonblocking:' || echo "nonblocking: no result")
    # (auto leaves a nonblocking alltoallv to the library: ranks' classes differ)
    if echo "$line" | grep -q ' 0 failed' && echo "$out" | grep -q ' via MPI_Ibcast$' &&
        { [ "$1" = auto ] || echo "$out" | grep -q ' via MPI_Ialltoallv$'; }; then
        pass=$((pass + 1)); echo "ok: SMPI P=$np nonblocking ${case#*:}: $line ($(took))"
    else
        fail=$((fail + 1)); echo "FAIL: SMPI P=$np nonblocking ${case#*:}: $line ($(took))"
        echo "$out" | grep -v '^pmpi-logp' | tail -5
    fi
done
t0=$(date +%s)
if out=$(PS=16 BARS=ratio CASES="bcast:binomial:8 allreduce:recursive-doubling:8" OUT="$work/overlap" \
    sh "$top/scripts/smpi-overlap.sh" 2>&1); then
    pass=$((pass + 1)); echo "ok: SMPI P=16 overlap bars: $(echo "$out" | tail -1) ($(took))"
else
    fail=$((fail + 1)); echo "FAIL: SMPI P=16 overlap bars"; echo "$out" | tail -8
fi
# pmpi-logp-probe on 2 drawn platforms of 3 kinds (scripts/smpi-probe.sh):
# L, o, g, G within 2% and the network key that matches the kind
t0=$(date +%s)
if out=$(PLATFORMS=2 sh "$top/scripts/smpi-probe.sh" "$work/probe" 2>&1); then
    pass=$((pass + 1)); echo "ok: SMPI probe: $(echo "$out" | tail -1) ($(took))"
else
    fail=$((fail + 1)); echo "FAIL: SMPI probe"; echo "$out" | tail -8
fi
echo "smpi-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
