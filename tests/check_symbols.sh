#!/bin/sh
# The preloadable library exports exactly the MPI entry points it answers:
# no parser or helper symbol may leak into the application, and none may
# go missing.
lib="${top_builddir:-.}/.libs/libpmpi-logp.so"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
want="MPI_Alltoall MPI_Bcast MPI_Reduce MPI_Session_finalize PMPI_Alltoall PMPI_Bcast PMPI_Reduce PMPI_Session_finalize"
got=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWDB]$/ {print $3}' | sort | tr '\n' ' ' | sed 's/ $//')
echo "exported: $got"
if [ "$got" != "$want" ]; then
    echo "FAIL: expected exactly: $want"
    exit 1
fi
echo "symbols: ok"
