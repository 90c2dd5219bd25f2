#!/bin/sh
# The preloadable library exports exactly the MPI entry points it answers:
# no parser or helper symbol may leak into the application, and none may
# go missing.
lib="${top_builddir:-.}/.libs/libpmpi-logp.so"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
want="MPI_Allreduce MPI_Alltoall MPI_Alltoallv MPI_Bcast MPI_Reduce MPI_Session_finalize"
want="$want PMPI_Allreduce PMPI_Alltoall PMPI_Alltoallv PMPI_Bcast PMPI_Reduce PMPI_Session_finalize"
# the nonblocking forms (MPI_ only: src/shim/entry.c), and the blocking and
# polling calls and the library's other blocking collectives that step
# them (src/shim/progress.c)
want="$want MPI_Ibcast MPI_Ireduce MPI_Ialltoall MPI_Iallreduce MPI_Ialltoallv"
want="$want MPI_Send MPI_Ssend MPI_Rsend MPI_Recv MPI_Sendrecv MPI_Probe MPI_Mprobe MPI_Mrecv MPI_Wait MPI_Waitall"
want="$want MPI_Waitany MPI_Waitsome MPI_Test MPI_Testall MPI_Testany MPI_Testsome MPI_Iprobe MPI_Improbe MPI_Barrier"
want="$want MPI_Allgather MPI_Allgatherv MPI_Gather MPI_Gatherv MPI_Scatter MPI_Scatterv MPI_Reduce_scatter"
want="$want MPI_Reduce_scatter_block MPI_Scan MPI_Exscan MPI_Alltoallw"
# the starts, release and status query of persistent requests (progress.c)
want="$want MPI_Start MPI_Startall MPI_Request_free MPI_Request_get_status"
# the large-count forms where the MPI library has them (configure.ac)
if [ "${LOGP_LARGE_COUNT:-}" = yes ]; then
    for c in Allreduce Alltoall Alltoallv Bcast Reduce; do want="$want MPI_${c}_c PMPI_${c}_c"; done
    for c in Iallreduce Ialltoall Ialltoallv Ibcast Ireduce; do want="$want MPI_${c}_c"; done
elif [ -z "${LOGP_LARGE_COUNT:-}" ]; then
    echo "FAIL: LOGP_LARGE_COUNT (yes or no, from configure) not set: run through make check"; exit 1
fi
# the persistent forms where the MPI library has them (MPI_ only)
if [ "${LOGP_PERSISTENT:-}" = yes ]; then
    for c in Allreduce Alltoall Alltoallv Bcast Reduce; do want="$want MPI_${c}_init"; done
elif [ "${LOGP_PERSISTENT:-}" = mpix ]; then # Open MPI 4.1's extension (mpi-ext.h)
    for c in Allreduce Alltoall Alltoallv Bcast Reduce; do want="$want MPIX_${c}_init"; done
elif [ -z "${LOGP_PERSISTENT:-}" ]; then
    echo "FAIL: LOGP_PERSISTENT (yes, mpix or no, from configure) not set: run through make check"; exit 1
fi
# and their large-count forms where the library has both
if [ "${LOGP_PERSISTENT_LARGE_COUNT:-}" = yes ]; then
    for c in Allreduce Alltoall Alltoallv Bcast Reduce; do want="$want MPI_${c}_init_c"; done
elif [ -z "${LOGP_PERSISTENT_LARGE_COUNT:-}" ]; then
    echo "FAIL: LOGP_PERSISTENT_LARGE_COUNT (yes or no, from configure) not set: run through make check"; exit 1
fi
want=$(echo $want | tr ' ' '\n' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
got=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWDB]$/ {print $3}' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
echo "exported: $got"
if [ "$got" != "$want" ]; then
    echo "FAIL: expected exactly: $want"
    exit 1
fi
echo "symbols: ok"
