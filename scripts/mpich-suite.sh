#!/bin/sh
# MPICH's own collective tests under the shim: a third party's checks of
# MPI semantics (datatypes, operators, in-place, roots, intercommunicators,
# nonblocking collectives beside ours) on the four collectives the shim
# takes over.  The tests come from Debian's source package of the MPICH
# that is installed (test/mpi of mpich_<version>.orig.tar.xz), fetched at
# test time, built in $OUT against that MPICH, and run through
# LD_PRELOAD with `auto` and with forced algorithms of every kind; nothing
# of them is kept in this repository.  A test passes if it prints "No
# Errors" and exits 0, as MPICH's runtests counts it.
#
# With MPI=openmpi the same tests are built with mpicc.openmpi and run
# under the library built for Open MPI (a build directory configured with
# MPICC=mpicc.openmpi) by mpirun.openmpi: a third party's checks on the
# other library.  There the tests Open MPI 4.1 cannot build (MPI-4's
# persistent collectives) are left out, and a test that fails under the
# shim is run again without it: one that fails there too (Open MPI's own
# limits, e.g. MPI_LXOR on floating types, which MPICH allows) is skipped
# with a note, so that a failure counted is the shim's.
#
# Usage: sh scripts/mpich-suite.sh [build dir]   (default: build)
#   OUT=DIR   where the tests are built (default: <build dir>/mpich-suite)
#   NMAX=N    most ranks per test (default 3: more only slow down, 2 cores)
#   MPI=mpich|openmpi   which library the tests and the shim are built for (mpich)
#   SRC=DIR   a directory that may already hold the source package's tarball
#   BUILD_ONLY=1   fetch and build the tests, run none (CI builds the Open MPI
#             ones beside its SMPI runs, which take one core)
# Exit 0: every test passed; 1: one failed; 2: the suite could not be
# fetched or built (no source package reachable): said, and skipped.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd) || exit 2
out=${OUT:-$build/mpich-suite}
nmax=${NMAX:-3}
lib="$build/.libs/libpmpi-logp.so"
mpi=${MPI:-mpich}
case $mpi in
mpich) cc=mpicc.mpich; mpiexec=${MPIEXEC:-mpiexec.mpich}; cflags="-O2" ;;
# the datatype pools call MPI-1 names (MPI_Type_hvector) that Open MPI's
# mpi.h hides unless asked; its library still has them
openmpi) cc=mpicc.openmpi; mpiexec=${MPIEXEC:-mpirun.openmpi --oversubscribe}; cflags="-O2 -DOMPI_OMIT_MPI1_COMPAT_DECLS=0"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
*) echo "MPI=mpich or openmpi" >&2; exit 2 ;;
esac
command -v "$cc" >/dev/null 2>&1 || { echo "note: no $cc: MPICH's test suite for $mpi skipped"; exit 2; }
mkdir -p "$out" && cd "$out" || exit 2

full=$(dpkg-query -W -f '${Version}' libmpich-dev 2>/dev/null) || { echo "note: no libmpich-dev: MPICH's test suite skipped"; exit 2; }
version=$(echo "$full" | sed 's/-[^-]*$//')
suite="$out/mpich-$version/test/mpi"
tests="reduce red3 red4 op_coll op_commutative opland oplor oplxor opband opbor opbxor opprod opsum opmin opminloc opmax
       opmaxloc uoplong alltoall1 bcasttest bcastzerotype coll8 coll9 coll10 coll12 coll13 longuser icbcast icreduce
       icalltoall p_bcast p_bcast2 p_order nonblocking nonblocking2 nonblocking3 iallred bcast
       allred allred2 allred3 allred4 allred5 allred6 allredmany icallreduce alltoallv alltoallv0 icalltoallv
       alltoallw_zeros p_red p_allred p_alltoall p_alltoallv"
