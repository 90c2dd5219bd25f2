#!/bin/sh
# Python programs under the shim: mpi4py (Debian's python3-mpi4py, built by
# Debian against Open MPI) loads the MPI library from a Python extension
# module.  tests/mpi/mpi4py_colls.py calls Bcast, Reduce, Allreduce,
# Alltoall and Alltoallv on NumPy arrays (0 - 320 KiB, in place,
# nonblocking, sub-communicators) and mpi4py's pickled-object collectives,
# and checks every result.  Runs: without the shim (the baseline), auto at
# n = 2, 3 and 4, the nonblocking engine, and at n = 3 every algorithm of the
# registry forced (sets that force one algorithm of each collective at a
# time, as scripts/mpich-suite.sh does; two ranks a node, so that the
# layout's algorithms, two-level, hetero-tree and node-aggregate, have nodes
# to work with).  Skipped (77) where python3-mpi4py
# or NumPy is missing or the library was not built for the MPI mpi4py links
# (scripts/test.sh runs it in its Open MPI stage).
: "${MPIEXEC:=mpiexec}"
. "$(dirname "$0")/app_common.sh"
py=${PYTHON:-/usr/bin/python3} # Debian's, whose packages hold mpi4py (a python3 earlier in PATH may not)
prog="$(cd "$(dirname "$0")" && pwd)/mpi4py_colls.py"
ext=$("$py" -c 'import mpi4py.MPI as m; print(m.__file__)' 2>/dev/null)
[ -n "$ext" ] && "$py" -c 'import numpy' 2>/dev/null || { echo "SKIP: python3-mpi4py or python3-numpy not installed"; exit 77; }
logp_app_start "$ext" "mpi4py (python3-mpi4py)"
pass=0; fail=0

# one N LABEL ENV...: mpi4py_colls.py at N ranks; with the shim unless ENV says NOSHIM=1
one() {
    n=$1; label=$2; shift 2
    pre="LD_PRELOAD=$lib"
    case " $* " in *" NOSHIM=1 "*) pre="X=1" ;; esac
    if env "$pre" PMPI_LOGP_VERBOSE=1 "$@" timeout 300 $MPIEXEC -n "$n" "$py" "$prog" >"$work/out" 2>"$work/err" &&
        grep -q "^mpi4py: [1-9][0-9]* checks, 0 failed$" "$work/out" &&
        { [ "$pre" = X=1 ] || logp_app_decided "$work/err" "$@"; }; then
        pass=$((pass + 1)); echo "ok: n=$n $label: $(sed -n 's/^mpi4py: //p' "$work/out")"
    else
        fail=$((fail + 1)); echo "FAIL: n=$n $label"
        cat "$work/out"; grep -v '^pmpi-logp: ' "$work/err" | tail -8
    fi
}
one 2 "without the shim" NOSHIM=1
[ $fail -eq 0 ] || { echo "SKIP: mpi4py fails without the shim here"; exit 77; }
for n in 2 3 4; do one $n auto; done
one 3 "auto, nonblocking engine" PMPI_LOGP_NONBLOCKING=1
# the forced sets: the i-th algorithm of each collective in set i (a collective
# with fewer algorithms than sets starts again from its first)
nth() { printf '%s\n' "$1" | awk -v i="$2" 'NF { a[n++] = $1 } END { print a[(i - 1) % n] }'; }
b=$(logp_app_algorithms bcast); r=$(logp_app_algorithms reduce); a=$(logp_app_algorithms alltoall)
ar=$(logp_app_algorithms allreduce); av=$(logp_app_algorithms alltoallv)
max=0
for l in "$b" "$r" "$a" "$ar" "$av"; do k=$(printf '%s\n' "$l" | awk 'NF' | wc -l); [ "$k" -gt "$max" ] && max=$k; done
[ "$max" -gt 0 ] || { echo "FAIL: no algorithms listed by the build's pmpi-logp"; exit 1; }
i=1
while [ $i -le "$max" ]; do
    set -- "$(nth "$b" $i)" "$(nth "$r" $i)" "$(nth "$a" $i)" "$(nth "$ar" $i)" "$(nth "$av" $i)"
    one 3 "bcast $1, reduce $2, alltoall $3, allreduce $4, alltoallv $5" PMPI_LOGP_BCAST="$1" PMPI_LOGP_REDUCE="$2" \
        PMPI_LOGP_ALLTOALL="$3" PMPI_LOGP_ALLREDUCE="$4" PMPI_LOGP_ALLTOALLV="$5" PMPI_LOGP_RANKS_PER_NODE=2
    i=$((i + 1))
done
echo "mpi4py: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
