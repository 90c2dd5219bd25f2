#!/bin/sh
# The preloadable library must export MPI_* only: no parser or helper symbol
# may leak into the application.
lib="${top_builddir:-.}/.libs/libpmpi-logp.so"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
syms=$(nm -D --defined-only "$lib" | awk '{print $3}')
bad=$(echo "$syms" | grep -v '^MPI_' | grep -v '^$')
echo "exported: $(echo "$syms" | tr '\n' ' ')"
for s in MPI_Bcast MPI_Reduce MPI_Alltoall MPI_Init MPI_Init_thread MPI_Finalize; do
    echo "$syms" | grep -qx "$s" || { echo "FAIL: $s not exported"; exit 1; }
done
if [ -n "$bad" ]; then
    echo "FAIL: non-MPI symbols exported: $bad"
    exit 1
fi
echo "symbols: ok"
