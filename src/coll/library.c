/* The MPI library's collectives the shim calls itself (see library.h). */
#include "library.h"

#include "engine.h"

static int logp_library_engine; /* SMPI builds only (library.h) */

void logp_coll_library_set_engine(int on)
{
    logp_library_engine = on;
}

int logp_coll_library_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                                MPI_Comm comm)
{
#ifdef LOGP_BUILD_SMPI
    if (!logp_library_engine)
        return PMPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm);
#endif
    MPI_Request req;
    int rc = PMPI_Iallreduce(sendbuf, recvbuf, count, dt, op, comm, &req);
    return rc == MPI_SUCCESS ? logp_engine_wait(&req, MPI_STATUS_IGNORE) : rc;
}
