/* All-to-all executors by the way a family moves blocks (sched.h). */
#include "alltoall.h"

#include "alltoall_aggregate.h"
#include "alltoall_butterfly.h"
#include "alltoall_direct.h"
#include "alltoallv_bruck.h"

int logp_coll_alltoall(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                       MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v, logp_scratch_t *scratch)
{
    unsigned kind = v->s->coll == LOGP_COLL_ALLTOALL ? v->s->fam->flags : 0;
    if (kind & LOGP_FAMILY_A2A_DIRECT)
        return logp_coll_alltoall_direct(sendbuf, scount, stype, recvbuf, rcount, rtype, comm, tag, v, scratch);
    if (kind & LOGP_FAMILY_A2A_BRUCK)
        return logp_coll_alltoall_butterfly(sendbuf, scount, stype, recvbuf, rcount, rtype, comm, tag, v, scratch);
    if (kind & LOGP_FAMILY_A2A_NODES)
        return logp_coll_alltoall_aggregate(sendbuf, scount, stype, recvbuf, rcount, rtype, comm, tag, v, scratch);
    return MPI_ERR_INTERN;
}

int logp_coll_alltoallv(const void *sendbuf, MPI_Datatype stype, void *recvbuf, MPI_Datatype rtype,
                        const logp_alltoallv_t *a, size_t most, MPI_Comm comm, int tag, const logp_view_t *v,
                        logp_scratch_t *scratch)
{
    unsigned kind = v->s->coll == LOGP_COLL_ALLTOALLV ? v->s->fam->flags : 0;
    if (kind & LOGP_FAMILY_A2A_DIRECT)
        return logp_coll_alltoallv_direct(sendbuf, stype, recvbuf, rtype, a, comm, tag, v, scratch);
    if (kind & LOGP_FAMILY_A2A_BRUCK)
        return logp_coll_alltoallv_bruck(sendbuf, stype, recvbuf, rtype, a, most, comm, tag, v, scratch);
    return MPI_ERR_INTERN;
}