if [ ! -x "$suite/coll/bcast" ]; then
    ls mpich_"$version".orig.tar.* >/dev/null 2>&1 || [ -z "${SRC:-}" ] || cp "$SRC"/mpich_"$version".orig.tar.* . 2>/dev/null
    if ! ls mpich_"$version".orig.tar.* >/dev/null 2>&1; then
        # the source package needs a deb-src entry: a temporary one beside
        # the machine's lists, which stay (List-Cleanup=0)
        srcs="$out/deb-src.sources"
        sed -n 's/^Types: deb$/Types: deb-src/p; /^URIs:/p; /^Suites:/p; /^Components:/p; /^Signed-By:/p' \
            /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -5 >"$srcs"
        grep -q '^Types: deb-src' "$srcs" || printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >"$srcs"
        opts="-o Dir::Etc::sourcelist=$srcs -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0"
        # shellcheck disable=SC2086
        { timeout 300 apt-get $opts update >/dev/null 2>&1 &&
            timeout 300 apt-get $opts source --download-only mpich="$full" >apt.out 2>&1; } ||
            { echo "note: MPICH's source package could not be fetched: its test suite is skipped"; tail -3 apt.out 2>/dev/null; exit 2; }
    fi
    tar xf mpich_"$version".orig.tar.* "mpich-$version/test/mpi" || exit 2
    # (its configure takes mpicc from the path whatever CC says: make is told again)
    # under dash, configure's ~300 checks run a quarter faster than under bash (57 s against 74 here)
    cfgsh=/bin/sh; [ -x /bin/dash ] && cfgsh=/bin/dash
    (cd "$suite" && CONFIG_SHELL=$cfgsh $cfgsh ./configure CC="$cc" --disable-cxx --disable-fortran --disable-romio --disable-spawn \
        --disable-ft-tests >configure.out 2>&1 && (cd util && make -j2 CC="$cc" MPICC="$cc" >/dev/null 2>&1) &&
        (cd dtpools && make -j2 CC="$cc" MPICC="$cc" CFLAGS="$cflags" >/dev/null 2>&1)) ||
        { echo "note: MPICH's test suite did not build here: skipped"; exit 2; }
fi
# (again where an earlier run built fewer of them)
# shellcheck disable=SC2086
[ "$mpi" = openmpi ] && tests=$(printf '%s\n' $tests | grep -v '^p_' | tr '\n' ' ') # MPI-4 persistent collectives
# shellcheck disable=SC2086
(cd "$suite/coll" && make -j2 CC="$cc" MPICC="$cc" $tests >/dev/null 2>&1) || { echo "note: MPICH's collective tests did not build here: skipped"; exit 2; }
[ "${BUILD_ONLY:-0}" = 1 ] && { echo "MPICH's collective tests built in $suite/coll"; exit 0; }

