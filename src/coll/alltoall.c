/* All-to-all executors by algorithm (the registry's all-to-all entries). */
#include "alltoall.h"

#include "alltoall_aggregate.h"
#include "alltoall_butterfly.h"
#include "alltoall_ring.h"

typedef int (*logp_alltoall_fn_t)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm,
                                  const logp_plan_t *, logp_scratch_t *);

static const logp_alltoall_fn_t logp_alltoall_exec[LOGP_ALGO_COUNT] = {
    [LOGP_ALGO_RING] = logp_coll_alltoall_ring,
    [LOGP_ALGO_BUTTERFLY] = logp_coll_alltoall_butterfly,
    [LOGP_ALGO_NODE_AGGREGATE] = logp_coll_alltoall_aggregate,
};

int logp_coll_alltoall(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                       MPI_Datatype rtype, MPI_Comm comm, const logp_plan_t *plan, logp_scratch_t *scratch)
{
    if (plan->coll != LOGP_COLL_ALLTOALL || (unsigned)plan->algo >= LOGP_ALGO_COUNT ||
        logp_alltoall_exec[plan->algo] == NULL)
        return MPI_ERR_INTERN;
    return logp_alltoall_exec[plan->algo](sendbuf, scount, stype, recvbuf, rcount, rtype, comm, plan, scratch);
}
