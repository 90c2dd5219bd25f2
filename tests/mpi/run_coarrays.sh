#!/bin/sh
# A third-party test suite under the shim: OpenCoarrays' own tests (Debian
# libcoarrays-mpich-dev, built against MPICH by Debian, not by us).  Its
# co_broadcast and co_reduce / co_sum with a result image are MPI_Bcast and
# MPI_Reduce on the library's team communicators, with derived types,
# allocatable components and user-defined operators.  Every test that
# goes through the shim (a decision line under PMPI_LOGP_VERBOSE=1) runs
# at n = 2 and 3 under LD_PRELOAD, with auto and with forced algorithms
# (n = 3: one forced set); it must pass wherever it passes without the
# shim (a failure is run again without it: some tests need a number of
# images that divides their data, and are skipped at such n; if it passes
# there, the shim's run is repeated once, since a few of the suite's tests
# fail now and then on a loaded machine, shim or not), and every run must
# show the shim's decision (the forced algorithm, or auto's).  Skipped (77) where the suite is not installed.
: "${MPIEXEC:=mpiexec}"
b="$(cd "${top_builddir:-.}" && pwd)"
lib="$b/.libs/libpmpi-logp.so"
dir=${OPENCOARRAYS_TESTS:-$(ls -d /usr/lib/*/open-coarrays/mpich/bin/OpenCoarrays-*-tests 2>/dev/null | head -1)}
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
[ -n "$dir" ] && [ -d "$dir" ] || { echo "SKIP: OpenCoarrays' MPICH tests not installed (libcoarrays-mpich-dev)"; exit 77; }
pass=0; fail=0; skip=0
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# the suite's tests that call MPI_Bcast or MPI_Reduce (found with
# PMPI_LOGP_VERBOSE=1 over all of them at n = 2); the others never reach the shim
# (alloc_comp_multidim_shape, which also reaches MPI_Reduce, is left out: in
# CI from a fresh clone it failed at n = 2 and 3 without the shim, and
# twice in a row under it with auto, with no output; it passes every run here)
tests="co_broadcast_alloc_mixed co_broadcast_allocatable_components_test
co_broadcast_derived_type_test co_broadcast_test co_reduce-factorial co_reduce-factorial-int64
co_reduce-factorial-int8 co_reduce_res_im issue-503-multidim-array-broadcast
issue-503-non-contig-red-ndarray issue-515-mimic-mpi-gatherv random_init"
# auto, then forced sets: the LogP-optimal tree and seed 001's adaptive
# chains; the large-message schedules (every message is small here: they
# still cut, order and combine, in one segment)
# (at n = 3 the forced tree only: three ranks on these two cores spin, and
# the whole script is to stay near 30 s of CI)
sets2="auto:auto logp-tree:chain-adaptive two-tree:pipeline"
sets3="logp-tree:chain-adaptive"

plain_ok() { # the test without the shim (asked only when it failed under it)
    timeout 60 $MPIEXEC -n $1 "$dir/$2" >/dev/null 2>&1
}
shim_ok() { # n test bcast reduce: passes under the shim, which decided
    env LD_PRELOAD="$lib" PMPI_LOGP_VERBOSE=1 PMPI_LOGP_OVERSUBSCRIBED=model PMPI_LOGP_BCAST=$3 \
        PMPI_LOGP_REDUCE=$4 timeout 60 $MPIEXEC -n $1 "$dir/$2" >"$out" 2>"$err" &&
        grep -Eq "^pmpi-logp: .*: (bcast .* -> $3|reduce .* -> $4|(bcast|reduce) .* -> .*configured auto)" "$err"
}
for n in 2 3; do
    eval "sets=\$sets$n"
    for t in $tests; do
        [ -x "$dir/$t" ] || { skip=$((skip + 1)); echo "skip: $t not in $dir"; continue; }
        for s in $sets; do
            bc=${s%%:*}; rd=${s##*:}
            if shim_ok $n $t $bc $rd; then
                pass=$((pass + 1))
            elif ! plain_ok $n $t; then
                skip=$((skip + 1)); echo "skip: $t fails at n=$n without the shim too"; break
            elif shim_ok $n $t $bc $rd; then # some of the suite's tests fail now and then, shim or not
                pass=$((pass + 1)); echo "note: $t, n=$n, bcast=$bc reduce=$rd passed when run again"
            else
                fail=$((fail + 1)); echo "FAIL: $t, n=$n, bcast=$bc reduce=$rd"
                tail -5 "$out"; grep -v '^\[' "$err" | tail -5
            fi
        done
    done
done
echo "OpenCoarrays under the shim: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
