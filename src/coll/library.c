/* The MPI library's collectives the shim calls itself (see library.h). */
#include "library.h"

#include "engine.h"

int logp_coll_library_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                                MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Iallreduce(sendbuf, recvbuf, count, dt, op, comm, &req);
    return rc == MPI_SUCCESS ? logp_engine_wait(&req, MPI_STATUS_IGNORE) : rc;
}
