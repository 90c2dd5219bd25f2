/* Dissemination barrier (Hensgen, Finkel and Manber): ceil(log2 P) rounds
 * of one empty send and receive per rank; LogP cost ceil(log2 P)(L + 2o).
 * Not a registry algorithm: it starts auto's trial calls together, and
 * its first one carries the check that every rank decided alike. */
#include "barrier.h"

#include <stddef.h>

#include "engine.h"

int logp_coll_barrier(MPI_Comm comm, int tag)
{
    return logp_coll_barrier_max(comm, tag, NULL, 0); /* empty messages */
}

int logp_coll_barrier_max(MPI_Comm comm, int tag, int *v, int n)
{
    int P = 1, r = 0, rc = MPI_SUCCESS, in[LOGP_BARRIER_MAX_INTS];
    PMPI_Comm_size(comm, &P);
    PMPI_Comm_rank(comm, &r);
    if (n < 0 || n > LOGP_BARRIER_MAX_INTS)
        return MPI_ERR_COUNT;
    for (int k = 1; k < P && rc == MPI_SUCCESS; k *= 2) {
        MPI_Status status;
        int got = -1;
        rc = logp_engine_sendrecv(v, n, MPI_INT, (r + k) % P, tag, in, n, MPI_INT, (r - k % P + P) % P, tag, comm,
                                  &status);
        if (rc == MPI_SUCCESS && (PMPI_Get_count(&status, MPI_INT, &got) != MPI_SUCCESS || got != n))
            rc = MPI_ERR_OTHER; /* a peer in a plain barrier (an erroneous program): nothing to combine */
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
            v[i] = in[i] > v[i] ? in[i] : v[i];
    }
    return rc;
}