# The tests (name, ranks, arguments) that call MPI_Bcast, MPI_Reduce,
# MPI_Alltoall, MPI_Allreduce or MPI_Alltoallv, or run the library's other collectives beside them.
list="$out/list.txt"
{
    for t in $tests; do grep "^$t " "$suite/coll/testlist" | head -1; done
    # (alltoallw_zeros's first line is 1 rank: its 2, where the ranks pass
    # empty signatures as different types)
    grep '^alltoallw_zeros 2$' "$suite/coll/testlist"
    # the datatype pools' bcasts, bar the long ones (1,024 types each, or
    # 262,144 structs: minutes on two oversubscribed cores)
    grep '^bcast ' "$suite/coll/testlist.dtp" | grep -v 'testsize=1024' | grep -v 'MPI_DOUBLE:8 arg=-count=262144'
} | sed 's/ timeLimit=[0-9]*//; s/ mem=[0-9.]*//; s/ strict=false//; s/arg=//g' >"$list"
pass=0
fail=0
# a waiting rank yields its core (tests/mpi/idle_yield.c: MPICH polls, and
# three ranks share two cores); without it the runs are slower, not wrong
yield="$out/idle_yield.so"
"$cc" -shared -fPIC -o "$yield" "$top/tests/mpi/idle_yield.c" 2>/dev/null || yield=
# native_ok NAME N ARGS: the test passes without the shim (asked only where
# it failed under it: Open MPI fails some of MPICH's tests by itself)
native_ok() {
    nres=$(cd "$suite/coll" && timeout 300 $mpiexec -n "$2" ./"$1" $3 2>&1 </dev/null) &&
        printf '%s\n' "$nres" | grep -q 'No Errors'
}
run() { # $1: label; $2 = 2: every other test only ($3 = 0: the 2nd, 4th, ..; 1: the 1st, 3rd, ..); the environment says what is forced
    i=0
    while read -r name n args; do
        i=$((i + 1))
        [ "${2:-1}" -gt 1 ] && [ $(((i + ${3:-0}) % 2)) -ne 0 ] && continue
        [ "$n" -gt "$nmax" ] && n=$nmax
        # shellcheck disable=SC2086
        res=$(cd "$suite/coll" && LD_PRELOAD="${yield:+$yield }${first:+$first }$lib" PMPI_LOGP_OVERSUBSCRIBED=model timeout 300 \
            $mpiexec -n "$n" ./"$name" $args 2>&1 </dev/null)
        rc=$?
        if [ $rc -eq 0 ] && printf '%s\n' "$res" | grep -q 'No Errors'; then
            pass=$((pass + 1))
        elif [ "$mpi" = openmpi ] && ! native_ok "$name" "$n" "$args"; then
            echo "note: $name n=$n $args fails without the shim too (Open MPI's): skipped"
        else
            fail=$((fail + 1))
            echo "FAIL ($1) $name n=$n $args: exit $rc"
            printf '%s\n' "$res" | head -15 | sed 's/^/    /'
        fi
    done <"$list"
    echo "mpich suite ($1): $pass passed, $fail failed so far"
}
unset PMPI_LOGP_BCAST PMPI_LOGP_REDUCE PMPI_LOGP_ALLTOALL PMPI_LOGP_ALLREDUCE PMPI_LOGP_ALLTOALLV PMPI_LOGP_RANKS_PER_NODE
# auto on every test; each forced set on every other one (two cores: the
# three passes took 5 minutes of CI), so that every test meets auto and one
# forced set, and every algorithm half of the tests
run auto
export PMPI_LOGP_BCAST=two-tree PMPI_LOGP_REDUCE=reduce-scatter-gather PMPI_LOGP_ALLTOALL=bruck PMPI_LOGP_ALLREDUCE=ring
export PMPI_LOGP_ALLTOALLV=ring
run "two-tree, reduce-scatter-gather, bruck, ring, ring" 2 0
export PMPI_LOGP_BCAST=scatter-allgather PMPI_LOGP_REDUCE=pipeline PMPI_LOGP_ALLTOALL=node-aggregate
export PMPI_LOGP_ALLREDUCE=recursive-doubling PMPI_LOGP_ALLTOALLV=linear PMPI_LOGP_RANKS_PER_NODE=2
run "scatter-allgather, pipeline, node-aggregate, recursive-doubling, linear" 2 1
# MPICH's nonblocking tests with the shim's engine on (PMPI_LOGP_NONBLOCKING=1):
# they call no blocking collective before their nonblocking ones, so a
# tool preloaded first sets MPI_COMM_WORLD up by a barrier after MPI_Init
list_all=$list
list="$out/list-nonblocking.txt"
grep -E '^(nonblocking|nonblocking2|nonblocking3|iallred) ' "$list_all" >"$list"
first="$out/init_barrier.so"
if "$cc" -shared -fPIC -o "$first" "$top/tests/mpi/init_barrier.c" 2>/dev/null; then
    export PMPI_LOGP_NONBLOCKING=1 PMPI_LOGP_BCAST=binomial PMPI_LOGP_REDUCE=chain PMPI_LOGP_ALLTOALL=ring
    export PMPI_LOGP_ALLREDUCE=recursive-doubling PMPI_LOGP_ALLTOALLV=linear
    unset PMPI_LOGP_RANKS_PER_NODE
    run "nonblocking engine: binomial, chain, ring, recursive-doubling, linear"
    export PMPI_LOGP_BCAST=auto PMPI_LOGP_REDUCE=auto PMPI_LOGP_ALLTOALL=auto PMPI_LOGP_ALLREDUCE=auto
    export PMPI_LOGP_ALLTOALLV=auto PMPI_LOGP_CONFIRM=0
    run "nonblocking engine: auto without trials"
else
    fail=$((fail + 1)); echo "FAIL: tests/mpi/init_barrier.c did not build"
fi
built=; [ "$mpi" = openmpi ] && built=" built for Open MPI"
echo "MPICH $version test suite$built (coll, under the shim): $pass passed, $fail failed"
[ $fail -eq 0 ]
