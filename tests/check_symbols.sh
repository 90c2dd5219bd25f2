#!/bin/sh
# The preloadable library exports exactly the MPI entry points it answers:
# no parser or helper symbol may leak into the application, and none may
# go missing.
lib="${top_builddir:-.}/.libs/libpmpi-logp.so"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
want="MPI_Allreduce MPI_Alltoall MPI_Alltoallv MPI_Bcast MPI_Reduce MPI_Session_finalize"
want="$want PMPI_Allreduce PMPI_Alltoall PMPI_Alltoallv PMPI_Bcast PMPI_Reduce PMPI_Session_finalize"
# the large-count forms where the MPI library has them (configure.ac)
if [ "${LOGP_LARGE_COUNT:-}" = yes ]; then
    want="MPI_Allreduce MPI_Allreduce_c MPI_Alltoall MPI_Alltoall_c MPI_Alltoallv MPI_Alltoallv_c MPI_Bcast MPI_Bcast_c"
    want="$want MPI_Reduce MPI_Reduce_c MPI_Session_finalize PMPI_Allreduce PMPI_Allreduce_c PMPI_Alltoall"
    want="$want PMPI_Alltoall_c PMPI_Alltoallv PMPI_Alltoallv_c PMPI_Bcast PMPI_Bcast_c PMPI_Reduce PMPI_Reduce_c"
    want="$want PMPI_Session_finalize"
elif [ -z "${LOGP_LARGE_COUNT:-}" ]; then
    echo "FAIL: LOGP_LARGE_COUNT (yes or no, from configure) not set: run through make check"; exit 1
fi
got=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWDB]$/ {print $3}' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
echo "exported: $got"
if [ "$got" != "$want" ]; then
    echo "FAIL: expected exactly: $want"
    exit 1
fi
echo "symbols: ok"
