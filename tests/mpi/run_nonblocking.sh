#!/bin/sh
# The nonblocking collectives under the shim (tests/mpi/test_nonblocking,
# built without it, under LD_PRELOAD with PMPI_LOGP_NONBLOCKING=1): the
# registry's algorithms forced in rotating sets (every algorithm of bcast,
# reduce, alltoall, allreduce and alltoallv at least once), auto without
# trials (its decisions are settled, so ours run), auto with trials and
# native (the library's nonblocking collectives run), and the engine off;
# at the communicator sizes of LOGP_TEST_NS (default "1 2 3 4 5").  From
# PMPI_LOGP_VERBOSE=2 (every call on rank 0), a forced run must show each
# forced algorithm run "via MPI_Ibcast" & co and, where the library has the
# MPI-4 persistent collectives (LOGP_PERSISTENT=yes from configure; mpix: Open MPI 4.1's MPIX_ forms),
# "via MPI_Bcast_init" & co (test_nonblocking starts them then), an
# engine-off run none of either.
: "${MPIEXEC:=mpiexec}"
b="${top_builddir:-.}"
lib="$b/.libs/libpmpi-logp.so"
prog="$b/tests/mpi/test_nonblocking"
NS="${LOGP_TEST_NS:-1 2 3 4 5}"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
[ -x "$b/pmpi-logp" ] || { echo "FAIL: $b/pmpi-logp not built: the runs read the registry from it"; exit 1; }
list() { "$b/pmpi-logp" algorithms | awk -v c="$1" 'NR > 1 && $1 != "native" && $1 != "auto" {
    n = split($2, cs, ","); for (i = 1; i <= n; i++) if (cs[i] == c) print $1 }' | tr '\n' ' '; }
colls="bcast reduce alltoall allreduce alltoallv"
entries="MPI_Ibcast MPI_Ireduce MPI_Ialltoall MPI_Iallreduce MPI_Ialltoallv"
inits="MPI_Bcast_init MPI_Reduce_init MPI_Alltoall_init MPI_Allreduce_init MPI_Alltoallv_init"
[ "${LOGP_PERSISTENT:-no}" = mpix ] && inits=$(echo "$inits" | sed 's/MPI_/MPIX_/g') # Open MPI 4.1's extension
most=0
for c in $colls; do
    k=$(list "$c" | wc -w)
    [ "$k" -gt 0 ] || { echo "FAIL: the registry lists no $c algorithm"; exit 1; }
    [ "$k" -gt "$most" ] && most=$k
done
log=$(mktemp); err=$(mktemp)
trap 'rm -f "$log" "$err"' EXIT
bad=0; good=0
# run LABEL N CHECK VAR=VALUE...: one job; CHECK "forced" wants every forced
# algorithm's calls via the nonblocking entry points, "none" wants no such
# call, "library" none of MPI_Ibcast and MPI_Iallreduce (under native a
# reduce or all-to-all the library is known to fail runs the shim's safe
# default instead: select/native.c)
run() {
    label=$1 n=$2 want=$3; shift 3
    env LD_PRELOAD="$lib" PMPI_LOGP_VERBOSE=2 "$@" timeout 300 $MPIEXEC -n "$n" "$prog" >"$log" 2>"$err"
    rc=$?
    status=ok
    grep -q '^nonblocking: [0-9]* passed, 0 failed$' "$log" && [ $rc -eq 0 ] || status=FAIL
    pat=' via MPI_I\| via MPIX\?_[A-Za-z]*_init$'
    [ "$want" = library ] && pat=' via MPI_I\(bcast\|allreduce\)$\| via MPIX\?_\(Bcast\|Allreduce\)_init$'
    if { [ "$want" = none ] || [ "$want" = library ]; } && grep -q "$pat" "$err"; then
        status=FAIL; echo "  the shim ran a nonblocking call: $(grep -m1 "$pat" "$err")"
    fi
    if [ "$want" = forced ] && [ "$n" -ge 2 ]; then
        j=1
        for x in $label; do
            e=$(echo $entries | cut -d' ' -f$j)
            grep -q -- "-> $x via $e\$" "$err" || { status=FAIL; echo "  no call '-> $x via $e' in the shim's output"; }
            e=$(echo $inits | cut -d' ' -f$j)
            [ "${LOGP_PERSISTENT:-no}" = no ] || grep -q -- "-> $x via $e\$" "$err" ||
                { status=FAIL; echo "  no call '-> $x via $e' in the shim's output"; }
            j=$((j + 1))
        done
    fi
    echo "$status: $label n=$n: $(grep '^nonblocking:' "$log")"
    if [ $status = ok ]; then good=$((good + 1)); else bad=$((bad + 1)); grep -v '^pmpi-logp' "$err" | tail -5; fi
}
# forced sets: set i takes each collective's algorithm i (cycling), at one
# of the sizes in turn
i=0
while [ $i -lt "$most" ]; do
    set --
    label=""
    for c in $colls; do
        l=$(list "$c"); k=$(echo $l | wc -w)
        a=$(echo $l | cut -d' ' -f$((i % k + 1)))
        label="$label $a"
        set -- "$@" "PMPI_LOGP_$(echo "$c" | tr a-z A-Z)=$a"
    done
    ns=$(echo $NS | wc -w)
    n=$(echo $NS | cut -d' ' -f$((i % ns + 1)))
    [ $i -eq 0 ] && n=$(echo $NS | tr ' ' '\n' | sort -n | tail -1) # the first set at the largest size too
    run "${label# }" "$n" forced PMPI_LOGP_NONBLOCKING=1 "$@"
    i=$((i + 1))
done
for n in $NS; do
    run "auto (no trials)" "$n" - PMPI_LOGP_NONBLOCKING=1 PMPI_LOGP_CONFIRM=0
done
run "auto (trials: the library's until settled)" 3 - PMPI_LOGP_NONBLOCKING=1
run "native" 2 library PMPI_LOGP_NONBLOCKING=1 PMPI_LOGP_BCAST=native PMPI_LOGP_REDUCE=native PMPI_LOGP_ALLTOALL=native \
    PMPI_LOGP_ALLREDUCE=native PMPI_LOGP_ALLTOALLV=native
run "bcast binomial, allreduce native (blocked in the library's)" 4 - PMPI_LOGP_NONBLOCKING=1 PMPI_LOGP_BCAST=binomial \
    PMPI_LOGP_ALLREDUCE=native
run "engine off" 3 none PMPI_LOGP_BCAST=binomial PMPI_LOGP_ALLREDUCE=ring
echo "nonblocking: $good passed, $bad failed"
[ $bad -eq 0 ]
