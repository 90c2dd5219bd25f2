/* One ring of eager messages between a node's ranks: every receiving
 * process's FIFO elements get their first (slow) use here, not in a
 * trial's timed calls.  Cost: `messages` message times, each as cold as
 * the process's first eager messages are anyway (2.8 ms for 64 messages
 * at n = 2 under MPICH 4.0.2 ch4:ucx here, 1.2 - 1.5 ms under Open MPI
 * 4.1.4: docs/results/fresh/README.md, "Warming the eager path"). */
#include "warm.h"

#include <stdlib.h>

int logp_coll_warm(MPI_Comm comm, int next, int prev, int messages, int tag)
{
    /* one in flight each way, no allocation that could fail on one rank:
     * the receive buffer on the stack (threads may warm at once), the
     * sent one shared (only read) */
    static const char out[LOGP_WARM_BYTES];
    char in[LOGP_WARM_BYTES];
    int rc = MPI_SUCCESS;
    for (int i = 0; i < messages; i++) {
        MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        int e = PMPI_Irecv(in, LOGP_WARM_BYTES, MPI_BYTE, prev, tag, comm, &req[0]);
        int f = PMPI_Isend(out, LOGP_WARM_BYTES, MPI_BYTE, next, tag, comm, &req[1]);
        MPI_Status status[2]; /* (not MPI_STATUSES_IGNORE: GCC 12 warns of its size) */
        int g = PMPI_Waitall(2, req, status);
        if (rc == MPI_SUCCESS)
            rc = e != MPI_SUCCESS ? e : f != MPI_SUCCESS ? f : g;
    }
    return rc;
}

void logp_coll_warm_allocator(size_t bytes)
{
    /* volatile: the pair must reach the allocator, not be optimized away */
    void *volatile block = malloc(bytes);
    free(block);
}
