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
# engine-off run none of either.  Where the library has the MPI-4
# large-count forms (LOGP_LARGE_COUNT=yes), the same test built with
# -DTEST_LARGE_COUNT runs two forced sets, auto and native through
# MPI_Ibcast_c & co and (LOGP_PERSISTENT_LARGE_COUNT=yes) MPI_Bcast_init_c & co.
: "${MPIEXEC:=mpiexec}"
b="${top_builddir:-.}"
lib="$b/.libs/libpmpi-logp.so"
prog="$b/tests/mpi/test_nonblocking"
NS="${LOGP_TEST_NS:-1 2 3 4 5}"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
[ -x "$b/pmpi-logp" ] || { echo "FAIL: $b/pmpi-logp not built: the runs read the registry from it"; exit 1; }
list() { "$b/pmpi-logp" algorithms "$1" | tr '\n' ' '; }
colls="bcast reduce alltoall allreduce alltoallv"
entries="MPI_Ibcast MPI_Ireduce MPI_Ialltoall MPI_Iallreduce MPI_Ialltoallv"
inits="MPI_Bcast_init MPI_Reduce_init MPI_Alltoall_init MPI_Allreduce_init MPI_Alltoallv_init"
[ "${LOGP_PERSISTENT:-no}" = mpix ] && inits=$(echo "$inits" | sed 's/MPI_/MPIX_/g') # Open MPI 4.1's extension
persistent=${LOGP_PERSISTENT:-no}
most=0
for c in $colls; do
    k=$(list "$c" | wc -w)
    [ "$k" -gt 0 ] || { echo "FAIL: the registry lists no $c algorithm"; exit 1; }
    [ "$k" -gt "$most" ] && most=$k
done
log=$(mktemp); err=$(mktemp); tmp=$(mktemp -d)
trap 'rm -rf "$log" "$err" "$tmp"' EXIT
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
    pat=' via MPI_I\| via MPIX\?_[A-Za-z]*_init\(_c\)\?$'
    [ "$want" = library ] &&
        pat=' via MPI_I\(bcast\|allreduce\)\(_c\)\?$\| via MPIX\?_\(Bcast\|Allreduce\)_init\(_c\)\?$'
    if { [ "$want" = none ] || [ "$want" = library ]; } && grep -q "$pat" "$err"; then
        status=FAIL; echo "  the shim ran a nonblocking call: $(grep -m1 "$pat" "$err")"
    fi
    if [ "$want" = forced ] && [ "$n" -ge 2 ]; then
        j=1
        for x in $label; do
            e=$(echo $entries | cut -d' ' -f$j)
            if [ $j -eq 5 ] && [ "$x" = bruck ]; then
                # alltoallv's bruck runs where the ranks vote on the class (README): before a
                # blocking call or at a persistent one's initialization; a nonblocking one is the
                # library's
                ! grep -q -- "-> $x via $e\$" "$err" || { status=FAIL; echo "  the shim ran alltoallv $x without a vote"; }
                e=$(echo $inits | cut -d' ' -f$j)
                [ "$persistent" = no ] || grep -q -- "-> $x via $e\$" "$err" ||
                    { status=FAIL; echo "  no call '-> $x via $e' in the shim's output"; }
                j=$((j + 1)); continue
            fi
            grep -q -- "-> $x via $e\$" "$err" || { status=FAIL; echo "  no call '-> $x via $e' in the shim's output"; }
            e=$(echo $inits | cut -d' ' -f$j)
            [ "$persistent" = no ] || grep -q -- "-> $x via $e\$" "$err" ||
                { status=FAIL; echo "  no call '-> $x via $e' in the shim's output"; }
            j=$((j + 1))
        done
    fi
    echo "$status: $label n=$n: $(grep '^nonblocking:' "$log")"
    if [ $status = ok ]; then good=$((good + 1)); else bad=$((bad + 1)); grep -v '^pmpi-logp' "$err" | tail -5; fi
}
# forced_set I N: set I takes each collective's algorithm I (cycling), at
# N ranks
forced_set() {
    set_i=$1 set_n=$2
    set --
    label=""
    for c in $colls; do
        l=$(list "$c"); k=$(echo $l | wc -w)
        a=$(echo $l | cut -d' ' -f$((set_i % k + 1)))
        label="$label $a"
        set -- "$@" "PMPI_LOGP_$(echo "$c" | tr a-z A-Z)=$a"
    done
    # node-aggregate runs the ring on one node (select.c): its sets make
    # every 2 ranks a node (every rank one at n = 2)
    case " $label " in
    *" node-aggregate "*) set -- "$@" PMPI_LOGP_RANKS_PER_NODE=$((set_n > 2 ? 2 : 1)) ;;
    esac
    run "${label# }" "$set_n" forced PMPI_LOGP_NONBLOCKING=1 "$@"
}
# every set, at the sizes in turn (the first at the largest too)
i=0
while [ $i -lt "$most" ]; do
    ns=$(echo $NS | wc -w)
    n=$(echo $NS | cut -d' ' -f$((i % ns + 1)))
    [ $i -eq 0 ] && n=$(echo $NS | tr ' ' '\n' | sort -n | tail -1)
    forced_set $i "$n"
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
if [ "${LOGP_LARGE_COUNT:-no}" = yes ]; then
    prog="$tmp/test_nonblocking_c"
    ${MPICC:-mpicc} -DTEST_LARGE_COUNT -o "$prog" "${top_srcdir:-.}/tests/mpi/test_nonblocking.c" \
        "${top_srcdir:-.}/tests/mpi/idle_yield.c" || exit 1
    entries=$(echo "$entries " | sed 's/ /_c /g')
    inits=$(echo "$inits " | sed 's/ /_c /g')
    persistent=${LOGP_PERSISTENT_LARGE_COUNT:-no}
    forced_set 0 3
    forced_set 1 2
    run "auto (no trials), large counts" 2 - PMPI_LOGP_NONBLOCKING=1 PMPI_LOGP_CONFIRM=0
    run "native, large counts" 2 library PMPI_LOGP_NONBLOCKING=1 PMPI_LOGP_BCAST=native PMPI_LOGP_REDUCE=native \
        PMPI_LOGP_ALLTOALL=native PMPI_LOGP_ALLREDUCE=native PMPI_LOGP_ALLTOALLV=native
fi
echo "nonblocking: $good passed, $bad failed"
[ $bad -eq 0 ]
