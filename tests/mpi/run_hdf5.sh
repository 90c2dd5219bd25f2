#!/bin/sh
# Parallel HDF5 under the shim (tests/mpi/test_hdf5.c, built with Debian's
# h5pcc.mpich): the library's collective metadata and I/O run MPI_Bcast
# (many sizes) and MPI_Alltoall through the shim, with auto and with
# forced algorithms; every value read back must be right and the shim
# must have decided.  Skipped (77) without libhdf5-mpich-dev.
: "${MPIEXEC:=mpiexec}"
b="$(cd "${top_builddir:-.}" && pwd)"
s="$(cd "${top_srcdir:-.}" && pwd)"
lib="$b/.libs/libpmpi-logp.so"
h5cc=${H5PCC:-h5pcc.mpich}
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
command -v "$h5cc" >/dev/null 2>&1 || { echo "SKIP: no $h5cc (libhdf5-mpich-dev)"; exit 77; }
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$h5cc" -o "$tmp/test_hdf5" "$s/tests/mpi/test_hdf5.c" >"$tmp/cc.out" 2>&1 || { cat "$tmp/cc.out"; echo "FAIL: build"; exit 1; }

# n, then bcast reduce alltoall (auto: the model and its trials)
run() {
    n=$1; bc=$2; rd=$3; aa=$4
    if env LD_PRELOAD="$lib" PMPI_LOGP_VERBOSE=1 PMPI_LOGP_OVERSUBSCRIBED=model PMPI_LOGP_BCAST=$bc PMPI_LOGP_REDUCE=$rd \
        PMPI_LOGP_ALLTOALL=$aa timeout 60 $MPIEXEC -n $n "$tmp/test_hdf5" "$tmp/t.h5" >"$tmp/out" 2>"$tmp/err" &&
        grep -q "^h5: all correct" "$tmp/out" && grep -Eq "^pmpi-logp: .*: bcast .* -> $([ $bc = auto ] && echo '.*configured auto' || echo $bc)" "$tmp/err" &&
        { [ $n -eq 1 ] || grep -Eq "^pmpi-logp: .*: alltoall .* -> $([ $aa = auto ] && echo '.*configured auto' || echo $aa)" "$tmp/err"; }; then
        pass=$((pass + 1)); echo "ok: n=$n bcast=$bc reduce=$rd alltoall=$aa"
    else
        fail=$((fail + 1)); echo "FAIL: n=$n bcast=$bc reduce=$rd alltoall=$aa"; tail -5 "$tmp/out"; grep -v '^pmpi-logp' "$tmp/err" | tail -10
    fi
}
run 1 auto auto auto
for n in 2 3; do
    run $n auto auto auto
    run $n logp-tree chain-adaptive butterfly
    run $n two-tree pipeline ring
    run $n scatter-allgather reduce-scatter-gather linear
done
run 4 auto auto auto
echo "hdf5: $pass passed, $fail failed"
[ $fail -eq 0 ]
