/* Ring ("circle") all-to-all: seed 004 section 2.1.  n - 1 phases; in phase
 * k rank i sends its block for (i + k) mod n and receives the block of
 * (i - k) mod n.  LogGP cost: what sim.c computes for the plan, about
 * (n - 1)(2o + L + (m-1)G) with one exchange per phase; the seed prints
 * (n-1) n [max(2o, g) + L - g].  Blocks go straight from the user's buffers
 * (any datatype, no packing needed: one message per destination). */
#include "alltoall_ring.h"

#include "buffer.h"

int logp_coll_alltoall_ring(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm, const logp_plan_t *plan, logp_scratch_t *scratch)
{
    int rank, P, rc = MPI_SUCCESS;
    MPI_Aint lb, sext, rext;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &P);
    void *saved = NULL;
    if (sendbuf == MPI_IN_PLACE) {
        /* Phase k overwrites block i - k before phase n - k sends it. */
        saved = logp_scratch_get(scratch, logp_buffer_span(rcount * P, rtype));
        if (saved == NULL)
            return MPI_ERR_NO_MEM;
        sendbuf = logp_buffer_base(saved, rtype);
        rc = logp_buffer_copy(recvbuf, rcount * P, rtype, (void *)sendbuf, rcount * P, rtype, comm);
        scount = rcount;
        stype = rtype;
    }
    PMPI_Type_get_extent(stype, &lb, &sext);
    PMPI_Type_get_extent(rtype, &lb, &rext);
    const char *sb = sendbuf;
    char *rb = recvbuf;
    if (rc == MPI_SUCCESS)
        rc = logp_buffer_copy(sb + (MPI_Aint)rank * scount * sext, scount, stype, rb + (MPI_Aint)rank * rcount * rext,
                              rcount, rtype, comm);
    int n = logp_plan_nops(plan, rank);
    for (int i = 0; i + 1 < n && rc == MPI_SUCCESS; i += 2) {
        logp_op_t s = logp_plan_op(plan, rank, i), r = logp_plan_op(plan, rank, i + 1);
        rc = PMPI_Sendrecv(sb + (MPI_Aint)s.peer * scount * sext, scount, stype, s.peer, LOGP_TAG_ALLTOALL,
                           rb + (MPI_Aint)r.peer * rcount * rext, rcount, rtype, r.peer, LOGP_TAG_ALLTOALL, comm,
                           MPI_STATUS_IGNORE);
    }
    if (saved)
        logp_scratch_put(scratch, saved);
    return rc;
}
